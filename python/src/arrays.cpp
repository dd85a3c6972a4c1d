#include "arrays.hpp"

#include <Python.h>

#include <climits>
#include <cstring>
#include <sstream>

#include <pk/error.hpp>

#include "dlpack.hpp"
#include "kokkos_session.hpp"

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

// The host backend arrays in host memory run on when a call names none: the fastest built.
pk::backend best_host_backend() {
  return pk::is_available(pk::backend::openmp) ? pk::backend::openmp : pk::backend::serial;
}

std::vector<py::ssize_t> c_strides(const std::vector<py::ssize_t>& shape) {
  std::vector<py::ssize_t> strides(shape.size());
  py::ssize_t step = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    strides[d] = step;
    step *= shape[d];
  }
  return strides;
}

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

const char* name_of(element e) {
  switch (e) {
    case element::float32: return "float32";
    case element::float64: return "float64";
    case element::uint8: return "uint8";
    case element::int32: return "int32";
    case element::other: break;
  }
  return "other";
}

std::size_t size_of(element e) {
  switch (e) {
    case element::float32: return 4;
    case element::float64: return 8;
    case element::int32: return 4;
    default: return 1;
  }
}

py::dtype dtype_of(element e) { return py::dtype(name_of(e)); }

buffer::~buffer() {
  const bool gpu_alive = where == memory::cuda && kokkos_running();  // after Kokkos, the process is ending
  if (shared && gpu_alive) {
    // Another library had it: its work on its own streams may still read or write it.
    try {
      pk::synchronize_device(pk::backend::cuda);
    } catch (...) {
    }
  }
  if (owned && (allocated_by != pk::backend::cuda || gpu_alive))
    pk::deallocate(allocated_by, owned, default_stream_of(allocated_by));
  if (release) release();
}

py::ssize_t array::size() const {
  py::ssize_t n = 1;
  for (auto e : shape) n *= e;
  return n;
}

bool array::c_contiguous() const {
  py::ssize_t step = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1 && strides[d] != step) return size() == 0;
    step *= shape[d];
  }
  return true;
}

bool array::f_contiguous() const {
  py::ssize_t step = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] != 1 && strides[d] != step) return size() == 0;
    step *= shape[d];
  }
  return true;
}

std::string array::place() const {
  return where() == memory::cuda ? "cuda:" + std::to_string(memory_of->device) : std::string("host");
}

int cuda_device() {
  static int device = -1;  // fixed once Kokkos starts
  if (device < 0) {
    ensure_kokkos();
    device = pk::current_device(pk::backend::cuda).id;
  }
  return device;
}

std::string type_name(const py::handle& obj) {
  return py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>();
}

std::string shape_string(const std::vector<py::ssize_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
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

pk::stream_handle default_stream_of(pk::backend on) {
  if (on != pk::backend::cuda) return 0;
  static pk::stream_handle handle = 0;
  static bool known = false;
  if (!known) {
    ensure_kokkos();
    handle = pk::default_stream(on);
    known = true;
  }
  return handle;
}

pk_array new_array(pk::backend on, const std::vector<py::ssize_t>& shape, element e, const std::string& what,
                   pk::stream_handle stream) {
  ensure_kokkos();
  double bytes = double(size_of(e));
  for (auto extent : shape) bytes *= double(extent);
  pk::require_memory(on, bytes, what);  // (before the size can overflow a size_t)
  auto b = std::make_shared<buffer>();
  b->owned = pk::allocate(on, static_cast<std::size_t>(bytes), what, stream);
  b->allocated_by = on;
  if (on == pk::backend::cuda) {
    b->where = memory::cuda;
    b->device = cuda_device();
  }
  pk_array a;
  a.data = static_cast<char*>(b->owned);
  a.memory_of = std::move(b);
  a.dtype = e;
  a.shape = shape;
  a.strides = c_strides(shape);
  a.backend = on;
  return a;
}

pk::backend backend_arg(const py::object& backend) {
  if (backend.is_none()) return pk::default_backend();
  if (!py::isinstance<py::str>(backend))
    throw py::type_error("portable_kernels: backend must be a name such as 'openmp' (see backends()) or None, got " +
                         type_name(backend));
  return pk::parse_backend(backend.cast<std::string>());
}

bool stream_arg(const py::object& stream, const char* who, pk::stream_handle& handle) {
  if (stream.is_none()) return false;
  py::object v = stream;
  if (py::hasattr(stream, "__cuda_stream__")) {
    v = stream.attr("__cuda_stream__")().cast<py::tuple>()[1];
  } else if (py::hasattr(stream, "cuda_stream")) {  // torch.cuda.Stream
    v = stream.attr("cuda_stream");
  } else if (py::hasattr(stream, "ptr")) {  // cupy.cuda.Stream
    v = stream.attr("ptr");
  } else if (py::hasattr(stream, "handle")) {  // numba.cuda stream: a ctypes c_void_p
    v = stream.attr("handle");
    if (py::hasattr(v, "value")) v = v.attr("value");
    if (v.is_none()) v = py::int_(0);
  }
  if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v))
    throw py::type_error(message(who, "stream must be a CUDA stream (an int handle, or a CuPy, PyTorch or Numba "
                                 "stream), got ", type_name(stream)));
  const auto value = v.cast<long long>();
  if (value < 0) throw py::value_error(message(who, "stream is ", value, ", expected a stream handle >= 0"));
  handle = static_cast<pk::stream_handle>(value);
  return true;
}

}  // namespace pkpy
