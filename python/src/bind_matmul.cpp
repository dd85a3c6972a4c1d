// matmul: pk::gemm on the matrices' own memory, wherever it lies. A transposed view (a.T of a
// C-contiguous matrix) is F-contiguous: its memory is the original matrix row by row, which is
// exactly pk's op::transpose, so backpropagation's X.T @ dZ needs no copy either.
#include "bindings.hpp"
#include "kernel_call.hpp"

#include <pk/kokkos/matmul.hpp>
#include <pk/matmul.hpp>

namespace pkpy {

namespace {

constexpr const char* who = "portable_kernels.matmul";

// How a 2-D operand lies in memory: as is (C order) or as the transpose of a row-major matrix.
pk::op layout_of(const kernel_call& call, const operand& x, const char* name) {
  if (x.a.shape.size() != 2)
    throw py::value_error(std::string(who) + ": " + name + " has shape " + shape_string(x.a.shape) +
                          ", expected a 2-D matrix");
  call.require_aligned(x, name);
  if (x.a.c_contiguous()) return pk::op::none;
  if (x.a.f_contiguous()) return pk::op::transpose;
  throw py::value_error(std::string(who) + ": " + name +
                        " is neither C- nor F-contiguous (a matrix or its transpose .T are used as they are; "
                        "pass a contiguous copy, e.g. np.ascontiguousarray(" + name + "), otherwise)");
}

// The matrix as stored: rows x cols of op(x), or cols x rows when x is a transpose.
template <class T, class Exec>
pk::matrix_view<T, Exec> stored(const array& x, pk::op layout) {
  const auto rows = std::size_t(x.shape[0]), cols = std::size_t(x.shape[1]);
  return layout == pk::op::none ? pk::matrix_view<T, Exec>(reinterpret_cast<T*>(x.data), rows, cols)
                                : pk::matrix_view<T, Exec>(reinterpret_cast<T*>(x.data), cols, rows);
}

template <class T>
void run_gemm(kernel_call& call, pk::op op_a, pk::op op_b, std::int64_t m, std::int64_t n, std::int64_t k,
              double alpha, const array& a, const array& b, double beta, const array& c) {
  const auto ta = static_cast<T>(alpha), tb = static_cast<T>(beta);
  if (call.copies()) {
    const auto sa = span_of<const T>(a), sb = span_of<const T>(b);
    const auto sc = span_of<T>(c);
    const pk::backend on = call.on();
    return run_kernel(on, [&] { pk::gemm(on, op_a, op_b, m, n, k, ta, sa, sb, tb, sc); });
  }
  call.run([&](auto space) {
    using Exec = decltype(space);
    pk::gemm(space, op_a, op_b, ta, stored<const T, Exec>(a, op_a), stored<const T, Exec>(b, op_b), tb,
             stored<T, Exec>(c, pk::op::none));
  });
}

py::object matmul(const py::object& a_obj, const py::object& b_obj, const py::object& out_obj, double alpha,
                  double beta, const py::object& backend, const py::object& stream) {
  kernel_call call(who, backend, stream);
  const operand a = call.input(a_obj, "a");
  const operand b = call.input(b_obj, "b");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(a, "a", {element::float32, element::float64});
  call.require_element(b, "b", {e});
  const pk::op op_a = layout_of(call, a, "a"), op_b = layout_of(call, b, "b");
  const std::int64_t m = a.a.shape[0], k = a.a.shape[1], n = b.a.shape[1];
  if (b.a.shape[0] != k)
    throw py::value_error(std::string(who) + ": shapes " + shape_string(a.a.shape) + " and " +
                          shape_string(b.a.shape) + " do not multiply (a has " + std::to_string(k) +
                          " columns, b has " + std::to_string(b.a.shape[0]) + " rows)");
  if (beta != 0 && !out)
    throw py::value_error(std::string(who) + ": beta is " + std::string(py::str(py::float_(beta))) +
                          " but there is no out= (beta scales the values out holds)");
  call.place({{&a, "a"}, {&b, "b"}, {out ? &*out : nullptr, "out"}});
  const operand c = call.output(out, {m, n}, e);
  call.require_separate(c, a, "a");
  call.require_separate(c, b, "b");
  if (e == element::float32)
    run_gemm<float>(call, op_a, op_b, m, n, k, alpha, a.a, b.a, beta, c.a);
  else
    run_gemm<double>(call, op_a, op_b, m, n, k, alpha, a.a, b.a, beta, c.a);
  return c.object;
}

}  // namespace

void bind_matmul(py::module_& m) {
  using namespace py::literals;
  m.def("matmul", &matmul, "a"_a, "b"_a, py::kw_only(), "out"_a = py::none(), "alpha"_a = 1.0, "beta"_a = 0.0,
        "backend"_a = py::none(), "stream"_a = py::none(),
        R"(Matrix product (GEMM): out = alpha * a @ b + beta * out.

a: m x k, b: k x n, both float32 or both float64, each C-contiguous or the transpose (.T) of a
   C-contiguous matrix: transposed views are read in place, so matmul(x.T, y) copies nothing.
   numpy arrays, portable_kernels.Arrays, or CuPy/PyTorch/Numba matrices (no copy).
out: optional C-contiguous m x n array of the same dtype, not sharing memory with a or b; needed
   when beta != 0 (its values are scaled by beta and added). With beta == 0 it is only written.
backend: "serial", "openmp" or "cuda" (see backends()); None: where the matrices lie
   (default_backend() for numpy arrays). stream: a CUDA stream (see add()).

Returns out; without out= a new array (numpy for numpy inputs, else a portable_kernels.Array). Raises ValueError naming both shapes when they do not
multiply, TypeError for a non-array or a dtype other than float32/float64.)");
}

}  // namespace pkpy
