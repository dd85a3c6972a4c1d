#include "arrays.hpp"

#include <Python.h>

#include <cstring>

#include <pk/error.hpp>

#include "kokkos_session.hpp"

namespace pkpy {

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

// Copies src's elements into dst (same size, both C-contiguous), in order after every pk kernel
// queued so far; returns once the copy is done when either lies in host memory.
void copy_elements(const array& dst, const array& src, pk::stream_handle stream) {
  const bool gpu = dst.where() == memory::cuda || src.where() == memory::cuda;
  if (!gpu) {
    if (dst.nbytes()) std::memcpy(dst.data, src.data, dst.nbytes());
    return;
  }
  const pk::backend on = pk::backend::cuda;
  const pk::stream_handle d = default_stream_of(on);
  run_kernel(on, [&] {
    if (stream != d) pk::stream_wait(on, stream, d);
    pk::copy(on, dst.data, src.data, dst.nbytes(), stream);
    if (stream != d) pk::stream_wait(on, d, stream);
  });
}

pk_array contiguous_copy(const array& src, pk::backend on, pk::stream_handle stream, const char* who) {
  if (!src.c_contiguous())
    throw py::value_error(std::string(who) + ": the array is not C-contiguous (copy a contiguous one)");
  pk_array out = new_array(on, src.shape, src.dtype, std::string(who) + ": the copy " + shape_string(src.shape), stream);
  copy_elements(out, src, stream);
  return out;
}

}  // namespace pkpy
