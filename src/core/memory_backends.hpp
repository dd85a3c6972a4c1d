#pragma once
// What <pk/memory.hpp> asks of a backend with memory and streams of its own: defined in
// backends/cuda/cuda_memory.cpp (the CUDA runtime's stream-ordered pool, events). Host backends
// need none of it (src/core/memory.cpp serves them).
#include <cstddef>
#include <string>

#include <pk/memory.hpp>

namespace pk::detail {

void* cuda_allocate(std::size_t bytes, const std::string& what, stream_handle stream);
void cuda_deallocate(void* p, stream_handle stream) noexcept;
void* cuda_allocate_host(std::size_t bytes, const std::string& what);
void cuda_deallocate_host(void* p) noexcept;
void cuda_copy(void* dst, const void* src, std::size_t bytes, stream_handle stream);
void cuda_zero(void* p, std::size_t bytes, stream_handle stream);
int cuda_device_of(const void* p);
stream_handle cuda_default_stream();
void cuda_stream_wait(stream_handle waiting, stream_handle producer);
void cuda_synchronize(stream_handle stream);
void cuda_synchronize_device();

}  // namespace pk::detail
