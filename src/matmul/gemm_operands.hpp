#pragma once
// What a GEMM operand is to the staging (copy_panels.hpp, copy_prefetch.hpp): a matrix X whose
// element (i, j) it reads, rows i, columns j, runs along j being what it moves in packs. An
// operand is a matrix in memory (matrix_view) or one computed from its indices (a convolution's
// windows, nn/conv_windows.hpp: its implicit GEMM), read through operand_reader<X>:
//   cursor at(i, j)            where a thread's reads of element (i, j) start
//   advance(cursor&)           on by one K step: TileK along j where K runs along X's rows, else along i
//   packed()                   whether every run of pack<T>::size along j from a cursor is one aligned load
//   load(cursor)               elements (i, j..j+pack) as a pack [packed(), all of them inside X]
//   element(cursor, v)         element (i, j+v) [inside X]
//   row<Stride>(i, j, n, dst)  elements (i, j..j+n) to dst[t*Stride] [inside X]: the host's packing
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <pk/kokkos/views.hpp>

#include "core/pack.hpp"

namespace pk::detail {

template <class X>
struct operand_reader;

// dst[t * Stride] = src[t] for t < n; the two do not overlap (the compiler, told so, vectorizes
// the copy instead of moving one element at a time).
template <int Stride, class T>
KOKKOS_INLINE_FUNCTION void copy_run(const T* KOKKOS_RESTRICT src, int n, T* KOKKOS_RESTRICT dst) {
  for (int t = 0; t < n; ++t) dst[t * Stride] = src[t];
}

// A matrix in memory (matrix_view: rows of ld elements): a cursor is an element's offset, a K step a
// fixed move.
template <class T, class Space>
struct operand_reader<Kokkos::View<const T**, Kokkos::LayoutRight, Space>> {
  using value_type = T;
  using vec_pack = pack<T>;
  using cursor = std::int64_t;
  const T* data;
  std::int64_t ld, step;
  KOKKOS_INLINE_FUNCTION operand_reader(const Kokkos::View<const T**, Kokkos::LayoutRight, Space>& x, bool along_k, int tile_k)
      : data(x.data()), ld(static_cast<std::int64_t>(x.stride(0))), step(along_k ? tile_k : tile_k * ld) {}
  KOKKOS_INLINE_FUNCTION bool packed() const { return pack_aligned(data) && ld % vec_pack::size == 0; }
  KOKKOS_INLINE_FUNCTION cursor at(std::int64_t i, std::int64_t j) const { return i * ld + j; }
  KOKKOS_INLINE_FUNCTION void advance(cursor& c) const { c += step; }
  KOKKOS_INLINE_FUNCTION vec_pack load(cursor c) const { return *reinterpret_cast<const vec_pack*>(data + c); }
  KOKKOS_INLINE_FUNCTION T element(cursor c, int v) const { return data[c + v]; }
  template <int Stride>
  KOKKOS_INLINE_FUNCTION void row(std::int64_t i, std::int64_t j, int n, T* dst) const {
    copy_run<Stride>(data + i * ld + j, n, dst);
  }
};

}  // namespace pk::detail
