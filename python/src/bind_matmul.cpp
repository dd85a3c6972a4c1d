// matmul on numpy matrices: pk::gemm on the arrays' own memory. A transposed view (a.T of a
// C-contiguous matrix) is F-contiguous: its memory is the original matrix row by row, which is
// exactly pk's op::transpose, so backpropagation's X.T @ dZ needs no copy either.
#include "array_args.hpp"
#include "bindings.hpp"
#include "kokkos_session.hpp"

#include <pk/matmul.hpp>

namespace pkpy {

namespace {

constexpr const char* who = "portable_kernels.matmul";

// How a 2-D operand lies in memory: as is (C order) or as the transpose of a row-major matrix.
pk::op layout_of(const py::array& x, const char* name) {
  if (x.ndim() != 2)
    throw py::value_error(std::string(who) + ": " + name + " has shape " + shape_string(shape_of(x)) +
                          ", expected a 2-D matrix");
  if (x.flags() & py::array::c_style) {
    require_c_contiguous(x, who, name);  // the alignment check
    return pk::op::none;
  }
  if (x.flags() & py::array::f_style) {
    require_aligned(x, who, name);
    return pk::op::transpose;
  }
  throw py::value_error(std::string(who) + ": " + name +
                        " is neither C- nor F-contiguous (a matrix or its transpose .T are used as they are; "
                        "pass np.ascontiguousarray(" + name + ") otherwise)");
}

template <class T>
void run_gemm(pk::backend on, pk::op op_a, pk::op op_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
              const py::array& a, const py::array& b, double beta, py::array& c) {
  auto sa = const_span<T>(a), sb = const_span<T>(b);
  auto sc = mutable_span<T>(c);
  const auto ta = static_cast<T>(alpha), tb = static_cast<T>(beta);
  run_kernel(on, [&] { pk::gemm(on, op_a, op_b, m, n, k, ta, sa, sb, tb, sc); });
}

py::array matmul(const py::object& a_obj, const py::object& b_obj, const py::object& out, double alpha, double beta,
                 const py::object& backend) {
  const py::array a = require_array(a_obj, who, "a");
  const py::array b = require_array(b_obj, who, "b");
  const element e = require_element(a, who, "a", {element::float32, element::float64});
  require_element(b, who, "b", {e});
  const pk::op op_a = layout_of(a, "a"), op_b = layout_of(b, "b");
  const std::int64_t m = a.shape(0), k = a.shape(1), n = b.shape(1);
  if (b.shape(0) != k)
    throw py::value_error(std::string(who) + ": shapes " + shape_string(shape_of(a)) + " and " +
                          shape_string(shape_of(b)) + " do not multiply (a has " + std::to_string(k) +
                          " columns, b has " + std::to_string(b.shape(0)) + " rows)");
  if (beta != 0 && out.is_none())
    throw py::value_error(std::string(who) + ": beta is " + std::string(py::str(py::float_(beta))) +
                          " but there is no out= (beta scales the values out holds)");
  const pk::backend on = backend_arg(backend);
  py::array c = output_array(out, {m, n}, e, who);
  require_separate(c, a, who, "a");
  require_separate(c, b, who, "b");
  if (e == element::float32)
    run_gemm<float>(on, op_a, op_b, m, n, k, alpha, a, b, beta, c);
  else
    run_gemm<double>(on, op_a, op_b, m, n, k, alpha, a, b, beta, c);
  return c;
}

}  // namespace

void bind_matmul(py::module_& m) {
  using namespace py::literals;
  m.def("matmul", &matmul, "a"_a, "b"_a, py::kw_only(), "out"_a = py::none(), "alpha"_a = 1.0, "beta"_a = 0.0,
        "backend"_a = py::none(),
        R"(Matrix product (GEMM): out = alpha * a @ b + beta * out.

a: m x k, b: k x n, both float32 or both float64, each C-contiguous or the transpose (.T) of a
   C-contiguous matrix: transposed views are read in place, so matmul(x.T, y) copies nothing.
out: optional C-contiguous m x n array of the same dtype, not sharing memory with a or b; needed
   when beta != 0 (its values are scaled by beta and added). With beta == 0 it is only written.
backend: "serial", "openmp" or "cuda" (see backends()); None for default_backend().

Returns out (a new array without out=). Raises ValueError naming both shapes when they do not
multiply, TypeError for a non-array or a dtype other than float32/float64.)");
}

}  // namespace pkpy
