#pragma once
// Checks on the numpy arrays handed to the module, so that a kernel can work on their memory
// directly (no copies): each raises TypeError (not an array, wrong dtype) or ValueError (shape,
// layout, read-only output) with a message that names the function and the argument, as
//   "portable_kernels.add: b has shape (3,), expected (4,) (the shape of a)".
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include <pk/backend.hpp>
#include <pk/span.hpp>

namespace pkpy {

namespace py = pybind11;

// The element types the kernels have.
enum class element { float32, float64, uint8, other };

// `obj` as an ndarray, or TypeError "<who>: <name> must be a numpy.ndarray, got list".
py::array require_array(const py::handle& obj, const char* who, const char* name);

// TypeError unless a's dtype is one of `allowed` (native byte order).
element require_element(const py::array& a, const char* who, const char* name, std::vector<element> allowed);

// ValueError unless the array's elements lie densely in row-major order and are aligned.
void require_c_contiguous(const py::array& a, const char* who, const char* name);

// ValueError unless every element lies at a multiple of its size (numpy's ALIGNED flag).
void require_aligned(const py::array& a, const char* who, const char* name);

// ValueError unless the array can be written (outputs).
void require_writeable(const py::array& a, const char* who, const char* name);

// "(3, 4)", as numpy prints shapes.
std::string shape_string(const std::vector<py::ssize_t>& shape);
std::vector<py::ssize_t> shape_of(const py::array& a);

// The output array: a new one of this shape and dtype when `out` is None; otherwise `out` itself,
// checked to be an ndarray of exactly this shape and dtype, C-contiguous and writeable.
py::array output_array(const py::object& out, const std::vector<py::ssize_t>& shape, element e, const char* who);

// ValueError "<who>: out shares memory with <name>" when their bytes overlap at all.
void require_separate(const py::array& out, const py::array& input, const char* who, const char* name);

// None: the fastest compiled-in backend; otherwise its name ("serial", "openmp", "cuda").
pk::backend backend_arg(const py::object& backend);

template <class T>
pk::span<const T> const_span(const py::array& a) {
  return {static_cast<const T*>(a.data()), static_cast<std::size_t>(a.size())};
}
template <class T>
pk::span<T> mutable_span(py::array& a) {
  return {static_cast<T*>(a.mutable_data()), static_cast<std::size_t>(a.size())};
}

}  // namespace pkpy
