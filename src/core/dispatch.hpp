#pragma once
// Run-time backend choice inside the library: on_backend(b, who, f) checks that Kokkos runs and
// that backend b is compiled in (pk::error naming the caller and the backends there are), then
// calls f with an instance of that backend's Kokkos execution space (pk/kokkos/on_backend.hpp).
#include <string>

#include <pk/backend.hpp>
#include <pk/error.hpp>
#include <pk/kokkos/on_backend.hpp>
#include <pk/runtime.hpp>

#include "core/region.hpp"

namespace pk::detail {

std::string available_backend_names();  // "openmp, serial"

template <class F>
decltype(auto) on_backend(backend b, const char* who, F&& f) {
  require_initialized(who);
  if (!is_available(b))
    throw error(std::string(who) + ": backend '" + to_string(b) +
                "' is not compiled into this build (available: " + available_backend_names() + ")");
  const tools_region region(who);  // the host-array call: its copies and kernels
  return pk::on_backend(b, static_cast<F&&>(f));
}

}  // namespace pk::detail
