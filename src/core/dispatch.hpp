#pragma once
// Run-time backend choice: on_backend(b, who, f) calls f with an instance of the Kokkos
// execution space that backend b names, or throws pk::error when b is not compiled in.
// This is the one place that maps the pk::backend enum to Kokkos types.
#include <Kokkos_Core.hpp>
#include <string>

#include <pk/backend.hpp>
#include <pk/error.hpp>
#include <pk/runtime.hpp>

namespace pk::detail {

std::string available_backend_names();  // "openmp, serial"

template <class F>
decltype(auto) on_backend(backend b, const char* who, F&& f) {
  require_initialized(who);
  switch (b) {
    case backend::serial:
#if defined(KOKKOS_ENABLE_SERIAL)
      return f(Kokkos::Serial());
#else
      break;
#endif
    case backend::openmp:
#if defined(KOKKOS_ENABLE_OPENMP)
      return f(Kokkos::OpenMP());
#else
      break;
#endif
    case backend::cuda:
#if defined(KOKKOS_ENABLE_CUDA)
      return f(Kokkos::Cuda());
#else
      break;
#endif
  }
  throw error(std::string(who) + ": backend '" + to_string(b) +
              "' is not compiled into this build (available: " + available_backend_names() + ")");
}

}  // namespace pk::detail
