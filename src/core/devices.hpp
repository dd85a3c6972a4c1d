#pragma once
// What a backend says of its devices: device_query<Exec>, defined by each backend in
// backends/<name>/ (host_device_query below for the CPUs; backends/cuda/cuda_device.cpp asks the
// CUDA runtime). The public functions (backend.cpp, runtime.cpp) reach it through the templates
// below, defined in devices_impl.hpp and compiled per backend by PK_INSTANTIATE_DEVICES(ExecSpace),
// as the kernels are.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include <pk/backend.hpp>
#include <pk/error.hpp>
#include <pk/kokkos/on_backend.hpp>

namespace pk::detail {

template <class Exec>
struct device_query;

template <class Exec>
std::vector<device_info> list_devices_on();
template <class Exec>
device_info current_device_on(const Exec& space);
template <class Exec>
int device_count_on();  // before Kokkos starts too (pk::runtime checks its device option with it)

// The CPUs: one device, the host (its model name and physical memory), as many threads as the
// backend's instance runs.
struct host_device_query {
  static device_info host(backend b, int concurrency);
  template <class Exec>
  static std::vector<device_info> list() {
    return {host(backend_of<Exec>(), Exec().concurrency())};
  }
  template <class Exec>
  static device_info current(const Exec& space) {
    return host(backend_of<Exec>(), space.concurrency());
  }
  static int count() { return 1; }
};

// Calls f(std::common_type<Exec>{}) with the execution space type that backend b names, without
// an instance (so before Kokkos starts); throws when b is not compiled in.
template <class F>
decltype(auto) with_space_type(backend b, F&& f) {
  switch (b) {
    case backend::serial:
#if defined(KOKKOS_ENABLE_SERIAL)
      return f(std::common_type<Kokkos::Serial>{});
#else
      break;
#endif
    case backend::openmp:
#if defined(KOKKOS_ENABLE_OPENMP)
      return f(std::common_type<Kokkos::OpenMP>{});
#else
      break;
#endif
    case backend::cuda:
#if defined(KOKKOS_ENABLE_CUDA)
      return f(std::common_type<Kokkos::Cuda>{});
#else
      break;
#endif
  }
  throw error(std::string("backend '") + to_string(b) + "' is not compiled into this build");
}

}  // namespace pk::detail

