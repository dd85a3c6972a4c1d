#pragma once
// GEMM staging for GPUs: two scratch stages and a register prefetch. While the team multiplies out
// of stage s, each thread already holds its share of step s+1 in registers (fetch, issued before
// the multiply and waited for only at the store after it: the multiply hides the latency); it
// stores them to stage s+1 (commit) and the team meets at one barrier per K step (the stage it
// overwrites was last read before the previous barrier). Global loads and scratch stores move
// 16-byte packs (one LDG.128 / STS.128); operands whose rows are not 16-byte aligned, and the
// edges of C and K, take element loads, zeros outside the matrices, so any shape is computed
// right. The stages are op(A)^T and op(B), each TileK rows of TileM (TileN) plus padding (one
// panel: staged_tile_layout).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "core/pack.hpp"
#include "core/unroll.hpp"
#include "matmul/gemm_functor.hpp"

namespace pk::detail {

template <class Gemm, int PadA, int PadB>
struct stage_prefetch {
  using T = typename Gemm::value_type;
  using Exec = typename Gemm::execution_space;
  using vec_pack = pack<T>;
  static constexpr int Vec = vec_pack::size;
  static constexpr int TileM = Gemm::TileM, TileN = Gemm::TileN, TileK = Gemm::TileK, TeamSize = Gemm::TeamSize;
  static constexpr int RowA = TileM + PadA, RowB = TileN + PadB;
  using a_layout = staged_tile_layout<TileM, TileK, TileM, PadA>;
  using b_layout = staged_tile_layout<TileN, TileK, TileN, PadB>;
  static_assert(RowA % Vec == 0 && RowB % Vec == 0, "padding keeps rows 16-byte aligned");
  static_assert(TileK % Vec == 0, "K steps of whole packs (both orientations of the operands)");
  static constexpr int StageElements = TileK * (RowA + RowB);
  static constexpr int ScratchElements = 2 * StageElements + Vec;  // + Vec: room to align
  // Packs of the next K step each thread holds in registers.
  static constexpr int PacksA = TileM * TileK / Vec, PacksB = TileN * TileK / Vec;
  static constexpr int LoadsA = (PacksA + TeamSize - 1) / TeamSize, LoadsB = (PacksB + TeamSize - 1) / TeamSize;
  using scratch_view = Kokkos::View<T*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static std::size_t scratch_bytes() { return scratch_view::shmem_size(ScratchElements); }

  // Rows start on 16-byte boundaries (pointer and row length): whole packs can be loaded (stored).
  template <class View>
  KOKKOS_INLINE_FUNCTION static bool rows_packed(const View& x) {
    return pack_aligned(x.data()) && static_cast<std::int64_t>(x.stride(0)) % Vec == 0;
  }

  // One thread's share of staging one operand: the tile of rows [x0, x0+Width) of op(X) (X's
  // columns when transposed) and K columns [k0, k0+TileK). `along_k`: X is stored with K
  // contiguous (A as is, B transposed), so its packs run along K and are transposed into scratch;
  // otherwise they run along the rows of the staged tile and are copied as they are. Either way a
  // pack is 16 contiguous bytes of X. The thread's Loads packs are kept as offsets into X that
  // move by `step` per K step, computed once, so the K loop only adds (registers are what limit
  // this kernel: two teams per SM means at most 128 per thread).
  template <int Width, int Loads>
  struct operand_loader {
    static constexpr int Packs = Width * TileK / Vec;
    const T* data;
    bool along_k, packed, rows_inside;
    int rows_left;      // rows of the tile that exist in X
    std::int64_t step;  // offset change per K step
    std::int64_t offset[Loads];

    // Pack p of the tile: its first element's (row, depth) in the tile.
    KOKKOS_INLINE_FUNCTION static void place(int p, bool along_k, int& r, int& kk) {
      if (along_k) {
        r = p / (TileK / Vec), kk = (p % (TileK / Vec)) * Vec;
      } else {
        kk = p / (Width / Vec), r = (p % (Width / Vec)) * Vec;
      }
    }
    KOKKOS_INLINE_FUNCTION static bool exists(int l, int rank) {
      return Packs % TeamSize == 0 || rank + l * TeamSize < Packs;
    }

    template <class View>
    KOKKOS_INLINE_FUNCTION operand_loader(const View& x, bool along_k_, std::int64_t x0, std::int64_t x_end, int rank)
        : data(x.data()), along_k(along_k_), packed(rows_packed(x)), rows_inside(x0 + Width <= x_end),
          rows_left(x_end - x0 < Width ? static_cast<int>(x_end - x0) : Width) {
      const auto ld = static_cast<std::int64_t>(x.stride(0));
      step = along_k ? TileK : TileK * ld;
      PK_UNROLL
      for (int l = 0; l < Loads; ++l) {
        int r, kk;
        place(rank + l * TeamSize, along_k, r, kk);
        offset[l] = along_k ? (x0 + r) * ld + kk : kk * ld + x0 + r;
      }
    }

    KOKKOS_INLINE_FUNCTION void advance() {
      PK_UNROLL
      for (int l = 0; l < Loads; ++l) offset[l] += step;
    }

    // The packs of the K step at k0 (offsets already there), zeros outside X.
    KOKKOS_INLINE_FUNCTION void load(vec_pack (&regs)[Loads], int rank, std::int64_t k0, std::int64_t k) const {
      const bool interior = rows_inside && k0 + TileK <= k;
      PK_UNROLL
      for (int l = 0; l < Loads; ++l) {
        if (!exists(l, rank)) break;
        const T* src = data + offset[l];
        if (interior && packed) {
          regs[l] = *reinterpret_cast<const vec_pack*>(src);
        } else if (interior) {  // rows not 16-byte aligned (odd lengths): element loads
          PK_UNROLL
          for (int v = 0; v < Vec; ++v) regs[l].v[v] = src[v];
        } else {
          int r, kk;
          place(rank + l * TeamSize, along_k, r, kk);
          PK_UNROLL
          for (int v = 0; v < Vec; ++v) {
            const bool inside = (along_k ? r : r + v) < rows_left && k0 + kk + (along_k ? v : 0) < k;
            regs[l].v[v] = inside ? src[v] : T(0);
          }
        }
      }
    }

    // Into a stage laid out as TileK rows of `Row` elements (row kk holds depth kk of every row r).
    template <int Row>
    KOKKOS_INLINE_FUNCTION void store(const vec_pack (&regs)[Loads], int rank, T* stage) const {
      PK_UNROLL
      for (int l = 0; l < Loads; ++l) {
        if (!exists(l, rank)) break;
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

  const Gemm& g;
  int rank;
  T* stages;
  operand_loader<TileM, LoadsA> load_a;
  operand_loader<TileN, LoadsB> load_b;
  vec_pack next_a[LoadsA], next_b[LoadsB];

  template <class Member>
  KOKKOS_INLINE_FUNCTION stage_prefetch(const Member& team, const Gemm& gemm, std::int64_t i0, std::int64_t j0)
      : g(gemm), rank(team.team_rank()), stages(aligned(scratch_view(team.team_scratch(0), ScratchElements).data())),
        load_a(gemm.a, !gemm.transpose_a, i0, gemm.m, rank), load_b(gemm.b, gemm.transpose_b, j0, gemm.n, rank) {}

  KOKKOS_INLINE_FUNCTION static T* aligned(T* p) {
    const auto misalign = static_cast<int>(reinterpret_cast<std::uintptr_t>(p) % 16) / int(sizeof(T));
    return p + (misalign ? Vec - misalign : 0);
  }
  KOKKOS_INLINE_FUNCTION const T* a(std::int64_t s) const { return stages + (s % 2) * StageElements; }
  KOKKOS_INLINE_FUNCTION const T* b(std::int64_t s) const { return a(s) + TileK * RowA; }

  KOKKOS_INLINE_FUNCTION void begin() {
    load_a.load(next_a, rank, 0, g.k);
    load_b.load(next_b, rank, 0, g.k);
    commit(0);
  }
  KOKKOS_INLINE_FUNCTION void fetch(std::int64_t s) {
    load_a.advance();
    load_b.advance();
    load_a.load(next_a, rank, s * TileK, g.k);
    load_b.load(next_b, rank, s * TileK, g.k);
  }
  KOKKOS_INLINE_FUNCTION void commit(std::int64_t s) {
    T* na = stages + (s % 2) * StageElements;
    load_a.template store<RowA>(next_a, rank, na);
    load_b.template store<RowB>(next_b, rank, na + TileK * RowA);
  }
};

}  // namespace pk::detail
