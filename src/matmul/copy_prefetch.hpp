#pragma once
// How a K step of one GEMM operand reaches scratch on GPUs: the team's threads each fetch their
// share of the step's 16-byte packs into registers (issued before the multiply of the step before,
// so that it hides their latency) and store them into the stage after it. Global loads and scratch
// stores move whole packs (one LDG.128 / STS.128); operands whose rows are not 16-byte aligned, and
// the edges of the matrix and of K, take element loads, zeros outside the matrix, so any shape is
// computed right. The Layout is one panel (rows padded against bank conflicts, 16-byte aligned). X
// is the operand (gemm_operands.hpp: a matrix, or a convolution's windows).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "core/pack.hpp"
#include "core/unroll.hpp"
#include "matmul/gemm_operands.hpp"

namespace pk::detail {

template <class Gemm, class Layout, class X>
struct copy_prefetch {
  using T = typename Gemm::value_type;
  using vec_pack = pack<T>;
  static constexpr int Vec = vec_pack::size, Row = Layout::row_stride;
  static constexpr int Width = Layout::width, TileK = Layout::depth, TeamSize = Gemm::TeamSize;
  static_assert(Layout::panel_width == Width, "one panel");
  static_assert(Row % Vec == 0, "padding keeps rows 16-byte aligned");
  static_assert(TileK % Vec == 0, "K steps of whole packs (both orientations of the operands)");
  // The packs of a step, and how many of them each thread holds.
  static constexpr int Packs = Width * TileK / Vec, Loads = (Packs + TeamSize - 1) / TeamSize;

  // Pack p of the step: its first element's (column, depth) in the staged tile. `along_k`: X is
  // stored with K contiguous (A as is, B transposed), so its packs run along K and are transposed
  // into scratch; otherwise they run along the staged rows and are copied as they are. Either way a
  // pack is 16 contiguous bytes of X.
  KOKKOS_INLINE_FUNCTION static void place(int p, bool along_k, int& r, int& kk) {
    if (along_k) {
      r = p / (TileK / Vec), kk = (p % (TileK / Vec)) * Vec;
    } else {
      kk = p / (Width / Vec), r = (p % (Width / Vec)) * Vec;
    }
  }
  KOKKOS_INLINE_FUNCTION bool exists(int l) const { return Packs % TeamSize == 0 || rank + l * TeamSize < Packs; }

  // The thread's packs are kept as cursors into X (a matrix's: offsets that move by a fixed step per
  // K step), set once, so that the K loop only moves them (registers are what limit this kernel: two
  // teams per SM means at most 128 per thread).
  using reader = operand_reader<X>;
  reader x;
  bool along_k, packed, rows_inside;
  int rows_left;  // columns of the staged tile that exist in X
  int rank;
  std::int64_t k;  // K from k_begin: its length
  typename reader::cursor cursors[Loads];
  vec_pack regs[Loads];

  template <class Member>
  KOKKOS_INLINE_FUNCTION copy_prefetch(const Member& team, const X& x_, bool along_k_, std::int64_t x0, std::int64_t x_end,
                                       std::int64_t k_begin, std::int64_t k_)
      : x(x_, along_k_, TileK), along_k(along_k_), packed(x.packed()), rows_inside(x0 + Width <= x_end),
        rows_left(x_end - x0 < Width ? static_cast<int>(x_end - x0) : Width), rank(team.team_rank()), k(k_) {
    PK_UNROLL
    for (int l = 0; l < Loads; ++l) {
      int r, kk;
      place(rank + l * TeamSize, along_k, r, kk);
      cursors[l] = along_k ? x.at(x0 + r, k_begin + kk) : x.at(k_begin + kk, x0 + r);
    }
  }

  // The thread's packs of step s (the cursors are there), zeros outside X; then on to step s+1.
  KOKKOS_INLINE_FUNCTION void fetch(std::int64_t s) {
    const std::int64_t k0 = s * TileK;
    const bool interior = rows_inside && k0 + TileK <= k;
    PK_UNROLL
    for (int l = 0; l < Loads; ++l) {
      if (!exists(l)) break;
      if (interior && packed) {
        regs[l] = x.load(cursors[l]);
      } else if (interior) {  // rows not 16-byte aligned (odd lengths): element loads
        PK_UNROLL
        for (int v = 0; v < Vec; ++v) regs[l].v[v] = x.element(cursors[l], v);
      } else {
        int r, kk;
        place(rank + l * TeamSize, along_k, r, kk);
        PK_UNROLL
        for (int v = 0; v < Vec; ++v) {
          const bool inside = (along_k ? r : r + v) < rows_left && k0 + kk + (along_k ? v : 0) < k;
          regs[l].v[v] = inside ? x.element(cursors[l], v) : T(0);
        }
      }
      x.advance(cursors[l]);
    }
  }

  // Into a stage of TileK rows of Row elements (row kk holds depth kk of every column r).
  KOKKOS_INLINE_FUNCTION void store(T* stage) const {
    PK_UNROLL
    for (int l = 0; l < Loads; ++l) {
      if (!exists(l)) break;
      int r, kk;
      place(rank + l * TeamSize, along_k, r, kk);
      if (along_k) {
        PK_UNROLL
        for (int v = 0; v < Vec; ++v) stage[(kk + v) * Row + r] = regs[l].v[v];
      } else {
        *reinterpret_cast<vec_pack*>(stage + kk * Row + r) = regs[l];
      }
    }
  }
};

}  // namespace pk::detail
