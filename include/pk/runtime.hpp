#pragma once
// pk::runtime: starts Kokkos (if the application has not already) and stops it at scope exit.
// Every kernel needs Kokkos initialized; without it they throw pk::error instead of crashing.
#include <string>

namespace pk {

// Checked by runtime's constructor (pk::error otherwise), also when Kokkos already runs.
struct runtime_options {
  int device = -1;   // CUDA device number, < the number of GPUs (0 only, in builds without CUDA); -1: device 0
  int threads = -1;  // OpenMP threads, >= 1; -1: OMP_NUM_THREADS or all cores
};

class runtime {
 public:
  runtime() : runtime(runtime_options{}) {}
  explicit runtime(const runtime_options& options);
  ~runtime();
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  // True when this object initialized Kokkos (and so will finalize it).
  bool owns_kokkos() const noexcept { return owns_; }

 private:
  bool owns_ = false;
};

bool is_initialized() noexcept;

// Throws pk::error("<who>: Kokkos is not initialized ...") unless Kokkos is running.
void require_initialized(const char* who);

}  // namespace pk
