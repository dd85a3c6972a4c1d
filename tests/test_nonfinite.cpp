// NaN and Inf inputs propagate as IEEE arithmetic says, exactly where they are read: element-wise
// kernels element by element, filters through the windows that read the pixel, GEMM along the
// row of op(A) and the column of op(B). uint8 images have no NaN (not applicable).
#include <pk/add.hpp>
#include <pk/filter.hpp>
#include <pk/matmul.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "filter_reference.hpp"
#include "matmul_reference.hpp"
#include "test_support.hpp"

namespace {

// Elements of `out` that disagree with the float64 IEEE reference: NaN must be NaN, +-Inf the same
// infinity, finite values within `tolerance` (absolute). `out` starts as a finite sentinel, so
// an unwritten element fails wherever NaN or Inf is expected.
template <class T>
int ieee_mismatches(const std::vector<T>& out, const std::vector<double>& ref, double tolerance) {
  REQUIRE(out.size() == ref.size());
  int bad = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double o = static_cast<double>(out[i]);
    const bool ok = std::isnan(ref[i]) ? std::isnan(o) : std::isinf(ref[i]) ? o == ref[i] : std::abs(o - ref[i]) <= tolerance;
    if (!ok) {
      if (bad < 5) MESSAGE("element " << i << ": got " << o << ", expected " << ref[i]);
      ++bad;
    }
  }
  return bad;
}

template <class T>
constexpr T sentinel = T(-7777);

}  // namespace

TEST_CASE_TEMPLATE("add, axpby and scale: NaN and Inf propagate element by element", T, float, double) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const std::size_t n = 1031;  // the special values sit inside and at the tail of vectorized runs
  auto x = pk_test::random_vector<T>(n), y = pk_test::random_vector<T>(n);
  x[3] = nan, y[10] = nan, x[20] = inf, y[20] = -inf, x[30] = inf, y[31] = -inf, x[40] = -inf, y[40] = -inf;
  x[n - 1] = nan, y[n - 2] = inf;
  const double tol = 4 * std::numeric_limits<T>::epsilon();  // |x|, |y| <= 1: a few roundings
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<double> ref(n);
    std::vector<T> out(n, sentinel<T>);
    pk::add(b, x, y, out);
    for (std::size_t i = 0; i < n; ++i) ref[i] = double(x[i]) + double(y[i]);  // inf + -inf = NaN
    CHECK(ieee_mismatches(out, ref, tol) == 0);

    for (T alpha : {T(2), T(0)}) {  // alpha 0: 0 * Inf is NaN (no BLAS shortcut in axpby)
      CAPTURE(alpha);
      out.assign(n, sentinel<T>);
      pk::axpby(b, alpha, x, T(-3), y, out);
      for (std::size_t i = 0; i < n; ++i) ref[i] = double(alpha) * double(x[i]) - 3.0 * double(y[i]);
      CHECK(ieee_mismatches(out, ref, 4 * tol) == 0);

      auto s = x;
      pk::scale(b, alpha, s);
      for (std::size_t i = 0; i < n; ++i) ref[i] = double(alpha) * double(x[i]);
      CHECK(ieee_mismatches(s, ref, tol) == 0);
    }
  }
}

namespace {

}  // namespace

TEST_CASE("filter: a NaN or Inf pixel poisons exactly the outputs whose window reads it") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (int channels : {1, 3})
    for (int size : {1, 3, 5, 15})
      for (pk::border b : filter_ref::all_borders()) {
        const filter_ref::image_shape s{23, 37, channels};
        const std::string border_name = pk::to_string(b);
        CAPTURE(border_name);
        CAPTURE(size);
        CAPTURE(channels);
        auto in = pk_test::random_vector<float>(s.size());
        const auto at = [&](int y, int x, int c) -> float& { return in[(std::size_t(y) * s.w + x) * s.c + c]; };
        at(5, 7, 0) = nan;                 // inside
        at(0, 0, channels - 1) = -inf;     // a corner: the borders reflect, wrap or clamp it
        at(15, 36, channels / 2) = inf;    // the right edge
        // Mixed-sign weights: an Inf read through weights of both signs (or a zero) gives NaN,
        // through weights of one sign that infinity; the classification does not depend on the
        // order of the sum, so float32 and the float64 reference agree on it.
        const auto general = pk::custom_kernel(size, pk_test::random_vector<float>(std::size_t(size) * size));
        const auto separable = pk::separable_kernel(pk_test::random_vector<float>(size), pk_test::random_vector<float>(size));
        for (const pk::filter_kernel* k : {&general, &separable}) {
          const auto ref = filter_ref::convolve(in, s, size, {k->weights.begin(), k->weights.end()}, b);
          double wsum = 0;
          for (float w : k->weights) wsum += std::abs(w);
          for (pk::backend on : pk::available_backends()) {
            CAPTURE_BACKEND(on);
            CAPTURE(k->separable());
            std::vector<float> out(s.size(), sentinel<float>);
            pk::filter(on, pk::image_ref<const float>{in.data(), s.h, s.w, s.c}, pk::image_ref<float>{out.data(), s.h, s.w, s.c},
                       *k, b);
            CHECK(ieee_mismatches(out, ref, filter_ref::float_tolerance * wsum) == 0);
          }
        }
        // Sobel magnitude: NaN only (an Inf's sign cancels in d/dx, d/dy in an order-dependent way).
        at(0, 0, channels - 1) = 0.5f, at(15, 36, channels / 2) = nan;
        const auto ref = filter_ref::sobel_magnitude(in, s, b);  // from the nonzero taps: what the kernels read
        for (pk::backend on : pk::available_backends()) {
          CAPTURE_BACKEND(on);
          std::vector<float> out(s.size(), sentinel<float>);
          pk::sobel_magnitude(on, pk::image_ref<const float>{in.data(), s.h, s.w, s.c},
                              pk::image_ref<float>{out.data(), s.h, s.w, s.c}, b);
          CHECK(ieee_mismatches(out, ref, filter_ref::float_tolerance * 8) == 0);
        }
      }
}

TEST_CASE_TEMPLATE("gemm: NaN poisons its row of op(A) or column of op(B); Inf gives infinities of the right sign", T,
                   float, double) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (pk::op op_a : {pk::op::none, pk::op::transpose})
    for (pk::op op_b : {pk::op::none, pk::op::transpose})
      for (auto [m, n, k] : {std::array<std::int64_t, 3>{37, 29, 41}, std::array<std::int64_t, 3>{200, 270, 300}}) {
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(k);
        pk_test::gemm_case<T> g(op_a, op_b, m, n, k);  // random A and B, with the values below placed in them
        const auto a_at = [&](std::int64_t i, std::int64_t l) -> T& { return op_a == pk::op::none ? g.a[i * k + l] : g.a[l * m + i]; };
        const auto b_at = [&](std::int64_t l, std::int64_t j) -> T& { return op_b == pk::op::none ? g.b[l * n + j] : g.b[j * k + l]; };
        a_at(5, 7) = nan;         // row 5 of C
        b_at(11, n - 1) = nan;    // the last column of C (an edge tile)
        a_at(m - 1, 3) = inf;     // the last row of C: +-Inf by the sign of B's row 3
        b_at(k - 1, 2) = -inf;    // column 2: -+Inf by the sign of A's column k-1 (NaN where it meets row m-1)
        const T alpha = T(1.5), beta = T(-0.5);
        auto c_before = pk_test::random_vector<T>(m * n);
        c_before[m * n / 2] = nan;  // beta != 0: C is read, its NaN stays in its element
        std::vector<double> ref(m * n), magnitude(m * n);
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t j = 0; j < n; ++j) {
            double sum = 0, mag = 0;
            for (std::int64_t l = 0; l < k; ++l) {
              const double product = double(a_at(i, l)) * double(b_at(l, j));
              sum += product;
              if (std::isfinite(product)) mag += std::abs(product);
            }
            ref[i * n + j] = double(alpha) * sum + double(beta) * double(c_before[i * n + j]);
            magnitude[i * n + j] = mag;
          }
        double worst_magnitude = 0;
        for (double v : magnitude) worst_magnitude = std::max(worst_magnitude, v);
        for (pk::backend b : pk::available_backends()) {
          CAPTURE_BACKEND(b);
          auto c = c_before;
          pk::gemm(b, op_a, op_b, m, n, k, alpha, g.a, g.b, beta, c);
          const double tol = pk_test::gemm_bound<T>(k, alpha, beta, worst_magnitude, 1.0);
          CHECK(ieee_mismatches(c, ref, tol) == 0);
        }
      }
}
