#include "array_args.hpp"

#include "core/check.hpp"

#include <pk/backend.hpp>

#include <sstream>

namespace pkpy {

namespace {

using npy = py::detail::npy_api;

template <class... Parts>
std::string message(const char* who, const Parts&... parts) {
  std::ostringstream out;
  out << who << ": ";
  (out << ... << parts);
  return out.str();
}

std::string type_name(const py::handle& obj) {
  return py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>();
}

element element_of(const py::array& a) {
  const py::dtype dt = a.dtype();
  // A byte-swapped float32 has float32's type number too, but the kernels read native floats.
  if (!dt.attr("isnative").cast<bool>()) return element::other;
  switch (dt.num()) {
    case npy::NPY_FLOAT_: return element::float32;
    case npy::NPY_DOUBLE_: return element::float64;
    case npy::NPY_UBYTE_: return element::uint8;
    default: return element::other;
  }
}

const char* name_of(element e) {
  switch (e) {
    case element::float32: return "float32";
    case element::float64: return "float64";
    case element::uint8: return "uint8";
    case element::other: break;
  }
  return "other";
}

}  // namespace

py::array require_array(const py::handle& obj, const char* who, const char* name) {
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(message(who, name, " must be a numpy.ndarray, got ", type_name(obj)));
  return py::reinterpret_borrow<py::array>(obj);
}

element require_element(const py::array& a, const char* who, const char* name, std::vector<element> allowed) {
  const element e = element_of(a);
  for (element ok : allowed)
    if (e == ok) return e;
  std::string expected;
  for (std::size_t i = 0; i < allowed.size(); ++i)
    expected += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::string(name_of(allowed[i]));
  throw py::type_error(message(who, name, " has dtype ", std::string(py::str(a.dtype())), ", expected ", expected));
}

void require_c_contiguous(const py::array& a, const char* who, const char* name) {
  if (!(a.flags() & py::array::c_style))
    throw py::value_error(message(who, name, " is not C-contiguous (the kernels work on the array's memory as it "
                                  "is; pass np.ascontiguousarray(", name, "))"));
  require_aligned(a, who, name);
}

void require_aligned(const py::array& a, const char* who, const char* name) {
  if (!(a.flags() & npy::NPY_ARRAY_ALIGNED_))
    throw py::value_error(message(who, name, " is not aligned to its element size (pass a copy: ", name,
                                  ".copy())"));
}

void require_writeable(const py::array& a, const char* who, const char* name) {
  if (!a.writeable()) throw py::value_error(message(who, name, " is read-only (an output must be writeable)"));
}

std::vector<py::ssize_t> shape_of(const py::array& a) { return {a.shape(), a.shape() + a.ndim()}; }

std::string shape_string(const std::vector<py::ssize_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

py::array output_array(const py::object& out, const std::vector<py::ssize_t>& shape, element e, const char* who) {
  const char* dtype = name_of(e);
  if (out.is_none()) {
    double bytes = double(py::dtype(dtype).itemsize());
    for (auto extent : shape) bytes *= double(extent);
    pk::require_memory(pk::backend::serial, bytes, std::string(who) + ": the result " + shape_string(shape));
    return py::array(py::dtype(dtype), shape);
  }
  py::array a = require_array(out, who, "out");
  require_element(a, who, "out", {e});
  if (shape_of(a) != shape)
    throw py::value_error(message(who, "out has shape ", shape_string(shape_of(a)), ", expected ",
                                  shape_string(shape)));
  require_c_contiguous(a, who, "out");
  require_writeable(a, who, "out");
  return a;
}

void require_separate(const py::array& out, const py::array& input, const char* who, const char* name) {
  if (out.nbytes() == 0 || input.nbytes() == 0) return;
  if (pk::detail::ranges_overlap(out.data(), out.nbytes(), input.data(), input.nbytes()))
    throw py::value_error(message(who, "out shares memory with ", name, " (expected a separate array)"));
}

pk::backend backend_arg(const py::object& backend) {
  if (backend.is_none()) return pk::default_backend();
  if (!py::isinstance<py::str>(backend))
    throw py::type_error("portable_kernels: backend must be a name such as 'openmp' (see backends()) or None, got " +
                         type_name(backend));
  return pk::parse_backend(backend.cast<std::string>());
}

}  // namespace pkpy
