// C = op(A)*op(B), row-major, through the host-array interface (zero-copy on host backends; on
// CUDA the time includes copying A, B and C between host and device). Checked on random entries
// of C against float64 dot products.
#include <pk/matmul.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "measurement.hpp"
#include "timing.hpp"

namespace pk_app {
namespace {

constexpr int checked_entries = 1000;

template <class T>
measurement matmul_on(pk::backend on, std::int64_t m, std::int64_t n, std::int64_t k, bool ta, bool tb, int repeat,
                      bool check) {
  std::vector<T> a(std::size_t(m) * std::size_t(k)), b(std::size_t(k) * std::size_t(n));
  std::vector<T> c(std::size_t(m) * std::size_t(n), std::numeric_limits<T>::quiet_NaN());
  fill_uniform(a.data(), a.size(), -1, 1);
  fill_uniform(b.data(), b.size(), -1, 1);
  const pk::op op_a = ta ? pk::op::transpose : pk::op::none, op_b = tb ? pk::op::transpose : pk::op::none;

  const timing t = time_median([&] { pk::gemm(on, op_a, op_b, m, n, k, T(1), a, b, T(0), c); }, repeat);

  measurement r;
  r.kernel = sizeof(T) == 4 ? "matmul float" : "matmul double";
  r.ms = t.median_ms;
  r.runs = t.runs;
  r.throughput = 2.0 * double(m) * double(n) * double(k) / (t.median_ms * 1e6);
  r.unit = "GFLOP/s";
  if (check) {
    // Error of an entry against its float64 dot product, relative to the largest sum_l |a||b| of
    // the entries checked: a float sum of k products lies within k*eps of that, in any order.
    auto A = [&](std::int64_t i, std::int64_t l) { return double(ta ? a[l * m + i] : a[i * k + l]); };
    auto B = [&](std::int64_t l, std::int64_t j) { return double(tb ? b[j * k + l] : b[l * n + j]); };
    std::uniform_int_distribution<std::int64_t> row(0, m - 1), col(0, n - 1);
    double worst = 0, scale = 0;
    const int entries = int(std::min<std::int64_t>(checked_entries, m * n));
    for (int s = 0; s < entries; ++s) {
      const std::int64_t i = row(rng()), j = col(rng());
      double ref = 0, magnitude = 0;
      for (std::int64_t l = 0; l < k; ++l) ref += A(i, l) * B(l, j), magnitude += std::abs(A(i, l) * B(l, j));
      const double err = std::abs(double(c[std::size_t(i * n + j)]) - ref);
      worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : std::fmax(worst, err);
      scale = std::fmax(scale, magnitude);
    }
    r.checked = true;
    r.error = worst / std::fmax(scale, 1e-300);
    r.tolerance = double(k) * std::numeric_limits<T>::epsilon();
    r.check_note = std::to_string(entries) + " random entries";
  }
  return r;
}

}  // namespace

measurement run_matmul(pk::backend on, std::int64_t m, std::int64_t n, std::int64_t k, bool use_double,
                       bool transpose_a, bool transpose_b, int repeat, bool check) {
  measurement r = use_double ? matmul_on<double>(on, m, n, k, transpose_a, transpose_b, repeat, check)
                             : matmul_on<float>(on, m, n, k, transpose_a, transpose_b, repeat, check);
  r.size = m == n && n == k ? std::to_string(m) + "^3"
                            : std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  return r;
}

}  // namespace pk_app
