// add, axpby, scale on numpy arrays: pk::add / pk::axpby / pk::scale on the arrays' own memory.
#include "array_args.hpp"
#include "bindings.hpp"
#include "kokkos_session.hpp"

#include <pk/add.hpp>

namespace pkpy {

namespace {

// c = alpha*a + beta*b (plain_add: c = a + b, pk's faster path) on arrays of element type T.
template <class T>
void axpby_into(pk::backend on, bool plain_add, double alpha, const py::array& a, double beta, const py::array& b,
                py::array& c) {
  auto sa = const_span<T>(a), sb = const_span<T>(b);
  auto sc = mutable_span<T>(c);
  const auto ta = static_cast<T>(alpha), tb = static_cast<T>(beta);
  run_kernel(on, [&] { plain_add ? pk::add(on, sa, sb, sc) : pk::axpby(on, ta, sa, tb, sb, sc); });
}

template <class T>
void scale_of(pk::backend on, double alpha, py::array& x) {
  auto sx = mutable_span<T>(x);
  const auto t = static_cast<T>(alpha);
  run_kernel(on, [&] { pk::scale(on, t, sx); });
}

// Arrays of any one shape, float32 or float64.
py::array elementwise(const char* who, double alpha, const py::object& a_obj, double beta, const py::object& b_obj,
                      const py::object& out, const py::object& backend, bool plain_add) {
  const py::array a = require_array(a_obj, who, "a");
  const py::array b = require_array(b_obj, who, "b");
  const element e = require_element(a, who, "a", {element::float32, element::float64});
  require_element(b, who, "b", {e});
  if (shape_of(b) != shape_of(a))
    throw py::value_error(std::string(who) + ": b has shape " + shape_string(shape_of(b)) + ", expected " +
                          shape_string(shape_of(a)) + " (the shape of a; there is no broadcasting)");
  require_c_contiguous(a, who, "a");
  require_c_contiguous(b, who, "b");
  const pk::backend on = backend_arg(backend);
  py::array c = output_array(out, shape_of(a), e, who);
  if (e == element::float32)
    axpby_into<float>(on, plain_add, alpha, a, beta, b, c);
  else
    axpby_into<double>(on, plain_add, alpha, a, beta, b, c);
  return c;
}

py::array scale_in_place(double alpha, const py::object& x_obj, const py::object& backend) {
  const char* who = "portable_kernels.scale";
  py::array x = require_array(x_obj, who, "x");
  const element e = require_element(x, who, "x", {element::float32, element::float64});
  require_c_contiguous(x, who, "x");
  require_writeable(x, who, "x");
  const pk::backend on = backend_arg(backend);
  if (e == element::float32)
    scale_of<float>(on, alpha, x);
  else
    scale_of<double>(on, alpha, x);
  return x;
}

}  // namespace

void bind_add(py::module_& m) {
  using namespace py::literals;
  m.def(
      "add",
      [](const py::object& a, const py::object& b, const py::object& out, const py::object& backend) {
        return elementwise("portable_kernels.add", 1.0, a, 1.0, b, out, backend, true);
      },
      "a"_a, "b"_a, py::kw_only(), "out"_a = py::none(), "backend"_a = py::none(),
      R"(Element-wise sum: out = a + b.

a, b: numpy arrays of one shape (any number of dimensions, no broadcasting), both float32 or both
      float64, C-contiguous.
out:  optional C-contiguous array of that shape and dtype to write into; it may be a or b itself
      (in place). Without it a new array is returned.
backend: "serial", "openmp" or "cuda" (see backends()); None for default_backend().

Returns out. On host backends the kernel reads and writes the arrays' memory directly (no copies);
on "cuda" the inputs are copied to the GPU and the result back, once each.
Raises TypeError for a non-array or another dtype, ValueError for shapes, layout or a read-only out.)");

  m.def(
      "axpby",
      [](double alpha, const py::object& a, double beta, const py::object& b, const py::object& out,
         const py::object& backend) {
        return elementwise("portable_kernels.axpby", alpha, a, beta, b, out, backend, false);
      },
      "alpha"_a, "a"_a, "beta"_a, "b"_a, py::kw_only(), "out"_a = py::none(), "backend"_a = py::none(),
      R"(Scaled sum: out = alpha*a + beta*b (BLAS axpby), with a, b, out, backend as for add().

alpha and beta are rounded to the arrays' dtype. out may be a or b (in place), e.g. a gradient step
axpby(1.0, w, -lr, grad, out=w).)");

  m.def("scale", &scale_in_place, "alpha"_a, "x"_a, py::kw_only(), "backend"_a = py::none(),
        R"(Scales x in place: x = alpha*x, and returns x.

x: a writeable, C-contiguous float32 or float64 array of any shape.)");
}

}  // namespace pkpy
