#pragma once
// A convolution as an implicit GEMM: the M x K matrix that im2col would write (row m an output
// pixel (n, oy, ox), column k an element (ky, kx, c) of its window) is never formed; the GEMM's
// staging reads it straight from x (gemm_operands.hpp: conv_windows is an operand), so that a
// layer needs no M x K work array and x is read where the tile is staged, from the cache:
//   element (m, k) = x(n, oy + ky - pad_h, ox + kx - pad_w, c), 0 outside the image.
// A window's C channels are contiguous in x: where C is a multiple of a pack, a pack of the window
// is one aligned load. Indices are split by fast_divmod (m and k below 2^31: conv_shape checks).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "core/fast_divmod.hpp"
#include "core/pack.hpp"
#include "matmul/gemm_operands.hpp"
#include "nn/nn_functors.hpp"

namespace pk::detail {

template <class T>
struct conv_windows {
  struct divisors {
    fast_divmod channels, kernel_w, out_w, out_hw;
  };
  const T* x = nullptr;
  conv_geometry g{};
  divisors divide;
  conv_windows() = default;
  // g has windows and output pixels (C, KW, Ho, Wo >= 1), its M and K below 2^31.
  conv_windows(const T* x_, const conv_geometry& g_)
      : x(x_), g(g_),
        divide{fast_divmod(int(g.channels)), fast_divmod(int(g.kernel_w)), fast_divmod(int(g.out_w)),
               fast_divmod(int(g.out_h * g.out_w))} {}
};

template <class T>
struct operand_reader<conv_windows<T>> {
  using value_type = T;
  using vec_pack = pack<T>;
  struct cursor {
    int m, k;
  };
  const T* x;
  int height, width, channels, kernel_w, pad_h, pad_w;
  fast_divmod by_channels, by_kernel_w, by_out_w, by_out_hw;
  bool along_k;
  int tile_k;

  KOKKOS_INLINE_FUNCTION operand_reader(const conv_windows<T>& w, bool along_k_, int tile_k_)
      : x(w.x), height(int(w.g.height)), width(int(w.g.width)), channels(int(w.g.channels)), kernel_w(int(w.g.kernel_w)),
        pad_h(int(w.g.pad_h)), pad_w(int(w.g.pad_w)), by_channels(w.divide.channels), by_kernel_w(w.divide.kernel_w),
        by_out_w(w.divide.out_w), by_out_hw(w.divide.out_hw), along_k(along_k_), tile_k(tile_k_) {}

  KOKKOS_INLINE_FUNCTION bool packed() const { return channels % vec_pack::size == 0 && pack_aligned(x); }
  KOKKOS_INLINE_FUNCTION cursor at(std::int64_t m, std::int64_t k) const { return {int(m), int(k)}; }
  KOKKOS_INLINE_FUNCTION void advance(cursor& c) const { (along_k ? c.k : c.m) += tile_k; }

  // The output pixel m's window origin (oy - pad_h, ox - pad_w) and image n; the window element
  // k's tap (ky, kx) and channel c.
  KOKKOS_INLINE_FUNCTION void pixel(int m, int& n, int& y0, int& x0) const {
    int p, oy, ox;
    by_out_hw.divmod(m, n, p);
    by_out_w.divmod(p, oy, ox);
    y0 = oy - pad_h;
    x0 = ox - pad_w;
  }
  KOKKOS_INLINE_FUNCTION void tap(int k, int& ky, int& kx, int& c) const {
    int t;
    by_channels.divmod(k, t, c);
    by_kernel_w.divmod(t, ky, kx);
  }
  // x's element (n, iy, ix, c), or null in the padding.
  KOKKOS_INLINE_FUNCTION const T* find(int n, int iy, int ix, int c) const {
    if (iy < 0 || iy >= height || ix < 0 || ix >= width) return nullptr;
    return x + ((std::int64_t(n) * height + iy) * width + ix) * channels + c;
  }
  KOKKOS_INLINE_FUNCTION const T* find(int m, int k) const {
    int n, y0, x0, ky, kx, c;
    pixel(m, n, y0, x0);
    tap(k, ky, kx, c);
    return find(n, y0 + ky, x0 + kx, c);
  }

  KOKKOS_INLINE_FUNCTION vec_pack load(cursor c) const {
    const T* p = find(c.m, c.k);
    if (p) return *reinterpret_cast<const vec_pack*>(p);
    vec_pack zero;
    for (int v = 0; v < vec_pack::size; ++v) zero.v[v] = T(0);
    return zero;
  }
  KOKKOS_INLINE_FUNCTION T element(cursor c, int v) const {
    const T* p = find(c.m, c.k + v);
    return p ? *p : T(0);
  }

  // Elements (m, k..k+count): runs of one tap's channels, each copied from x or zeros.
  template <int Stride>
  KOKKOS_INLINE_FUNCTION void row(std::int64_t m, std::int64_t k, int count, T* dst) const {
    int n, y0, x0, ky, kx, c;
    pixel(int(m), n, y0, x0);
    tap(int(k), ky, kx, c);
    for (int t = 0; t < count;) {
      const int run = channels - c < count - t ? channels - c : count - t;
      const T* src = find(n, y0 + ky, x0 + kx, c);
      if (src) {
        for (int e = 0; e < run; ++e) dst[(t + e) * Stride] = src[e];
      } else {
        for (int e = 0; e < run; ++e) dst[(t + e) * Stride] = T(0);
      }
      t += run;
      c = 0;
      if (++kx == kernel_w) {
        kx = 0;
        ++ky;
      }
    }
  }
};

}  // namespace pk::detail
