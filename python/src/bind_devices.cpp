// Backends, devices and Kokkos start-up, for Python: what this build can run on and where.
#include "array_args.hpp"
#include "bindings.hpp"
#include "kokkos_session.hpp"

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include <pk/backend.hpp>

namespace pkpy {

namespace {

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (pk::backend b : pk::available_backends()) names.emplace_back(pk::to_string(b));
  return names;
}

py::dict describe(const pk::device_info& d) {
  using namespace py::literals;
  py::dict info("backend"_a = pk::to_string(d.which), "id"_a = d.id, "name"_a = d.name,
                "concurrency"_a = d.concurrency, "memory_bytes"_a = d.memory_bytes, "free_bytes"_a = d.free_bytes);
  if (d.which == pk::backend::cuda) {
    info["multiprocessors"] = d.multiprocessors;
    info["compute_capability"] = py::make_tuple(d.compute_major, d.compute_minor);
    info["shared_memory_per_block"] = d.shared_memory_per_block;
    info["l2_bytes"] = d.l2_bytes;
  }
  return info;
}

py::list devices(const py::object& backend) {
  const pk::backend b = backend_arg(backend);
  std::vector<pk::device_info> found;
  run_kernel(b, [&] { found = pk::list_devices(b); });  // the OpenMP threads and the GPUs are Kokkos' to report
  py::list out;
  for (const auto& d : found) out.append(describe(d));
  return out;
}

void initialize(std::optional<int> threads, std::optional<int> device) {
  pk::runtime_options options;
  if (threads) {
    if (*threads < 1) throw py::value_error("portable_kernels.initialize: threads is " + std::to_string(*threads) +
                                            ", expected 1 or more");
    options.threads = *threads;
  }
  if (device) {
    if (*device < 0) throw py::value_error("portable_kernels.initialize: device is " + std::to_string(*device) +
                                           ", expected 0 or more");
    options.device = *device;
  }
  start_kokkos(options);
}

}  // namespace

void bind_devices(py::module_& m) {
  using namespace py::literals;
  m.def("backends", &backend_names, "The backends compiled into this build, fastest first, e.g. ['openmp', 'serial'].");
  m.def(
      "default_backend", [] { return std::string(pk::to_string(pk::default_backend())); },
      "The backend used when a function's backend argument is None: the fastest compiled in.");
  m.def("devices", &devices, "backend"_a = py::none(),
        R"(The devices of a backend (default: default_backend()), as a list of dicts.

Every dict has backend, id, name, concurrency (threads run at once), memory_bytes and free_bytes
(what can be allocated now: sizes past it raise MemoryError before allocating); CUDA devices
also multiprocessors, compute_capability (major, minor), shared_memory_per_block and l2_bytes.
Starts Kokkos if it is not running yet.)");
  m.def("initialize", &initialize, py::kw_only(), "threads"_a = py::none(), "device"_a = py::none(),
        R"(Starts Kokkos with these settings: threads (OpenMP threads, default OMP_NUM_THREADS or all
cores) and device (CUDA device number, default 0).

Optional: the first kernel call starts Kokkos with its defaults. Settings are fixed once Kokkos
runs, so a later initialize(threads=...) raises RuntimeError. Kokkos stops at interpreter exit.
With Kokkos 3.x (see kokkos_version), openmp kernels run only on the thread that started Kokkos.)");
  m.attr("kokkos_version") = kokkos_version();
  m.def("is_initialized", &pk::is_initialized, "Whether Kokkos is running (started by this module or by the application).");
}

}  // namespace pkpy
