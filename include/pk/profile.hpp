#pragma once
// pk::profiler: which kernels ran and how long each took, by their labels ("pk::filter conv5x5
// f32", "pk::gemm f32 128x128 tiles"), through Kokkos' Tools callback interface: every Kokkos
// kernel (pk's and the application's) is counted while a profiler lives, nothing when none does.
//
//   {
//     pk::profiler profile;
//     ... kernels ...
//     std::fputs(profile.table().c_str(), stderr);
//   }
//
// Each kernel is followed by a fence while profiling, so that a GPU kernel's time is its own
// (asynchronous launches otherwise return at once): the program runs as with
// CUDA_LAUNCH_BLOCKING=1. One profiler at a time; Kokkos must be running. A Kokkos Tools library
// loaded by KOKKOS_TOOLS_LIBS (Nsight Systems' NVTX connector, the simple kernel timer) sees the
// same labels when no pk::profiler is active; a profiler takes the callbacks over while it lives.
#include <cstdint>
#include <string>
#include <vector>

namespace pk {

struct kernel_time {
  std::string name;      // the kernel's label
  std::int64_t calls = 0;
  double total_ms = 0;   // launch to fence, summed over the calls
};

class profiler {
 public:
  profiler();   // throws pk::error when another profiler is active or Kokkos is not running
  ~profiler();  // stops counting, gives the callbacks back
  profiler(const profiler&) = delete;
  profiler& operator=(const profiler&) = delete;

  // Every kernel seen so far, the longest total first.
  std::vector<kernel_time> kernels() const;
  // The same as a table: kernel, calls, total ms, mean ms, share of the kernels' time.
  std::string table() const;
};

}  // namespace pk
