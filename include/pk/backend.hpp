#pragma once
// Backends: which Kokkos execution space runs a kernel. Chosen at build time (which ones are
// compiled in) and at run time (the `backend` argument of every host-friendly function).
#include <cstddef>
#include <string>
#include <vector>

namespace pk {

enum class backend {
  serial,  // Kokkos::Serial: one host thread, the reference
  openmp,  // Kokkos::OpenMP: all host cores
  cuda,    // Kokkos::Cuda: an NVIDIA GPU
};

// "serial", "openmp", "cuda".
const char* to_string(backend b) noexcept;

// Parses a name as printed by to_string; throws pk::error naming the compiled-in backends
// when the name is unknown or that backend was not built.
backend parse_backend(const std::string& name);

// The backends compiled into this build, fastest first.
std::vector<backend> available_backends();
bool is_available(backend b) noexcept;

// The fastest compiled-in backend (cuda, then openmp, then serial).
backend default_backend() noexcept;

// What runs a backend's kernels.
struct device_info {
  backend which = backend::serial;
  int id = 0;                  // device number (CUDA) or 0
  std::string name;            // "NVIDIA H200", or the host CPU's model name
  int concurrency = 1;         // threads the backend runs at once
  int multiprocessors = 0;     // CUDA: SM count
  int compute_major = 0;       // CUDA: compute capability
  int compute_minor = 0;
  std::size_t memory_bytes = 0;       // CUDA: global memory; host: physical memory
  std::size_t free_bytes = 0;         // what can be allocated now: CUDA free memory (the current
                                      // device; 0 for others); host: available memory (MemAvailable,
                                      // or the cgroup's limit less its use when that is lower)
  std::size_t shared_memory_per_block = 0;  // CUDA: opt-in shared memory per block
  std::size_t l2_bytes = 0;           // CUDA: L2 cache size
};

// The devices of one backend (CUDA: every visible GPU; host backends: one entry).
// Needs pk::runtime (Kokkos initialized).
std::vector<device_info> list_devices(backend b);

// The device a backend runs on now.
device_info current_device(backend b);

// Throws pk::memory_error "<what>: needs X GB, more than the Y GB free on <device>" when `bytes`
// exceed what backend b's current device has free now (a double: sizes the caller computes
// cannot overflow). Call it before allocating. Needs pk::runtime for cuda (host backends: any time).
void require_memory(backend b, double bytes, const std::string& what);

}  // namespace pk
