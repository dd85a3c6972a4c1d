#pragma once
// An experiment for bench/results/h200.md, not a library kernel: the K x K stencil read straight
// from global memory (through L1), no team scratch, no barrier. Each thread computes 4
// neighbouring outputs of Rows rows from 16-byte loads (the quad left of its own, its own, the
// quad right of it: R <= 4), one image channel, width a multiple of 4. It measures how far the
// staged kernels are from what the memory system gives a stencil on the GPU.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "core/unroll.hpp"
#include "filter/border_index.hpp"
#include "core/pack.hpp"
#include "filter/stencils.hpp"

namespace pk_tune {

template <class Exec, int R, int Rows>
struct Conv2DDirect {
  static constexpr int K = 2 * R + 1;
  static_assert(R <= 4, "the stencil reads one quad either side");
  const float* in;
  float* out;
  std::int64_t height, width;
  pk::border mode;
  pk::detail::kernel_weights weights;

  std::int64_t work_items() const { return (height + Rows - 1) / Rows * (width / 4); }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t item) const {
    using quad = pk::detail::pack<float>;
    const std::int64_t quads = width / 4, y0 = item / quads * Rows, x = item % quads * 4;
    float acc[Rows][4];
    PK_UNROLL
    for (int o = 0; o < Rows; ++o)
      PK_UNROLL
      for (int q = 0; q < 4; ++q) acc[o][q] = 0.f;
    const bool inside = y0 - R >= 0 && y0 + Rows + R <= height && x - 4 >= 0 && x + 8 <= width;
    PK_UNROLL
    for (int i = 0; i < Rows + 2 * R; ++i) {
      float v[12];
      if (inside) {
        const float* row = in + (y0 - R + i) * width + x;
        const quad l = *reinterpret_cast<const quad*>(row - 4), m = *reinterpret_cast<const quad*>(row),
                   r = *reinterpret_cast<const quad*>(row + 4);
        PK_UNROLL
        for (int q = 0; q < 4; ++q) v[q] = l.v[q], v[4 + q] = m.v[q], v[8 + q] = r.v[q];
      } else {
        const std::int64_t sy = pk::detail::border_index(y0 - R + i, height, mode);
        PK_UNROLL
        for (int q = 0; q < 12; ++q) {
          const std::int64_t sx = pk::detail::border_index(x - 4 + q, width, mode);
          v[q] = sy < 0 || sx < 0 ? 0.f : in[sy * width + sx];
        }
      }
      PK_UNROLL
      for (int o = 0; o < Rows; ++o) {
        const int d = i - o;
        if (d < 0 || d >= K) continue;
        PK_UNROLL
        for (int q = 0; q < 4; ++q)
          PK_UNROLL
          for (int j = 0; j < K; ++j) acc[o][q] += weights.w[d * K + j] * v[4 + q - R + j];
      }
    }
    PK_UNROLL
    for (int o = 0; o < Rows; ++o)
      if (y0 + o < height)
        *reinterpret_cast<quad*>(out + (y0 + o) * width + x) = quad{{acc[o][0], acc[o][1], acc[o][2], acc[o][3]}};
  }
};

}  // namespace pk_tune
