#pragma once
// The element-wise kernels as Kokkos functors: one index, one formula.
//
// Two shapes of each: the plain functors (Add, Axpby, Scale) take one element per index and work
// on any View; Packed<T, Exec, Formula> takes a 16-byte pack per index (4 floats, 2 doubles) when
// all the arrays start on 16-byte boundaries, so that a GPU thread issues one 16-byte load per
// operand instead of four 4-byte ones: fewer instructions per byte and more bytes in flight.
// Backends opt in with elementwise_packs (backends/cuda/elementwise_packs_cuda.hpp); host
// compilers vectorize the plain loop wider than 16 bytes themselves, and packs measured slower
// there (axpby 35 -> 23 GB/s on two cores, bench/results/host.md).
#include <cstdint>
#include <type_traits>

#include <pk/kokkos/views.hpp>

#include "core/pack.hpp"

namespace pk::detail {

// c = a + b
template <class T, class Exec>
struct Add {
  vector_view<const T, Exec> a, b;
  vector_view<T, Exec> c;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { c(i) = a(i) + b(i); }
};

// c = alpha*a + beta*b
template <class T, class Exec>
struct Axpby {
  T alpha, beta;
  vector_view<const T, Exec> a, b;
  vector_view<T, Exec> c;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { c(i) = alpha * a(i) + beta * b(i); }
};

// x = alpha*x
template <class T, class Exec>
struct Scale {
  T alpha;
  vector_view<T, Exec> x;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { x(i) = alpha * x(i); }
};

// The same formulas on one element, for Packed.
template <class T>
struct sum {
  KOKKOS_INLINE_FUNCTION T operator()(T x, T y) const { return x + y; }
};
template <class T>
struct linear_combination {
  T alpha, beta;
  KOKKOS_INLINE_FUNCTION T operator()(T x, T y) const { return alpha * x + beta * y; }
};
template <class T>
struct scaled_first {  // Scale as a two-operand formula: alpha*x (y is x again)
  T alpha;
  KOKKOS_INLINE_FUNCTION T operator()(T x, T) const { return alpha * x; }
};

template <class Exec>
struct elementwise_packs : std::false_type {};

// c[i] = formula(a[i], b[i]), one 16-byte pack of elements per index; the last index takes the
// n % Vec elements past the last whole pack one by one. Launch over packs(n) indices, with a, b
// and c 16-byte aligned (c may be a or b: each element is read before it is written).
template <class T, class Exec, class Formula>
struct Packed {
  using pack = detail::pack<T>;
  static constexpr std::int64_t Vec = pack::size;
  static std::int64_t packs(std::int64_t n) { return (n + Vec - 1) / Vec; }
  static bool aligned(const void* p) { return pack_aligned(p); }

  const T* a;
  const T* b;
  T* c;
  std::int64_t n;
  Formula formula;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const std::int64_t first = p * Vec;
    if (first + Vec <= n) {
      const pack x = reinterpret_cast<const pack*>(a)[p], y = reinterpret_cast<const pack*>(b)[p];
      pack z;
      for (int v = 0; v < Vec; ++v) z.v[v] = formula(x.v[v], y.v[v]);
      reinterpret_cast<pack*>(c)[p] = z;
    } else {
      for (std::int64_t i = first; i < n; ++i) c[i] = formula(a[i], b[i]);
    }
  }
};

}  // namespace pk::detail
