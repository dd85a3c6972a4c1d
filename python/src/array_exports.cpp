// pk's arrays handed to other libraries without a copy: DLPack capsules (versioned or not, ordered
// after pk's work on the consumer's stream), __cuda_array_interface__ (version 3), and numpy views
// of host memory.
#include <Python.h>

#include "arrays.hpp"
#include "dlpack.hpp"
#include "kokkos_session.hpp"

namespace pkpy {

namespace {

// DLPack export: the capsule's tensor holds a reference to the Array until its consumer is done.
struct export_context {
  py::object owner;
  std::vector<std::int64_t> shape, strides;
};

template <class Managed>
void delete_exported(Managed* m) {
  auto* ctx = static_cast<export_context*>(m->manager_ctx);
  if (Py_IsInitialized()) {  // consumers may call this from any thread, without the GIL
    const PyGILState_STATE gil = PyGILState_Ensure();
    delete ctx;
    PyGILState_Release(gil);
  } else {
    ctx->owner.release();  // the interpreter is gone: the reference goes with the process
    delete ctx;
  }
  delete m;
}

// A capsule nobody consumed (still named "dltensor..."): its tensor is deleted with it.
void delete_unconsumed(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, dlpack::versioned_capsule_name)) {
    auto* m = static_cast<dlpack::managed_tensor_versioned*>(
        PyCapsule_GetPointer(capsule, dlpack::versioned_capsule_name));
    m->deleter(m);
  } else if (PyCapsule_IsValid(capsule, dlpack::capsule_name)) {
    auto* m = static_cast<dlpack::managed_tensor*>(PyCapsule_GetPointer(capsule, dlpack::capsule_name));
    m->deleter(m);
  }
}

const char* typestr_of(element e) {
  switch (e) {
    case element::float32: return "<f4";
    case element::float64: return "<f8";
    case element::int32: return "<i4";
    default: return "|u1";
  }
}

template <class Managed>
Managed* describe(const array& a, const py::object& owner) {
  auto* ctx = new export_context{owner, {a.shape.begin(), a.shape.end()}, {a.strides.begin(), a.strides.end()}};
  auto* m = new Managed{};
  m->manager_ctx = ctx;
  m->deleter = &delete_exported<Managed>;
  dlpack::tensor& t = m->dl;
  t.data = a.data;
  t.byte_offset = 0;
  t.dev = dlpack_device_of(a);
  t.ndim = static_cast<std::int32_t>(a.shape.size());
  const auto bits = static_cast<std::uint8_t>(8 * size_of(a.dtype));
  t.dtype = {a.dtype == element::uint8   ? dlpack::unsigned_int
             : a.dtype == element::int32 ? dlpack::signed_int
                                         : dlpack::floating,
             bits, 1};
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  return m;
}

}  // namespace

dlpack::device dlpack_device_of(const array& a) {
  return a.where() == memory::cuda ? dlpack::device{dlpack::cuda, a.memory_of->device} : dlpack::device{dlpack::cpu, 0};
}

py::object export_dlpack(const py::object& self, const py::object& stream, const py::object& max_version,
                         const py::object& dl_device, const py::object& copy) {
  const char* who = "portable_kernels.Array.__dlpack__";
  const pk_array& a = self.cast<const pk_array&>();
  const dlpack::device here = dlpack_device_of(a);
  if (!dl_device.is_none()) {
    const auto want = dl_device.cast<py::tuple>();
    if (want[0].cast<int>() != here.type || want[1].cast<int>() != here.id)
      throw py::buffer_error(std::string(who) + ": dl_device " + py::str(dl_device).cast<std::string>() +
                             " is not where the array lies (" + a.place() + "): pk.to_device() copies it");
  }
  const bool copied = !copy.is_none() && copy.cast<bool>();
  py::object exported = self;
  if (copied) exported = py::cast(contiguous_copy(a, a.backend, default_stream_of(a.backend), who));
  const array& e = exported.cast<const pk_array&>();
  if (e.where() == memory::cuda) {
    // The consumer's stream (None: the legacy default stream; -1: it orders the work itself)
    // waits for every pk kernel queued so far, which the default stream is behind.
    const long long consumer = stream.is_none() ? 1 : stream.cast<long long>();
    if (consumer == 0 || consumer < -1)
      throw py::buffer_error(std::string(who) + ": stream " + std::to_string(consumer) +
                             " is not a CUDA stream for DLPack (1: the legacy default stream, 2: per-thread, "
                             "-1: no ordering, or a stream's handle)");
    if (consumer != -1)
      pk::stream_wait(pk::backend::cuda, static_cast<pk::stream_handle>(consumer),
                      default_stream_of(pk::backend::cuda));
  }
  e.memory_of->shared = true;  // its consumer may use it on streams of its own
  const bool versioned = !max_version.is_none() && max_version.cast<py::tuple>()[0].cast<int>() >= 1;
  PyObject* capsule = nullptr;
  if (versioned) {
    auto* m = describe<dlpack::managed_tensor_versioned>(e, exported);
    m->v = {1, 0};
    m->flags = (e.readonly ? dlpack::flag_read_only : 0) | (copied ? dlpack::flag_is_copied : 0);
    capsule = PyCapsule_New(m, dlpack::versioned_capsule_name, &delete_unconsumed);
    if (!capsule) m->deleter(m);
  } else {
    auto* m = describe<dlpack::managed_tensor>(e, exported);
    capsule = PyCapsule_New(m, dlpack::capsule_name, &delete_unconsumed);
    if (!capsule) m->deleter(m);
  }
  if (!capsule) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(capsule);
}

py::dict cuda_interface(const pk_array& a) {
  if (a.where() != memory::cuda)
    throw py::attribute_error("portable_kernels.Array in host memory has no __cuda_array_interface__ "
                              "(np.asarray() takes it)");
  a.memory_of->shared = true;  // its consumer may use it on streams of its own
  py::dict d;
  d["shape"] = tuple_of(a.shape);
  d["typestr"] = typestr_of(a.dtype);
  d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(a.data), a.readonly);
  d["version"] = 3;
  d["strides"] = a.c_contiguous() ? py::object(py::none()) : py::object(tuple_of(a.strides, py::ssize_t(size_of(a.dtype))));
  d["stream"] = default_stream_of(pk::backend::cuda);  // behind every pk kernel queued so far
  return d;
}

py::array numpy_view(const py::object& self, const py::object& dtype, const py::object& copy) {
  const pk_array& a = self.cast<const pk_array&>();
  if (a.where() != memory::host)
    throw py::type_error("portable_kernels.Array: this array is in GPU memory (" + a.place() +
                         "): copy_to_host() copies it to a numpy array");
  std::vector<py::ssize_t> bytes(a.strides.size());
  for (std::size_t d = 0; d < bytes.size(); ++d) bytes[d] = a.strides[d] * py::ssize_t(size_of(a.dtype));
  py::array view(dtype_of(a.dtype), a.shape, bytes, a.data, self);
  if (a.readonly) view.attr("setflags")(py::arg("write") = false);
  py::object out = view;
  if (!dtype.is_none()) out = out.attr("astype")(dtype, py::arg("copy") = false);
  if (!copy.is_none() && copy.cast<bool>()) out = out.attr("copy")();
  return out;
}

}  // namespace pkpy
