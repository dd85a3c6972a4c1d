#pragma once
// The layers of a convolutional network on Kokkos Views, run on a given execution space instance
// (float or double), forward and backward:
//   pk::conv2d(space, x, w, bias, y, pk::padding::same, /*relu=*/true);  // y = relu(x (*) w + bias)
//   pk::conv2d_backward_input(space, dy, w, dx, pk::padding::same);      // dL/dx
//   pk::conv2d_backward_weights(space, x, dy, dw, db, pk::padding::same); // dL/dw, dL/dbias
//   pk::max_pool2x2(space, x, y);  pk::max_pool2x2_backward(space, x, dy, dx);
//   pk::bias_activation(space, y, bias, relu);   pk::relu_backward(space, y, dy, dz);
//   pk::column_sums(space, x, sums);   pk::softmax_cross_entropy(space, logits, labels, loss, grad, scale);
//   pk::adam_update(space, param, grad, m, v, pk::adam_step<float>{...});
// Activations are N x H x W x C (NHWC, channels last, LayoutRight), weights F x KH x KW x C (F
// output channels), as the Views' extents say. Convolution is correlation (no flip), stride 1;
// padding valid (output (H-KH+1) x (W-KW+1)) or same (zeros around, output H x W; odd kernels).
// Asynchronous like any Kokkos kernel: fence the space before reading results on the host.
// Bad shapes throw pk::error naming the argument. The forward pass and the weights' gradient read
// the input's windows where their GEMM stages its tiles (an implicit GEMM: no work array); the
// input's gradient takes an M x K work array (M = N*Ho*Wo, K = KH*KW*C), refused with
// pk::memory_error before allocating where it does not fit. M and K are below 2^31 - 2^16.
#include <cstdint>
#include <string>

#include <pk/kokkos/views.hpp>

namespace pk {

enum class padding { valid, same };

// "valid" or "same"; pk::error naming both otherwise.
padding parse_padding(const std::string& name);
const char* to_string(padding p) noexcept;

// N x H x W x C activations, or F x KH x KW x C weights.
template <class T, class Exec>
using tensor4_view = Kokkos::View<T****, Kokkos::LayoutRight, typename Exec::memory_space>;

template <class Exec>
using label_view = Kokkos::View<const std::int32_t*, Kokkos::LayoutRight, typename Exec::memory_space>;

// One Adam step (Kingma & Ba; epsilon added to sqrt(v), as Keras): with t = step (1, 2, ...),
//   m = beta1 m + (1-beta1) g,  v = beta2 v + (1-beta2) g^2,
//   param -= lr sqrt(1-beta2^t) / (1-beta1^t) * m / (sqrt(v) + epsilon).
template <class T>
struct adam_step {
  T learning_rate = T(0.001);
  T beta1 = T(0.9);
  T beta2 = T(0.999);
  T epsilon = T(1e-7);
  int step = 1;
};

namespace detail {
// Compiled once per backend (backends/<name>/<name>_nn.cpp); the templates below convert Views.
template <class Exec, class T>
void conv2d(const Exec& space, const tensor4_view<const T, Exec>& x, const tensor4_view<const T, Exec>& w,
            const vector_view<const T, Exec>& bias, const tensor4_view<T, Exec>& y, padding pad, bool relu);
template <class Exec, class T>
void conv2d_backward_input(const Exec& space, const tensor4_view<const T, Exec>& dy,
                           const tensor4_view<const T, Exec>& w, const tensor4_view<T, Exec>& dx, padding pad);
template <class Exec, class T>
void conv2d_backward_weights(const Exec& space, const tensor4_view<const T, Exec>& x,
                             const tensor4_view<const T, Exec>& dy, const tensor4_view<T, Exec>& dw,
                             const vector_view<T, Exec>& db, padding pad);
template <class Exec, class T>
void max_pool2x2(const Exec& space, const tensor4_view<const T, Exec>& x, const tensor4_view<T, Exec>& y);
template <class Exec, class T>
void max_pool2x2_backward(const Exec& space, const tensor4_view<const T, Exec>& x,
                          const tensor4_view<const T, Exec>& dy, const tensor4_view<T, Exec>& dx);
template <class Exec, class T>
void bias_activation(const Exec& space, const matrix_view<T, Exec>& y, const vector_view<const T, Exec>& bias,
                     bool relu);
template <class Exec, class T>
void relu_backward(const Exec& space, const vector_view<const T, Exec>& y, const vector_view<const T, Exec>& dy,
                   const vector_view<T, Exec>& dz);
template <class Exec, class T>
void column_sums(const Exec& space, const matrix_view<const T, Exec>& x, const vector_view<T, Exec>& sums);
template <class Exec, class T>
void softmax_cross_entropy(const Exec& space, const matrix_view<const T, Exec>& logits,
                           const label_view<Exec>& labels, const vector_view<T, Exec>& loss,
                           const matrix_view<T, Exec>& grad, T grad_scale);
template <class Exec, class T>
void adam_update(const Exec& space, const vector_view<T, Exec>& param, const vector_view<const T, Exec>& grad,
                 const vector_view<T, Exec>& m, const vector_view<T, Exec>& v, const adam_step<T>& step);
}  // namespace detail

// The calls below take any Views that convert to the types above (same value type, LayoutRight,
// the space's memory; const or not); T is the output's value type.
template <class V>
using value_of = typename V::non_const_value_type;

// y = relu?(conv(x, w) + bias). bias: F values, or an empty View for none.
template <class Exec, class X, class W, class B, class Y, class = enable_if_views_t<Exec, X, W, B, Y>>
void conv2d(const Exec& space, const X& x, const W& w, const B& bias, const Y& y, padding pad = padding::valid,
            bool relu = false) {
  using T = value_of<Y>;
  detail::conv2d<Exec, T>(space, tensor4_view<const T, Exec>(x), tensor4_view<const T, Exec>(w),
                          vector_view<const T, Exec>(bias), tensor4_view<T, Exec>(y), pad, relu);
}

// dx = dL/dx from dy = dL/dy (of the convolution before any activation: see relu_backward).
template <class Exec, class DY, class W, class DX, class = enable_if_views_t<Exec, DY, W, DX>>
void conv2d_backward_input(const Exec& space, const DY& dy, const W& w, const DX& dx, padding pad = padding::valid) {
  using T = value_of<DX>;
  detail::conv2d_backward_input<Exec, T>(space, tensor4_view<const T, Exec>(dy), tensor4_view<const T, Exec>(w),
                                         tensor4_view<T, Exec>(dx), pad);
}

// dw = dL/dw and db = dL/dbias (an empty View: not computed) from the layer's input x and dy.
template <class Exec, class X, class DY, class DW, class DB, class = enable_if_views_t<Exec, X, DY, DW, DB>>
void conv2d_backward_weights(const Exec& space, const X& x, const DY& dy, const DW& dw, const DB& db,
                             padding pad = padding::valid) {
  using T = value_of<DW>;
  detail::conv2d_backward_weights<Exec, T>(space, tensor4_view<const T, Exec>(x), tensor4_view<const T, Exec>(dy),
                                           tensor4_view<T, Exec>(dw), vector_view<T, Exec>(db), pad);
}

// y(n, i, j, c) = max of x over rows 2i..2i+1, columns 2j..2j+1 (y is N x H/2 x W/2 x C, rounded down).
template <class Exec, class X, class Y, class = enable_if_views_t<Exec, X, Y>>
void max_pool2x2(const Exec& space, const X& x, const Y& y) {
  using T = value_of<Y>;
  detail::max_pool2x2<Exec, T>(space, tensor4_view<const T, Exec>(x), tensor4_view<T, Exec>(y));
}

// dx: dy at each window's first maximum of x, 0 elsewhere (and on rows/columns the pool dropped).
template <class Exec, class X, class DY, class DX, class = enable_if_views_t<Exec, X, DY, DX>>
void max_pool2x2_backward(const Exec& space, const X& x, const DY& dy, const DX& dx) {
  using T = value_of<DX>;
  detail::max_pool2x2_backward<Exec, T>(space, tensor4_view<const T, Exec>(x), tensor4_view<const T, Exec>(dy),
                                        tensor4_view<T, Exec>(dx));
}

// In place on the rows of y (M x F): y(m, f) = relu?(y(m, f) + bias(f)) (bias empty: none).
template <class Exec, class Y, class B, class = enable_if_views_t<Exec, Y, B>>
void bias_activation(const Exec& space, const Y& y, const B& bias, bool relu) {
  using T = value_of<Y>;
  detail::bias_activation<Exec, T>(space, matrix_view<T, Exec>(y), vector_view<const T, Exec>(bias), relu);
}

// dz = dy where y > 0, else 0 (y the relu's output). dz may be dy.
template <class Exec, class Y, class DY, class DZ, class = enable_if_views_t<Exec, Y, DY, DZ>>
void relu_backward(const Exec& space, const Y& y, const DY& dy, const DZ& dz) {
  using T = value_of<DZ>;
  detail::relu_backward<Exec, T>(space, vector_view<const T, Exec>(y), vector_view<const T, Exec>(dy),
                                 vector_view<T, Exec>(dz));
}

// sums(f) = sum over m of x(m, f) (a dense layer's bias gradient).
template <class Exec, class X, class S, class = enable_if_views_t<Exec, X, S>>
void column_sums(const Exec& space, const X& x, const S& sums) {
  using T = value_of<S>;
  detail::column_sums<Exec, T>(space, matrix_view<const T, Exec>(x), vector_view<T, Exec>(sums));
}

// Per row b of logits (B x classes): loss(b) = log(sum_j exp(l_bj)) - l_b,label(b), and
// grad(b, j) = grad_scale * (softmax(l_b)_j - [j == label(b)]) (grad_scale 1/B: the mean's gradient).
template <class Exec, class L, class Labels, class Loss, class G, class = enable_if_views_t<Exec, L, Labels, Loss, G>>
void softmax_cross_entropy(const Exec& space, const L& logits, const Labels& labels, const Loss& loss, const G& grad,
                           value_of<G> grad_scale) {
  using T = value_of<G>;
  detail::softmax_cross_entropy<Exec, T>(space, matrix_view<const T, Exec>(logits), label_view<Exec>(labels),
                                         vector_view<T, Exec>(loss), matrix_view<T, Exec>(grad), grad_scale);
}

template <class Exec, class P, class G, class M, class V, class = enable_if_views_t<Exec, P, G, M, V>>
void adam_update(const Exec& space, const P& param, const G& grad, const M& m, const V& v,
                 const adam_step<value_of<P>>& step) {
  using T = value_of<P>;
  detail::adam_update<Exec, T>(space, vector_view<T, Exec>(param), vector_view<const T, Exec>(grad),
                               vector_view<T, Exec>(m), vector_view<T, Exec>(v), step);
}

}  // namespace pk
