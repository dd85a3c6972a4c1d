// add, axpby, scale: pk::add / pk::axpby / pk::scale on the arrays' own memory, wherever it lies
// (numpy arrays on cuda: copied there and back).
#include "bindings.hpp"
#include "kernel_call.hpp"

#include <pk/add.hpp>
#include <pk/kokkos/add.hpp>

namespace pkpy {

namespace {

constexpr const char* stream_doc = R"(
stream: a CUDA stream to run on (an int handle, or a CuPy, PyTorch or Numba stream), for arrays in
      GPU memory; None runs on pk's default stream, which is ordered with the legacy default
      stream (CuPy's and PyTorch's unless told otherwise).)";

template <class T>
void axpby_into(kernel_call& call, bool plain_add, double alpha, const array& a, double beta, const array& b,
                const array& c) {
  const auto ta = static_cast<T>(alpha), tb = static_cast<T>(beta);
  if (call.copies()) {
    const auto sa = span_of<const T>(a), sb = span_of<const T>(b);
    const auto sc = span_of<T>(c);
    const pk::backend on = call.on();
    return run_kernel(on, [&] { plain_add ? pk::add(on, sa, sb, sc) : pk::axpby(on, ta, sa, tb, sb, sc); });
  }
  call.run([&](auto space) {
    using Exec = decltype(space);
    const auto va = vector_of<const T, Exec>(a), vb = vector_of<const T, Exec>(b);
    const auto vc = vector_of<T, Exec>(c);
    plain_add ? pk::add(space, va, vb, vc) : pk::axpby(space, ta, va, tb, vb, vc);
  });
}

// Arrays of any one shape, float32 or float64.
py::object elementwise(const char* who, double alpha, const py::object& a_obj, double beta, const py::object& b_obj,
                       const py::object& out_obj, const py::object& backend, const py::object& stream,
                       bool plain_add) {
  kernel_call call(who, backend, stream);
  const operand a = call.input(a_obj, "a");
  const operand b = call.input(b_obj, "b");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(a, "a", {element::float32, element::float64});
  call.require_element(b, "b", {e});
  call.require_shape(b, "b", a.a.shape, "the shape of a; there is no broadcasting");
  call.require_c_contiguous(a, "a");
  call.require_c_contiguous(b, "b");
  call.place({{&a, "a"}, {&b, "b"}, {out ? &*out : nullptr, "out"}});
  const operand c = call.output(out, a.a.shape, e);
  if (e == element::float32)
    axpby_into<float>(call, plain_add, alpha, a.a, beta, b.a, c.a);
  else
    axpby_into<double>(call, plain_add, alpha, a.a, beta, b.a, c.a);
  return c.object;
}

template <class T>
void scale_of(kernel_call& call, double alpha, const array& x) {
  const auto t = static_cast<T>(alpha);
  if (call.copies()) {
    const auto sx = span_of<T>(x);
    const pk::backend on = call.on();
    return run_kernel(on, [&] { pk::scale(on, t, sx); });
  }
  call.run([&](auto space) { pk::scale(space, t, vector_of<T, decltype(space)>(x)); });
}

py::object scale_in_place(double alpha, const py::object& x_obj, const py::object& backend,
                          const py::object& stream) {
  kernel_call call("portable_kernels.scale", backend, stream);
  const operand x = call.input(x_obj, "x");
  const element e = call.require_element(x, "x", {element::float32, element::float64});
  call.require_c_contiguous(x, "x");
  call.require_writeable(x, "x");
  call.place({{&x, "x"}});
  if (e == element::float32)
    scale_of<float>(call, alpha, x.a);
  else
    scale_of<double>(call, alpha, x.a);
  return x.object;
}

}  // namespace

void bind_add(py::module_& m) {
  using namespace py::literals;
  m.def(
      "add",
      [](const py::object& a, const py::object& b, const py::object& out, const py::object& backend,
         const py::object& stream) {
        return elementwise("portable_kernels.add", 1.0, a, 1.0, b, out, backend, stream, true);
      },
      "a"_a, "b"_a, py::kw_only(), "out"_a = py::none(), "backend"_a = py::none(), "stream"_a = py::none(),
      (std::string(R"(Element-wise sum: out = a + b.

a, b: arrays of one shape (any number of dimensions, no broadcasting), both float32 or both
      float64, C-contiguous: numpy arrays, portable_kernels.Arrays, or CuPy/PyTorch/Numba arrays
      (taken without a copy through __cuda_array_interface__ or DLPack).
out:  optional C-contiguous array of that shape and dtype to write into; it may be a or b itself
      (in place). Without it a new array is returned: numpy when a and b are numpy arrays,
      otherwise a portable_kernels.Array where they lie.
backend: "serial", "openmp" or "cuda" (see backends()); None: where the arrays lie
      (default_backend() for numpy arrays).)") + stream_doc + R"(

Returns out. Kernels work on the arrays' own memory; numpy arrays on "cuda" are copied to the GPU
and back (pk.to_device() them once instead). On the GPU the call returns once the kernel is queued
(pk.synchronize() waits for it). Raises TypeError for a non-array or another dtype, ValueError for
shapes, layout, a read-only out, or arrays in different memories.)")
          .c_str());

  m.def(
      "axpby",
      [](double alpha, const py::object& a, double beta, const py::object& b, const py::object& out,
         const py::object& backend, const py::object& stream) {
        return elementwise("portable_kernels.axpby", alpha, a, beta, b, out, backend, stream, false);
      },
      "alpha"_a, "a"_a, "beta"_a, "b"_a, py::kw_only(), "out"_a = py::none(), "backend"_a = py::none(),
      "stream"_a = py::none(),
      R"(Scaled sum: out = alpha*a + beta*b (BLAS axpby), with a, b, out, backend, stream as for add().

alpha and beta are rounded to the arrays' dtype. out may be a or b (in place), e.g. a gradient step
axpby(1.0, w, -lr, grad, out=w).)");

  m.def("scale", &scale_in_place, "alpha"_a, "x"_a, py::kw_only(), "backend"_a = py::none(), "stream"_a = py::none(),
        R"(Scales x in place: x = alpha*x, and returns x.

x: a writeable, C-contiguous float32 or float64 array of any shape (numpy, portable_kernels.Array,
   CuPy, PyTorch, Numba); backend and stream as for add().)");
}

}  // namespace pkpy
