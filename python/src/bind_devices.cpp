// Backends, devices and Kokkos start-up, for Python: what this build can run on and where.
#include "arrays.hpp"
#include "bindings.hpp"
#include "kokkos_session.hpp"

#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <pk/backend.hpp>
#include <pk/profile.hpp>

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

// pk.profile(): a context manager around pk::profiler (Kokkos Tools callbacks, kernels fenced).
class profile_session {
 public:
  explicit profile_session(bool print) : print_(print) {}
  profile_session& enter() {
    if (profiler_) throw std::runtime_error("portable_kernels.profile: this profile is already running");
    if (!pk::is_initialized()) start_kokkos({});
    profiler_ = std::make_unique<pk::profiler>();
    return *this;
  }
  void exit(const py::args&) {
    if (!profiler_) return;
    kernels_ = profiler_->kernels();
    table_ = profiler_->table();
    profiler_.reset();
    if (print_) py::module_::import("sys").attr("stderr").attr("write")(table_);
  }
  std::string table() const { return profiler_ ? profiler_->table() : table_; }
  py::list kernels() const {
    using namespace py::literals;
    py::list out;
    for (const pk::kernel_time& k : profiler_ ? profiler_->kernels() : kernels_)
      out.append(py::dict("name"_a = k.name, "calls"_a = k.calls, "total_ms"_a = k.total_ms));
    return out;
  }

 private:
  bool print_;
  std::unique_ptr<pk::profiler> profiler_;
  std::vector<pk::kernel_time> kernels_;
  std::string table_;
};

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
  py::class_<profile_session>(m, "Profile", "A running or finished pk.profile(): kernels and table().")
      .def("__enter__", &profile_session::enter, py::return_value_policy::reference)
      .def("__exit__", &profile_session::exit)
      .def("table", &profile_session::table, "The per-kernel table: calls, total ms, mean ms, share.")
      .def_property_readonly("kernels", &profile_session::kernels,
                             "[{'name', 'calls', 'total_ms'}], the longest total first.");
  m.def("profile", [](bool print) { return profile_session(print); }, py::kw_only(), "print"_a = true,
        R"(Times every kernel run inside a with block, by its label (e.g. 'pk::filter conv5x5 f32'):

    with pk.profile() as prof:
        pk.filter(img, "gaussian5"); pk.matmul(a, b)
    prof.kernels   # [{'name': ..., 'calls': ..., 'total_ms': ...}], longest first

Prints the table (calls, total ms, mean ms, share) on stderr when the block ends (print=False: not).
Each kernel is fenced while profiling, so a GPU kernel's time is its own. Uses Kokkos' Tools
callbacks: one profile at a time.)");
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
