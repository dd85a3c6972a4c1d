// Other libraries' arrays taken as they are: numpy arrays, __cuda_array_interface__ (versions 2
// and 3) and DLPack capsules (versioned or not), each an `array` on memory its owner keeps alive;
// and as_operand, which tells them (and pk's own) apart.
#include <Python.h>

#include "arrays.hpp"
#include "dlpack.hpp"

namespace pkpy {

namespace {

using npy = py::detail::npy_api;

element element_of_numpy(const py::dtype& dt) {
  // A byte-swapped float32 has float32's type number too, but the kernels read native floats.
  if (!dt.attr("isnative").cast<bool>()) return element::other;
  switch (dt.num()) {
    case npy::NPY_FLOAT_: return element::float32;
    case npy::NPY_DOUBLE_: return element::float64;
    case npy::NPY_UBYTE_: return element::uint8;
    case npy::NPY_INT32_: return element::int32;
    default: return element::other;
  }
}

// A typestr ("<f4") as numpy names it ("float32"), for messages.
std::string numpy_name(const std::string& typestr) {
  try {
    return py::str(py::dtype(typestr)).cast<std::string>();
  } catch (const py::error_already_set&) {
    return typestr;
  }
}

array from_numpy(const py::array& n) {
  auto b = std::make_shared<buffer>();
  b->where = memory::host;
  b->holder = n;
  array a;
  a.memory_of = std::move(b);
  a.data = static_cast<char*>(const_cast<void*>(n.data()));
  a.dtype = element_of_numpy(n.dtype());
  if (a.dtype == element::other) a.typestr_seen = py::str(n.dtype()).cast<std::string>();
  a.shape.assign(n.shape(), n.shape() + n.ndim());
  const auto item = n.itemsize();
  a.strides.resize(a.shape.size());
  for (py::ssize_t d = 0; d < n.ndim(); ++d)  // an unaligned stride reads as no layout a kernel takes
    a.strides[d] = n.strides(d) % item == 0 ? n.strides(d) / item : PY_SSIZE_T_MAX;
  a.misaligned = !(n.flags() & npy::NPY_ARRAY_ALIGNED_);
  a.readonly = !n.writeable();
  a.backend = best_host_backend();
  return a;
}

element element_of_typestr(const std::string& t) {
  if (t.size() < 3 || t[0] == '>') return element::other;
  const std::string kind = t.substr(1);
  if (kind == "f4") return element::float32;
  if (kind == "f8") return element::float64;
  if (kind == "u1") return element::uint8;
  if (kind == "i4") return element::int32;
  return element::other;
}

std::vector<py::ssize_t> ints_of(const py::handle& seq) {
  std::vector<py::ssize_t> out;
  for (auto v : py::reinterpret_borrow<py::sequence>(seq)) out.push_back(v.cast<py::ssize_t>());
  return out;
}

// __cuda_array_interface__ (versions 2 and 3): memory on the GPU Kokkos runs on, kept alive by obj.
array from_cuda_interface(const py::object& obj, const py::object& cai_obj, const char* who, const char* name,
                          operand& o) {
  if (!pk::is_available(pk::backend::cuda))
    throw py::value_error(message(who, name, " is in GPU memory (__cuda_array_interface__), and this build of "
                                  "portable_kernels has no cuda backend"));
  const py::dict cai = py::reinterpret_borrow<py::dict>(cai_obj);
  if (cai.contains("mask") && !cai["mask"].is_none())
    throw py::value_error(message(who, name, " is a masked array (its __cuda_array_interface__ has a mask)"));
  const auto data = cai["data"].cast<py::tuple>();
  auto b = std::make_shared<buffer>();
  b->where = memory::cuda;
  b->holder = obj;
  array a;
  a.memory_of = std::move(b);
  a.data = reinterpret_cast<char*>(data[0].cast<std::uintptr_t>());
  a.readonly = data[1].cast<bool>();
  // The interface names no device: the pointer tells (an empty array's null pointer: pk's GPU).
  const int device = a.data ? pk::device_of(pk::backend::cuda, a.data) : cuda_device();
  if (device < 0)
    throw py::value_error(message(who, name, "'s __cuda_array_interface__ points to memory no GPU holds"));
  a.memory_of->device = device;
  a.misaligned = reinterpret_cast<std::uintptr_t>(a.data) % size_of(a.dtype) != 0;
  const std::string typestr = cai["typestr"].cast<std::string>();
  a.dtype = element_of_typestr(typestr);
  if (a.dtype == element::other) a.typestr_seen = numpy_name(typestr);
  a.shape = ints_of(cai["shape"]);
  a.strides = c_strides(a.shape);
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    const auto bytes = ints_of(cai["strides"]);
    const auto item = py::ssize_t(size_of(a.dtype));
    for (std::size_t d = 0; d < bytes.size() && d < a.strides.size(); ++d)
      a.strides[d] = bytes[d] % item == 0 ? bytes[d] / item : PY_SSIZE_T_MAX;
  }
  if (cai.contains("stream") && !cai["stream"].is_none()) {
    const auto stream = cai["stream"].cast<long long>();
    if (stream <= 0)
      throw py::value_error(message(who, name, "'s __cuda_array_interface__ names stream ", stream,
                                    " (version 3 allows a stream handle, 1 or 2; 0 is ambiguous)"));
    o.has_stream = true;
    o.stream = static_cast<pk::stream_handle>(stream);
  }
  a.backend = pk::backend::cuda;
  return a;
}

std::string dlpack_type_name(const dlpack::data_type& t) {
  const char* kind = t.code == dlpack::signed_int     ? "int"
                     : t.code == dlpack::unsigned_int ? "uint"
                     : t.code == dlpack::floating     ? "float"
                     : t.code == 4                    ? "bfloat"
                     : t.code == 5                    ? "complex"
                     : t.code == 6                    ? "bool"
                                                      : "dlpack-type-";
  std::string s = kind + std::to_string(t.bits);
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

element element_of_dlpack(const dlpack::data_type& t) {
  if (t.lanes != 1) return element::other;
  if (t.code == dlpack::floating && t.bits == 32) return element::float32;
  if (t.code == dlpack::floating && t.bits == 64) return element::float64;
  if (t.code == dlpack::unsigned_int && t.bits == 8) return element::uint8;
  if (t.code == dlpack::signed_int && t.bits == 32) return element::int32;
  return element::other;
}

// Takes the tensor out of a DLPack capsule: the capsule is marked used and the tensor's deleter
// runs when the last array on its memory goes.
array from_dlpack_capsule(const py::object& capsule, const char* who, const char* name) {
  PyObject* c = capsule.ptr();
  const dlpack::tensor* t = nullptr;
  bool readonly = false;
  auto b = std::make_shared<buffer>();
  if (PyCapsule_IsValid(c, dlpack::versioned_capsule_name)) {
    auto* m = static_cast<dlpack::managed_tensor_versioned*>(PyCapsule_GetPointer(c, dlpack::versioned_capsule_name));
    if (m->v.major != 1)
      throw py::value_error(message(who, name, " is a DLPack ", m->v.major, ".", m->v.minor,
                                    " tensor, expected major version 1"));
    PyCapsule_SetName(c, dlpack::used_versioned_capsule_name);
    b->release = [m] {
      if (m->deleter) m->deleter(m);
    };
    t = &m->dl;
    readonly = (m->flags & dlpack::flag_read_only) != 0;
  } else if (PyCapsule_IsValid(c, dlpack::capsule_name)) {
    auto* m = static_cast<dlpack::managed_tensor*>(PyCapsule_GetPointer(c, dlpack::capsule_name));
    PyCapsule_SetName(c, dlpack::used_capsule_name);
    b->release = [m] {
      if (m->deleter) m->deleter(m);
    };
    t = &m->dl;
  } else {
    throw py::type_error(message(who, name, ".__dlpack__() returned no DLPack capsule"));
  }
  array a;
  a.memory_of = b;
  const auto dev = t->dev.type;
  if (dev == dlpack::cuda || dev == dlpack::cuda_managed) {
    b->where = memory::cuda;
    b->device = t->dev.id;
    a.backend = pk::backend::cuda;
  } else if (dev == dlpack::cpu || dev == dlpack::cuda_host) {
    a.backend = best_host_backend();
  } else {
    throw py::value_error(message(who, name, " lies on DLPack device type ", dev,
                                  ", which portable_kernels does not run on (CPU or CUDA)"));
  }
  a.data = static_cast<char*>(t->data) + t->byte_offset;
  a.dtype = element_of_dlpack(t->dtype);
  a.misaligned = reinterpret_cast<std::uintptr_t>(a.data) % size_of(a.dtype) != 0;
  if (a.dtype == element::other) a.typestr_seen = dlpack_type_name(t->dtype);
  a.shape.assign(t->shape, t->shape + t->ndim);
  a.strides = t->strides ? std::vector<py::ssize_t>(t->strides, t->strides + t->ndim) : c_strides(a.shape);
  a.readonly = readonly;
  return a;
}

// The DLPack stream value for a CUDA stream handle (0, the legacy default stream, is written 1).
py::object dlpack_stream(pk::stream_handle s) { return py::int_(s == 0 ? 1 : s); }

}  // namespace

array dlpack_array(const py::object& obj, const char* who, const char* name,
                   const std::function<pk::stream_handle()>& consumer) {
  py::object stream = py::none();
  if (py::hasattr(obj, "__dlpack_device__")) {
    const auto dev = obj.attr("__dlpack_device__")().cast<py::tuple>();
    const int type = dev[0].cast<int>();
    if (type == dlpack::cuda || type == dlpack::cuda_managed) {
      if (!pk::is_available(pk::backend::cuda))
        throw py::value_error(message(who, name, " is in GPU memory (DLPack), and this build of portable_kernels "
                                      "has no cuda backend"));
      stream = dlpack_stream(consumer());  // the producer orders its work before that stream's
    }
  }
  py::object capsule;
  try {
    capsule = obj.attr("__dlpack__")(py::arg("stream") = stream, py::arg("max_version") = py::make_tuple(1, 0));
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_TypeError)) throw;  // a producer from before DLPack 1.0 takes no max_version
    capsule = obj.attr("__dlpack__")(py::arg("stream") = stream);
  }
  return from_dlpack_capsule(capsule, who, name);
}


operand as_operand(const py::handle& obj, const char* who, const char* name,
                   const std::function<pk::stream_handle()>& consumer) {
  operand o;
  o.object = py::reinterpret_borrow<py::object>(obj);
  if (py::isinstance<pk_array>(obj)) {
    o.a = obj.cast<const pk_array&>();
    o.from = origin::pk;
    return o;
  }
  if (py::isinstance<py::array>(obj)) {
    o.a = from_numpy(py::reinterpret_borrow<py::array>(obj));
    return o;
  }
  o.from = origin::foreign;
  py::object cai;
  try {
    cai = obj.attr("__cuda_array_interface__");
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_AttributeError))  // e.g. a PyTorch tensor that requires grad
      throw py::type_error(message(who, name, ": ", e.what()));
  }
  if (cai) {
    o.a = from_cuda_interface(o.object, cai, who, name, o);
  } else if (py::hasattr(obj, "__dlpack__")) {
    o.a = dlpack_array(o.object, who, name, consumer);
  }
  if (o.a.memory_of) {
    o.a.misaligned = reinterpret_cast<std::uintptr_t>(o.a.data) % size_of(o.a.dtype) != 0;
    return o;
  }
  throw py::type_error(message(who, name,
                               " must be an array (numpy, portable_kernels.Array, or one with "
                               "__cuda_array_interface__ or __dlpack__: CuPy, PyTorch, Numba), got ",
                               type_name(obj)));
}

}  // namespace pkpy
