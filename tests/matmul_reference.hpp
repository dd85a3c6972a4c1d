#pragma once
// The matmul tests' problems, by the project's float64 reference (src/reference), and the
// per-element error bound they state.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <pk/matmul.hpp>

#include "reference/float64_reference.hpp"
#include "test_support.hpp"

namespace pk_test {

// A GEMM problem with fresh random operands as stored (A m x k or k x m, B k x n or n x k).
template <class T>
struct gemm_case {
  pk::op op_a = pk::op::none, op_b = pk::op::none;
  std::int64_t m = 0, n = 0, k = 0;
  std::vector<T> a, b;
  // op(A)*op(B) and |op(A)|*|op(B)| in float64, m x n.
  std::vector<double> product, magnitude;

  gemm_case(pk::op oa, pk::op ob, std::int64_t m_, std::int64_t n_, std::int64_t k_)
      : op_a(oa), op_b(ob), m(m_), n(n_), k(k_), a(random_vector<T>(m_ * k_)), b(random_vector<T>(k_ * n_)),
        product(m_ * n_), magnitude(m_ * n_) {
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j)
        product[i * n + j] = pk::reference::gemm_entry(op_a, op_b, m, n, k, a.data(), b.data(), i, j, &magnitude[i * n + j]);
  }
};

// The stated bound: a k-term float sum accumulates at most about k roundings of eps each, so
//   |C - ref| <= 8 * k * eps * (|alpha| * sum_l |a_il||b_lj| + |beta||c_ij|)
// per element (eps of T: float or double), plus one rounding of the result for k small.
template <class T>
double gemm_bound(std::int64_t k, double alpha, double beta, double magnitude, double c_before) {
  const double eps = std::numeric_limits<T>::epsilon();
  return 8.0 * static_cast<double>(k + 1) * eps * (std::abs(alpha) * magnitude + std::abs(beta) * std::abs(c_before));
}

// The number of elements of c outside the bound (NaN counts as outside). c_before is C before
// the call (ignored, and may be NaN, when beta == 0).
template <class T>
std::int64_t gemm_errors(const gemm_case<T>& g, double alpha, double beta, const std::vector<T>& c_before,
                         const std::vector<T>& c) {
  std::int64_t bad = 0;
  for (std::int64_t e = 0; e < g.m * g.n; ++e) {
    const double before = beta == 0 ? 0.0 : static_cast<double>(c_before[e]);
    const double ref = alpha * g.product[e] + beta * before;
    const double bound = gemm_bound<T>(g.k, alpha, beta, g.magnitude[e], before);
    if (!(std::abs(static_cast<double>(c[e]) - ref) <= bound)) ++bad;
  }
  return bad;
}

}  // namespace pk_test
