#pragma once
// A Kokkos Tools region around each public call ("pk::filter", "pk::gemm"...), so that Kokkos
// Tools connectors (the space-time stack, Nsight Systems through Kokkos' NVTX connector) group a
// call's copies and kernels under its name; a backend may also mark it its own way
// (region_marks: the CUDA backend opens an NVTX range, which Nsight Systems shows without any
// connector). Costs a null check when nothing listens.
#include <Kokkos_Core.hpp>

namespace pk::detail {

// Set by a backend (backends/cuda/cuda_device.cpp: NVTX ranges); null where none is.
struct region_marks {
  void (*push)(const char* name) = nullptr;
  void (*pop)() = nullptr;
};
region_marks& backend_region_marks();

// Only the outermost pk call on a thread opens a region: a host-array call (its copies and
// kernels) runs the View call of the same name inside it, which would otherwise nest a twin.
struct tools_region {
  explicit tools_region(const char* name) : outermost(depth()++ == 0) {
    if (!outermost) return;
    Kokkos::Profiling::pushRegion(name);
    if (backend_region_marks().push) backend_region_marks().push(name);
  }
  ~tools_region() {
    --depth();
    if (!outermost) return;
    if (backend_region_marks().pop) backend_region_marks().pop();
    Kokkos::Profiling::popRegion();
  }
  tools_region(const tools_region&) = delete;
  tools_region& operator=(const tools_region&) = delete;

 private:
  static int& depth() {
    static thread_local int open = 0;
    return open;
  }
  bool outermost;
};

}  // namespace pk::detail
