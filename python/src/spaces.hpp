#pragma once
// The Kokkos execution space instance a call runs on: backend b's default instance, or on CUDA an
// instance on the caller's stream (made once per stream and kept: making one allocates).
#include <Kokkos_Core.hpp>

#include <pk/backend.hpp>
#include <pk/kokkos/on_backend.hpp>
#include <pk/memory.hpp>

namespace pkpy {

#if defined(KOKKOS_ENABLE_CUDA)
// The instance on `stream` (the default instance for its own stream).
Kokkos::Cuda cuda_instance(pk::stream_handle stream);
#endif

// Drops the kept instances (before Kokkos finalizes).
void forget_instances();

// f(space) with the instance of backend `on` on `stream` (host backends have one instance).
template <class F>
void with_space(pk::backend on, pk::stream_handle stream, F&& f) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (on == pk::backend::cuda) return f(cuda_instance(stream));
#endif
  (void)stream;
  pk::on_backend(on, [&](auto space) {
    f(space);
    space.fence();
  });
}

}  // namespace pkpy
