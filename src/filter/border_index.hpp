#pragma once
// Where a coordinate outside the image reads from: OpenCV's borderInterpolate, as a closed form
// that is right for any distance outside (also when the image is smaller than the filter radius)
// and has no loop, so it runs the same on a GPU thread.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <pk/filter.hpp>

namespace pk::detail {

// The index in [0, n) that position p of a line of n > 0 pixels reads, or -1 for "a zero".
KOKKOS_INLINE_FUNCTION std::int64_t border_index(std::int64_t p, std::int64_t n, border mode) {
  if (p >= 0 && p < n) return p;
  switch (mode) {
    case border::clamp:
      return p < 0 ? 0 : n - 1;
    case border::reflect101: {
      // ...dcb|abcd|cba...: reflection about both end pixels repeats with period 2(n-1).
      if (n == 1) return 0;
      const std::int64_t period = 2 * (n - 1);
      std::int64_t q = p % period;
      if (q < 0) q += period;
      return q < n ? q : period - q;
    }
    case border::wrap: {
      std::int64_t q = p % n;
      return q < 0 ? q + n : q;
    }
    case border::zero:
      break;
  }
  return -1;
}

}  // namespace pk::detail
