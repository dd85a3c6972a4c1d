#pragma once
// GEMM for GPUs as a Kokkos functor: the GemmTile layering (block tile per team, thread tile of
// registers per thread, K walked in TileK steps through team scratch), with what a GPU needs to
// keep its FMA units busy (the constants come from the backend's gemm_tiles, e.g.
// backends/cuda/gemm_tiles_cuda.hpp):
//
//  - 16-byte packs. Global loads, scratch stores and scratch reads move Vec = 16/sizeof(T)
//    elements at a time (one LDG.128 / LDS.128), so that per K step a thread issues 2 + 2 shared
//    loads for ThreadM*ThreadN = 64 FMAs instead of 16.
//  - Two scratch stages and a register prefetch. While the team multiplies out of stage s, each
//    thread already holds its share of the next K step in registers; it stores them to stage s+1
//    and the team meets at one barrier per K step (the stage it overwrites was last read before
//    the previous barrier).
//  - A thread tile of (ThreadM/Vec) x (ThreadN/Vec) sub-tiles of Vec x Vec, spread over the block
//    tile (CUTLASS's layout): in a warp, the 16 threads along N read 16 consecutive packs of B and
//    share one pack of A, so scratch reads are conflict-free and broadcast.
//
//           block tile TileM x TileN (one team)         thread (tm, tn) owns the 4 sub-tiles x:
//           +---------------+---------------+
//           | x             | x             |   rows tm*Vec + {0, SpanM}, cols tn*Vec + {0, SpanN}
//           |               |               |   (SpanM = TileM*Vec/ThreadM: the sub-tiles of all
//           +---------------+---------------+    threads tile each quarter of the block exactly)
//           | x             | x             |
//           |               |               |
//           +---------------+---------------+
//
// Matrices whose rows are not 16-byte aligned, and the edges of C and K, take scalar, predicated
// loads and stores (zeros outside the matrices), so any shape is computed right.
#include <cstdint>

#include <pk/kokkos/views.hpp>

#include "core/unroll.hpp"
#include "matmul/gemm_tiles.hpp"

namespace pk::detail {

// Vec elements of T, 16 bytes, moved as one.
template <class T>
struct alignas(16) pack16 {
  static constexpr int size = 16 / static_cast<int>(sizeof(T));
  T v[size];
};

template <class T, class Exec, class Tiles>
struct GemmPipelined {
  using pack = pack16<T>;
  static constexpr int Vec = pack::size;
  // Block tile and K step.
  static constexpr int TileM = Tiles::TileM, TileN = Tiles::TileN, TileK = Tiles::TileK;
  // Thread tile, as sub-tiles of Vec x Vec.
  static constexpr int ThreadM = Tiles::ThreadM, ThreadN = Tiles::ThreadN;
  static constexpr int SubM = ThreadM / Vec, SubN = ThreadN / Vec;
  static constexpr int ThreadsM = TileM / ThreadM, ThreadsN = TileN / ThreadN;
  static constexpr int SpanM = ThreadsM * Vec, SpanN = ThreadsN * Vec;  // distance between sub-tiles
  static constexpr int TeamSize = ThreadsM * ThreadsN;
  static_assert(ThreadM % Vec == 0 && ThreadN % Vec == 0, "a thread tile is whole 16-byte packs");
  static_assert(TileM % ThreadM == 0 && TileN % ThreadN == 0, "a block tile is whole thread tiles");
  static_assert(TeamSize == Tiles::TeamSize, "one thread tile per thread");
  // Staged operands: op(A)^T and op(B), each TileK rows of TileM (TileN) plus padding, twice.
  static constexpr int RowA = TileM + Tiles::PadA, RowB = TileN + Tiles::PadB;
  static_assert(RowA % Vec == 0 && RowB % Vec == 0, "padding keeps rows 16-byte aligned");
  static constexpr int StageElements = TileK * (RowA + RowB);
  static constexpr int ScratchElements = 2 * StageElements + Vec;  // + Vec: room to align
  // Packs of the next K step each thread holds in registers.
  static constexpr int PacksA = TileM * TileK / Vec, PacksB = TileN * TileK / Vec;
  static constexpr int LoadsA = (PacksA + TeamSize - 1) / TeamSize, LoadsB = (PacksB + TeamSize - 1) / TeamSize;
  static_assert(TileK % Vec == 0, "K steps of whole packs (both orientations of the operands)");

  using ScratchView = Kokkos::View<T*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using policy = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<TeamSize, Tiles::MinTeamsPerSM>>;
  using team_member = typename policy::member_type;

  matrix_view<const T, Exec> a, b;
  matrix_view<T, Exec> c;
  bool transpose_a = false, transpose_b = false;
  T alpha = 1, beta = 0;
  std::int64_t m = 0, n = 0, k = 0;
  int blocks_n = 1;

  static std::size_t scratch_bytes() { return ScratchView::shmem_size(ScratchElements); }

  // Rows start on 16-byte boundaries (pointer and row length): whole packs can be loaded (stored).
  template <class View>
  KOKKOS_INLINE_FUNCTION static bool rows_packed(const View& x) {
    return reinterpret_cast<std::uintptr_t>(x.data()) % 16 == 0 && static_cast<std::int64_t>(x.stride(0)) % Vec == 0;
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
    int rows_left;       // rows of the tile that exist in X
    std::int64_t step;   // offset change per K step
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

    KOKKOS_INLINE_FUNCTION operand_loader(const matrix_view<const T, Exec>& x, bool along_k_, std::int64_t x0,
                                          std::int64_t x_end, int rank)
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
    KOKKOS_INLINE_FUNCTION void load(pack (&regs)[Loads], int rank, std::int64_t k0, std::int64_t k) const {
      const bool interior = rows_inside && k0 + TileK <= k;
      PK_UNROLL
      for (int l = 0; l < Loads; ++l) {
        if (!exists(l, rank)) break;
        const T* src = data + offset[l];
        if (interior && packed) {
          regs[l] = *reinterpret_cast<const pack*>(src);
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
    KOKKOS_INLINE_FUNCTION void store(const pack (&regs)[Loads], int rank, T* stage) const {
      PK_UNROLL
      for (int l = 0; l < Loads; ++l) {
        if (!exists(l, rank)) break;
        int r, kk;
        place(rank + l * TeamSize, along_k, r, kk);
        if (along_k) {
          PK_UNROLL
          for (int v = 0; v < Vec; ++v) stage[(kk + v) * Row + r] = regs[l].v[v];
        } else {
          *reinterpret_cast<pack*>(stage + kk * Row + r) = regs[l];
        }
      }
    }
  };

  KOKKOS_INLINE_FUNCTION void operator()(const team_member& team) const {
    const std::int64_t i0 = static_cast<std::int64_t>(team.league_rank() / blocks_n) * TileM;
    const std::int64_t j0 = static_cast<std::int64_t>(team.league_rank() % blocks_n) * TileN;
    ScratchView scratch(team.team_scratch(0), ScratchElements);
    const auto misalign = static_cast<int>(reinterpret_cast<std::uintptr_t>(scratch.data()) % 16) / int(sizeof(T));
    T* const stages = scratch.data() + (misalign ? Vec - misalign : 0);
    const int rank = team.team_rank();
    // Along N first: the 16 threads of a half-warp share a row of sub-tiles (see above).
    const int tn = rank % ThreadsN, tm = rank / ThreadsN;

    operand_loader<TileM, LoadsA> load_a(a, !transpose_a, i0, m, rank);
    operand_loader<TileN, LoadsB> load_b(b, transpose_b, j0, n, rank);
    pack next_a[LoadsA], next_b[LoadsB];
    T acc[ThreadM][ThreadN];
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      PK_UNROLL
      for (int j = 0; j < ThreadN; ++j) acc[i][j] = T(0);
    }

    load_a.load(next_a, rank, 0, k);
    load_b.load(next_b, rank, 0, k);
    load_a.template store<RowA>(next_a, rank, stages);
    load_b.template store<RowB>(next_b, rank, stages + TileK * RowA);
    team.team_barrier();  // stage 0 is complete

    const std::int64_t steps = (k + TileK - 1) / TileK;
    for (std::int64_t s = 0; s < steps; ++s) {
      const T* sa = stages + (s % 2) * StageElements;
      const T* sb = sa + TileK * RowA;
      const bool more = s + 1 < steps;
      if (more) {  // issued now, waited for only at the store below: the multiply hides the latency
        load_a.advance();
        load_b.advance();
        load_a.load(next_a, rank, (s + 1) * TileK, k);
        load_b.load(next_b, rank, (s + 1) * TileK, k);
      }
      multiply(acc, sa + tm * Vec, sb + tn * Vec);
      if (more) {
        T* na = stages + ((s + 1) % 2) * StageElements;
        load_a.template store<RowA>(next_a, rank, na);
        load_b.template store<RowB>(next_b, rank, na + TileK * RowA);
        team.team_barrier();  // the next stage is complete (and nobody reads this one again)
      }
    }
    store_c(acc, i0 + tm * Vec, j0 + tn * Vec);
  }

  // acc += sum over the K step of (column kk of op(A)) x (row kk of op(B)), per sub-tile pair.
  KOKKOS_INLINE_FUNCTION static void multiply(T (&acc)[ThreadM][ThreadN], const T* sa, const T* sb) {
    PK_UNROLL
    for (int kk = 0; kk < TileK; ++kk) {
      pack fa[SubM], fb[SubN];
      PK_UNROLL
      for (int s = 0; s < SubM; ++s) fa[s] = *reinterpret_cast<const pack*>(sa + kk * RowA + s * SpanM);
      PK_UNROLL
      for (int s = 0; s < SubN; ++s) fb[s] = *reinterpret_cast<const pack*>(sb + kk * RowB + s * SpanN);
      PK_UNROLL
      for (int i = 0; i < ThreadM; ++i) {
        PK_UNROLL
        for (int j = 0; j < ThreadN; ++j) acc[i][j] += fa[i / Vec].v[i % Vec] * fb[j / Vec].v[j % Vec];
      }
    }
  }

  // C = alpha*acc + beta*C (C not read when beta == 0): whole packs inside C when its rows are
  // aligned, element by element at the edges.
  KOKKOS_INLINE_FUNCTION void store_c(const T (&acc)[ThreadM][ThreadN], std::int64_t ci, std::int64_t cj) const {
    const bool packed_c = rows_packed(c);
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      const std::int64_t row = ci + (i / Vec) * SpanM + i % Vec;
      if (row >= m) continue;
      PK_UNROLL
      for (int sj = 0; sj < SubN; ++sj) {
        const std::int64_t col = cj + sj * SpanN;
        T* dst = c.data() + row * static_cast<std::int64_t>(c.stride(0)) + col;
        if (packed_c && col + Vec <= n) {
          pack out;
          if (beta == T(0)) {
            PK_UNROLL
            for (int v = 0; v < Vec; ++v) out.v[v] = alpha * acc[i][sj * Vec + v];
          } else {
            const pack old = *reinterpret_cast<const pack*>(dst);
            PK_UNROLL
            for (int v = 0; v < Vec; ++v) out.v[v] = alpha * acc[i][sj * Vec + v] + beta * old.v[v];
          }
          *reinterpret_cast<pack*>(dst) = out;
        } else {
          PK_UNROLL
          for (int v = 0; v < Vec; ++v) {
            if (col + v >= n) break;
            dst[v] = beta == T(0) ? alpha * acc[i][sj * Vec + v] : alpha * acc[i][sj * Vec + v] + beta * dst[v];
          }
        }
      }
    }
  }
};

}  // namespace pk::detail
