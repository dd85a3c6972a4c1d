#pragma once
// GEMM as a Kokkos functor, tiled in three levels (the constants come from gemm_tiles.hpp):
//
//            n                         TileN                    ThreadN
//   +-----------------+        +-------------------+        +-----------+
//   |     C (m x n)   |  one   |  block tile       |  one   | thread    |  ThreadM x ThreadN
// m |   +----+        |  team  |  +----+           | thread | tile:     |  accumulators in
//   |   |    |        |  ===>  |  |    | ...       |  ===>  | registers |  registers
//   |   +----+        |  TileM |  +----+           | ThreadM|           |
//   +-----------------+        +-------------------+        +-----------+
//
// Per K step of TileK, the team stages op(A)[block rows, k step] and op(B)[k step, block cols] in
// team scratch (transposes are resolved here, so the inner loop never sees op_a/op_b), barriers,
// and every thread does a rank-TileK update of its thread tiles from scratch.
//
// Two ways to carry the sum over K, chosen by the tile shape:
//  - one thread tile per thread (GPU: 256 threads x 8x8 = 128x128): the accumulators stay in
//    registers across all K steps and C is written once at the end;
//  - several thread tiles per thread (CPU: one thread walks its whole block tile): registers cannot
//    hold them all, so each K step adds its partial product into C (the first one also applies beta),
//    as GotoBLAS does; C's block tile stays in cache meanwhile.
#include <cstdint>
#include <cstring>

#include <pk/kokkos/views.hpp>

#include "core/unroll.hpp"
#include "matmul/gemm_tiles.hpp"


// Host builds with GCC or Clang spell the CPU register block with vector types (see
// GemmTile::multiply_host_vectors); nvcc, and any other compiler, use the portable scalar loops.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define PK_GEMM_HOST_VECTORS 1
#else
#define PK_GEMM_HOST_VECTORS 0
#endif

namespace pk::detail {

#if PK_GEMM_HOST_VECTORS
// One host vector register of T (host_vector_bytes wide, from gemm_tiles.hpp).
template <class T>
struct host_simd;
template <>
struct host_simd<float> {
  typedef float type __attribute__((vector_size(host_vector_bytes)));
  static constexpr int lanes = host_vector_bytes / static_cast<int>(sizeof(float));
};
template <>
struct host_simd<double> {
  typedef double type __attribute__((vector_size(host_vector_bytes)));
  static constexpr int lanes = host_vector_bytes / static_cast<int>(sizeof(double));
};
#endif

// Where element (kk, x) of a staged Depth x Width tile (kk along K) lies in scratch: Width is cut
// into panels of PanelWidth, each stored as Depth rows of PanelWidth + Pad elements.
template <int Width, int Depth, int PanelWidth, int Pad>
struct staged_tile_layout {
  static_assert(Width % PanelWidth == 0, "a staged tile is a whole number of panels");
  static constexpr int row_stride = PanelWidth + Pad;
  static constexpr int panel_stride = Depth * row_stride;
  static constexpr int size = (Width / PanelWidth) * panel_stride;
  KOKKOS_INLINE_FUNCTION static constexpr int offset(int kk, int x) {
    return (x / PanelWidth) * panel_stride + kk * row_stride + x % PanelWidth;
  }
};

// C = alpha*op(A)*op(B) + beta*C for one TileM x TileN block tile of C per team.
// a, b are as stored (m x k or k x m; k x n or n x k). alpha != 0 and k > 0 (the launcher handles
// the other cases: C = beta*C).
template <class T, class Exec, class Tiles>
struct GemmTile {
  // Block tile: a team's share of C, and the K step staged at a time.
  static constexpr int TileM = Tiles::TileM, TileN = Tiles::TileN, TileK = Tiles::TileK;
  // Thread tile: one thread's register block of C.
  static constexpr int ThreadM = Tiles::ThreadM, ThreadN = Tiles::ThreadN;
  static constexpr int ThreadTilesM = TileM / ThreadM, ThreadTilesN = TileN / ThreadN;
  static constexpr int ThreadTiles = ThreadTilesM * ThreadTilesN;
  static constexpr int TeamSize = Tiles::TeamSize;
  static constexpr int TilesPerThread = ThreadTiles / TeamSize;
  static_assert(TileM % ThreadM == 0 && TileN % ThreadN == 0, "a block tile is a whole number of thread tiles");
  static_assert(ThreadTiles % TeamSize == 0, "every thread gets the same number of thread tiles");
  static_assert(Tiles::PanelA % ThreadM == 0 && Tiles::PanelB % ThreadN == 0,
                "a thread tile's operands lie within one scratch panel");

  using LayoutA = staged_tile_layout<TileM, TileK, Tiles::PanelA, Tiles::PadA>;  // op(A)^T: TileK x TileM
  using LayoutB = staged_tile_layout<TileN, TileK, Tiles::PanelB, Tiles::PadB>;  // op(B):   TileK x TileN
  // Scratch is over-allocated by one cache line so that the panels start 64-byte aligned (whole
  // vector loads on the CPU).
  static constexpr int AlignElements = 64 / static_cast<int>(sizeof(T));
  static constexpr int ScratchElements = LayoutA::size + LayoutB::size + AlignElements;

  using ScratchView = Kokkos::View<T*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using policy = Kokkos::TeamPolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>>;
  using team_member = typename policy::member_type;

  matrix_view<const T, Exec> a, b;
  matrix_view<T, Exec> c;
  bool transpose_a = false, transpose_b = false;
  T alpha = 1, beta = 0;
  std::int64_t m = 0, n = 0, k = 0;
  int blocks_n = 1;  // block tiles per row of C

  static std::size_t scratch_bytes() { return ScratchView::shmem_size(ScratchElements); }

  KOKKOS_INLINE_FUNCTION void operator()(const team_member& team) const {
    const std::int64_t i0 = static_cast<std::int64_t>(team.league_rank() / blocks_n) * TileM;
    const std::int64_t j0 = static_cast<std::int64_t>(team.league_rank() % blocks_n) * TileN;
    ScratchView scratch(team.team_scratch(0), ScratchElements);
    const auto misalign = static_cast<int>(reinterpret_cast<std::uintptr_t>(scratch.data()) % 64) /
                          static_cast<int>(sizeof(T));
    T* const a_tile = scratch.data() + (misalign ? AlignElements - misalign : 0);
    T* const b_tile = a_tile + LayoutA::size;
    const int rank = team.team_rank();

    if constexpr (TilesPerThread == 1) {
      const int tm = rank % ThreadTilesM, tn = rank / ThreadTilesM;
      T acc[ThreadM][ThreadN];
      zero(acc);
      for (std::int64_t k0 = 0; k0 < k; k0 += TileK) {
        const int kc = k - k0 < TileK ? static_cast<int>(k - k0) : TileK;
        stage(team, a_tile, b_tile, i0, j0, k0, kc);
        team.team_barrier();  // the tiles are complete before anyone reads them
        multiply(acc, a_tile + LayoutA::offset(0, tm * ThreadM), b_tile + LayoutB::offset(0, tn * ThreadN), kc);
        team.team_barrier();  // everyone is done reading before the next step overwrites them
      }
      store(acc, i0 + tm * ThreadM, j0 + tn * ThreadN, true);
    } else {
      for (std::int64_t k0 = 0; k0 < k; k0 += TileK) {
        const int kc = k - k0 < TileK ? static_cast<int>(k - k0) : TileK;
        stage(team, a_tile, b_tile, i0, j0, k0, kc);
        team.team_barrier();
        // Column panels outer, row panels inner: one B panel (TileK x ThreadN) is reused from L1
        // by all ThreadTilesM A panels.
        for (int t = rank; t < ThreadTiles; t += TeamSize) {
          const int tm = t % ThreadTilesM, tn = t / ThreadTilesM;
          const std::int64_t ci = i0 + tm * ThreadM, cj = j0 + tn * ThreadN;
          if (ci >= m || cj >= n) continue;  // a thread tile wholly outside an edge block tile
          T acc[ThreadM][ThreadN];
          zero(acc);
          multiply(acc, a_tile + LayoutA::offset(0, tm * ThreadM), b_tile + LayoutB::offset(0, tn * ThreadN), kc);
          store(acc, ci, cj, k0 == 0);
        }
        team.team_barrier();
      }
    }
  }

  KOKKOS_INLINE_FUNCTION static void zero(T (&acc)[ThreadM][ThreadN]) {
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      PK_UNROLL
      for (int j = 0; j < ThreadN; ++j) acc[i][j] = T(0);
    }
  }

  // acc += op(A)[tile rows, 0:kc] * op(B)[0:kc, tile cols], both read from scratch: per k one
  // row of ThreadM values of A^T and one of ThreadN values of B, an outer product into registers.
  KOKKOS_INLINE_FUNCTION static void multiply(T (&acc)[ThreadM][ThreadN], const T* ap, const T* bp, int kc) {
#if PK_GEMM_HOST_VECTORS
    if constexpr (TeamSize == 1 && ThreadN % host_simd<T>::lanes == 0) {
      multiply_host_vectors(acc, ap, bp, kc);
      return;
    }
#endif
    for (int kk = 0; kk < kc; ++kk) {
      PK_UNROLL
      for (int i = 0; i < ThreadM; ++i) {
        const T ai = ap[i];
        PK_UNROLL
        for (int j = 0; j < ThreadN; ++j) acc[i][j] += ai * bp[j];
      }
      ap += LayoutA::row_stride;
      bp += LayoutB::row_stride;
    }
  }

#if PK_GEMM_HOST_VECTORS
  // The same outer product with the register block spelled as ThreadM x (ThreadN / lanes) vector
  // registers. GCC's auto-vectorizer turns the scalar loops above into shuffles and spills; written
  // with vector types it emits the textbook kernel: per k, ThreadN/lanes loads of B, ThreadM
  // broadcasts of A and ThreadM*ThreadN/lanes FMAs, accumulators never leaving registers.
  static void multiply_host_vectors(T (&acc)[ThreadM][ThreadN], const T* ap, const T* bp, int kc) {
    using vec = typename host_simd<T>::type;
    constexpr int Lanes = host_simd<T>::lanes, Vecs = ThreadN / Lanes;
    vec sum[ThreadM][Vecs];
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      PK_UNROLL
      for (int v = 0; v < Vecs; ++v) sum[i][v] = vec{};  // zeros
    }
    for (int kk = 0; kk < kc; ++kk) {
      vec bv[Vecs];
      PK_UNROLL
      for (int v = 0; v < Vecs; ++v) std::memcpy(&bv[v], bp + v * Lanes, sizeof(vec));
      PK_UNROLL
      for (int i = 0; i < ThreadM; ++i) {
        const T ai = ap[i];
        PK_UNROLL
        for (int v = 0; v < Vecs; ++v) sum[i][v] += bv[v] * ai;  // ai broadcast: an embedded-broadcast FMA
      }
      ap += LayoutA::row_stride;
      bp += LayoutB::row_stride;
    }
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      PK_UNROLL
      for (int v = 0; v < Vecs; ++v) std::memcpy(&acc[i][v * Lanes], &sum[i][v], sizeof(vec));
    }
  }
#endif

  // Copies op(A)[i0:i0+TileM, k0:k0+kc] into a_tile (transposed) and op(B)[k0:k0+kc, j0:j0+TileN]
  // into b_tile, zero outside the matrices. The team's threads take consecutive elements along the
  // stored matrix's rows, so that their global reads are contiguous (coalesced on a GPU).
  KOKKOS_INLINE_FUNCTION void stage(const team_member& team, T* a_tile, T* b_tile, std::int64_t i0,
                                    std::int64_t j0, std::int64_t k0, int kc) const {
    if constexpr (TeamSize == 1) {
      stage_alone(a_tile, b_tile, i0, j0, k0, kc);
      return;
    }
    const int rank = team.team_rank();
    for (int e = rank; e < TileM * TileK; e += TeamSize) {
      // transposed A is stored k x m (contiguous along m); plain A m x k (contiguous along k)
      const int x = transpose_a ? e % TileM : e / TileK;
      const int kk = transpose_a ? e / TileM : e % TileK;
      const std::int64_t gi = i0 + x, gk = k0 + kk;
      T v = T(0);
      if (gi < m && kk < kc) v = transpose_a ? a(gk, gi) : a(gi, gk);
      a_tile[LayoutA::offset(kk, x)] = v;
    }
    for (int e = rank; e < TileN * TileK; e += TeamSize) {
      // plain B is stored k x n (contiguous along n); transposed B n x k (contiguous along k)
      const int x = transpose_b ? e / TileK : e % TileN;
      const int kk = transpose_b ? e % TileK : e / TileN;
      const std::int64_t gj = j0 + x, gk = k0 + kk;
      T v = T(0);
      if (gj < n && kk < kc) v = transpose_b ? b(gj, gk) : b(gk, gj);
      b_tile[LayoutB::offset(kk, x)] = v;
    }
  }

  // Staging by a team of one thread (CPU): panel by panel, each loop running along the stored
  // matrix's rows, without the per-element index arithmetic of the cooperative version. Only the
  // kc rows that multiply() reads are written.
  KOKKOS_INLINE_FUNCTION void stage_alone(T* a_tile, T* b_tile, std::int64_t i0, std::int64_t j0, std::int64_t k0,
                                          int kc) const {
    constexpr int PanelA = Tiles::PanelA, PanelB = Tiles::PanelB;
    constexpr int RowA = LayoutA::row_stride, RowB = LayoutB::row_stride;
    for (int p = 0; p < TileM / PanelA; ++p) {
      T* dst = a_tile + p * LayoutA::panel_stride;
      const std::int64_t gi0 = i0 + p * PanelA;
      const int rows = m - gi0 >= PanelA ? PanelA : (m > gi0 ? static_cast<int>(m - gi0) : 0);
      if (transpose_a) {  // stored k x m: rows of A are rows of the panel
        for (int kk = 0; kk < kc; ++kk) {
          const T* src = rows > 0 ? &a(k0 + kk, gi0) : nullptr;
          for (int x = 0; x < PanelA; ++x) dst[kk * RowA + x] = x < rows ? src[x] : T(0);
        }
      } else {  // stored m x k: row x of the panel is a column here, gathered along k
        for (int x = 0; x < PanelA; ++x) {
          if (x < rows) {
            const T* src = &a(gi0 + x, k0);
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowA + x] = src[kk];
          } else {
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowA + x] = T(0);
          }
        }
      }
    }
    for (int p = 0; p < TileN / PanelB; ++p) {
      T* dst = b_tile + p * LayoutB::panel_stride;
      const std::int64_t gj0 = j0 + p * PanelB;
      const int cols = n - gj0 >= PanelB ? PanelB : (n > gj0 ? static_cast<int>(n - gj0) : 0);
      if (cols == 0) continue;  // thread tiles wholly outside C are skipped, never read
      if (!transpose_b) {  // stored k x n: contiguous rows of PanelB
        for (int kk = 0; kk < kc; ++kk) {
          const T* src = &b(k0 + kk, gj0);
          if (cols == PanelB) {
            for (int x = 0; x < PanelB; ++x) dst[kk * RowB + x] = src[x];
          } else {
            for (int x = 0; x < PanelB; ++x) dst[kk * RowB + x] = x < cols ? src[x] : T(0);
          }
        }
      } else {  // stored n x k
        for (int x = 0; x < PanelB; ++x) {
          if (x < cols) {
            const T* src = &b(gj0 + x, k0);
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowB + x] = src[kk];
          } else {
            for (int kk = 0; kk < kc; ++kk) dst[kk * RowB + x] = T(0);
          }
        }
      }
    }
  }

  // C[ci:, cj:] = alpha*acc + beta*C on the first K step (C not read when beta == 0), and
  // C += alpha*acc on later ones. Edge thread tiles are predicated element by element.
  KOKKOS_INLINE_FUNCTION void store(const T (&acc)[ThreadM][ThreadN], std::int64_t ci, std::int64_t cj,
                                    bool first) const {
    const bool full = ci + ThreadM <= m && cj + ThreadN <= n;
    const T keep = first ? beta : T(1);
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      if (!full && ci + i >= m) break;
      T* row = &c(ci + i, 0) + cj;
      if (full) {
        if (first && beta == T(0)) {
          PK_UNROLL
          for (int j = 0; j < ThreadN; ++j) row[j] = alpha * acc[i][j];
        } else {
          PK_UNROLL
          for (int j = 0; j < ThreadN; ++j) row[j] = alpha * acc[i][j] + keep * row[j];
        }
      } else {
        PK_UNROLL
        for (int j = 0; j < ThreadN; ++j) {
          if (cj + j < n) row[j] = (first && beta == T(0)) ? alpha * acc[i][j] : alpha * acc[i][j] + keep * row[j];
        }
      }
    }
  }
};

// C = beta*C, for k == 0 or alpha == 0 (A and B are not read, as in BLAS); beta == 0 writes zeros
// without reading C.
template <class T, class Exec>
struct ScaleMatrix {
  matrix_view<T, Exec> c;
  T beta;
  std::int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    const std::int64_t i = e / n, j = e % n;
    c(i, j) = beta == T(0) ? T(0) : beta * c(i, j);
  }
};

}  // namespace pk::detail
