// Example 4: device query -- what can this build run on?
//
// The CUDA samples' deviceQuery and PyCUDA's dump_properties.py print each GPU's properties
// before anything else is tried: the number of multiprocessors (how many thread blocks run at
// once), global memory (how large a problem fits), compute capability (which instructions exist),
// L2 and shared memory (what tiling can use). portable-kernels asks the same of every backend it
// was built with, so the same program also describes the CPU that OpenMP and Serial run on.
#include <pk/backend.hpp>
#include <pk/runtime.hpp>

#include <cstdio>

int main() {
  // Device properties come from the running backends, so Kokkos must be started first.
  pk::runtime kokkos;

  const auto backends = pk::available_backends();  // fastest first
  std::printf("device_query: %zu backend(s) compiled in; the default is %s\n", backends.size(),
              pk::to_string(pk::default_backend()));
  int problems = 0;
  for (pk::backend b : backends) {
    const auto devices = pk::list_devices(b);  // CUDA: every visible GPU; host backends: one entry
    std::printf("\n%s: %zu device(s)\n", pk::to_string(b), devices.size());
    for (const pk::device_info& d : devices) {
      std::printf("  [%d] %s\n", d.id, d.name.c_str());
      std::printf("      threads at once:       %d\n", d.concurrency);
      std::printf("      memory:                %.1f GiB\n", double(d.memory_bytes) / (1ull << 30));
      if (b == pk::backend::cuda) {
        std::printf("      multiprocessors (SMs): %d\n", d.multiprocessors);
        std::printf("      compute capability:    %d.%d\n", d.compute_major, d.compute_minor);
        std::printf("      L2 cache:              %.1f MiB\n", double(d.l2_bytes) / (1 << 20));
        std::printf("      shared memory / block: %zu KiB\n", d.shared_memory_per_block / 1024);
      }
      // A device that reports no parallelism or no memory is a broken query, not a small machine.
      if (d.concurrency < 1 || d.memory_bytes == 0 || d.name.empty()) {
        std::printf("      ^ implausible description\n");
        ++problems;
      }
    }
    if (devices.empty() && b != pk::backend::cuda) ++problems;  // host backends always have one
  }
  // The backend the kernels would use, and its device: what `current_device` reports.
  const pk::device_info now = pk::current_device(pk::default_backend());
  std::printf("\nkernels run by default on %s: %s\n", pk::to_string(now.which), now.name.c_str());
  std::printf("device_query: %s\n", problems == 0 ? "PASS" : "FAIL");
  return problems == 0 ? 0 : 1;
}
