#pragma once
// The arithmetic of a convolutional network's layers, once, as Kokkos functors every backend runs:
// the input gradient's gather of window gradients back into the image (the adjoint of the windows
// that the convolutions' GEMMs read, conv_windows.hpp), max pooling and its gradient, bias and
// relu, softmax cross-entropy, Adam. The convolutions' products are pk's GEMM (nn_impl.hpp).
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace pk::detail {

// exp, log, sqrt of float and double as host and device code both have them (C's names).
KOKKOS_INLINE_FUNCTION float nn_exp(float x) { return expf(x); }
KOKKOS_INLINE_FUNCTION double nn_exp(double x) { return exp(x); }
KOKKOS_INLINE_FUNCTION float nn_log(float x) { return logf(x); }
KOKKOS_INLINE_FUNCTION double nn_log(double x) { return log(x); }
KOKKOS_INLINE_FUNCTION float nn_sqrt(float x) { return sqrtf(x); }
KOKKOS_INLINE_FUNCTION double nn_sqrt(double x) { return sqrt(x); }

// Where a convolution's output pixel m = (n, oy, ox) and column k = (ky, kx, c) meet the input.
struct conv_geometry {
  std::int64_t batch, height, width, channels;  // the input, N x H x W x C
  std::int64_t kernel_h, kernel_w, pad_h, pad_w;
  std::int64_t out_h, out_w;
  KOKKOS_INLINE_FUNCTION std::int64_t rows() const { return batch * out_h * out_w; }     // M
  KOKKOS_INLINE_FUNCTION std::int64_t columns() const { return kernel_h * kernel_w * channels; }  // K
};

// The adjoint of the windows' gather (conv_windows.hpp: col(m, (ky, kx, c)) = x(n, oy + ky - pad_h,
// ox + kx - pad_w, c)): dx(n, iy, ix, c) = sum over (ky, kx) of dcol((n, iy - ky + pad_h,
// ix - kx + pad_w), (ky, kx, c)) where that output pixel exists; a gather (no two threads write
// one element), one index per input pixel, its C channels in turn.
template <class T>
struct Col2im {
  const T* dcol;
  T* dx;
  conv_geometry g;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t p) const {
    const std::int64_t ix = p % g.width, iy = (p / g.width) % g.height, n = p / (g.width * g.height);
    const std::int64_t K = g.columns();
    // The taps whose output pixel exists: ky in [ky0, ky1), kx in [kx0, kx1).
    const std::int64_t ky0 = iy + g.pad_h - (g.out_h - 1) > 0 ? iy + g.pad_h - (g.out_h - 1) : 0;
    const std::int64_t ky1 = iy + g.pad_h + 1 < g.kernel_h ? iy + g.pad_h + 1 : g.kernel_h;
    const std::int64_t kx0 = ix + g.pad_w - (g.out_w - 1) > 0 ? ix + g.pad_w - (g.out_w - 1) : 0;
    const std::int64_t kx1 = ix + g.pad_w + 1 < g.kernel_w ? ix + g.pad_w + 1 : g.kernel_w;
    T* out = dx + p * g.channels;
    for (std::int64_t c = 0; c < g.channels; ++c) {
      T sum = 0;
      for (std::int64_t ky = ky0; ky < ky1; ++ky)
        for (std::int64_t kx = kx0; kx < kx1; ++kx) {
          const std::int64_t m = (n * g.out_h + iy - ky + g.pad_h) * g.out_w + ix - kx + g.pad_w;
          sum += dcol[m * K + (ky * g.kernel_w + kx) * g.channels + c];
        }
      out[c] = sum;
    }
  }
  static std::int64_t count(const conv_geometry& g) { return g.batch * g.height * g.width; }
};

struct pool_geometry {
  std::int64_t batch, height, width, channels, out_h, out_w;
};

// 2x2 windows, stride 2: one index per window (n, i, j), its C channels in turn. The window's
// first maximum (row by row) is where the gradient goes.
template <class T>
struct MaxPool {
  const T* x;
  T* y;
  pool_geometry g;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t w) const {
    const std::int64_t j = w % g.out_w, i = (w / g.out_w) % g.out_h, n = w / (g.out_w * g.out_h);
    const std::int64_t row = g.width * g.channels;
    const T* a = x + ((n * g.height + 2 * i) * g.width + 2 * j) * g.channels;
    T* out = y + w * g.channels;
    for (std::int64_t c = 0; c < g.channels; ++c) {
      T best = a[c];
      if (a[g.channels + c] > best) best = a[g.channels + c];
      if (a[row + c] > best) best = a[row + c];
      if (a[row + g.channels + c] > best) best = a[row + g.channels + c];
      out[c] = best;
    }
  }
  static std::int64_t count(const pool_geometry& g) { return g.batch * g.out_h * g.out_w; }
};

// dx over every input element: dy of its window at the window's first maximum of x, 0 at the
// window's other three and on the row or column an odd size leaves out. One index per window of
// the rounded-up grid; the windows do not overlap, so each element is written once.
template <class T>
struct MaxPoolBackward {
  const T* x;
  const T* dy;
  T* dx;
  pool_geometry g;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t w) const {
    const std::int64_t cols = (g.width + 1) / 2, rows = (g.height + 1) / 2;
    const std::int64_t j = w % cols, i = (w / cols) % rows, n = w / (cols * rows);
    const std::int64_t row = g.width * g.channels, first = ((n * g.height + 2 * i) * g.width + 2 * j) * g.channels;
    const T* a = x + first;
    T* d = dx + first;
    if (i < g.out_h && j < g.out_w) {
      const T* grad = dy + ((n * g.out_h + i) * g.out_w + j) * g.channels;
      const std::int64_t at[4] = {0, g.channels, row, row + g.channels};
      for (std::int64_t c = 0; c < g.channels; ++c) {
        int arg = 0;
        for (int k = 1; k < 4; ++k)
          if (a[at[k] + c] > a[at[arg] + c]) arg = k;
        for (int k = 0; k < 4; ++k) d[at[k] + c] = k == arg ? grad[c] : T(0);
      }
    } else {  // the left-over row and/or column of an odd size
      const bool second_column = 2 * j + 1 < g.width, second_row = 2 * i + 1 < g.height;
      for (std::int64_t c = 0; c < g.channels; ++c) {
        d[c] = T(0);
        if (second_column) d[g.channels + c] = T(0);
        if (second_row) d[row + c] = T(0);
        if (second_column && second_row) d[row + g.channels + c] = T(0);
      }
    }
  }
  static std::int64_t count(const pool_geometry& g) { return g.batch * ((g.height + 1) / 2) * ((g.width + 1) / 2); }
};

// One index per row of y (M x F).
template <class T>
struct BiasActivation {
  T* y;
  const T* bias;  // null: none
  std::int64_t features;
  bool relu;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t m) const {
    T* r = y + m * features;
    for (std::int64_t f = 0; f < features; ++f) {
      const T v = r[f] + (bias ? bias[f] : T(0));
      r[f] = relu && !(v > T(0)) ? T(0) : v;
    }
  }
};

template <class T>
struct ReluBackward {
  const T* y;
  const T* dy;
  T* dz;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { dz[i] = y[i] > T(0) ? dy[i] : T(0); }
};

// sums(f) = sum over rows of x(m, f), in two passes with a fixed order (the same bits on every
// backend and run): ColumnPartSums adds each part of `part_rows` rows (index e = part * columns + f:
// neighbouring indices read neighbouring columns of a row), then split-K GEMM's SumParts adds the
// parts in order (nn_impl.hpp).
template <class T>
struct ColumnPartSums {
  const T* x;
  T* partial;  // parts x columns
  std::int64_t rows, columns, ld, part_rows;  // ld: x's row stride
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t e) const {
    const std::int64_t part = e / columns, f = e % columns;
    const std::int64_t begin = part * part_rows, end = begin + part_rows < rows ? begin + part_rows : rows;
    T s = 0;
    for (std::int64_t m = begin; m < end; ++m) s += x[m * ld + f];
    partial[e] = s;
  }
};

template <class T>
struct SoftmaxCrossEntropy {
  const T* logits;
  const std::int32_t* labels;
  T* loss;
  T* grad;
  std::int64_t classes;
  T grad_scale;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b) const {
    const T* l = logits + b * classes;
    T top = l[0];
    for (std::int64_t j = 1; j < classes; ++j) top = l[j] > top ? l[j] : top;
    T sum = 0;
    for (std::int64_t j = 0; j < classes; ++j) sum += nn_exp(l[j] - top);
    const std::int32_t label = labels[b];
    loss[b] = nn_log(sum) + top - l[label];
    for (std::int64_t j = 0; j < classes; ++j)
      grad[b * classes + j] = grad_scale * (nn_exp(l[j] - top) / sum - (j == label ? T(1) : T(0)));
  }
};

template <class T>
struct AdamUpdate {
  T* param;
  const T* grad;
  T* m;
  T* v;
  T beta1, beta2, epsilon, step_size;  // step_size: the bias-corrected learning rate
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const T g = grad[i];
    const T mi = beta1 * m[i] + (T(1) - beta1) * g;
    const T vi = beta2 * v[i] + (T(1) - beta2) * g * g;
    m[i] = mi;
    v[i] = vi;
    param[i] -= step_size * mi / (nn_sqrt(vi) + epsilon);
  }
};

}  // namespace pk::detail
