// A convolutional network's layers (pk/kokkos/nn.hpp) on arrays wherever they lie: conv2d and its
// two gradients, 2x2 max pooling and its gradient, bias + relu, relu's gradient, column sums,
// softmax cross-entropy, Adam (load_idx, MNIST's file format: bind_image_io.cpp). These run on arrays in the
// backend's memory only: numpy arrays on "cuda" are refused (pk.to_device() them once).
#include "bindings.hpp"
#include "kernel_call.hpp"

#include <pybind11/stl.h>

#include <pk/kokkos/nn.hpp>
#include "nn/nn_shape.hpp"

namespace pkpy {

namespace {

template <class T, class Exec>
pk::tensor4_view<T, Exec> tensor4(const array& a) {
  return pk::tensor4_view<T, Exec>(reinterpret_cast<T*>(a.data), a.shape[0], a.shape[1], a.shape[2], a.shape[3]);
}

// An array of rank >= 1 as rows x (its last extent).
template <class T, class Exec>
pk::matrix_view<T, Exec> rows_of(const array& a) {
  const auto cols = a.shape.empty() ? 1 : a.shape.back();
  return pk::matrix_view<T, Exec>(reinterpret_cast<T*>(a.data), cols ? a.size() / cols : 0, cols);
}

// f(space, T{}) on the call's execution space, T the element type of e (float32 or float64).
template <class F>
void run_real(kernel_call& call, element e, F&& f) {
  const auto run_as = [&](auto t) { call.run([&](auto space) { f(space, t); }); };
  if (e == element::float32)
    run_as(float{});
  else
    run_as(double{});
}

// An optional argument's values as a View, empty when it is not given.
template <class T, class Exec>
pk::vector_view<T, Exec> optional_vector(const std::optional<operand>& o) {
  return o ? pk::vector_view<T, Exec>(reinterpret_cast<T*>(o->a.data), o->a.size()) : pk::vector_view<T, Exec>();
}

void require_rank(const kernel_call& call, const operand& o, const char* name, std::size_t rank, const char* layout) {
  if (o.a.shape.size() != rank)
    throw py::value_error(message(call.who(), name, " has shape ", shape_string(o.a.shape), ", expected ", layout));
  call.require_c_contiguous(o, name);
}

const std::vector<element> real = {element::float32, element::float64};

// Arguments that are optional arrays, in place() form.
using placed = std::vector<std::pair<const operand*, const char*>>;
const operand* maybe(const std::optional<operand>& o) { return o ? &*o : nullptr; }

py::object conv2d(const py::object& x_obj, const py::object& w_obj, const py::object& bias_obj,
                  const std::string& padding, bool relu, const py::object& out_obj, const py::object& backend,
                  const py::object& stream) {
  kernel_call call("portable_kernels.conv2d", backend, stream);
  const operand x = call.input(x_obj, "x"), w = call.input(w_obj, "w");
  const auto bias = call.optional_input(bias_obj, "bias");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(x, "x", real);
  call.require_element(w, "w", {e});
  require_rank(call, x, "x", 4, "(N, H, W, C)");
  require_rank(call, w, "w", 4, "(F, KH, KW, C)");
  if (bias) {
    call.require_element(*bias, "bias", {e});
    require_rank(call, *bias, "bias", 1, "(F,)");
  }
  const pk::padding pad = pk::parse_padding(padding);
  const auto &xs = x.a.shape, &ws = w.a.shape;
  // The library's shape check, before an output is made (or out= compared with it).
  const auto g = pk::detail::conv_shape(call.who(), xs[0], xs[1], xs[2], xs[3], ws[1], ws[2], pad);
  call.place({{&x, "x"}, {&w, "w"}, {maybe(bias), "bias"}, {maybe(out), "out"}}, false);
  const operand y = call.output(out, {xs[0], py::ssize_t(g.out_h), py::ssize_t(g.out_w), ws[0]}, e);
  call.require_separate(y, x, "x");
  call.require_separate(y, w, "w");
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    const auto b = optional_vector<const T, Exec>(bias);
    pk::conv2d(space, tensor4<const T, Exec>(x.a), tensor4<const T, Exec>(w.a), b, tensor4<T, Exec>(y.a),
               pad, relu);
  });
  return y.object;
}

py::object conv2d_backward_input(const py::object& dy_obj, const py::object& w_obj, const std::string& padding,
                                 const py::object& out_obj, const py::object& backend, const py::object& stream) {
  kernel_call call("portable_kernels.conv2d_backward_input", backend, stream);
  const operand dy = call.input(dy_obj, "dy"), w = call.input(w_obj, "w");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(dy, "dy", real);
  call.require_element(w, "w", {e});
  require_rank(call, dy, "dy", 4, "(N, Ho, Wo, F)");
  require_rank(call, w, "w", 4, "(F, KH, KW, C)");
  const pk::padding pad = pk::parse_padding(padding);
  const auto &ds = dy.a.shape, &ws = w.a.shape;
  // The input's size from the output's: Ho = H - KH + 1 (valid) or H (same); then the library's
  // check of that geometry (a 'same' kernel of even size, an empty kernel).
  const py::ssize_t h = pad == pk::padding::same ? ds[1] : ds[1] + ws[1] - 1;
  const py::ssize_t wd = pad == pk::padding::same ? ds[2] : ds[2] + ws[2] - 1;
  pk::detail::conv_shape(call.who(), ds[0], h, wd, ws[3], ws[1], ws[2], pad);
  call.place({{&dy, "dy"}, {&w, "w"}, {maybe(out), "out"}}, false);
  const operand dx = call.output(out, {ds[0], h, wd, ws[3]}, e);
  call.require_separate(dx, dy, "dy");
  call.require_separate(dx, w, "w");
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    pk::conv2d_backward_input(space, tensor4<const T, Exec>(dy.a), tensor4<const T, Exec>(w.a),
                              tensor4<T, Exec>(dx.a), pad);
  });
  return dx.object;
}

py::tuple conv2d_backward_weights(const py::object& x_obj, const py::object& dy_obj,
                                  const std::pair<py::ssize_t, py::ssize_t>& kernel_size, const std::string& padding,
                                  bool bias, const py::object& dw_obj, const py::object& db_obj,
                                  const py::object& backend, const py::object& stream) {
  kernel_call call("portable_kernels.conv2d_backward_weights", backend, stream);
  const operand x = call.input(x_obj, "x"), dy = call.input(dy_obj, "dy");
  auto dw_out = call.optional_input(dw_obj, "dw");
  auto db_out = call.optional_input(db_obj, "db");
  const element e = call.require_element(x, "x", real);
  call.require_element(dy, "dy", {e});
  require_rank(call, x, "x", 4, "(N, H, W, C)");
  require_rank(call, dy, "dy", 4, "(N, Ho, Wo, F)");
  const pk::padding pad = pk::parse_padding(padding);
  if (kernel_size.first < 1 || kernel_size.second < 1)
    throw py::value_error(message(call.who(), "kernel_size is (", kernel_size.first, ", ", kernel_size.second,
                                  "), expected extents of 1 or more"));
  call.place({{&x, "x"}, {&dy, "dy"}, {maybe(dw_out), "dw"}, {maybe(db_out), "db"}}, false);
  const py::ssize_t F = dy.a.shape[3];
  const operand dw = call.output(dw_out, {F, kernel_size.first, kernel_size.second, x.a.shape[3]}, e, "dw");
  std::optional<operand> db;
  if (bias || db_out) db = call.output(db_out, {F}, e, "db");
  call.require_separate(dw, x, "x");
  call.require_separate(dw, dy, "dy");
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    const auto b = optional_vector<T, Exec>(db);
    pk::conv2d_backward_weights(space, tensor4<const T, Exec>(x.a), tensor4<const T, Exec>(dy.a),
                                tensor4<T, Exec>(dw.a), b, pad);
  });
  return py::make_tuple(dw.object, db ? db->object : py::object(py::none()));
}

py::object max_pool(const py::object& x_obj, const py::object& dy_obj, const py::object& out_obj,
                    const py::object& backend, const py::object& stream, bool backward) {
  kernel_call call(backward ? "portable_kernels.max_pool2x2_backward" : "portable_kernels.max_pool2x2", backend,
                   stream);
  const operand x = call.input(x_obj, "x");
  std::optional<operand> dy;
  if (backward) dy = call.input(dy_obj, "dy");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(x, "x", real);
  require_rank(call, x, "x", 4, "(N, H, W, C)");
  if (dy) {
    call.require_element(*dy, "dy", {e});
    require_rank(call, *dy, "dy", 4, "(N, H/2, W/2, C)");
  }
  call.place({{&x, "x"}, {maybe(dy), "dy"}, {maybe(out), "out"}}, false);
  const auto& s = x.a.shape;
  const auto g = pk::detail::pool_shape(s[0], s[1], s[2], s[3]);
  const operand y = call.output(
      out, backward ? s : std::vector<py::ssize_t>{s[0], py::ssize_t(g.out_h), py::ssize_t(g.out_w), s[3]}, e);
  call.require_separate(y, x, "x");
  if (dy) call.require_separate(y, *dy, "dy");
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    if (backward)
      pk::max_pool2x2_backward(space, tensor4<const T, Exec>(x.a), tensor4<const T, Exec>(dy->a),
                               tensor4<T, Exec>(y.a));
    else
      pk::max_pool2x2(space, tensor4<const T, Exec>(x.a), tensor4<T, Exec>(y.a));
  });
  return y.object;
}

py::object bias_activation(const py::object& y_obj, const py::object& bias_obj, bool relu, const py::object& backend,
                           const py::object& stream) {
  kernel_call call("portable_kernels.bias_activation", backend, stream);
  const operand y = call.input(y_obj, "y");
  const auto bias = call.optional_input(bias_obj, "bias");
  const element e = call.require_element(y, "y", real);
  if (y.a.shape.empty()) throw py::value_error(message(call.who(), "y is 0-d, expected rows of features"));
  call.require_c_contiguous(y, "y");
  call.require_writeable(y, "y");
  if (bias) {
    call.require_element(*bias, "bias", {e});
    require_rank(call, *bias, "bias", 1, "(F,), F the last extent of y");
  }
  call.place({{&y, "y"}, {maybe(bias), "bias"}}, false);
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    const auto b = optional_vector<const T, Exec>(bias);
    pk::bias_activation(space, rows_of<T, Exec>(y.a), b, relu);
  });
  return y.object;
}

py::object relu_backward(const py::object& y_obj, const py::object& dy_obj, const py::object& out_obj,
                         const py::object& backend, const py::object& stream) {
  kernel_call call("portable_kernels.relu_backward", backend, stream);
  const operand y = call.input(y_obj, "y"), dy = call.input(dy_obj, "dy");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(y, "y", real);
  call.require_element(dy, "dy", {e});
  call.require_shape(dy, "dy", y.a.shape, "the shape of y");
  call.require_c_contiguous(y, "y");
  call.require_c_contiguous(dy, "dy");
  call.place({{&y, "y"}, {&dy, "dy"}, {maybe(out), "out"}}, false);
  const operand dz = call.output(out, y.a.shape, e);
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    pk::relu_backward(space, vector_of<const T, Exec>(y.a), vector_of<const T, Exec>(dy.a),
                      vector_of<T, Exec>(dz.a));
  });
  return dz.object;
}

py::object column_sums(const py::object& x_obj, const py::object& out_obj, const py::object& backend,
                       const py::object& stream) {
  kernel_call call("portable_kernels.column_sums", backend, stream);
  const operand x = call.input(x_obj, "x");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(x, "x", real);
  if (x.a.shape.empty()) throw py::value_error(message(call.who(), "x is 0-d, expected rows of features"));
  call.require_c_contiguous(x, "x");
  call.place({{&x, "x"}, {maybe(out), "out"}}, false);
  const operand sums = call.output(out, {x.a.shape.back()}, e);
  call.require_separate(sums, x, "x");
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    pk::column_sums(space, rows_of<const T, Exec>(x.a), vector_of<T, Exec>(sums.a));
  });
  return sums.object;
}

py::tuple softmax_cross_entropy(const py::object& logits_obj, const py::object& labels_obj,
                                const py::object& grad_scale, const py::object& loss_obj, const py::object& grad_obj,
                                const py::object& backend, const py::object& stream) {
  kernel_call call("portable_kernels.softmax_cross_entropy", backend, stream);
  const operand logits = call.input(logits_obj, "logits"), labels = call.input(labels_obj, "labels");
  auto loss_out = call.optional_input(loss_obj, "loss");
  auto grad_out = call.optional_input(grad_obj, "grad");
  const element e = call.require_element(logits, "logits", real);
  call.require_element(labels, "labels", {element::int32});
  require_rank(call, logits, "logits", 2, "(B, classes)");
  require_rank(call, labels, "labels", 1, "(B,)");
  call.place({{&logits, "logits"}, {&labels, "labels"}, {maybe(loss_out), "loss"}, {maybe(grad_out), "grad"}}, false);
  const py::ssize_t B = logits.a.shape[0];
  const operand loss = call.output(loss_out, {B}, e, "loss");
  const operand grad = call.output(grad_out, logits.a.shape, e, "grad");
  call.require_separate(grad, logits, "logits");
  const double scale = grad_scale.is_none() ? (B ? 1.0 / double(B) : 1.0) : grad_scale.cast<double>();
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    pk::softmax_cross_entropy(
                              space, pk::matrix_view<const T, Exec>(reinterpret_cast<const T*>(logits.a.data), B, logits.a.shape[1]),
                              pk::label_view<Exec>(reinterpret_cast<const std::int32_t*>(labels.a.data), labels.a.shape[0]),
                              vector_of<T, Exec>(loss.a), pk::matrix_view<T, Exec>(reinterpret_cast<T*>(grad.a.data), B, logits.a.shape[1]),
                              T(scale));
  });
  return py::make_tuple(loss.object, grad.object);
}

py::object adam_update(const py::object& param_obj, const py::object& grad_obj, const py::object& m_obj,
                       const py::object& v_obj, int step, double learning_rate, double beta1, double beta2,
                       double epsilon, const py::object& backend, const py::object& stream) {
  kernel_call call("portable_kernels.adam_update", backend, stream);
  const operand param = call.input(param_obj, "param"), grad = call.input(grad_obj, "grad");
  const operand m = call.input(m_obj, "m"), v = call.input(v_obj, "v");
  const element e = call.require_element(param, "param", real);
  for (const auto& [o, name] : placed{{&grad, "grad"}, {&m, "m"}, {&v, "v"}}) {
    call.require_element(*o, name, {e});
    call.require_shape(*o, name, param.a.shape, "the shape of param");
    call.require_c_contiguous(*o, name);
  }
  call.require_c_contiguous(param, "param");
  for (const auto& [o, name] : placed{{&param, "param"}, {&m, "m"}, {&v, "v"}}) call.require_writeable(*o, name);
  call.place({{&param, "param"}, {&grad, "grad"}, {&m, "m"}, {&v, "v"}}, false);
  run_real(call, e, [&](auto space, auto t) {
    using T = decltype(t);
    using Exec = decltype(space);
    const pk::adam_step<T> s{T(learning_rate), T(beta1), T(beta2), T(epsilon), step};
    pk::adam_update(space, vector_of<T, Exec>(param.a), vector_of<const T, Exec>(grad.a),
                    vector_of<T, Exec>(m.a), vector_of<T, Exec>(v.a), s);
  });
  return param.object;
}

}  // namespace

void bind_nn(py::module_& m) {
  using namespace py::literals;
  const auto none = py::none();
  m.def("conv2d", &conv2d, "x"_a, "w"_a, "bias"_a = none, py::kw_only(), "padding"_a = "valid", "relu"_a = false,
        "out"_a = none, "backend"_a = none, "stream"_a = none,
        R"(2-D convolution layer (correlation, stride 1): out = relu?(x (*) w + bias).

x: N x H x W x C activations (channels last), w: F x KH x KW x C weights, bias: F values or None;
float32 or float64, C-contiguous, in the backend's memory (pk Arrays, CuPy, PyTorch; numpy on host
backends). padding: "valid" (out N x (H-KH+1) x (W-KW+1) x F) or "same" (zeros around; odd
kernels; out N x H x W x F). relu=True applies max(0, .) after the bias. Returns out.)");
  m.def("conv2d_backward_input", &conv2d_backward_input, "dy"_a, "w"_a, py::kw_only(), "padding"_a = "valid",
        "out"_a = none, "backend"_a = none, "stream"_a = none,
        R"(The gradient of a conv2d's input: dx = dL/dx from dy = dL/d(conv output) (before the relu:
see relu_backward) and the weights w. dx is N x H x W x C, H from dy's Ho and the padding.)");
  m.def("conv2d_backward_weights", &conv2d_backward_weights, "x"_a, "dy"_a, "kernel_size"_a, py::kw_only(),
        "padding"_a = "valid", "bias"_a = true, "dw"_a = none, "db"_a = none, "backend"_a = none, "stream"_a = none,
        R"(The gradients of a conv2d's weights and bias: (dw, db) from its input x and dy. kernel_size:
(KH, KW); dw is F x KH x KW x C; db (F values) is None with bias=False.)");
  m.def(
      "max_pool2x2",
      [](const py::object& x, const py::object& out, const py::object& backend, const py::object& stream) {
        return max_pool(x, py::none(), out, backend, stream, false);
      },
      "x"_a, py::kw_only(), "out"_a = none, "backend"_a = none, "stream"_a = none,
      "2x2 max pooling, stride 2: N x H x W x C -> N x H/2 x W/2 x C (rounded down).");
  m.def(
      "max_pool2x2_backward",
      [](const py::object& x, const py::object& dy, const py::object& out, const py::object& backend,
         const py::object& stream) { return max_pool(x, dy, out, backend, stream, true); },
      "x"_a, "dy"_a, py::kw_only(), "out"_a = none, "backend"_a = none, "stream"_a = none,
      "The gradient of max_pool2x2's input: dy at each window's first maximum of x, 0 elsewhere.");
  m.def("bias_activation", &bias_activation, "y"_a, "bias"_a = none, py::kw_only(), "relu"_a = false,
        "backend"_a = none, "stream"_a = none,
        "In place: y = relu?(y + bias), bias added along y's last axis (a dense layer's epilogue). Returns y.");
  m.def("relu_backward", &relu_backward, "y"_a, "dy"_a, py::kw_only(), "out"_a = none, "backend"_a = none,
        "stream"_a = none, "dz = dy where y > 0 else 0 (y: the relu's output); out may be dy.");
  m.def("column_sums", &column_sums, "x"_a, py::kw_only(), "out"_a = none, "backend"_a = none, "stream"_a = none,
        "Sums over all but the last axis (a bias gradient): F values for x of shape (..., F).");
  m.def("softmax_cross_entropy", &softmax_cross_entropy, "logits"_a, "labels"_a, py::kw_only(),
        "grad_scale"_a = none, "loss"_a = none, "grad"_a = none, "backend"_a = none, "stream"_a = none,
        R"(Sparse categorical cross-entropy of softmax(logits): returns (loss, grad).

logits: B x classes (float32/float64), labels: B int32 class numbers. loss[b] = -log softmax(logits[b])[labels[b]];
grad = grad_scale * (softmax - one_hot), grad_scale 1/B by default (the mean loss's gradient).)");
  m.def("adam_update", &adam_update, "param"_a, "grad"_a, "m"_a, "v"_a, py::kw_only(), "step"_a,
        "learning_rate"_a = 0.001, "beta1"_a = 0.9, "beta2"_a = 0.999, "epsilon"_a = 1e-7, "backend"_a = none,
        "stream"_a = none,
        R"(One Adam step in place on param, m, v (same shape; m and v start at zero): step t = 1, 2, ...
param -= lr sqrt(1-beta2^t)/(1-beta1^t) m / (sqrt(v) + epsilon), as Keras. Returns param.)");
}

}  // namespace pkpy
