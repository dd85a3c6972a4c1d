// The named filter kernels: box, Gaussian (as OpenCV builds it), sharpen, Sobel, and checked
// custom kernels. Separable ones carry their row and column so that they run as two 1-D passes.
#include <pk/filter.hpp>

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "core/check.hpp"
#include "filter/filter_checks.hpp"

namespace pk {
namespace {

void require_filter_size(const char* who, int size) {
  if (size < 1 || size > max_filter_size || size % 2 == 0)
    detail::fail(who, "size is ", size, ", expected an odd number from 1 to ", max_filter_size);
}

// weights(i, j) = column[i] * row[j], in float: exactly what the separable path multiplies out.
filter_kernel outer_product(std::vector<float> column, std::vector<float> row) {
  filter_kernel k;
  k.size = static_cast<int>(row.size());
  k.weights.resize(row.size() * column.size());
  for (std::size_t i = 0; i < column.size(); ++i)
    for (std::size_t j = 0; j < row.size(); ++j) k.weights[i * row.size() + j] = column[i] * row[j];
  k.row = std::move(row);
  k.column = std::move(column);
  return k;
}

// OpenCV's getGaussianKernel: with sigma <= 0, sizes up to 7 use its fixed tables (what
// cv::GaussianBlur(ksize, 0) applies) and larger sizes sigma = 0.3*((size-1)*0.5 - 1) + 0.8;
// otherwise samples of exp(-x^2 / (2 sigma^2)). Normalized to sum 1.
std::vector<float> gaussian_taps(int size, double sigma) {
  static const double fixed[4][7] = {{1},
                                     {0.25, 0.5, 0.25},
                                     {0.0625, 0.25, 0.375, 0.25, 0.0625},
                                     {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125}};
  const bool use_fixed = sigma <= 0 && size <= 7;
  const double s = sigma > 0 ? sigma : 0.3 * ((size - 1) * 0.5 - 1) + 0.8;
  std::vector<double> taps(static_cast<std::size_t>(size));
  double sum = 0;
  for (int i = 0; i < size; ++i) {
    const double x = i - (size - 1) * 0.5;
    taps[i] = use_fixed ? fixed[size / 2][i] : std::exp(-x * x / (2 * s * s));
    sum += taps[i];
  }
  std::vector<float> out(taps.size());
  for (std::size_t i = 0; i < taps.size(); ++i) out[i] = static_cast<float>(taps[i] / sum);
  return out;
}

}  // namespace

filter_kernel box_kernel(int size) {
  require_filter_size("pk::box_kernel", size);
  auto k = outer_product(std::vector<float>(size, 1.f / size), std::vector<float>(size, 1.f / size));
  for (auto& w : k.weights) w = static_cast<float>(1.0 / (double(size) * size));  // exactly 1/size^2
  return k;
}

filter_kernel gaussian_kernel(int size, double sigma) {
  require_filter_size("pk::gaussian_kernel", size);
  if (!std::isfinite(sigma))
    detail::fail("pk::gaussian_kernel", "sigma is ", sigma, ", expected a finite number (<= 0: from the size)");
  auto taps = gaussian_taps(size, sigma);
  return outer_product(taps, taps);
}

filter_kernel sharpen_kernel() { return custom_kernel(3, {0, -1, 0, -1, 5, -1, 0, -1, 0}); }

// [-1 0 1; -2 0 2; -1 0 1] = [1 2 1]^T (x) [-1 0 1]: smoothing down the column, difference along the row.
filter_kernel sobel_x_kernel() { return outer_product({1, 2, 1}, {-1, 0, 1}); }
filter_kernel sobel_y_kernel() { return outer_product({-1, 0, 1}, {1, 2, 1}); }

filter_kernel custom_kernel(int size, std::vector<float> weights) {
  filter_kernel k;
  k.size = size;
  k.weights = std::move(weights);
  detail::check_filter_kernel("pk::custom_kernel", k);
  return k;
}

filter_kernel separable_kernel(std::vector<float> column, std::vector<float> row) {
  if (column.size() != row.size())
    detail::fail("pk::separable_kernel", "column has ", column.size(), " taps, expected ", row.size(),
                 " (the length of row)");
  require_filter_size("pk::separable_kernel", static_cast<int>(row.size()));
  return outer_product(std::move(column), std::move(row));
}

}  // namespace pk
