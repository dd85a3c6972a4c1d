#pragma once
// How a thread reads its thread tile's operands from the staged K step, k by k, and feeds them to
// rank1_update (gemm_math.hpp): the "fragments" of a backend's GEMM policy.
#include <Kokkos_Core.hpp>
#include <cstring>

#include "core/pack.hpp"
#include "core/unroll.hpp"
#include "matmul/gemm_math.hpp"

namespace pk::detail {

// GPUs: a thread tile of SubM x SubN sub-tiles of one 16-byte pack each way (Tile:
// thread_tile_layout), so that per k a thread issues SubM + SubN shared-memory pack loads (LDS.128)
// for ThreadM x ThreadN multiply-adds. The K step is whole: staging pads it with zeros.
template <class T, class Tile, int ThreadM, int ThreadN, int RowA, int RowB, int TileK>
struct pack_fragments {
  static constexpr int Vec = pack<T>::size;
  static_assert(ThreadM == Tile::SubM * Vec && ThreadN == Tile::SubN * Vec, "sub-tiles of one pack each way");
  KOKKOS_INLINE_FUNCTION static void multiply(T (&acc)[ThreadM][ThreadN], const T* sa, const T* sb, int) {
    PK_UNROLL
    for (int kk = 0; kk < TileK; ++kk) {
      T a[ThreadM], b[ThreadN];
      PK_UNROLL
      for (int s = 0; s < Tile::SubM; ++s) {
        const pack<T> p = *reinterpret_cast<const pack<T>*>(sa + kk * RowA + s * Tile::SpanM);
        PK_UNROLL
        for (int v = 0; v < Vec; ++v) a[s * Vec + v] = p.v[v];
      }
      PK_UNROLL
      for (int s = 0; s < Tile::SubN; ++s) {
        const pack<T> p = *reinterpret_cast<const pack<T>*>(sb + kk * RowB + s * Tile::SpanN);
        PK_UNROLL
        for (int v = 0; v < Vec; ++v) b[s * Vec + v] = p.v[v];
      }
      rank1_update(acc, a, b);
    }
  }
};

// CPUs: the thread tile's rows of A and columns of B are contiguous in their panels (ThreadM and
// ThreadN wide: stage_panels.hpp), kc of them. Where the compiler has GCC's vector types and
// ThreadN is whole vectors (VectorBytes each), B's row is ThreadN / lanes vector registers and A's
// values are broadcast against them: per k, ThreadN/lanes loads of B, ThreadM broadcasts of A and
// ThreadM x ThreadN/lanes FMAs, the accumulators never leaving registers (GCC's auto-vectorizer
// turns the scalar form into shuffles and spills). Otherwise scalars.
template <class T, int ThreadM, int ThreadN, int RowA, int RowB, int VectorBytes>
struct simd_fragments {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
  typedef T vec __attribute__((vector_size(VectorBytes)));
  static constexpr int Lanes = VectorBytes / static_cast<int>(sizeof(T));
  static constexpr bool vectors = ThreadN % Lanes == 0;
#else
  using vec = T;
  static constexpr int Lanes = 1;
  static constexpr bool vectors = false;
#endif

  KOKKOS_INLINE_FUNCTION static void multiply(T (&acc)[ThreadM][ThreadN], const T* ap, const T* bp, int kc) {
    if constexpr (vectors) {
      constexpr int Vecs = ThreadN / Lanes;
      vec sum[ThreadM][Vecs];
      PK_UNROLL
      for (int i = 0; i < ThreadM; ++i) {
        PK_UNROLL
        for (int v = 0; v < Vecs; ++v) sum[i][v] = vec{};  // zeros
      }
      for (int kk = 0; kk < kc; ++kk) {
        T a[ThreadM];
        vec b[Vecs];
        PK_UNROLL
        for (int i = 0; i < ThreadM; ++i) a[i] = ap[i];
        PK_UNROLL
        for (int v = 0; v < Vecs; ++v) std::memcpy(&b[v], bp + v * Lanes, sizeof(vec));
        rank1_update(sum, a, b);
        ap += RowA;
        bp += RowB;
      }
      PK_UNROLL
      for (int i = 0; i < ThreadM; ++i) {
        PK_UNROLL
        for (int v = 0; v < Vecs; ++v) std::memcpy(&acc[i][v * Lanes], &sum[i][v], sizeof(vec));
      }
    } else {
      for (int kk = 0; kk < kc; ++kk) {
        T a[ThreadM], b[ThreadN];
        PK_UNROLL
        for (int i = 0; i < ThreadM; ++i) a[i] = ap[i];
        PK_UNROLL
        for (int j = 0; j < ThreadN; ++j) b[j] = bp[j];
        rank1_update(acc, a, b);
        ap += RowA;
        bp += RowB;
      }
    }
  }
};

}  // namespace pk::detail
