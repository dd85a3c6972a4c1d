// Argument checks of the filter kernels (compiled once, host only).
#include "filter/filter_checks.hpp"

#include <cmath>
#include <cstdint>

#include "core/check.hpp"

namespace pk::detail {

void check_filter_kernel(const char* who, const filter_kernel& k) {
  if (k.size < 1 || k.size > max_filter_size || k.size % 2 == 0)
    fail(who, "kernel size is ", k.size, ", expected an odd number from 1 to ", max_filter_size);
  const std::int64_t n = k.size;
  if (static_cast<std::int64_t>(k.weights.size()) != n * n)
    fail(who, "kernel has ", k.weights.size(), " weights, expected ", n * n, " (size ", n, " x ", n, ")");
  if (k.row.empty() && k.column.empty()) return;
  if (static_cast<std::int64_t>(k.row.size()) != n)
    fail(who, "kernel row has ", k.row.size(), " taps, expected ", n, " (the kernel size; empty: not separable)");
  if (static_cast<std::int64_t>(k.column.size()) != n)
    fail(who, "kernel column has ", k.column.size(), " taps, expected ", n, " (the kernel size, as row)");
  // The separable path uses row and column, the general one the weights: they must agree to
  // float rounding, relative to the largest weight.
  double largest = 0;
  for (float w : k.weights) largest = std::fmax(largest, std::fabs(double(w)));
  for (int i = 0; i < k.size; ++i)
    for (int j = 0; j < k.size; ++j) {
      const double w = k.weights[static_cast<std::size_t>(i) * k.size + j];
      const double outer = double(k.column[i]) * double(k.row[j]);
      if (!(std::fabs(w - outer) <= 1e-5 * largest + 1e-30))
        fail(who, "kernel weight (", i, ", ", j, ") is ", w, " but column[", i, "] * row[", j, "] is ", outer,
             " (a separable kernel's weights must be the outer product of column and row)");
    }
}

namespace {

bool same_shape(image_extents a, image_extents b) {
  return a.height == b.height && a.width == b.width && a.channels == b.channels;
}

}  // namespace

void check_filter_images(const char* who, image_extents in, image_extents out, const void* in_data,
                         const void* out_data, std::size_t pixel_bytes) {
  if (in.height < 0 || in.width < 0)
    fail(who, "in is ", in.height, " x ", in.width, ", expected a height and a width >= 0");
  if (in.channels < 1 || in.channels > 4) fail(who, "in has ", in.channels, " channels, expected 1 to 4");
  if (!same_shape(in, out))
    fail(who, "out is ", out.height, " x ", out.width, " x ", out.channels, ", expected ", in.height, " x ",
         in.width, " x ", in.channels, " (the shape of in)");
  // In 64 bits with overflow checks: two int sides near 2^31 times 4 channels of 4 bytes pass 2^63.
  std::int64_t pixels = 0, bytes = 0;
  if (!checked_product(in.height, in.width, pixels) ||
      !checked_product(pixels, in.channels * static_cast<std::int64_t>(pixel_bytes), bytes))
    fail(who, "in is ", in.height, " x ", in.width, " x ", in.channels, ", more bytes than any image can hold");
  if (bytes > 0 && (in_data == nullptr || out_data == nullptr))
    fail(who, in_data == nullptr ? "in" : "out", " is null with ", in.height, " x ", in.width, " pixels");
  if (ranges_overlap(in_data, bytes, out_data, bytes))
    fail(who, "out shares memory with in (a filter needs an output image separate from its input)");
}

}  // namespace pk::detail
