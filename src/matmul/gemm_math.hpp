#pragma once
// The arithmetic of GEMM, written once: every backend's main loop runs these.
#include <Kokkos_Core.hpp>

#include "core/pack.hpp"
#include "core/unroll.hpp"

namespace pk::detail {

// acc[i][j] += a[i] * b[j]: one step of K, the outer product of a column of a thread tile's rows
// of op(A) and a row of its columns of op(B), into the thread's register tile. b[j] may be a SIMD
// vector of consecutive columns (CPUs), a[i] is then broadcast against it.
template <int M, int N, class Acc, class A, class B>
KOKKOS_FORCEINLINE_FUNCTION void rank1_update(Acc (&acc)[M][N], const A (&a)[M], const B (&b)[N]) {
  PK_UNROLL
  for (int i = 0; i < M; ++i) {
    PK_UNROLL
    for (int j = 0; j < N; ++j) acc[i][j] += a[i] * b[j];
  }
}

// The epilogue: dst[v] = alpha * acc[v] + beta * dst[v] for the `count` consecutive elements of a
// row of C that lie inside it (N, a whole segment, or fewer at C's edge), C not read where beta is
// 0 (as in BLAS: it may hold anything, NaN included). A whole segment of one 16-byte pack is read
// and written as one where `packed` (C's rows aligned to packs).
template <int N, class T>
KOKKOS_FORCEINLINE_FUNCTION void store_c(T* dst, const T* acc, int count, T alpha, T beta, bool packed) {
  if constexpr (N * sizeof(T) == sizeof(pack<T>)) {
    if (packed && count >= N) {
      pack<T> out;
      if (beta == T(0)) {
        PK_UNROLL
        for (int v = 0; v < N; ++v) out.v[v] = alpha * acc[v];
      } else {
        const pack<T> old = *reinterpret_cast<const pack<T>*>(dst);
        PK_UNROLL
        for (int v = 0; v < N; ++v) out.v[v] = alpha * acc[v] + beta * old.v[v];
      }
      *reinterpret_cast<pack<T>*>(dst) = out;
      return;
    }
    // (a GPU thread's segment: one loop, fewer instructions than the two below)
    PK_UNROLL
    for (int v = 0; v < N; ++v) {
      if (v >= count) break;
      dst[v] = beta == T(0) ? alpha * acc[v] : alpha * acc[v] + beta * dst[v];
    }
  } else if (count >= N) {
    if (beta == T(0)) {
      for (int v = 0; v < N; ++v) dst[v] = alpha * acc[v];
    } else {
      for (int v = 0; v < N; ++v) dst[v] = alpha * acc[v] + beta * dst[v];
    }
  } else {
    for (int v = 0; v < count; ++v) dst[v] = beta == T(0) ? alpha * acc[v] : alpha * acc[v] + beta * dst[v];
  }
}

}  // namespace pk::detail
