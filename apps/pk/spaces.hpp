#pragma once
// The Kokkos execution space behind a pk::backend, for the commands that time kernels on data
// already in the backend's memory (the Kokkos View interface): on_space(b, f) calls f with an
// instance of that space. pk::parse_backend has already refused backends this build lacks.
#include <Kokkos_Core.hpp>

#include <pk/backend.hpp>
#include <pk/error.hpp>

namespace pk_app {

template <class F>
decltype(auto) on_space(pk::backend b, F&& f) {
  switch (b) {
#if defined(KOKKOS_ENABLE_CUDA)
    case pk::backend::cuda: return f(Kokkos::Cuda());
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    case pk::backend::openmp: return f(Kokkos::OpenMP());
#endif
    case pk::backend::serial: return f(Kokkos::Serial());
    default: break;
  }
  throw pk::error(std::string("backend '") + pk::to_string(b) + "' is not compiled into this build");
}

}  // namespace pk_app
