// <pk/memory.hpp>: host memory here; a backend with its own memory and streams (CUDA) answers
// through core/memory_backends.hpp.
#include <pk/memory.hpp>

#include <Kokkos_Core.hpp>  // KOKKOS_ENABLE_CUDA

#include <cstring>
#include <new>

#include "core/check.hpp"
#include "core/memory_backends.hpp"

namespace pk {

namespace {

constexpr std::size_t alignment = 256;

void require_built(backend b, const char* who) {
  if (!is_available(b)) detail::fail(who, "backend '", to_string(b), "' is not compiled into this build");
}

// Host memory, `alignment`-aligned, whole multiples of it (0 bytes: one).
void* aligned_host_allocate(std::size_t bytes) {
  const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  return ::operator new(rounded == 0 ? alignment : rounded, std::align_val_t(alignment));
}
void aligned_host_free(void* p) noexcept { ::operator delete(p, std::align_val_t(alignment)); }

}  // namespace

void* allocate(backend b, std::size_t bytes, const std::string& what, stream_handle stream) {
  require_built(b, "pk::allocate");
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_allocate(bytes, what, stream);
#endif
  (void)stream;
  require_memory(b, double(bytes), what);
  return aligned_host_allocate(bytes);
}

void deallocate(backend b, void* p, stream_handle stream) noexcept {
  if (!p) return;
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_deallocate(p, stream);
#endif
  (void)b;
  (void)stream;
  aligned_host_free(p);
}

void* allocate_host(backend b, std::size_t bytes, const std::string& what) {
  require_built(b, "pk::allocate_host");
  require_memory(backend::serial, double(bytes), what);  // (the host's free memory, whichever host backend)
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_allocate_host(bytes, what);
#endif
  return aligned_host_allocate(bytes);
}

void deallocate_host(backend b, void* p) noexcept {
  if (!p) return;
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_deallocate_host(p);
#endif
  (void)b;
  aligned_host_free(p);
}

void copy(backend b, void* dst, const void* src, std::size_t bytes, stream_handle stream) {
  require_built(b, "pk::copy");
  if (bytes == 0) return;
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_copy(dst, src, bytes, stream);
#endif
  (void)stream;
  std::memcpy(dst, src, bytes);
}

void zero(backend b, void* p, std::size_t bytes, stream_handle stream) {
  require_built(b, "pk::zero");
  if (bytes == 0) return;
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_zero(p, bytes, stream);
#endif
  (void)stream;
  std::memset(p, 0, bytes);
}

int device_of(backend b, const void* p) {
  require_built(b, "pk::device_of");
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_device_of(p);
#endif
  (void)p;
  return -1;
}

stream_handle default_stream(backend b) {
  require_built(b, "pk::default_stream");
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) return detail::cuda_default_stream();
#endif
  return 0;
}

void stream_wait(backend b, stream_handle waiting, stream_handle producer) {
  require_built(b, "pk::stream_wait");
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda && waiting != producer) detail::cuda_stream_wait(waiting, producer);
#endif
  (void)waiting;
  (void)producer;
}

void synchronize(backend b, stream_handle stream) {
  require_built(b, "pk::synchronize");
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) detail::cuda_synchronize(stream);
#endif
  (void)stream;
}

void synchronize_device(backend b) {
  require_built(b, "pk::synchronize_device");
#if defined(KOKKOS_ENABLE_CUDA)
  if (b == backend::cuda) detail::cuda_synchronize_device();
#endif
}

}  // namespace pk
