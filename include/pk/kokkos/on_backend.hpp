#pragma once
// Run-time backend choice for code written against the Kokkos View interface:
//   pk::on_backend(pk::backend::cuda, [&](auto space) { ... pk::add(space, a, b, c); ... });
// calls the function with an instance of the Kokkos execution space that the backend names
// (Kokkos::Cuda, Kokkos::OpenMP, Kokkos::Serial), so one generic body runs on any of them.
// Throws pk::error when that backend is not compiled into this build.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include <pk/backend.hpp>
#include <pk/error.hpp>

namespace pk {

template <class F>
decltype(auto) on_backend(backend b, F&& f) {
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
  throw error(std::string("backend '") + to_string(b) + "' is not compiled into this build");
}

// The backend that runs Exec (Kokkos::Serial, Kokkos::OpenMP, Kokkos::Cuda).
template <class Exec>
constexpr backend backend_of() {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) return backend::cuda;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<Exec, Kokkos::OpenMP>) return backend::openmp;
#endif
  return backend::serial;
}

}  // namespace pk
