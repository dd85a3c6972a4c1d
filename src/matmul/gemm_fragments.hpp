#pragma once
// How a thread reads its thread tile's operands from a staged K step, k by k, and feeds them to
// rank1_update (gemm_math.hpp): the fragments, one template for every backend. Its parameters are
// the backend's choice (its GEMM policy):
//  - Value: how the thread holds its row of op(B): scalars (GPUs), or SIMD vectors of consecutive
//    columns against which A's scalars are broadcast (CPUs: per k, ThreadN/lanes vector loads of B,
//    ThreadM broadcasts of A and ThreadM x ThreadN/lanes FMAs, the accumulators never leaving
//    registers; GCC's auto-vectorizer turns the scalar form into shuffles and spills);
//  - Steps: the K step's length when staging pads every step to a whole one (GPUs: a loop the
//    compiler unrolls), or 0 for the length given (CPUs: the last step may be shorter);
//  - Lookahead: how many k ahead of its multiply-adds a thread loads its operands. 1 on GPUs: the
//    loads of k+1 are in flight during the 64 FFMAs of k, whatever ptxas schedules (measured on the
//    H200: without it ptxas issued each k's loads right before their FFMAs, SGEMM 0.79 -> 0.75 of
//    cuBLAS). 0 on CPUs, whose 16 vector registers hold 12 accumulators and one set of operands.
// A thread tile's values lie as thread_tile_layout says: SubM (SubN) runs of VecM (VecN)
// consecutive values, SpanM (SpanN) apart, rows RowA (RowB) apart per k. A run of one 16-byte pack
// is loaded as one (LDS.128 on a GPU).
#include <Kokkos_Core.hpp>
#include <cstring>

#include "core/pack.hpp"
#include "core/unroll.hpp"
#include "matmul/gemm_math.hpp"

namespace pk::detail {

// A Value (T, or a SIMD vector of T) from consecutive T's, and back.
template <class Value, class T>
KOKKOS_FORCEINLINE_FUNCTION Value load_value(const T* p) {
  if constexpr (sizeof(Value) == sizeof(T)) {
    return *p;
  } else {
    Value v;
    std::memcpy(&v, p, sizeof(Value));
    return v;
  }
}
template <class Value, class T>
KOKKOS_FORCEINLINE_FUNCTION void store_value(T* p, const Value& v) {
  if constexpr (sizeof(Value) == sizeof(T)) {
    *p = v;
  } else {
    std::memcpy(p, &v, sizeof(Value));
  }
}

// N consecutive T's as N / lanes Values; one 16-byte pack of scalars as one load.
template <int N, class Value, class T>
KOKKOS_FORCEINLINE_FUNCTION void load_run(Value* dst, const T* src) {
  constexpr int Lanes = static_cast<int>(sizeof(Value) / sizeof(T));
  if constexpr (Lanes == 1 && N * sizeof(T) == sizeof(pack<T>)) {
    const pack<T> p = *reinterpret_cast<const pack<T>*>(src);
    PK_UNROLL
    for (int v = 0; v < N; ++v) dst[v] = p.v[v];
  } else {
    PK_UNROLL
    for (int u = 0; u < N / Lanes; ++u) dst[u] = load_value<Value>(src + u * Lanes);
  }
}

template <class T, class Tile, class Value, int RowA, int RowB, int Steps, int Lookahead>
struct tile_fragments {
  static constexpr int ThreadM = Tile::ThreadM, ThreadN = Tile::ThreadN;
  static constexpr int Lanes = static_cast<int>(sizeof(Value) / sizeof(T)), Values = ThreadN / Lanes;
  static_assert(sizeof(Value) % sizeof(T) == 0 && Tile::VecN % Lanes == 0, "B's runs are whole Values");
  static constexpr int Sets = Lookahead + 1;

  struct operands {
    T a[ThreadM];
    Value b[Values];
  };
  KOKKOS_FORCEINLINE_FUNCTION static void load(operands& o, const T* sa, const T* sb, int kk) {
    PK_UNROLL
    for (int s = 0; s < Tile::SubM; ++s) load_run<Tile::VecM>(o.a + s * Tile::VecM, sa + kk * RowA + s * Tile::SpanM);
    PK_UNROLL
    for (int s = 0; s < Tile::SubN; ++s)
      load_run<Tile::VecN>(o.b + s * (Tile::VecN / Lanes), sb + kk * RowB + s * Tile::SpanN);
  }

  // acc += the thread tile's op(A) columns times its op(B) rows over the K step (kc of it, or Steps).
  KOKKOS_INLINE_FUNCTION static void multiply(T (&acc)[ThreadM][ThreadN], const T* sa, const T* sb, int kc,
                                              const Tile&) {
    Value sum[ThreadM][Values];
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      PK_UNROLL
      for (int v = 0; v < Values; ++v) sum[i][v] = load_value<Value>(&acc[i][v * Lanes]);
    }
    const int steps = Steps > 0 ? Steps : kc;
    operands o[Sets];
    PK_UNROLL
    for (int d = 0; d < Lookahead; ++d) load(o[d], sa, sb, d);  // (Steps > Lookahead where Lookahead > 0)
    PK_UNROLL_GPU
    for (int kk = 0; kk < steps; ++kk) {
      if (kk + Lookahead < steps) load(o[(kk + Lookahead) % Sets], sa, sb, kk + Lookahead);
      rank1_update(sum, o[kk % Sets].a, o[kk % Sets].b);
    }
    PK_UNROLL
    for (int i = 0; i < ThreadM; ++i) {
      PK_UNROLL
      for (int v = 0; v < Values; ++v) store_value(&acc[i][v * Lanes], sum[i][v]);
    }
  }
};

// A warp's fragments (Tile: warp_tile_layout): per Mma::K of the K step, every lane loads its
// fragments of A for the warp tile's TilesM rows of Mma tiles and of B for its TilesN columns, and
// the warp multiplies them into each of the TilesM x TilesN tiles of D (Mma::mma: the tensor cores
// on a GPU that has them). A thread's accumulators acc[2 tm + h][2 tn + q] are value 2 h + q of D
// tile (tm, tn). Lookahead as above, in Mma::K steps (at most the step's count less one); the K
// step is Steps long (padded with zeros).
template <class T, class Tile, int RowA, int RowB, int Steps, int Lookahead>
struct warp_fragments {
  using mma = typename Tile::mma;
  static constexpr int ThreadM = Tile::ThreadM, ThreadN = Tile::ThreadN, TilesM = Tile::TilesM, TilesN = Tile::TilesN;
  static_assert(Steps % mma::K == 0, "K steps of whole Mma steps");
  static constexpr int Ahead = Lookahead < Steps / mma::K ? Lookahead : Steps / mma::K - 1;
  static constexpr int Sets = Ahead + 1;

  struct operands {
    typename mma::a_fragment a[TilesM];
    typename mma::b_fragment b[TilesN];
  };
  KOKKOS_FORCEINLINE_FUNCTION static void load(operands& o, const T* sa, const T* sb, int kk, int lane) {
    PK_UNROLL
    for (int tm = 0; tm < TilesM; ++tm) mma::load_a(o.a[tm], sa + kk * RowA + tm * mma::M, RowA, lane);
    PK_UNROLL
    for (int tn = 0; tn < TilesN; ++tn) mma::load_b(o.b[tn], sb + kk * RowB + tn * mma::N, RowB, lane);
  }

  KOKKOS_INLINE_FUNCTION static void multiply(T (&acc)[ThreadM][ThreadN], const T* sa, const T* sb, int,
                                              const Tile& t) {
    constexpr int steps = Steps / mma::K;
    operands o[Sets];
    PK_UNROLL
    for (int d = 0; d < Ahead; ++d) load(o[d], sa, sb, d * mma::K, t.lane);
    PK_UNROLL
    for (int s = 0; s < steps; ++s) {
      if (s + Ahead < steps) load(o[(s + Ahead) % Sets], sa, sb, (s + Ahead) * mma::K, t.lane);
      const operands& now = o[s % Sets];
      PK_UNROLL
      for (int tm = 0; tm < TilesM; ++tm) {
        PK_UNROLL
        for (int tn = 0; tn < TilesN; ++tn) {
          T d[4] = {acc[2 * tm][2 * tn], acc[2 * tm][2 * tn + 1], acc[2 * tm + 1][2 * tn], acc[2 * tm + 1][2 * tn + 1]};
          mma::mma(d, now.a[tm], now.b[tn]);
          acc[2 * tm][2 * tn] = d[0], acc[2 * tm][2 * tn + 1] = d[1];
          acc[2 * tm + 1][2 * tn] = d[2], acc[2 * tm + 1][2 * tn + 1] = d[3];
        }
      }
    }
  }
};

}  // namespace pk::detail
