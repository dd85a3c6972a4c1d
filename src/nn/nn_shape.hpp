#pragma once
// A layer's output shape from its input's, checked: what the library's layers and the Python
// module (before it makes an output array) both use, so that a shape error reads the same.
#include <cstdint>
#include <string>

#include <pk/kokkos/nn.hpp>

#include "core/check.hpp"
#include "nn/nn_functors.hpp"

namespace pk::detail {

// The convolution's geometry from x (N x H x W x C) and the kernel's KH x KW, checked.
inline conv_geometry conv_shape(const char* who, std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c,
                                std::int64_t kh, std::int64_t kw, padding pad) {
  conv_geometry g{n, h, w, c, kh, kw, 0, 0, 0, 0};
  require(kh >= 1 && kw >= 1, who, "the kernel has no elements (" + std::to_string(kh) + " x " + std::to_string(kw) + ")");
  if (pad == padding::same) {
    require(kh % 2 == 1 && kw % 2 == 1, who,
            "padding 'same' needs a kernel of odd size, got " + std::to_string(kh) + " x " + std::to_string(kw));
    g.pad_h = kh / 2;
    g.pad_w = kw / 2;
    g.out_h = h;
    g.out_w = w;
  } else {
    if (h < kh || w < kw)
      fail(who, "the input is ", h, " x ", w, ", smaller than the ", kh, " x ", kw,
           " kernel: padding 'valid' leaves no output (padding 'same' keeps the size)");
    g.out_h = h - kh + 1;
    g.out_w = w - kw + 1;
  }
  // The implicit GEMM's indices (conv_windows.hpp) are 32-bit, with room for a tile past the end.
  constexpr double limit = 2147483648.0 - 65536.0;
  if (double(h) >= limit || double(w) >= limit) fail(who, "the input is ", h, " x ", w, ", expected sides under 2^31 - 2^16");
  if (double(n) * double(g.out_h) * double(g.out_w) >= limit)
    fail(who, "N x Ho x Wo = ", n, " x ", g.out_h, " x ", g.out_w, " output pixels, expected fewer than 2^31 - 2^16");
  if (double(kh) * double(kw) * double(c) >= limit)
    fail(who, "KH x KW x C = ", kh, " x ", kw, " x ", c, " window elements, expected fewer than 2^31 - 2^16");
  return g;
}

// 2x2 max pooling's geometry: the output rounds down (an odd last row or column is dropped).
inline pool_geometry pool_shape(std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c) {
  return {n, h, w, c, h / 2, w / 2};
}

}  // namespace pk::detail
