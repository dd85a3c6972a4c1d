#pragma once
// Device primitives: what a kernel asks of the hardware, each with its portable definition here.
// A backend's policy names the set its kernels use (Policy::primitives); the CUDA/Hopper set is
// backends/cuda/cuda_primitives.hpp, the only place with inline PTX and CUDA intrinsics. The
// portable set is what the host backends run, and what a GPU without a mechanism would.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/pack.hpp"
#include "core/unroll.hpp"

namespace pk::detail {

// A warp's matrix multiply-accumulate of doubles, D (16 x 8) += A (16 x K) * B (K x 8), K = 4, 8
// or 16, as the 32 lanes of a warp (32 consecutive threads of a team) share it: each lane loads
// its fragments of A and B from scratch and holds four of D's values, c[e] = D(row(lane, e),
// col(lane, e)): rows lane/4 and lane/4 + 8, columns 2 (lane % 4) and the next. That placement of
// D is the tensor cores' (NVIDIA's mma.sync.m16n8k*.f64: backends/cuda/cuda_primitives.hpp);
// which values of A and B a lane loads is each implementation's own. This portable one needs no
// other lane: a lane loads its two rows of A and two columns of B and computes its four values
// itself, in the order of k (what any team of 32-thread warps, or a test stepping through the 32
// lanes, can run).
//   A(i, k) at a[k * lda + i] (staged transposed, as the GEMM stages op(A)); B(k, j) at b[k * ldb + j].
template <int K_>
struct portable_warp_mma {
  static constexpr int M = 16, N = 8, K = K_;
  static_assert(K == 4 || K == 8 || K == 16, "K of 4, 8 or 16");
  struct a_fragment {
    double v[2 * K];
  };
  struct b_fragment {
    double v[2 * K];
  };
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int row(int lane, int e) { return lane / 4 + 8 * (e / 2); }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int col(int lane, int e) { return 2 * (lane % 4) + e % 2; }
  KOKKOS_FORCEINLINE_FUNCTION static void load_a(a_fragment& f, const double* a, int lda, int lane) {
    PK_UNROLL
    for (int h = 0; h < 2; ++h) {
      PK_UNROLL
      for (int k = 0; k < K; ++k) f.v[h * K + k] = a[k * lda + row(lane, 2 * h)];
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION static void load_b(b_fragment& f, const double* b, int ldb, int lane) {
    PK_UNROLL
    for (int q = 0; q < 2; ++q) {
      PK_UNROLL
      for (int k = 0; k < K; ++k) f.v[q * K + k] = b[k * ldb + col(lane, q)];
    }
  }
  KOKKOS_FORCEINLINE_FUNCTION static void mma(double (&c)[4], const a_fragment& a, const b_fragment& b) {
    PK_UNROLL
    for (int e = 0; e < 4; ++e) {
      PK_UNROLL
      for (int k = 0; k < K; ++k) c[e] += a.v[(e / 2) * K + k] * b.v[(e % 2) * K + k];
    }
  }
};

// A result as a pixel: float as is; uint8 rounded to nearest (half to even, like cvRound) and
// saturated to 0..255 like cv::saturate_cast (NaN gives 0). The one rounding rule of the filters'
// uint8 results (a backend's narrow_to_bytes computes the same).
template <class T>
KOKKOS_INLINE_FUNCTION T to_pixel(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    v = v > 0.f ? v : 0.f;
    v = v < 255.f ? v : 255.f;
    return static_cast<T>(static_cast<int>(rintf(v)));
  }
}

struct portable_primitives {
  // 16 bytes (a pack of E) from global memory into team scratch, unchanged, possibly
  // asynchronously: complete, for the thread that asked, after wait_copies(). Here: at once.
  template <class E>
  KOKKOS_INLINE_FUNCTION static void copy_async(E* scratch, const E* global) {
    *reinterpret_cast<pack<E>*>(scratch) = *reinterpret_cast<const pack<E>*>(global);
  }
  KOKKOS_INLINE_FUNCTION static void wait_copies() {}

  // A pack of results that the kernel never reads back (a GPU may keep it out of its caches).
  template <class P>
  KOKKOS_INLINE_FUNCTION static void store_streaming(P* dst, const P& value) {
    *dst = value;
  }

  // The warp's matrix multiply-accumulate of doubles (portable_warp_mma above).
  template <int K>
  using warp_mma = portable_warp_mma<K>;

  // The four bytes of a 32-bit word as floats, v[k] = byte k.
  KOKKOS_INLINE_FUNCTION static void widen_bytes(const pack<std::uint8_t, 4>& p, float (&v)[4]) {
    PK_UNROLL
    for (int k = 0; k < 4; ++k) v[k] = static_cast<float>(p.v[k]);
  }
  // Four results as 8-bit pixels in one word, each as to_pixel<uint8_t> makes it.
  KOKKOS_INLINE_FUNCTION static pack<std::uint8_t, 4> narrow_to_bytes(const float (&v)[4]) {
    pack<std::uint8_t, 4> p;
    PK_UNROLL
    for (int k = 0; k < 4; ++k) p.v[k] = to_pixel<std::uint8_t>(v[k]);
    return p;
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
