// The cuda backend's devices (src/core/devices.hpp), described by the CUDA runtime.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <map>
#include <mutex>
#include <string>

#include "core/check.hpp"
#include "core/devices_impl.hpp"
#include "core/region.hpp"

namespace pk::detail {
namespace {

// A device's properties, read once: they do not change while the process runs, and every
// allocation's memory check (pk::require_memory, through current_device) describes the device.
const cudaDeviceProp& properties(int id) {
  static std::mutex m;
  static std::map<int, cudaDeviceProp> known;
  const std::lock_guard<std::mutex> lock(m);
  auto it = known.find(id);
  if (it == known.end()) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, id) != cudaSuccess) fail("pk::list_devices", "cannot query CUDA device ", id);
    it = known.emplace(id, prop).first;
  }
  return it->second;
}

// The properties, and the free memory as it is now.
device_info describe(int id) {
  const cudaDeviceProp& prop = properties(id);
  device_info d;
  d.which = backend::cuda;
  d.id = id;
  d.name = prop.name;
  d.multiprocessors = prop.multiProcessorCount;
  d.concurrency = prop.multiProcessorCount * prop.maxThreadsPerMultiProcessor;
  d.compute_major = prop.major;
  d.compute_minor = prop.minor;
  d.memory_bytes = prop.totalGlobalMem;
  d.shared_memory_per_block = prop.sharedMemPerBlockOptin;
  d.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  int current = -1;
  std::size_t free = 0, total = 0;
  if (cudaGetDevice(&current) == cudaSuccess && current == id && cudaMemGetInfo(&free, &total) == cudaSuccess)
    d.free_bytes = free;
  return d;
}

// pk's call regions as NVTX ranges (core/region.hpp): Nsight Systems shows "pk::filter" and the
// rest without a Kokkos Tools connector. Installed when this file is linked, which every CUDA build
// does (it defines the CUDA device queries). nvtx3 is header-only: without a tool attached a
// range costs a pointer check.
[[maybe_unused]] const bool nvtx_marks_installed = [] {
  region_marks& marks = backend_region_marks();
  marks.push = [](const char* name) { nvtxRangePushA(name); };
  marks.pop = [] { nvtxRangePop(); };
  return true;
}();

}  // namespace

template <>
struct device_query<Kokkos::Cuda> {
  template <class>
  static std::vector<device_info> list() {
    std::vector<device_info> out;
    for (int i = 0, n = count(); i < n; ++i) out.push_back(describe(i));
    return out;
  }
  static device_info current(const Kokkos::Cuda& space) { return describe(space.cuda_device()); }
  // 0 when the CUDA runtime sees no GPU.
  static int count() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
    return n;
  }
};

}  // namespace pk::detail

PK_INSTANTIATE_DEVICES(Kokkos::Cuda)
