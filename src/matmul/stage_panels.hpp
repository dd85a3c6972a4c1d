#pragma once
// GEMM staging for a team of one thread (CPUs): each K step's op(A) and op(B) tiles packed into
// panels (staged_tile_layout: one panel per thread tile), panel by panel, each loop running along
// the stored matrix's rows, zeros outside the matrices. One buffer: the next step is packed after
// the team has read this one.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "matmul/gemm_functor.hpp"

namespace pk::detail {

template <class Gemm, int PanelA, int PanelB>
struct stage_panels {
  using T = typename Gemm::value_type;
  static constexpr int TileM = Gemm::TileM, TileN = Gemm::TileN, TileK = Gemm::TileK;
  using a_layout = staged_tile_layout<TileM, TileK, PanelA, 0>;  // op(A)^T: TileK x TileM
  using b_layout = staged_tile_layout<TileN, TileK, PanelB, 0>;  // op(B):   TileK x TileN
  static_assert(Gemm::TeamSize == 1, "panels are packed by a team of one thread");
  // Scratch is over-allocated by one cache line so that the panels start 64-byte aligned (whole
  // vector loads).
  static constexpr int AlignElements = 64 / static_cast<int>(sizeof(T));
  using scratch_view = Kokkos::View<T*, typename Gemm::execution_space::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static std::size_t scratch_bytes() { return scratch_view::shmem_size(a_layout::size + b_layout::size + AlignElements); }

  const typename Gemm::team_member& team;
  const Gemm& g;
  std::int64_t i0, j0;
  T* a_tile;
  T* b_tile;

  template <class Member>
  KOKKOS_INLINE_FUNCTION stage_panels(const Member& member, const Gemm& gemm, std::int64_t i0_, std::int64_t j0_)
      : team(member), g(gemm), i0(i0_), j0(j0_) {
    scratch_view scratch(team.team_scratch(0), a_layout::size + b_layout::size + AlignElements);
    const auto misalign = static_cast<int>(reinterpret_cast<std::uintptr_t>(scratch.data()) % 64) / int(sizeof(T));
    a_tile = scratch.data() + (misalign ? AlignElements - misalign : 0);
    b_tile = a_tile + a_layout::size;
  }
  KOKKOS_INLINE_FUNCTION const T* a(std::int64_t) const { return a_tile; }
  KOKKOS_INLINE_FUNCTION const T* b(std::int64_t) const { return b_tile; }
  KOKKOS_INLINE_FUNCTION void begin() const { pack(0); }
  KOKKOS_INLINE_FUNCTION void fetch(std::int64_t) const {}
  KOKKOS_INLINE_FUNCTION void commit(std::int64_t s) const {
    team.team_barrier();  // everyone has read the step this one replaces
    pack(s);
  }

  // Packs op(A)[i0:i0+TileM, k0:k0+kc] into a_tile (transposed) and op(B)[k0:k0+kc, j0:j0+TileN]
  // into b_tile, zeros outside the matrices; only the kc rows that the multiply reads.
  KOKKOS_INLINE_FUNCTION void pack(std::int64_t s) const {
    const std::int64_t k0 = s * TileK;
    const int kc = g.k - k0 < TileK ? static_cast<int>(g.k - k0) : TileK;
    constexpr int RowA = a_layout::row_stride, RowB = b_layout::row_stride;
    for (int p = 0; p < TileM / PanelA; ++p) {
      T* dst = a_tile + p * a_layout::panel_stride;
      const std::int64_t gi0 = i0 + p * PanelA;
      const int rows = g.m - gi0 >= PanelA ? PanelA : (g.m > gi0 ? static_cast<int>(g.m - gi0) : 0);
      if (g.transpose_a) {  // stored k x m: rows of A are rows of the panel
        for (int kk = 0; kk < kc; ++kk) {
          const T* src = rows > 0 ? &g.a(k0 + kk, gi0) : nullptr;
          for (int x = 0; x < PanelA; ++x) dst[kk * RowA + x] = x < rows ? src[x] : T(0);
        }
      } else {  // stored m x k: row x of the panel is a column here, gathered along k
        for (int x = 0; x < PanelA; ++x) {
          if (x < rows) {
            const T* src = &g.a(gi0 + x, k0);
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowA + x] = src[kk];
          } else {
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowA + x] = T(0);
          }
        }
      }
    }
    for (int p = 0; p < TileN / PanelB; ++p) {
      T* dst = b_tile + p * b_layout::panel_stride;
      const std::int64_t gj0 = j0 + p * PanelB;
      const int cols = g.n - gj0 >= PanelB ? PanelB : (g.n > gj0 ? static_cast<int>(g.n - gj0) : 0);
      if (cols == 0) continue;  // thread tiles wholly outside C are skipped, never read
      if (!g.transpose_b) {  // stored k x n: contiguous rows of PanelB
        for (int kk = 0; kk < kc; ++kk) {
          const T* src = &g.b(k0 + kk, gj0);
          if (cols == PanelB) {
            for (int x = 0; x < PanelB; ++x) dst[kk * RowB + x] = src[x];
          } else {
            for (int x = 0; x < PanelB; ++x) dst[kk * RowB + x] = x < cols ? src[x] : T(0);
          }
        }
      } else {  // stored n x k
        for (int x = 0; x < PanelB; ++x) {
          if (x < cols) {
            const T* src = &g.b(gj0 + x, k0);
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowB + x] = src[kk];
          } else {
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowB + x] = T(0);
          }
        }
      }
    }
  }
};

}  // namespace pk::detail
