#pragma once
// A convolutional network's layers: argument checks and launches, written once for every execution
// space (the arithmetic is nn_functors.hpp). A convolution is a GEMM over its input's windows:
// with M = N*Ho*Wo output pixels and K = KH*KW*C window elements, col is the M x K matrix of the
// windows (conv_windows.hpp: read from x where the GEMM stages its tiles, never formed), and
//   forward:          y (M x F)  = col * w^T          (w: F x K)
//   weights' gradient dw (F x K) = dy^T * col,  db = column sums of dy
//   input's gradient  dcol (M x K) = dy * w, a work array gathered back into dx (Col2im)
// each product pk's GEMM (its functor and the backend's gemm_policy, chosen by shape).
// A backend compiles them by including its gemm_policy and naming PK_INSTANTIATE_NN(ExecSpace) in
// backends/<name>/.
#include <cstdint>
#include <string>

#include <pk/kokkos/matmul.hpp>
#include <pk/kokkos/nn.hpp>
#include <pk/kokkos/on_backend.hpp>
#include <pk/runtime.hpp>

#include "core/check.hpp"
#include "core/elementwise.hpp"
#include "core/region.hpp"
#include "core/workspace.hpp"
#include "matmul/matmul_impl.hpp"
#include "nn/conv_windows.hpp"
#include "nn/nn_functors.hpp"
#include "nn/nn_shape.hpp"

namespace pk::detail {

template <class T>
std::string nn_label(const char* op) {
  return std::string(op) + " " + type_tag<T>();
}

template <class View>
std::string shape_of(const View& v) {
  std::string s = "(";
  for (unsigned d = 0; d < View::rank; ++d) s += (d ? ", " : "") + std::to_string(v.extent(d));
  return s + ")";
}

template <class View>
void require_shape(const char* who, const char* name, const View& v, std::initializer_list<std::int64_t> want,
                   const char* why) {
  std::string expected = "(";
  bool same = true;
  unsigned d = 0;
  for (std::int64_t e : want) {
    expected += (d ? ", " : "") + std::to_string(e);
    same = same && static_cast<std::int64_t>(v.extent(d)) == e;
    ++d;
  }
  if (!same) fail(who, name, " has shape ", shape_of(v), ", expected ", expected, ") (", why, ")");
}

// The M x K work array of the input's gradient (workspace.hpp: stream-ordered on the GPU), refused
// before allocating when it does not fit.
template <class Exec, class T>
struct work_matrix {
  workspace<Exec, T> memory;
  matrix_view<T, Exec> view;
  work_matrix(const Exec& space, const char* who, const conv_geometry& g)
      : work_matrix(space, g, std::string(who) + ": its work array " + std::to_string(g.rows()) + " x " +
                                  std::to_string(g.columns())) {}

 private:
  work_matrix(const Exec& space, const conv_geometry& g, const std::string& what)
      : memory(space, checked_elements(g, what), what), view(memory.data(), g.rows(), g.columns()) {}
  // pk::allocate checks the memory (naming the array); a size past 64 bits is refused here first.
  static std::size_t checked_elements(const conv_geometry& g, const std::string& what) {
    const double bytes = double(g.rows()) * double(g.columns()) * sizeof(T);
    if (bytes > 1e18) require_memory(backend_of<Exec>(), bytes, what);
    return static_cast<std::size_t>(g.rows() * g.columns());
  }
};

template <class Exec, class T>
void conv2d(const Exec& space, const tensor4_view<const T, Exec>& x, const tensor4_view<const T, Exec>& w,
            const vector_view<const T, Exec>& bias, const tensor4_view<T, Exec>& y, padding pad, bool relu) {
  const char* who = "pk::conv2d";
  pk::require_initialized(who);
  const auto C = std::int64_t(x.extent(3)), F = std::int64_t(w.extent(0));
  if (std::int64_t(w.extent(3)) != C)
    fail(who, "w has ", w.extent(3), " input channels, x has ", C, " (w is F x KH x KW x C, x N x H x W x C)");
  const conv_geometry g = conv_shape(who, x.extent(0), x.extent(1), x.extent(2), C, w.extent(1), w.extent(2), pad);
  require_shape(who, "y", y, {g.batch, g.out_h, g.out_w, F}, "N x Ho x Wo x F");
  if (bias.extent(0) != 0) require_length(who, "bias", std::int64_t(bias.extent(0)), F, "one per output channel");
  const tools_region region(who);
  if (g.rows() == 0 || F == 0) return;
  const matrix_view<T, Exec> y2(y.data(), g.rows(), F);
  if (g.columns() == 0) {
    Kokkos::deep_copy(space, y2, T(0));
  } else {
    gemm_of<Exec, T>(space, op::none, op::transpose, conv_windows<T>(x.data(), g),
                     matrix_view<const T, Exec>(w.data(), F, g.columns()), y2, g.columns());
  }
  if (bias.extent(0) != 0 || relu)
    Kokkos::parallel_for(nn_label<T>("pk::conv2d bias"), index_range<Exec>(space, 0, g.rows()),
                         BiasActivation<T>{y.data(), bias.extent(0) ? bias.data() : nullptr, F, relu});
}

template <class Exec, class T>
void conv2d_backward_input(const Exec& space, const tensor4_view<const T, Exec>& dy,
                           const tensor4_view<const T, Exec>& w, const tensor4_view<T, Exec>& dx, padding pad) {
  const char* who = "pk::conv2d_backward_input";
  pk::require_initialized(who);
  const auto C = std::int64_t(w.extent(3)), F = std::int64_t(w.extent(0));
  const conv_geometry g = conv_shape(who, dx.extent(0), dx.extent(1), dx.extent(2), std::int64_t(dx.extent(3)),
                                     w.extent(1), w.extent(2), pad);
  if (std::int64_t(dx.extent(3)) != C)
    fail(who, "dx has ", dx.extent(3), " channels, w has ", C, " input channels");
  require_shape(who, "dy", dy, {g.batch, g.out_h, g.out_w, F}, "N x Ho x Wo x F for dx's N x H x W and w");
  const tools_region region(who);
  if (dx.size() == 0) return;
  if (g.rows() == 0 || F == 0) {
    Kokkos::deep_copy(space, dx, T(0));
    return;
  }
  const work_matrix<Exec, T> work(space, who, g);
  const auto& dcol = work.view;
  pk::gemm(space, op::none, op::none, T(1), matrix_view<const T, Exec>(dy.data(), g.rows(), F),
           matrix_view<const T, Exec>(w.data(), F, g.columns()), T(0), dcol);
  Kokkos::parallel_for(nn_label<T>("pk::conv2d_backward_input col2im"), index_range<Exec>(space, 0, Col2im<T>::count(g)),
                       Col2im<T>{dcol.data(), dx.data(), g});
}

template <class Exec, class T>
void conv2d_backward_weights(const Exec& space, const tensor4_view<const T, Exec>& x,
                             const tensor4_view<const T, Exec>& dy, const tensor4_view<T, Exec>& dw,
                             const vector_view<T, Exec>& db, padding pad) {
  const char* who = "pk::conv2d_backward_weights";
  pk::require_initialized(who);
  const auto C = std::int64_t(x.extent(3)), F = std::int64_t(dw.extent(0));
  if (std::int64_t(dw.extent(3)) != C)
    fail(who, "dw has ", dw.extent(3), " input channels, x has ", C);
  const conv_geometry g = conv_shape(who, x.extent(0), x.extent(1), x.extent(2), C, dw.extent(1), dw.extent(2), pad);
  require_shape(who, "dy", dy, {g.batch, g.out_h, g.out_w, F}, "N x Ho x Wo x F for x and dw");
  if (db.extent(0) != 0) require_length(who, "db", std::int64_t(db.extent(0)), F, "one per output channel");
  const tools_region region(who);
  const matrix_view<T, Exec> dw2(dw.data(), F, g.columns());
  const matrix_view<const T, Exec> dy2(dy.data(), g.rows(), F);
  if (F != 0 && g.columns() != 0) {
    if (g.rows() == 0) {
      Kokkos::deep_copy(space, dw2, T(0));
    } else {
      gemm_of<Exec, T>(space, op::transpose, op::none, dy2, conv_windows<T>(x.data(), g), dw2, g.rows());
    }
  }
  if (db.extent(0) != 0) column_sums<Exec, T>(space, dy2, db);
}

template <class Exec, class T>
void max_pool2x2(const Exec& space, const tensor4_view<const T, Exec>& x, const tensor4_view<T, Exec>& y) {
  const char* who = "pk::max_pool2x2";
  pk::require_initialized(who);
  const pool_geometry g = pool_shape(x.extent(0), x.extent(1), x.extent(2), x.extent(3));
  require_shape(who, "y", y, {g.batch, g.out_h, g.out_w, g.channels}, "N x H/2 x W/2 x C, rounded down");
  const tools_region region(who);
  Kokkos::parallel_for(nn_label<T>(who), index_range<Exec>(space, 0, MaxPool<T>::count(g)), MaxPool<T>{x.data(), y.data(), g});
}

template <class Exec, class T>
void max_pool2x2_backward(const Exec& space, const tensor4_view<const T, Exec>& x,
                          const tensor4_view<const T, Exec>& dy, const tensor4_view<T, Exec>& dx) {
  const char* who = "pk::max_pool2x2_backward";
  pk::require_initialized(who);
  const pool_geometry g = pool_shape(x.extent(0), x.extent(1), x.extent(2), x.extent(3));
  require_shape(who, "dy", dy, {g.batch, g.out_h, g.out_w, g.channels}, "N x H/2 x W/2 x C, rounded down");
  require_shape(who, "dx", dx, {g.batch, g.height, g.width, g.channels}, "the shape of x");
  const tools_region region(who);
  Kokkos::parallel_for(nn_label<T>(who), index_range<Exec>(space, 0, MaxPoolBackward<T>::count(g)),
                       MaxPoolBackward<T>{x.data(), dy.data(), dx.data(), g});
}

template <class Exec, class T>
void bias_activation(const Exec& space, const matrix_view<T, Exec>& y, const vector_view<const T, Exec>& bias,
                     bool relu) {
  const char* who = "pk::bias_activation";
  pk::require_initialized(who);
  const auto F = std::int64_t(y.extent(1));
  if (bias.extent(0) != 0) require_length(who, "bias", std::int64_t(bias.extent(0)), F, "the columns of y");
  const tools_region region(who);
  Kokkos::parallel_for(nn_label<T>(who), index_range<Exec>(space, 0, y.extent(0)),
                       BiasActivation<T>{y.data(), bias.extent(0) ? bias.data() : nullptr, F, relu});
}

template <class Exec, class T>
void relu_backward(const Exec& space, const vector_view<const T, Exec>& y, const vector_view<const T, Exec>& dy,
                   const vector_view<T, Exec>& dz) {
  const char* who = "pk::relu_backward";
  check_elementwise<Exec, T>(who, y, dy, dz, "y", "dy", "dz");
  const auto n = std::int64_t(y.extent(0));
  const tools_region region(who);
  Kokkos::parallel_for(nn_label<T>(who), index_range<Exec>(space, 0, n), ReluBackward<T>{y.data(), dy.data(), dz.data()});
}

template <class Exec, class T>
void column_sums(const Exec& space, const matrix_view<const T, Exec>& x, const vector_view<T, Exec>& sums) {
  const char* who = "pk::column_sums";
  pk::require_initialized(who);
  const auto rows = std::int64_t(x.extent(0)), columns = std::int64_t(x.extent(1));
  require_length(who, "sums", std::int64_t(sums.extent(0)), columns, "the columns of x");
  if (columns == 0) return;
  const tools_region region(who);
  // Parts of about sqrt(rows) rows (at least 64): both passes then loop about as long.
  std::int64_t part_rows = 64;
  while (part_rows < rows / part_rows) part_rows *= 2;
  const std::int64_t parts = rows <= part_rows ? 1 : (rows + part_rows - 1) / part_rows;
  const workspace<Exec, T> partial(space, static_cast<std::size_t>(parts * columns), std::string(who) + ": its partial sums");
  Kokkos::parallel_for(nn_label<T>("pk::column_sums parts"), index_range<Exec>(space, 0, parts * columns),
                       ColumnPartSums<T>{x.data(), partial.data(), rows, columns, std::int64_t(x.stride(0)), part_rows});
  // The parts added in order: split-K GEMM's sum of partial Cs, here into the 1 x columns "C" sums.
  Kokkos::parallel_for(nn_label<T>(who), index_range<Exec>(space, 0, columns),
                       SumParts<T, Exec>{matrix_view<T, Exec>(sums.data(), 1, columns), partial.data(), columns,
                                         columns, parts, T(1), T(0)});
}

template <class Exec, class T>
void softmax_cross_entropy(const Exec& space, const matrix_view<const T, Exec>& logits,
                           const label_view<Exec>& labels, const vector_view<T, Exec>& loss,
                           const matrix_view<T, Exec>& grad, T grad_scale) {
  const char* who = "pk::softmax_cross_entropy";
  pk::require_initialized(who);
  const auto B = std::int64_t(logits.extent(0)), classes = std::int64_t(logits.extent(1));
  require(classes >= 1 || B == 0, who, "logits has no columns (classes)");
  require_length(who, "labels", std::int64_t(labels.extent(0)), B, "one per row of logits");
  require_length(who, "loss", std::int64_t(loss.extent(0)), B, "one per row of logits");
  require_shape(who, "grad", grad, {B, classes}, "the shape of logits");
  // Labels are checked on the host where they are (a label out of range would read past a row).
  if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible) {
    for (std::int64_t b = 0; b < B; ++b)
      if (labels(b) < 0 || labels(b) >= classes)
        fail(who, "labels[", b, "] is ", labels(b), ", expected 0..", classes - 1);
  } else {
    std::int64_t bad = -1;
    Kokkos::parallel_reduce(
        nn_label<T>("pk::softmax_cross_entropy labels"), index_range<Exec>(space, 0, B),
        KOKKOS_LAMBDA(std::int64_t b, std::int64_t & last) {
          if ((labels(b) < 0 || labels(b) >= classes) && b > last) last = b;
        },
        Kokkos::Max<std::int64_t>(bad));
    if (bad >= 0) fail(who, "labels[", bad, "] is outside 0..", classes - 1);
  }
  const tools_region region(who);
  Kokkos::parallel_for(nn_label<T>(who), index_range<Exec>(space, 0, B),
                       SoftmaxCrossEntropy<T>{logits.data(), labels.data(), loss.data(), grad.data(), classes, grad_scale});
}

template <class Exec, class T>
void adam_update(const Exec& space, const vector_view<T, Exec>& param, const vector_view<const T, Exec>& grad,
                 const vector_view<T, Exec>& m, const vector_view<T, Exec>& v, const adam_step<T>& s) {
  const char* who = "pk::adam_update";
  pk::require_initialized(who);
  const auto n = std::int64_t(param.extent(0));
  require_length(who, "grad", std::int64_t(grad.extent(0)), n, "the length of param");
  require_length(who, "m", std::int64_t(m.extent(0)), n, "the length of param");
  require_length(who, "v", std::int64_t(v.extent(0)), n, "the length of param");
  require(s.step >= 1, who, "step is " + std::to_string(s.step) + ", expected 1 or more (the steps taken, this one included)");
  // param, m and v are each updated in place (three arrays); grad is read once an element, before
  // they are written, so it may be one of them exactly but not part of one.
  const auto bytes = n * static_cast<std::int64_t>(sizeof(T));
  if (ranges_overlap(param.data(), bytes, m.data(), bytes) || ranges_overlap(param.data(), bytes, v.data(), bytes) ||
      ranges_overlap(m.data(), bytes, v.data(), bytes))
    fail(who, "param, m and v share memory (each is updated in place: expected three separate arrays)");
  if (partially_overlap(grad.data(), bytes, param.data(), bytes) || partially_overlap(grad.data(), bytes, m.data(), bytes) ||
      partially_overlap(grad.data(), bytes, v.data(), bytes))
    fail(who, "grad partially overlaps param, m or v (expected separate memory)");
  const double t = s.step;
  const T step_size = T(double(s.learning_rate) * std::sqrt(1 - std::pow(double(s.beta2), t)) /
                        (1 - std::pow(double(s.beta1), t)));
  const tools_region region(who);
  Kokkos::parallel_for(nn_label<T>(who), index_range<Exec>(space, 0, n),
                       AdamUpdate<T>{param.data(), grad.data(), m.data(), v.data(), s.beta1, s.beta2, s.epsilon, step_size});
}

}  // namespace pk::detail

#define PK_INSTANTIATE_NN_FOR(EXEC, T)                                                                              \
  template void pk::detail::conv2d<EXEC, T>(const EXEC&, const pk::tensor4_view<const T, EXEC>&,                   \
                                            const pk::tensor4_view<const T, EXEC>&, const pk::vector_view<const T, EXEC>&, \
                                            const pk::tensor4_view<T, EXEC>&, pk::padding, bool);                  \
  template void pk::detail::conv2d_backward_input<EXEC, T>(const EXEC&, const pk::tensor4_view<const T, EXEC>&,    \
                                                           const pk::tensor4_view<const T, EXEC>&,                 \
                                                           const pk::tensor4_view<T, EXEC>&, pk::padding);         \
  template void pk::detail::conv2d_backward_weights<EXEC, T>(const EXEC&, const pk::tensor4_view<const T, EXEC>&,  \
                                                             const pk::tensor4_view<const T, EXEC>&,               \
                                                             const pk::tensor4_view<T, EXEC>&,                     \
                                                             const pk::vector_view<T, EXEC>&, pk::padding);        \
  template void pk::detail::max_pool2x2<EXEC, T>(const EXEC&, const pk::tensor4_view<const T, EXEC>&,              \
                                                 const pk::tensor4_view<T, EXEC>&);                                \
  template void pk::detail::max_pool2x2_backward<EXEC, T>(const EXEC&, const pk::tensor4_view<const T, EXEC>&,     \
                                                          const pk::tensor4_view<const T, EXEC>&,                  \
                                                          const pk::tensor4_view<T, EXEC>&);                       \
  template void pk::detail::bias_activation<EXEC, T>(const EXEC&, const pk::matrix_view<T, EXEC>&,                 \
                                                     const pk::vector_view<const T, EXEC>&, bool);                 \
  template void pk::detail::relu_backward<EXEC, T>(const EXEC&, const pk::vector_view<const T, EXEC>&,             \
                                                   const pk::vector_view<const T, EXEC>&,                          \
                                                   const pk::vector_view<T, EXEC>&);                               \
  template void pk::detail::column_sums<EXEC, T>(const EXEC&, const pk::matrix_view<const T, EXEC>&,               \
                                                 const pk::vector_view<T, EXEC>&);                                 \
  template void pk::detail::softmax_cross_entropy<EXEC, T>(const EXEC&, const pk::matrix_view<const T, EXEC>&,     \
                                                           const pk::label_view<EXEC>&,                            \
                                                           const pk::vector_view<T, EXEC>&,                        \
                                                           const pk::matrix_view<T, EXEC>&, T);                    \
  template void pk::detail::adam_update<EXEC, T>(const EXEC&, const pk::vector_view<T, EXEC>&,                     \
                                                 const pk::vector_view<const T, EXEC>&,                            \
                                                 const pk::vector_view<T, EXEC>&, const pk::vector_view<T, EXEC>&, \
                                                 const pk::adam_step<T>&);

#define PK_INSTANTIATE_NN(EXEC)     \
  PK_INSTANTIATE_NN_FOR(EXEC, float) \
  PK_INSTANTIATE_NN_FOR(EXEC, double)
