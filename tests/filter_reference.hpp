#pragma once
// The filter tests' reference and helpers: whole images by the project's float64 reference
// (src/reference/float64_reference.hpp, which `pk demo` and `pk bench` check against too),
// tolerances, poisoned outputs and random kernels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <pk/backend.hpp>
#include <pk/filter.hpp>
#include <pk/image.hpp>

#include "reference/float64_reference.hpp"
#include "test_support.hpp"

namespace filter_ref {

struct image_shape {
  int h, w, c;
  std::size_t size() const { return std::size_t(h) * w * c; }
};

// out(y,x,c) = sum_{i,j} w(i,j) in(y+i-r, x+j-r, c): correlation, as cv::filter2D, in float64.
template <class T>
std::vector<double> convolve(const std::vector<T>& in, image_shape s, int size, const std::vector<double>& w,
                             pk::border b) {
  std::vector<double> out(s.size());
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x)
      for (int ch = 0; ch < s.c; ++ch)
        out[(std::size_t(y) * s.w + x) * s.c + ch] =
            pk::reference::correlate_pixel(in.data(), s.h, s.w, s.c, y, x, ch, size, w.data(), b);
  return out;
}

// The Sobel gradient magnitude, from the derivatives' nonzero taps (what the kernels read).
template <class T>
std::vector<double> sobel_magnitude(const std::vector<T>& in, image_shape s, pk::border b) {
  std::vector<double> out(s.size());
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x)
      for (int ch = 0; ch < s.c; ++ch)
        out[(std::size_t(y) * s.w + x) * s.c + ch] = pk::reference::sobel_pixel(in.data(), s.h, s.w, s.c, y, x, ch, b);
  return out;
}

inline std::vector<double> as_double(const std::vector<float>& v) { return {v.begin(), v.end()}; }

// The scale of a result's rounding error: sum |w| * max |in|.
template <class T>
double error_scale(const std::vector<T>& in, const std::vector<double>& w) {
  double wsum = 0, imax = 0;
  for (double x : w) wsum += std::abs(x);
  for (T x : in) imax = std::max(imax, std::abs(double(x)));
  return std::max(wsum * imax, 1e-30);
}

// Stated tolerance for float32 results: 1e-5 of sum |w| * max |in| (a float32 sum of at most
// 225 products, or two passes of 15, errs by far less; a wrong border or tap errs by far more).
constexpr double float_tolerance = 1e-5;

// The largest |out - ref| / scale; infinite when out holds a NaN (an unwritten poisoned pixel).
inline double worst_float_error(const std::vector<float>& out, const std::vector<double>& ref, double scale) {
  REQUIRE(out.size() == ref.size());
  double worst = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (std::isnan(out[i])) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::abs(double(out[i]) - ref[i]) / scale);
  }
  return worst;
}

// uint8 results: the reference rounded and saturated, off by at most 1 (float accumulation can
// land on the other side of a .5).
inline std::uint8_t saturate(double v) { return std::uint8_t(pk::reference::to_uint8(v)); }
inline int worst_uint8_error(const std::vector<std::uint8_t>& out, const std::vector<double>& ref) {
  REQUIRE(out.size() == ref.size());
  int worst = 0;
  for (std::size_t i = 0; i < out.size(); ++i) worst = std::max(worst, std::abs(int(out[i]) - int(saturate(ref[i]))));
  return worst;
}

// Runs f(out) on an output poisoned with NaN (float), or twice on outputs poisoned with 0x00
// and 0xFF that must come out identical (uint8): an unwritten pixel cannot pass.
template <class F>
std::vector<float> run_poisoned(std::size_t n, float, F&& f) {
  auto out = pk_test::poisoned<float>(n);
  f(out);
  return out;
}
template <class F>
std::vector<std::uint8_t> run_poisoned(std::size_t n, std::uint8_t, F&& f) {
  std::vector<std::uint8_t> low(n, 0x00), high(n, 0xFF);
  f(low);
  f(high);
  REQUIRE(low == high);
  return low;
}

template <class T>
std::vector<T> run_filter(pk::backend on, const std::vector<T>& in, image_shape s, const pk::filter_kernel& k,
                          pk::border b) {
  return run_poisoned(s.size(), T{}, [&](std::vector<T>& out) {
    pk::filter(on, pk::image_ref<const T>{in.data(), s.h, s.w, s.c}, pk::image_ref<T>{out.data(), s.h, s.w, s.c},
               k, b);
  });
}

template <class T>
std::vector<T> run_sobel(pk::backend on, const std::vector<T>& in, image_shape s, pk::border b) {
  return run_poisoned(s.size(), T{}, [&](std::vector<T>& out) {
    pk::sobel_magnitude(on, pk::image_ref<const T>{in.data(), s.h, s.w, s.c},
                        pk::image_ref<T>{out.data(), s.h, s.w, s.c}, b);
  });
}

// Random kernels for the tests, weights drawn uniformly from [lo, hi) as float32 (what a kernel
// holds), so the reference convolves exactly the weights the library gets.
// Not separable: every weight drawn on its own.
inline pk::filter_kernel random_kernel(int size, double lo, double hi) {
  return pk::custom_kernel(size, pk_test::random_vector<float>(std::size_t(size) * size, lo, hi));
}
inline pk::filter_kernel random_separable_kernel(int size, double lo, double hi) {
  auto column = pk_test::random_vector<float>(std::size_t(size), lo, hi);
  auto row = pk_test::random_vector<float>(std::size_t(size), lo, hi);
  return pk::separable_kernel(std::move(column), std::move(row));
}
// A kernel's size x size weights (row-major), as the reference takes them.
inline std::vector<double> weights_of(const pk::filter_kernel& k) { return {k.weights.begin(), k.weights.end()}; }

inline const std::vector<pk::border>& all_borders() {
  static const std::vector<pk::border> b{pk::border::clamp, pk::border::reflect101, pk::border::zero,
                                         pk::border::wrap};
  return b;
}

}  // namespace filter_ref
