#pragma once
// Argument checks of the filter kernels, shared by the View and the host-array entry points.
// Each throws pk::error naming the function, the argument and what was expected.
#include <cstddef>
#include <cstdint>

#include <pk/filter.hpp>

namespace pk::detail {

// Odd size 1..max_filter_size, size^2 weights; a separable kernel has size row and column taps
// whose outer product is its weights (so both paths compute the same filter).
void check_filter_kernel(const char* who, const filter_kernel& k);

// The extents of an image argument, as the check messages print them.
struct image_extents {
  std::int64_t height, width, channels;
};

// in and out have one shape with 1..4 channels and do not share memory (a tile would read
// pixels that another tile has already overwritten).
void check_filter_images(const char* who, image_extents in, image_extents out, const void* in_data,
                         const void* out_data, std::size_t pixel_bytes);

}  // namespace pk::detail
