#pragma once
// The element-wise kernels as Kokkos functors: one index, one formula.
#include <cstdint>

#include <pk/kokkos/views.hpp>

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

}  // namespace pk::detail
