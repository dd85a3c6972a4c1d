// <pk/memory.hpp> on CUDA: the current device's stream-ordered pool (cudaMallocAsync), kept
// rather than released to the driver, and events to order one stream after another.
#include <cuda_runtime.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <mutex>
#include <set>

#include "core/check.hpp"
#include "core/memory_backends.hpp"

namespace pk::detail {
namespace {

cudaStream_t as_stream(stream_handle s) { return reinterpret_cast<cudaStream_t>(s); }

[[noreturn]] void cuda_failed(const char* who, cudaError_t e) {
  cudaGetLastError();  // not sticky: clear it for the next call
  fail(who, cudaGetErrorName(e), ": ", cudaGetErrorString(e));
}

int current_device(const char* who) {
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) cuda_failed(who, e);
  return device;
}

// Makes Kokkos' GPU current for the scope (another library may have made another current on this
// thread), and puts the previous one back.
class on_kokkos_device {
 public:
  on_kokkos_device() {
    const int want = Kokkos::Cuda().cuda_device();
    if (cudaGetDevice(&previous_) != cudaSuccess) {
      cudaGetLastError();
      previous_ = want;
    }
    if (previous_ != want) cudaSetDevice(want);
  }
  ~on_kokkos_device() {
    int now = previous_;
    if (cudaGetDevice(&now) == cudaSuccess && now != previous_) cudaSetDevice(previous_);
  }
  on_kokkos_device(const on_kokkos_device&) = delete;
  on_kokkos_device& operator=(const on_kokkos_device&) = delete;

 private:
  int previous_ = 0;
};

cudaMemPool_t device_pool(const char* who) {
  static std::mutex m;
  static std::set<int> configured;
  const int device = current_device(who);
  cudaMemPool_t pool{};
  if (const cudaError_t e = cudaDeviceGetDefaultMemPool(&pool, device); e != cudaSuccess) cuda_failed(who, e);
  std::lock_guard<std::mutex> lock(m);
  if (configured.insert(device).second) {
    // Keep what is returned (the default threshold, 0, gives it back to the driver at every
    // synchronization, which makes the next allocation a driver call again).
    std::uint64_t keep_all = UINT64_MAX;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all);
  }
  return pool;
}

}  // namespace

void* cuda_allocate(std::size_t bytes, const std::string& what, stream_handle stream) {
  const char* who = "pk::allocate";
  const on_kokkos_device guard;
  const cudaMemPool_t pool = device_pool(who);
  try {
    require_memory(backend::cuda, double(bytes), what);
  } catch (const memory_error&) {
    // Memory the pool keeps counts as used: give back what no pending work holds, and ask again.
    cudaDeviceSynchronize();
    cudaMemPoolTrimTo(pool, 0);
    require_memory(backend::cuda, double(bytes), what);
  }
  void* p = nullptr;
  if (const cudaError_t e = cudaMallocAsync(&p, bytes == 0 ? 256 : bytes, as_stream(stream)); e != cudaSuccess) {
    cudaGetLastError();
    throw memory_error(what + ": cudaMallocAsync of " + std::to_string(bytes) + " bytes failed: " +
                       cudaGetErrorString(e));
  }
  return p;
}

void cuda_deallocate(void* p, stream_handle stream) noexcept {
  const on_kokkos_device guard;
  // At process exit the runtime may be gone: the error is dropped, the memory goes with the process.
  if (cudaFreeAsync(p, as_stream(stream)) != cudaSuccess) cudaGetLastError();
}

void* cuda_allocate_host(std::size_t bytes, const std::string& what) {
  void* p = nullptr;
  if (const cudaError_t e = cudaMallocHost(&p, bytes == 0 ? 256 : bytes); e != cudaSuccess) {
    cudaGetLastError();
    throw memory_error(what + ": cudaMallocHost of " + std::to_string(bytes) + " bytes failed: " + cudaGetErrorString(e));
  }
  return p;
}

void cuda_deallocate_host(void* p) noexcept {
  if (cudaFreeHost(p) != cudaSuccess) cudaGetLastError();  // (at process exit the runtime may be gone)
}

void cuda_copy(void* dst, const void* src, std::size_t bytes, stream_handle stream) {
  const char* who = "pk::copy";
  const on_kokkos_device guard;
  // cudaMemcpyDefault: unified addressing tells host from device memory.
  cudaError_t e = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, as_stream(stream));
  cudaPointerAttributes d{}, s{};
  if (e == cudaSuccess) e = cudaPointerGetAttributes(&d, dst);
  if (e == cudaSuccess) e = cudaPointerGetAttributes(&s, src);
  const auto on_host = [](const cudaPointerAttributes& a) { return a.type != cudaMemoryTypeDevice; };
  if (e == cudaSuccess && (on_host(d) || on_host(s))) e = cudaStreamSynchronize(as_stream(stream));
  if (e != cudaSuccess) cuda_failed(who, e);
}

void cuda_zero(void* p, std::size_t bytes, stream_handle stream) {
  const on_kokkos_device guard;
  if (const cudaError_t e = cudaMemsetAsync(p, 0, bytes, as_stream(stream)); e != cudaSuccess)
    cuda_failed("pk::zero", e);
}

int cuda_device_of(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

stream_handle cuda_default_stream() {
  return reinterpret_cast<stream_handle>(Kokkos::Cuda().cuda_stream());
}

void cuda_stream_wait(stream_handle waiting, stream_handle producer) {
  const char* who = "pk::stream_wait";
  const on_kokkos_device guard;
  // One event per call: recorded and waited on at once, then destroyed (the wait keeps it alive).
  cudaEvent_t event{};
  if (const cudaError_t e = cudaEventCreateWithFlags(&event, cudaEventDisableTiming); e != cudaSuccess)
    cuda_failed(who, e);
  cudaError_t e = cudaEventRecord(event, as_stream(producer));
  if (e == cudaSuccess) e = cudaStreamWaitEvent(as_stream(waiting), event, 0);
  cudaEventDestroy(event);
  if (e != cudaSuccess) cuda_failed(who, e);
}

void cuda_synchronize_device() {
  const on_kokkos_device guard;
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) cuda_failed("pk::synchronize_device", e);
}

void cuda_synchronize(stream_handle stream) {
  if (const cudaError_t e = cudaStreamSynchronize(as_stream(stream)); e != cudaSuccess)
    cuda_failed("pk::synchronize", e);
}

}  // namespace pk::detail
