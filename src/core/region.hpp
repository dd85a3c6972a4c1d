#pragma once
// A Kokkos Tools region around each public call ("pk::filter", "pk::gemm"...), so that Kokkos
// Tools connectors (Nsight Systems through the NVTX connector, the space-time stack) group a
// call's copies and kernels under its name. Costs a null check when no tool is loaded.
#include <Kokkos_Core.hpp>

namespace pk::detail {

struct tools_region {
  explicit tools_region(const char* name) { Kokkos::Profiling::pushRegion(name); }
  ~tools_region() { Kokkos::Profiling::popRegion(); }
  tools_region(const tools_region&) = delete;
  tools_region& operator=(const tools_region&) = delete;
};

}  // namespace pk::detail
