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
    pack_operand<a_layout, PanelA, TileM>(g.a, g.transpose_a, i0, g.m, k0, kc, a_tile);
    pack_operand<b_layout, PanelB, TileN>(g.b, !g.transpose_b, j0, g.n, k0, kc, b_tile);
  }

  // One operand's K step as panels: element (kk, x) of the staged tile is X(k0 + kk, x0 + x) when
  // X is stored K-major (`k_major`: A transposed, B as is; each panel row is then a contiguous copy)
  // and X(x0 + x, k0 + kk) otherwise (gathered along K, one stored row at a time). Zeros past
  // x_end; panels wholly past it are skipped: the thread tiles that would read them are.
  template <class Layout, int Panel, int Width, class View>
  KOKKOS_INLINE_FUNCTION static void pack_operand(const View& x, bool k_major, std::int64_t x0, std::int64_t x_end,
                                                  std::int64_t k0, int kc, T* tile) {
    constexpr int Row = Layout::row_stride;
    for (int p = 0; p < Width / Panel; ++p) {
      T* dst = tile + p * Layout::panel_stride;
      const std::int64_t px0 = x0 + p * Panel;
      const int inside = x_end - px0 >= Panel ? Panel : (x_end > px0 ? static_cast<int>(x_end - px0) : 0);
      if (inside == 0) continue;
      if (k_major) {  // rows of X are rows of the panel
        for (int kk = 0; kk < kc; ++kk) {
          const T* src = &x(k0 + kk, px0);
          if (inside == Panel) {
            for (int c = 0; c < Panel; ++c) dst[kk * Row + c] = src[c];
          } else {
            for (int c = 0; c < Panel; ++c) dst[kk * Row + c] = c < inside ? src[c] : T(0);
          }
        }
      } else {  // panel column c is stored row px0 + c of X, gathered along K
        for (int c = 0; c < Panel; ++c) {
          if (c < inside) {
            const T* src = &x(px0 + c, k0);
            for (int kk = 0; kk < kc; ++kk) dst[kk * Row + c] = src[kk];
          } else {
            for (int kk = 0; kk < kc; ++kk) dst[kk * Row + c] = T(0);
          }
        }
      }
    }
  }
};

}  // namespace pk::detail
