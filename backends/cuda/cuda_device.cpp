// CUDA device descriptions through the CUDA runtime (the one place pk talks to CUDA directly).
#include <cuda_runtime.h>

#include <string>

#include "core/check.hpp"
#include "core/device_query.hpp"

namespace pk::detail {
namespace {

device_info describe(int id) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, id) != cudaSuccess) fail("pk::list_devices", "cannot query CUDA device ", id);
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
  return d;
}

}  // namespace

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  return count;
}

std::vector<device_info> cuda_devices() {
  const int count = cuda_device_count();
  std::vector<device_info> out;
  for (int i = 0; i < count; ++i) out.push_back(describe(i));
  return out;
}

device_info cuda_current_device() {
  int id = 0;
  if (cudaGetDevice(&id) != cudaSuccess) fail("pk::current_device", "no CUDA device is usable");
  return describe(id);
}

}  // namespace pk::detail
