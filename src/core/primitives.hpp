#pragma once
// Device primitives: what a kernel asks of the hardware, each with its portable definition here.
// A backend's policy names the set its kernels use (Policy::primitives); the CUDA/Hopper set is
// backends/cuda/cuda_primitives.hpp, the only place with inline PTX and CUDA intrinsics. The
// portable set is what the host backends run, and what a GPU without a mechanism would.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include "core/pack.hpp"

namespace pk::detail {

struct portable_primitives {
  // 16 bytes of floats from global memory into team scratch, possibly asynchronously: complete,
  // for the thread that asked, after wait_copies(). Here: at once.
  KOKKOS_INLINE_FUNCTION static void copy_async(float* scratch, const float* global) {
    *reinterpret_cast<pack<float>*>(scratch) = *reinterpret_cast<const pack<float>*>(global);
  }
  KOKKOS_INLINE_FUNCTION static void wait_copies() {}

  // A pack of results that the kernel never reads back (a GPU may keep it out of its caches).
  template <class P>
  KOKKOS_INLINE_FUNCTION static void store_streaming(P* dst, const P& value) {
    *dst = value;
  }

  // sqrt(x) within a few ulp, zero, infinity and NaN as IEEE: here the correctly rounded one.
  KOKKOS_INLINE_FUNCTION static float sqrt_approx(float x) { return sqrtf(x); }

  // Tensor copies: boxes of box_w x box_h floats of a 2-D float image (one channel, dense rows)
  // copied into team scratch, zeros where a box leaves the image. A tensor_map describes the image
  // for such copies, made on the host; has() is false where the mechanism cannot serve it.
  // tensor_copy: the whole team copies `boxes` boxes, box b from image column x + b * step, row y,
  // to scratch at first + b * stride floats (rows of box_w), and every thread returns once they
  // have landed; `signal` is 8 bytes of 8-byte aligned scratch the mechanism may use.
  // Here: the team's threads copy the boxes' rows.
  struct tensor_map {
    const float* image = nullptr;
    std::int64_t height = 0, width = 0;
  };
  static tensor_map make_tensor_map(const float* image, std::int64_t height, std::int64_t width, int, int) {
    return {image, height, width};
  }
  KOKKOS_INLINE_FUNCTION static bool has(const tensor_map& m) { return m.image != nullptr; }
  template <class Member>
  KOKKOS_INLINE_FUNCTION static void tensor_copy(const Member& team, const tensor_map& m, int box_w, int box_h,
                                                 float* first, std::int64_t stride, int boxes, int x, int step, int y,
                                                 void*) {
    for (int k = team.team_rank(); k < boxes * box_h; k += team.team_size()) {
      const int b = k / box_h, row = k - b * box_h;
      const std::int64_t sy = y + row, sx = x + static_cast<std::int64_t>(b) * step;
      float* dst = first + b * stride + static_cast<std::int64_t>(row) * box_w;
      for (int c = 0; c < box_w; ++c) {
        const bool inside = sy >= 0 && sy < m.height && sx + c >= 0 && sx + c < m.width;
        dst[c] = inside ? m.image[sy * m.width + sx + c] : 0.f;
      }
    }
    team.team_barrier();  // the copies are complete before anyone reads them
  }
};

}  // namespace pk::detail
