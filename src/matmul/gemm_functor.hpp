#pragma once
// GEMM as one Kokkos team functor for every backend, tiled in three levels:
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
// team scratch (transposes are resolved there, so the inner loop never sees op_a/op_b), and every
// thread does a rank-TileK update of its thread tiles from scratch. What differs per backend comes
// from its Policy (gemm_policy.hpp): the tile numbers, how the K steps reach scratch (staging,
// gemm_staging.hpp: one stage packed into panels by one thread on a CPU, two stages filled through
// registers by the team on a GPU), how a thread tile lies in the block, and how a thread reads its
// operands (fragments, gemm_fragments.hpp: SIMD vectors on a CPU, scalars loaded a k ahead on a
// GPU). The update (rank1_update) and the epilogue (store_c) are gemm_math.hpp's. Two ways to
// carry the sum over K, chosen by the tile shape:
//  - one thread tile per thread (GPU: 256 threads x 8x8 = 128x128): the accumulators stay in
//    registers across all K steps and C is written once at the end;
//  - several thread tiles per thread (CPU: one thread walks its whole block tile): registers cannot
//    hold them all, so each K step adds its partial product into C (the first one also applies
//    beta), as GotoBLAS does; C's block tile stays in cache meanwhile.
// Under split-K (split_k.hpp) "C" is the team's K part's partial C (alpha 1, beta 0), and a second
// kernel (SumParts) adds the parts into C.
#include <cstdint>
#include <type_traits>

#include <pk/kokkos/views.hpp>

#include "core/unroll.hpp"
#include "matmul/gemm_math.hpp"

namespace pk::detail {

// Where element (kk, x) of a staged Depth x Width tile (kk along K) lies in scratch: Width is cut
// into panels of PanelWidth, each stored as Depth rows of PanelWidth + Pad elements. op(A) is
// staged transposed (rows of m) and op(B) as it is (rows of n), so that for each k a thread reads
// ThreadM contiguous values of A and ThreadN of B: a GPU uses one panel per tile with padding
// against shared-memory bank conflicts, a CPU one panel per thread tile (the packed panels of
// GotoBLAS/BLIS: a thread tile's operands are one contiguous stream).
template <int Width, int Depth, int PanelWidth, int Pad>
struct staged_tile_layout {
  static_assert(Width % PanelWidth == 0, "a staged tile is a whole number of panels");
  static constexpr int width = Width, depth = Depth, panel_width = PanelWidth;
  static constexpr int row_stride = PanelWidth + Pad;
  static constexpr int panel_stride = Depth * row_stride;
  static constexpr int size = (Width / PanelWidth) * panel_stride;
  KOKKOS_INLINE_FUNCTION static constexpr int offset(int kk, int x) {
    return (x / PanelWidth) * panel_stride + kk * row_stride + x % PanelWidth;
  }
};

// Where thread tile t of a BlockM x BlockN block tile lies: SubM x SubN sub-tiles of VecM x VecN,
// SpanM (SpanN) rows (columns) apart. A GPU spreads pack-sized sub-tiles over the block
// (CUTLASS's layout: in a warp, the 16 threads along N read 16 consecutive packs of B and share
// one pack of A, so scratch reads are conflict-free and broadcast); a CPU's thread tile is one
// sub-tile. NFirst: consecutive t go along N (GPU threads) or along M (a CPU thread's walk: one B
// panel reused from L1 by every A panel).
template <int BlockM, int BlockN, int TM, int TN, int VM, int VN, bool NFirst>
struct thread_tile_layout {
  static constexpr int ThreadM = TM, ThreadN = TN, VecM = VM, VecN = VN;
  static constexpr int ThreadsM = BlockM / ThreadM, ThreadsN = BlockN / ThreadN, Count = ThreadsM * ThreadsN;
  static constexpr int SubM = ThreadM / VecM, SubN = ThreadN / VecN;
  static constexpr int SpanM = ThreadsM * VecM, SpanN = ThreadsN * VecN;
  static_assert(BlockM % ThreadM == 0 && BlockN % ThreadN == 0, "a block tile is whole thread tiles");
  static_assert(ThreadM % VecM == 0 && ThreadN % VecN == 0, "a thread tile is whole sub-tiles");
  int tm, tn;
  KOKKOS_INLINE_FUNCTION explicit thread_tile_layout(int t)
      : tm(NFirst ? t / ThreadsN : t % ThreadsM), tn(NFirst ? t % ThreadsN : t / ThreadsM) {}
  // The block row of the tile's row i, the block column of its column j.
  KOKKOS_INLINE_FUNCTION int row(int i) const { return tm * VecM + (i / VecM) * SpanM + i % VecM; }
  KOKKOS_INLINE_FUNCTION int col(int j) const { return tn * VecN + (j / VecN) * SpanN + j % VecN; }
  // Where the thread's operands start in the staged tiles (its fragments read from there on).
  KOKKOS_INLINE_FUNCTION int a_origin() const { return row(0); }
  KOKKOS_INLINE_FUNCTION int b_origin() const { return col(0); }
};

// Thread tiles of a warp's matrix multiply-accumulate (Mma: core/primitives.hpp's warp_mma): the
// block is WarpsM x WarpsN warp tiles of WarpM x WarpN, each (WarpM / 16) x (WarpN / 8) of the
// Mma's 16 x 8 tiles of D, of which a lane holds 2 x 2 values (rows lane/4 and lane/4 + 8, two
// consecutive columns). Thread t is lane t % 32 of warp t / 32 (Kokkos numbers a team's threads
// consecutively within its warps); warps go along N first. A thread's row i is of D tile i / 2,
// its column j of D tile j / 2: stored as WarpN / 8 segments of 2 consecutive columns.
template <int BlockM, int BlockN, int WarpM, int WarpN, class Mma>
struct warp_tile_layout {
  using mma = Mma;
  static constexpr int WarpsM = BlockM / WarpM, WarpsN = BlockN / WarpN, Count = 32 * WarpsM * WarpsN;
  static constexpr int TilesM = WarpM / Mma::M, TilesN = WarpN / Mma::N;
  static constexpr int ThreadM = 2 * TilesM, ThreadN = 2 * TilesN, SubN = TilesN;
  static_assert(BlockM % WarpM == 0 && BlockN % WarpN == 0, "a block tile is whole warp tiles");
  static_assert(WarpM % Mma::M == 0 && WarpN % Mma::N == 0, "a warp tile is whole tiles of the Mma");
  int lane, wm, wn;  // the thread's lane; its warp tile's first block row and column
  KOKKOS_INLINE_FUNCTION explicit warp_tile_layout(int t)
      : lane(t % 32), wm((t / 32) / WarpsN * WarpM), wn((t / 32) % WarpsN * WarpN) {}
  KOKKOS_INLINE_FUNCTION int row(int i) const { return wm + (i / 2) * Mma::M + Mma::row(lane, 2 * (i % 2)); }
  KOKKOS_INLINE_FUNCTION int col(int j) const { return wn + (j / 2) * Mma::N + Mma::col(lane, j % 2); }
  KOKKOS_INLINE_FUNCTION int a_origin() const { return wm; }
  KOKKOS_INLINE_FUNCTION int b_origin() const { return wn; }
};

// Whether a thread-tile layout is a warp's (warp_tile_layout: it names its Mma).
template <class Tile, class = void>
struct uses_warp_mma : std::false_type {};
template <class Tile>
struct uses_warp_mma<Tile, std::void_t<typename Tile::mma>> : std::true_type {};

// A and B are operands as gemm_operands.hpp reads them: matrices, or a convolution's windows.
template <class T, class Exec, class Policy, class AOperand = matrix_view<const T, Exec>, class BOperand = AOperand>
struct Gemm {
  using value_type = T;
  using execution_space = Exec;
  using a_operand = AOperand;
  using b_operand = BOperand;
  static constexpr int TileM = Policy::TileM, TileN = Policy::TileN, TileK = Policy::TileK;
  static constexpr int ThreadM = Policy::ThreadM, ThreadN = Policy::ThreadN, TeamSize = Policy::TeamSize;
  using tile = typename Policy::thread_tiles;
  using staging = typename Policy::template staging<Gemm>;
  using fragments = typename Policy::fragments;
  static_assert(tile::Count % TeamSize == 0, "every thread gets the same number of thread tiles");
  static constexpr int TilesPerThread = tile::Count / TeamSize;
  static_assert(!uses_warp_mma<tile>::value || TilesPerThread == 1,
                "a warp's multiply-accumulate takes the 32 lanes of a warp, each once: TeamSize = the layout's Count");

  using policy = Kokkos::TeamPolicy<Exec, typename Policy::launch>;
  using team_member = typename policy::member_type;

  AOperand a;  // as stored: m x k or k x m
  BOperand b;  // k x n or n x k
  matrix_view<T, Exec> c;
  bool transpose_a = false, transpose_b = false;
  T alpha = 1, beta = 0;  // alpha != 0 and k > 0: the launcher handles the other cases (C = beta*C)
  std::int64_t m = 0, n = 0, k = 0;
  int blocks_n = 1;  // block tiles per row of C
  int tiles = 1;     // block tiles of C: team r computes tile r % tiles over K part r / tiles
  std::int64_t k_part = 0;  // K of a part: a whole number of K steps (all of K's steps when not split)
  T* partial = nullptr;     // split-K: part p's sum goes to partial[p*m*n ...] (m x n, rows of n); else C

  // Where a team's result goes: C (alpha, beta), or its part's partial C (the plain sum).
  struct target {
    T* data;
    std::int64_t ld;
    T alpha, beta;
  };

  static std::size_t scratch_bytes() { return staging::scratch_bytes(); }

  KOKKOS_INLINE_FUNCTION void operator()(const team_member& team) const {
    const int tile_index = team.league_rank() % tiles;
    const std::int64_t part = team.league_rank() / tiles;
    const std::int64_t i0 = static_cast<std::int64_t>(tile_index / blocks_n) * TileM;
    const std::int64_t j0 = static_cast<std::int64_t>(tile_index % blocks_n) * TileN;
    const std::int64_t k0 = part * k_part, kc = k - k0 < k_part ? k - k0 : k_part;  // this team's K
    const int rank = team.team_rank();
    staging st(team, *this, i0, j0, k0, kc);
    st.begin();
    team.team_barrier();  // the first step is staged before anyone reads it
    const std::int64_t steps = (kc + TileK - 1) / TileK;
    if constexpr (TilesPerThread == 1) {
      const tile t(rank);
      T acc[ThreadM][ThreadN];
      zero(acc);
      for (std::int64_t s = 0; s < steps; ++s) {
        const bool more = s + 1 < steps;
        if (more) st.fetch(s + 1);  // the next step's loads are in flight during the multiply
        multiply(st, s, kc, t, acc);
        if (more) {
          st.commit(s + 1);
          team.team_barrier();  // the next step is staged (and the one it replaced no longer read)
        }
      }
      // (the target is formed only now: registers held across the K loop are what limit it)
      const target out = target_of(part);
      store(acc, out, i0, j0, t, out.beta);
    } else {
      for (std::int64_t s = 0; s < steps; ++s) {
        const bool more = s + 1 < steps;
        if (more) st.fetch(s + 1);
        for (int index = rank; index < tile::Count; index += TeamSize) {
          const tile t(index);
          if (i0 + t.row(0) >= m || j0 + t.col(0) >= n) continue;  // wholly outside C
          T acc[ThreadM][ThreadN];
          zero(acc);
          multiply(st, s, kc, t, acc);
          const target out = target_of(part);
          store(acc, out, i0, j0, t, s == 0 ? out.beta : T(1));
        }
        if (more) {
          st.commit(s + 1);
          team.team_barrier();
        }
      }
    }
  }

  KOKKOS_INLINE_FUNCTION target target_of(std::int64_t part) const {
    return partial ? target{partial + part * m * n, n, T(1), T(0)}
                   : target{c.data(), static_cast<std::int64_t>(c.stride(0)), alpha, beta};
  }

  KOKKOS_INLINE_FUNCTION static void zero(T (&acc)[ThreadM][ThreadN]) {
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      PK_UNROLL
      for (int j = 0; j < ThreadN; ++j) acc[i][j] = T(0);
    }
  }

  // acc += op(A)[tile rows, step s] * op(B)[step s, tile cols], from the staged step (of the team's
  // k_team).
  KOKKOS_INLINE_FUNCTION void multiply(const staging& st, std::int64_t s, std::int64_t k_team, const tile& t,
                                       T (&acc)[ThreadM][ThreadN]) const {
    const int kc = k_team - s * TileK < TileK ? static_cast<int>(k_team - s * TileK) : TileK;
    fragments::multiply(acc, st.a(s) + staging::a_layout::offset(0, t.a_origin()),
                        st.b(s) + staging::b_layout::offset(0, t.b_origin()), kc, t);
  }

  // out = out.alpha * acc + beta_now * out over the thread tile's rows and column segments inside C.
  KOKKOS_INLINE_FUNCTION void store(const T (&acc)[ThreadM][ThreadN], const target& out, std::int64_t i0, std::int64_t j0,
                                    const tile& t, T beta_now) const {
    constexpr int VecN = ThreadN / tile::SubN;
    const bool packed = pack_aligned(out.data) && out.ld % pack<T>::size == 0;
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      const std::int64_t row = i0 + t.row(i);
      if (row >= m) continue;
      PK_UNROLL
      for (int sj = 0; sj < tile::SubN; ++sj) {
        const std::int64_t col = j0 + t.col(sj * VecN);
        T* dst = out.data + row * out.ld + col;
        const int count = n - col < VecN ? static_cast<int>(n - col) : VecN;  // (<= 0: past C's last column)
        store_c<VecN>(dst, &acc[i][sj * VecN], count, out.alpha, beta_now, packed);
      }
    }
  }
};

// Split-K's second kernel: C(i, j) = alpha * (the parts' sums, added in part order) + beta * C(i, j),
// through the same epilogue as an unsplit GEMM.
template <class T, class Exec>
struct SumParts {
  matrix_view<T, Exec> c;
  const T* partial;
  std::int64_t n, mn, parts;
  T alpha, beta;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    T sum = partial[e];
    for (std::int64_t p = 1; p < parts; ++p) sum += partial[p * mn + e];
    store_c<1>(&c(e / n, e % n), &sum, 1, alpha, beta, false);
  }
};

// Split-K with many parts (a small C over a long K: a convolution's weight gradient, 32 x 9 in 528
// parts) adds them in groups of `group` first, each group in part order, so that SumParts then
// reads a few sums per value instead of hundreds one after another: a fixed order either way.
template <class T>
struct SumPartGroups {
  const T* partial;
  T* grouped;
  std::int64_t mn, parts, group;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    const std::int64_t g = e / mn, i = e % mn, p0 = g * group, p1 = p0 + group < parts ? p0 + group : parts;
    T sum = partial[p0 * mn + i];
    for (std::int64_t p = p0 + 1; p < p1; ++p) sum += partial[p * mn + i];
    grouped[e] = sum;
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
