#pragma once
// The arrays the module's kernels work on, wherever their memory lies: portable_kernels.Array (pk's
// own, in a backend's memory), numpy arrays, and other libraries' arrays taken without a copy
// through __cuda_array_interface__ (CuPy, PyTorch, Numba) or DLPack (__dlpack__). Each becomes an
// `array`: a pointer, dtype, shape and strides, and a `buffer` that keeps the memory alive.
//
// Streams (CUDA). pk's kernels run on the stream of Kokkos' default instance (`default stream`
// below) unless a call names another. Every call on another stream S is ordered after the work on
// the default stream first, and the default stream after S's work when it returns (events, the
// host does not wait), so the default stream is always behind every pk kernel queued so far: pk's
// memory is returned to the pool on it, and other libraries are handed it as the stream to wait on.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <pk/backend.hpp>
#include <pk/memory.hpp>

#include "dlpack.hpp"

namespace pkpy {

namespace py = pybind11;

// The element types the kernels have.
enum class element { float32, float64, uint8, int32, other };
const char* name_of(element e);
std::size_t size_of(element e);
py::dtype dtype_of(element e);

enum class memory { host, cuda };

// Memory an array views, and what keeps it alive: an allocation of pk's own (returned to its
// backend's pool when the last array on it goes), or another library's object, held until then.
struct buffer {
  memory where = memory::host;
  bool shared = false;                    // handed to another library (DLPack, __cuda_array_interface__)
  int device = 0;                         // cuda: the GPU it is on
  pk::backend allocated_by = pk::backend::serial;
  void* owned = nullptr;                  // pk::allocate'd, or null
  py::object holder;                      // numpy array, CAI object, or null
  std::function<void()> release;          // a DLPack tensor's deleter, or empty
  // GPU memory pk allocated is returned on pk's default stream, after its kernels; memory another
  // library may still use on a stream of its own (shared) waits for the whole GPU first.
  buffer() = default;
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer();  // with the GIL held
};

struct array {
  std::shared_ptr<buffer> memory_of;
  char* data = nullptr;              // the first element
  element dtype = element::other;
  std::vector<py::ssize_t> shape;
  std::vector<py::ssize_t> strides;  // in elements
  pk::backend backend = pk::backend::serial;  // what kernels on it run on when a call names none
  bool readonly = false;
  bool misaligned = false;           // the pointer or a stride is not a multiple of the element size
  std::string typestr_seen;          // a foreign dtype pk has no kernels for, as its owner wrote it

  memory where() const { return memory_of->where; }
  py::ssize_t size() const;
  std::size_t nbytes() const { return std::size_t(size()) * size_of(dtype); }
  bool c_contiguous() const;
  bool f_contiguous() const;  // a 2-D matrix's transpose (.T) as it lies in memory
  std::string place() const;  // "cuda:0", "host"
};

// The module's own array type, portable_kernels.Array.
struct pk_array : array {};

// How an argument reached a kernel.
enum class origin { numpy, pk, foreign };

struct operand {
  array a;
  origin from = origin::numpy;
  py::object object;  // the argument itself, returned as the result when it is out=
  bool has_stream = false;
  pk::stream_handle stream = 0;  // __cuda_array_interface__'s stream: work to wait for
};

// Resolves a kernel argument: TypeError "<who>: <name> must be an array (numpy, portable_kernels.Array,
// or one with __cuda_array_interface__ or __dlpack__), got list" otherwise. `consumer` is the
// stream the call will use, passed to a DLPack producer on a GPU.
operand as_operand(const py::handle& obj, const char* who, const char* name,
                   const std::function<pk::stream_handle()>& consumer);

// An object's DLPack tensor (its __dlpack__), without a copy.
array dlpack_array(const py::object& obj, const char* who, const char* name,
                   const std::function<pk::stream_handle()>& consumer);

// The stream pk's kernels use on `on` when a call names none (0 on host backends). Starts Kokkos.
pk::stream_handle default_stream_of(pk::backend on);

// The GPU Kokkos runs on in this process (starts Kokkos).
int cuda_device();

// A new pk array of this shape and dtype in backend `on`'s memory (uninitialized), allocated in
// order on `stream`; MemoryError naming `what` when the memory is not free.
pk_array new_array(pk::backend on, const std::vector<py::ssize_t>& shape, element e, const std::string& what,
                   pk::stream_handle stream);

// "<who>: " and the parts: every error message of the module names its function first.
template <class... Parts>
std::string message(const char* who, const Parts&... parts) {
  std::ostringstream out;
  out << who << ": ";
  (out << ... << parts);
  return out.str();
}

// The fastest host backend built: where arrays in host memory run when a call names none.
pk::backend best_host_backend();

// Row-major strides (in elements) of a shape.
std::vector<py::ssize_t> c_strides(const std::vector<py::ssize_t>& shape);

// A shape or strides as a Python tuple (strides in bytes: scale = the element size).
inline py::tuple tuple_of(const std::vector<py::ssize_t>& v, py::ssize_t scale = 1) {
  py::tuple t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = py::int_(v[i] * scale);
  return t;
}

// Copies src's elements into dst (same size, both C-contiguous), in order after every pk kernel
// queued so far; returns once the copy is done when either lies in host memory.
void copy_elements(const array& dst, const array& src, pk::stream_handle stream);

// A new C-contiguous pk array on backend `on` with src's values (ValueError for a strided src).
pk_array contiguous_copy(const array& src, pk::backend on, pk::stream_handle stream, const char* who);

// The export protocols (array_exports.cpp): DLPack (__dlpack__'s arguments), the device it
// names, __cuda_array_interface__ (AttributeError for host memory), a numpy view (__array__;
// TypeError for GPU memory).
py::object export_dlpack(const py::object& self, const py::object& stream, const py::object& max_version,
                         const py::object& dl_device, const py::object& copy);
dlpack::device dlpack_device_of(const array& a);
py::dict cuda_interface(const pk_array& a);
py::array numpy_view(const py::object& self, const py::object& dtype, const py::object& copy);

// "(3, 4)", as numpy prints shapes.
std::string shape_string(const std::vector<py::ssize_t>& shape);
std::string type_name(const py::handle& obj);

// None: the fastest compiled-in backend; otherwise its name ("serial", "openmp", "cuda").
pk::backend backend_arg(const py::object& backend);

// The stream argument: None, an int (a cudaStream_t's value), or a stream object of CuPy
// (.ptr), PyTorch (.cuda_stream), Numba (.handle) or any with __cuda_stream__.
bool stream_arg(const py::object& stream, const char* who, pk::stream_handle& handle);


}  // namespace pkpy
