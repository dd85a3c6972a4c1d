// C = op(A)*op(B), row-major, on matrices already in the backend's memory (Kokkos Views), timed
// and checked on random entries of C against float64 dot products.
#include <pk/kokkos/matmul.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "measurement.hpp"
#include <pk/kokkos/on_backend.hpp>
#include "timing.hpp"

namespace pk_app {
namespace {

constexpr int checked_entries = 1000;

template <class T, class Exec>
measurement matmul_on(const Exec& space, std::int64_t m, std::int64_t n, std::int64_t k, bool ta, bool tb,
                      int repeat, bool check) {
  // A is stored m x k, or k x m when it is transposed; likewise B.
  pk::matrix_view<T, Exec> a("A", ta ? k : m, ta ? m : k), b("B", tb ? n : k, tb ? k : n), c("C", m, n);
  auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
  fill_uniform(ha.data(), ha.size(), -1, 1);
  fill_uniform(hb.data(), hb.size(), -1, 1);
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);
  Kokkos::deep_copy(c, std::numeric_limits<T>::quiet_NaN());  // beta = 0: C is only written
  const pk::op op_a = ta ? pk::op::transpose : pk::op::none, op_b = tb ? pk::op::transpose : pk::op::none;

  const timing t = time_median(
      [&] {
        pk::gemm(space, op_a, op_b, T(1), a, b, T(0), c);
        space.fence();
      },
      repeat);

  measurement r;
  r.kernel = sizeof(T) == 4 ? "matmul float" : "matmul double";
  r.ms = t.median_ms;
  r.runs = t.runs;
  r.throughput = 2.0 * double(m) * double(n) * double(k) / (t.median_ms * 1e6);
  r.unit = "GFLOP/s";
  if (check) {
    // Error of an entry against its float64 dot product, relative to the largest sum_l |a||b| of
    // the entries checked: a float sum of k products lies within k*eps of that, in any order.
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    auto A = [&](std::int64_t i, std::int64_t l) { return double(ta ? ha(l, i) : ha(i, l)); };
    auto B = [&](std::int64_t l, std::int64_t j) { return double(tb ? hb(j, l) : hb(l, j)); };
    std::uniform_int_distribution<std::int64_t> row(0, m - 1), col(0, n - 1);
    double worst = 0, scale = 0;
    const int entries = int(std::min<std::int64_t>(checked_entries, m * n));
    for (int s = 0; s < entries; ++s) {
      const std::int64_t i = row(rng()), j = col(rng());
      double ref = 0, magnitude = 0;
      for (std::int64_t l = 0; l < k; ++l) ref += A(i, l) * B(l, j), magnitude += std::abs(A(i, l) * B(l, j));
      const double err = std::abs(double(hc(i, j)) - ref);
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
  measurement r = pk::on_backend(on, [&](auto space) {
    return use_double ? matmul_on<double>(space, m, n, k, transpose_a, transpose_b, repeat, check)
                      : matmul_on<float>(space, m, n, k, transpose_a, transpose_b, repeat, check);
  });
  r.size = m == n && n == k ? std::to_string(m) + "^3"
                            : std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  return r;
}

}  // namespace pk_app
