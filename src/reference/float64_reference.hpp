#pragma once
// The float64 references that the tests, `pk demo` and `pk bench` hold the kernels to: the
// textbook formulas, in double, one output at a time, with the library's own border rule
// (filter/border_index.hpp: the one place it is written). Header-only; the target pk_reference.
#include <cmath>
#include <cstdint>
#include <vector>

#include <pk/filter.hpp>
#include <pk/matmul.hpp>

#include "filter/border_index.hpp"

namespace pk::reference {

// out(y, x, ch) = sum_{i,j} w(i, j) in(y + i - r, x + j - r, ch) (correlation, as cv::filter2D) of
// an h x w x c image, size x size row-major weights; *magnitude = sum |w||in| over the taps (the
// scale of a float result's rounding error). Every tap counts, as in the kernels (a NaN under a
// weight of 0 makes a NaN), except with skip_zero_weights (Sobel's, whose zero taps the kernels
// never read); pixels that the border makes zeros add nothing.
template <class T, class W>
double correlate_pixel(const T* in, std::int64_t h, std::int64_t w, int c, std::int64_t y, std::int64_t x, int ch,
                       int size, const W* weights, border b, double* magnitude = nullptr,
                       bool skip_zero_weights = false) {
  const int r = size / 2;
  double sum = 0, abs_sum = 0;
  for (int i = 0; i < size; ++i) {
    const std::int64_t sy = detail::border_index(y + i - r, h, b);
    if (sy < 0) continue;
    for (int j = 0; j < size; ++j) {
      const double wt = double(weights[i * size + j]);
      const std::int64_t sx = detail::border_index(x + j - r, w, b);
      if (sx < 0 || (skip_zero_weights && wt == 0)) continue;
      const double term = wt * double(in[(sy * w + sx) * c + ch]);
      sum += term;
      abs_sum += std::abs(term);
    }
  }
  if (magnitude) *magnitude = abs_sum;
  return sum;
}

// sqrt(gx^2 + gy^2) of the 3x3 Sobel derivatives at (y, x, ch), from their nonzero taps;
// *magnitude: the larger sum |w||in|.
template <class T>
double sobel_pixel(const T* in, std::int64_t h, std::int64_t w, int c, std::int64_t y, std::int64_t x, int ch,
                   border b, double* magnitude = nullptr) {
  static const double dx[9] = {-1, 0, 1, -2, 0, 2, -1, 0, 1}, dy[9] = {-1, -2, -1, 0, 0, 0, 1, 2, 1};
  double mx = 0, my = 0;
  const double gx = correlate_pixel(in, h, w, c, y, x, ch, 3, dx, b, &mx, true);
  const double gy = correlate_pixel(in, h, w, c, y, x, ch, 3, dy, b, &my, true);
  if (magnitude) *magnitude = mx > my ? mx : my;
  return std::sqrt(gx * gx + gy * gy);
}

// A filter_spec's output at (y, x, ch).
template <class T>
double filter_pixel(const T* in, std::int64_t h, std::int64_t w, int c, std::int64_t y, std::int64_t x, int ch,
                    const filter_spec& f, border b, double* magnitude = nullptr) {
  if (f.op == filter_op::sobel_magnitude) return sobel_pixel(in, h, w, c, y, x, ch, b, magnitude);
  return correlate_pixel(in, h, w, c, y, x, ch, f.kernel.size, f.kernel.weights.data(), b, magnitude);
}

// A uint8 result of value v: rounded to nearest and saturated to 0..255.
inline double to_uint8(double v) { return std::fmin(255.0, std::fmax(0.0, std::nearbyint(v))); }

// Entry (i, j) of op(A) op(B), A and B row-major as stored (A m x k, or k x m with op_a
// transpose; B k x n, or n x k), in float64; *magnitude = sum_l |a_il||b_lj|.
template <class T>
double gemm_entry(op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, const T* a, const T* b,
                  std::int64_t i, std::int64_t j, double* magnitude = nullptr) {
  double sum = 0, abs_sum = 0;
  for (std::int64_t l = 0; l < k; ++l) {
    const double x = op_a == op::none ? double(a[i * k + l]) : double(a[l * m + i]);
    const double y = op_b == op::none ? double(b[l * n + j]) : double(b[j * k + l]);
    sum += x * y;
    abs_sum += std::abs(x * y);
  }
  if (magnitude) *magnitude = abs_sum;
  return sum;
}

// Element i of alpha * a + beta * b; *magnitude = the larger |term|.
template <class T>
double axpby_element(double alpha, const T* a, double beta, const T* b, std::int64_t i, double* magnitude = nullptr) {
  const double x = alpha * double(a[i]), y = beta * double(b[i]);
  if (magnitude) *magnitude = std::abs(x) > std::abs(y) ? std::abs(x) : std::abs(y);
  return x + y;
}

}  // namespace pk::reference
