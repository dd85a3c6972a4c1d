#pragma once
// The arithmetic of the filters, written once: every backend's kernels run these functions.
//
// A thread computes a block of outputs at a time: Rows consecutive rows x Cols consecutive
// elements of a row (a CPU thread: 1 x 64 or 128, vectorized; a GPU thread: 4 x 1 or 4 x 4, in
// registers). A K x K stencil's block reads a window of Rows + K - 1 staged rows; window.row(i)
// gives the values of window row i that the block reads, and row(j, q) is the value under tap j
// of the block's output q. Each window row is read once and feeds every output row whose stencil
// covers it (Rows + K - 1 row reads for Rows x K x K multiply-adds), whatever the schedule.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include <pk/filter.hpp>

#include "core/unroll.hpp"

namespace pk::detail {

// Weights travel inside the kernel's functor, by value: no device allocation, and on a GPU they
// end up in the kernel's parameters, where every thread of a warp reads the same weight at once.
struct kernel_weights {
  float w[max_filter_size * max_filter_size];
};
struct kernel_taps {
  float t[max_filter_size];
};

// A stencil extent known when the kernel is compiled: loops over it unroll and every weight is
// a compile-time index (GPUs); plain int where one kernel serves every size (CPUs).
template <int N>
struct fixed {
  static constexpr int value = N;
  KOKKOS_INLINE_FUNCTION constexpr operator int() const { return N; }
};
template <int R>
KOKKOS_INLINE_FUNCTION constexpr fixed<2 * R + 1> taps_of(fixed<R>) {
  return {};
}
KOKKOS_INLINE_FUNCTION constexpr int taps_of(int radius) { return 2 * radius + 1; }

// The radius an operation is compiled for: R, or -1 when it is known only at run time.
template <class Radius>
struct radius_of : std::integral_constant<int, -1> {};
template <int R>
struct radius_of<fixed<R>> : std::integral_constant<int, R> {};

// acc[o][q] = sum over d < kh, j < kw of w[d * kw + j] * window(o + d)(j, q): a block of the
// correlation out(y, x) = sum w(d, j) in(y + d - kh/2, x + j - kw/2) with a kh x kw kernel: the
// 2-D filter (K x K), the separable row pass (1 x K) and column pass (K x 1). Each window row is
// read once and feeds every output row whose stencil covers it: Rows + kh - 1 row reads for
// Rows x kh x kw multiply-adds.
template <class KH, class KW, int Rows, int Cols, class Window>
KOKKOS_FORCEINLINE_FUNCTION void correlate(const float* w, KH kh, KW kw, const Window& window, float (&acc)[Rows][Cols]) {
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    PK_UNROLL_GPU
    for (int q = 0; q < Cols; ++q) acc[o][q] = 0.f;
  }
  PK_UNROLL_GPU
  for (int i = 0; i < Rows + kh - 1; ++i) {
    const auto row = window.row(i);
    PK_UNROLL
    for (int o = 0; o < Rows; ++o) {
      const int d = i - o;  // window row i is row d of output row o's stencil
      if (d < 0 || d >= kh) continue;
      PK_UNROLL_GPU
      for (int j = 0; j < kw; ++j) {
        const float weight = w[d * kw + j];
        PK_UNROLL_GPU
        for (int q = 0; q < Cols; ++q) acc[o][q] += weight * row(j, q);
      }
    }
  }
}

// mag[o][q] = sqrt(gx^2 + gy^2), gx and gy the 3x3 Sobel derivatives d/dx = [1 2 1]^T (x)
// [-1 0 1] and d/dy = [-1 0 1]^T (x) [1 2 1]: per window row, its horizontal difference and
// horizontal smoothing feed the outputs above and below it, weighted by smooth(d) = 1, 2, 1 and
// slope(d) = -1, 0, 1 for the row d = 0, 1, 2 of an output's window. sqrt: a few ulp are enough.
template <class Primitives, int Rows, int Cols, class Window>
KOKKOS_FORCEINLINE_FUNCTION void sobel_magnitude(const Window& window, float (&mag)[Rows][Cols]) {
  float gx[Rows][Cols], gy[Rows][Cols];
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    PK_UNROLL_GPU
    for (int q = 0; q < Cols; ++q) gx[o][q] = gy[o][q] = 0.f;
  }
  PK_UNROLL
  for (int i = 0; i < Rows + 2; ++i) {
    const auto row = window.row(i);
    PK_UNROLL_GPU
    for (int q = 0; q < Cols; ++q) {
      const float left = row(0, q), mid = row(1, q), right = row(2, q);
      const float difference = right - left, smoothed = left + 2.f * mid + right;
      PK_UNROLL
      for (int o = 0; o < Rows; ++o) {
        const int d = i - o;
        if (d < 0 || d > 2) continue;
        gx[o][q] += (d == 1 ? 2.f : 1.f) * difference;
        // (The middle row's d/dy weight is 0: not read, so that a NaN there does not reach the
        // output, as in the float64 reference.)
        if (d != 1) gy[o][q] += static_cast<float>(d - 1) * smoothed;
      }
    }
  }
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    PK_UNROLL_GPU
    for (int q = 0; q < Cols; ++q) mag[o][q] = Primitives::sqrt_approx(gx[o][q] * gx[o][q] + gy[o][q] * gy[o][q]);
  }
}

// The filters as operations on a staged tile (filter_tile.hpp supplies `tile`: where the staged
// tile lies, which blocks this thread computes, and where their results go). Radius: fixed<R> or
// int (see above).

// out = in (*) w, w of K x K weights.
template <class Radius>
struct Conv2D {
  static constexpr bool row_pass = false;
  Radius radius;
  kernel_weights weights;  // K x K, row-major
  template <class Tile>
  KOKKOS_INLINE_FUNCTION void operator()(const Tile& tile) const {
    const auto k = taps_of(radius);
    tile.for_each_output([&](const auto& window, auto& acc) { correlate(weights.w, k, k, window, acc); });
  }
};

// out = in (*) column (x) row: the row pass (1 x K), then the column pass (K x 1) over its results;
// 2K multiply-adds per output instead of K^2. The tile runs the two passes as its schedule says:
// the row pass over every staged row into a second scratch buffer (row_pass: the buffer may be
// needed), or kept in each block's registers.
template <class Radius>
struct SeparableConv {
  static constexpr bool row_pass = true;
  Radius radius;
  kernel_taps row, column;
  template <class Tile>
  KOKKOS_INLINE_FUNCTION void operator()(const Tile& tile) const {
    const auto k = taps_of(radius);
    tile.separable([&](const auto& window, auto& acc) { correlate(row.t, fixed<1>(), k, window, acc); },
                   [&](const auto& window, auto& acc) { correlate(column.t, k, fixed<1>(), window, acc); });
  }
};

// out = sqrt(gx^2 + gy^2), the 3x3 Sobel derivatives.
struct SobelMagnitude {
  static constexpr bool row_pass = false;
  fixed<1> radius;
  template <class Tile>
  KOKKOS_INLINE_FUNCTION void operator()(const Tile& tile) const {
    using primitives = typename Tile::primitives;
    tile.for_each_output([&](const auto& window, auto& acc) { sobel_magnitude<primitives>(window, acc); });
  }
};

}  // namespace pk::detail
