// portable_kernels.Array: an array in a backend's memory (the GPU's on cuda, the host's on
// openmp/serial), and the functions that make, copy and exchange them: to_device, empty, zeros,
// from_dlpack, copy_to_host, synchronize; the protocols' export is array_exports.cpp.
#include <Python.h>

#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "bindings.hpp"
#include "dlpack.hpp"
#include "kernel_call.hpp"

namespace pkpy {

namespace {

std::vector<py::ssize_t> shape_arg(const py::object& shape, const char* who) {
  std::vector<py::ssize_t> out;
  if (py::isinstance<py::int_>(shape)) {
    out.push_back(shape.cast<py::ssize_t>());
  } else if (py::isinstance<py::sequence>(shape) && !py::isinstance<py::str>(shape)) {
    for (auto v : py::reinterpret_borrow<py::sequence>(shape)) {
      if (!py::isinstance<py::int_>(v))
        throw py::type_error(std::string(who) + ": shape must be an int or a tuple of ints, got an element of type " +
                             type_name(v));
      out.push_back(v.cast<py::ssize_t>());
    }
  } else {
    throw py::type_error(std::string(who) + ": shape must be an int or a tuple of ints, got " + type_name(shape));
  }
  for (auto e : out)
    if (e < 0) throw py::value_error(std::string(who) + ": shape " + shape_string(out) + " has a negative extent");
  return out;
}

element dtype_arg(const py::object& dtype, const char* who) {
  const py::dtype dt = py::dtype::from_args(dtype);
  const std::string name = py::str(static_cast<const py::handle&>(dt)).cast<std::string>();
  for (element e : {element::float32, element::float64, element::uint8, element::int32})
    if (name == name_of(e)) return e;
  throw py::type_error(std::string(who) + ": dtype " + name +
                       " has no kernels (expected float32, float64, uint8, or int32 for labels)");
}

// The device argument: None, or the GPU Kokkos runs on (0 on the host).
void require_device(pk::backend on, const py::object& device, const char* who) {
  if (device.is_none()) return;
  const int want = device.cast<int>();
  const int have = on == pk::backend::cuda ? cuda_device() : 0;
  if (want != have)
    throw py::value_error(std::string(who) + ": device " + std::to_string(want) + ": " +
                          (on == pk::backend::cuda ? "pk runs on cuda:" + std::to_string(have) +
                                                         " in this process (pk.initialize(device=" +
                                                         std::to_string(want) + ") before the first call chooses it)"
                                                   : std::string("host backends have device 0 only")));
}

pk::stream_handle call_stream(pk::backend on, const py::object& stream, const char* who) {
  pk::stream_handle s = 0;
  if (stream_arg(stream, who, s)) {
    if (on != pk::backend::cuda) throw py::value_error(std::string(who) + ": stream= applies to the cuda backend only");
    return s;
  }
  return default_stream_of(on);
}

py::object to_device(const py::object& x, const py::object& backend, const py::object& device,
                     const py::object& stream) {
  const char* who = "portable_kernels.to_device";
  const pk::backend on = backend_arg(backend);
  require_device(on, device, who);
  const pk::stream_handle s = call_stream(on, stream, who);
  // A copy is asked for: a numpy array of another layout is made contiguous on the way.
  py::object source = x;
  if (py::isinstance<py::array>(x) && !(py::reinterpret_borrow<py::array>(x).flags() & py::array::c_style))
    source = py::module_::import("numpy").attr("ascontiguousarray")(x);
  const operand o = as_operand(source, who, "x", [s] { return s; });
  if (o.a.dtype == element::other)
    throw py::type_error(std::string(who) + ": x has dtype " + o.a.typestr_seen +
                         ", expected float32, float64, uint8 or int32 (the dtypes pk has kernels for; convert "
                         "with astype first)");
  if (o.a.misaligned) throw py::value_error(std::string(who) + ": x is not aligned to its element size");
  // A copy from GPU memory runs on a CUDA stream (the legacy default one for a host destination),
  // after the producer's stream's work when the interface names one.
  if (o.has_stream) pk::stream_wait(pk::backend::cuda, on == pk::backend::cuda ? s : 0, o.stream);
  return py::cast(contiguous_copy(o.a, on, s, who));
}

py::object make_array(const py::object& shape, const py::object& dtype, const py::object& backend,
                      const py::object& device, const py::object& stream, bool zero, const char* who) {
  const pk::backend on = backend_arg(backend);
  require_device(on, device, who);
  const pk::stream_handle s = call_stream(on, stream, who);
  const auto extents = shape_arg(shape, who);
  pk_array a = new_array(on, extents, dtype_arg(dtype, who), std::string(who) + ": the array " + shape_string(extents), s);
  const pk::stream_handle d = default_stream_of(on);
  if ((zero && a.nbytes()) || s != d)
    run_kernel(on, [&] {
      if (zero) pk::zero(on, a.data, a.nbytes(), s);
      if (s != d) pk::stream_wait(on, d, s);  // the default stream (where it is freed) after its allocation
    });
  return py::cast(a);
}

py::object from_dlpack(const py::object& x, const py::object& stream) {
  const char* who = "portable_kernels.from_dlpack";
  if (py::isinstance<pk_array>(x)) return x;
  if (!py::hasattr(x, "__dlpack__"))
    throw py::type_error(std::string(who) + ": x has no __dlpack__ (expected a DLPack producer: numpy, CuPy, "
                         "PyTorch, JAX ...), got " + type_name(x));
  pk::stream_handle s = 0;
  const bool given = stream_arg(stream, who, s);
  pk_array a;
  static_cast<array&>(a) = dlpack_array(x, who, "x", [&] { return given ? s : default_stream_of(pk::backend::cuda); });
  // The producer ordered its writes before `stream`; pk's later kernels run on its default stream.
  if (given && a.where() == memory::cuda)
    pk::stream_wait(pk::backend::cuda, default_stream_of(pk::backend::cuda), s);
  return py::cast(a);
}

py::array copy_to_host(const pk_array& a, const py::object& out, const py::object& stream) {
  const char* who = "portable_kernels.Array.copy_to_host";
  if (!a.c_contiguous())
    throw py::value_error(std::string(who) + ": the array is not C-contiguous (copy() makes a contiguous one)");
  const pk::backend on = a.where() == memory::cuda ? pk::backend::cuda : a.backend;
  const pk::stream_handle s = call_stream(on, stream, who);
  py::array host;
  if (out.is_none()) {
    double bytes = double(a.nbytes());
    pk::require_memory(pk::backend::serial, bytes, std::string(who) + ": the copy " + shape_string(a.shape));
    host = py::array(dtype_of(a.dtype), a.shape);
  } else {
    kernel_call call(who, py::none(), py::none());
    std::optional<operand> o = call.input(out, "out");
    if (o->from != origin::numpy) throw py::type_error(std::string(who) + ": out must be a numpy.ndarray, got " + type_name(out));
    call.output(o, a.shape, a.dtype);  // the checks of an out=: dtype, shape, layout, writeable
    host = py::reinterpret_borrow<py::array>(out);
  }
  const operand dst = as_operand(host, who, "out", [s] { return s; });
  copy_elements(dst.a, a, s);
  return host;
}

// a[i] and a[i:j]: rows of the array, sharing its memory.
pk_array rows_of(const pk_array& a, const py::object& key) {
  const char* who = "portable_kernels.Array";
  if (a.shape.empty()) throw py::index_error(std::string(who) + ": a 0-d array has no rows");
  pk_array r = a;
  if (py::isinstance<py::int_>(key)) {
    py::ssize_t i = key.cast<py::ssize_t>();
    if (i < 0) i += a.shape[0];
    if (i < 0 || i >= a.shape[0])
      throw py::index_error(std::string(who) + ": index " + py::str(key).cast<std::string>() +
                            " is out of range for " + std::to_string(a.shape[0]) + " rows");
    r.data += i * a.strides[0] * py::ssize_t(size_of(a.dtype));
    r.shape.erase(r.shape.begin());
    r.strides.erase(r.strides.begin());
    return r;
  }
  if (py::isinstance<py::slice>(key)) {
    py::ssize_t start = 0, stop = 0, step = 0, length = 0;
    if (!py::reinterpret_borrow<py::slice>(key).compute(a.shape[0], &start, &stop, &step, &length))
      throw py::error_already_set();
    if (step != 1)
      throw py::value_error(std::string(who) + ": only row ranges with step 1 (a[i:j]) are views of an array's "
                            "memory; for others copy_to_host() and index the numpy array");
    if (length > 0) r.data += start * a.strides[0] * py::ssize_t(size_of(a.dtype));
    r.shape[0] = length;
    return r;
  }
  throw py::type_error(std::string(who) + ": an index is an int or a slice of rows (a[i], a[i:j]), got " +
                       type_name(key) + " (copy_to_host() and index the numpy array for more)");
}

pk_array reshaped(const pk_array& a, const py::args& args) {
  const char* who = "portable_kernels.Array.reshape";
  py::object shape = args.size() == 1 ? py::object(args[0]) : py::object(args);
  std::vector<py::ssize_t> want;
  py::ssize_t known = 1;
  int unknown = -1;
  const auto seq = py::isinstance<py::int_>(shape) ? py::make_tuple(shape) : shape.cast<py::tuple>();
  for (std::size_t d = 0; d < seq.size(); ++d) {
    const auto e = seq[d].cast<py::ssize_t>();
    if (e == -1 && unknown < 0) {
      unknown = int(d);
    } else if (e < 0) {
      throw py::value_error(std::string(who) + ": shape " + py::str(shape).cast<std::string>() + " is not a shape");
    } else {
      known *= e;
    }
    want.push_back(e);
  }
  if (unknown >= 0 && known > 0 && a.size() % known == 0) want[unknown] = a.size() / known;
  py::ssize_t total = 1;
  for (auto e : want) total *= e;
  if (total != a.size() || (unknown >= 0 && want[unknown] < 0))
    throw py::value_error(std::string(who) + ": cannot reshape " + std::to_string(a.size()) + " elements " +
                          shape_string(a.shape) + " into " + py::str(shape).cast<std::string>());
  if (!a.c_contiguous())
    throw py::value_error(std::string(who) + ": the array is not C-contiguous (reshape views C-contiguous arrays)");
  pk_array r = a;
  r.shape = want;
  r.strides.assign(want.size(), 1);
  for (std::size_t d = want.size(); d-- > 1;) r.strides[d - 1] = r.strides[d] * want[d];
  return r;
}

std::string repr(const pk_array& a) {
  return "portable_kernels.Array(shape=" + shape_string(a.shape) + ", dtype=" + name_of(a.dtype) + ", backend='" +
         pk::to_string(a.backend) + "', device=" + std::to_string(a.where() == memory::cuda ? a.memory_of->device : 0) +
         ")";
}

}  // namespace

void bind_arrays(py::module_& m) {
  using namespace py::literals;
  py::class_<pk_array>(m, "Array", R"(An array in a backend's memory: the GPU's on "cuda", the host's on "openmp"/"serial".

Made by to_device(), empty(), zeros(), from_dlpack(), or returned by a kernel given such arrays.
Every kernel takes and returns them; they lie C-contiguous (a.T and rows a[i:j] are views).
Exchange without copies: torch.from_dlpack(a), cupy.asarray(a) or cupy.from_dlpack(a),
numba.cuda.as_cuda_array(a) (GPU arrays); np.asarray(a) (host arrays). copy_to_host() gives numpy.)")
      .def_property_readonly("shape", [](const pk_array& a) { return tuple_of(a.shape); })
      .def_property_readonly("dtype", [](const pk_array& a) { return dtype_of(a.dtype); })
      .def_property_readonly("ndim", [](const pk_array& a) { return a.shape.size(); })
      .def_property_readonly("size", [](const pk_array& a) { return a.size(); })
      .def_property_readonly("nbytes", [](const pk_array& a) { return a.nbytes(); })
      .def_property_readonly("itemsize", [](const pk_array& a) { return size_of(a.dtype); })
      .def_property_readonly("strides", [](const pk_array& a) { return tuple_of(a.strides, py::ssize_t(size_of(a.dtype))); },
                             "In bytes, as numpy's.")
      .def_property_readonly("backend", [](const pk_array& a) { return std::string(pk::to_string(a.backend)); },
                             "Where kernels on it run when a call names no backend.")
      .def_property_readonly("device", [](const pk_array& a) { return a.where() == memory::cuda ? a.memory_of->device : 0; },
                             "The GPU it is on (0 for host memory).")
      .def_property_readonly("T", [](const pk_array& a) {
        pk_array t = a;
        std::reverse(t.shape.begin(), t.shape.end());
        std::reverse(t.strides.begin(), t.strides.end());
        return t;
      }, "The transpose, a view (matmul reads a transposed matrix in place).")
      .def("__len__", [](const pk_array& a) {
        if (a.shape.empty()) throw py::type_error("portable_kernels.Array: len() of a 0-d array");
        return a.shape[0];
      })
      .def("__repr__", &repr)
      .def("__getitem__", &rows_of, "key"_a)
      .def("reshape", &reshaped, "A view of a C-contiguous array with another shape (one extent may be -1).")
      .def("copy_to_host", &copy_to_host, py::kw_only(), "out"_a = py::none(), "stream"_a = py::none(),
           R"(A numpy array with the array's values (into out, a C-contiguous numpy array of its shape and
dtype, when given). Waits for every pk kernel queued before it.)")
      .def("copy", [](const pk_array& a) {
        return contiguous_copy(a, a.backend, default_stream_of(a.backend), "portable_kernels.Array.copy");
      }, "A new array with the same values, where this one lies.")
      .def("__array__", &numpy_view, "dtype"_a = py::none(), "copy"_a = py::none())
      .def("__dlpack__", &export_dlpack, py::kw_only(), "stream"_a = py::none(), "max_version"_a = py::none(),
           "dl_device"_a = py::none(), "copy"_a = py::none(),
           "The array as a DLPack capsule (no copy), for torch.from_dlpack, cupy.from_dlpack, np.from_dlpack.")
      .def("__dlpack_device__", [](const pk_array& a) {
        const dlpack::device d = dlpack_device_of(a);
        return py::make_tuple(d.type, d.id);
      })
      .def_property_readonly("__cuda_array_interface__", &cuda_interface);

  m.def("to_device", &to_device, "x"_a, py::kw_only(), "backend"_a = py::none(), "device"_a = py::none(),
        "stream"_a = py::none(),
        R"(Copies an array into a backend's memory: a new portable_kernels.Array (numba.cuda.to_device,
cupy.asarray). x: a numpy array (any layout; float32, float64 or uint8), a portable_kernels.Array,
or a CuPy/PyTorch/Numba array. backend: None for default_backend(). device: None, or the GPU pk
runs on (see initialize). Returns once the copy is done when it reads host memory.)");
  m.def("empty", [](const py::object& shape, const py::object& dtype, const py::object& backend, const py::object& device,
                    const py::object& stream) { return make_array(shape, dtype, backend, device, stream, false, "portable_kernels.empty"); },
        "shape"_a, "dtype"_a = "float32", py::kw_only(), "backend"_a = py::none(), "device"_a = py::none(),
        "stream"_a = py::none(),
        "A new array of this shape and dtype (float32, float64, uint8) in a backend's memory, not initialized.");
  m.def("zeros", [](const py::object& shape, const py::object& dtype, const py::object& backend, const py::object& device,
                    const py::object& stream) { return make_array(shape, dtype, backend, device, stream, true, "portable_kernels.zeros"); },
        "shape"_a, "dtype"_a = "float32", py::kw_only(), "backend"_a = py::none(), "device"_a = py::none(),
        "stream"_a = py::none(), "A new array of zeros of this shape and dtype in a backend's memory.");
  const auto like = [](const py::object& x, const py::object& backend, const py::object& stream, bool zero,
                       const char* who) {
    const operand o = as_operand(x, who, "x", [] { return default_stream_of(pk::backend::cuda); });
    if (o.a.dtype == element::other)
      throw py::type_error(std::string(who) + ": x has dtype " + o.a.typestr_seen + ", expected float32, float64 or uint8");
    const py::object where = !backend.is_none() || o.from == origin::numpy ? backend : py::str(pk::to_string(o.a.backend));
    return make_array(tuple_of(o.a.shape), dtype_of(o.a.dtype), where, py::none(), stream, zero, who);
  };
  m.def("empty_like", [like](const py::object& x, const py::object& backend, const py::object& stream) {
    return like(x, backend, stream, false, "portable_kernels.empty_like");
  }, "x"_a, py::kw_only(), "backend"_a = py::none(), "stream"_a = py::none(),
        R"(A new array of x's shape and dtype (numba.cuda.device_array_like), not initialized: where x lies
(a portable_kernels.Array or a GPU array), or on default_backend() for a numpy array; or on backend.)");
  m.def("zeros_like", [like](const py::object& x, const py::object& backend, const py::object& stream) {
    return like(x, backend, stream, true, "portable_kernels.zeros_like");
  }, "x"_a, py::kw_only(), "backend"_a = py::none(), "stream"_a = py::none(),
        "As empty_like(), filled with zeros.");
  m.def("from_dlpack", &from_dlpack, "x"_a, py::kw_only(), "stream"_a = py::none(),
        R"(A portable_kernels.Array on the memory of x, a DLPack producer (a PyTorch tensor, a CuPy or numpy
array ...), without a copy; x's memory stays alive while the Array does. The producer orders its
pending work before pk's stream (or `stream`).)");
  m.def("synchronize", [](const py::object& stream, const py::object& backend) {
    const char* who = "portable_kernels.synchronize";
    const pk::backend on = backend_arg(backend);
    pk::stream_handle s = 0;
    const bool given = stream_arg(stream, who, s);
    if (given && on != pk::backend::cuda) throw py::value_error(std::string(who) + ": stream= applies to the cuda backend only");
    if (!kokkos_running()) return;
    run_kernel(on, [&] {
      if (given)
        pk::synchronize(on, s);
      else
        Kokkos::fence();
    });
  }, py::kw_only(), "stream"_a = py::none(), "backend"_a = py::none(),
        R"(Waits until every kernel pk queued is done (on the GPU: the whole device), or the work on
`stream`. Kernels on GPU arrays return once queued; copy_to_host() waits by itself.)");
}

}  // namespace pkpy
