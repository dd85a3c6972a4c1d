#pragma once
// Moving host arrays to a backend and back, for the host-friendly overloads.
// On host backends these are zero-copy: the View wraps the caller's array. On CUDA they
// allocate device memory and copy, once each way.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include <pk/backend.hpp>
#include <pk/kokkos/on_backend.hpp>

namespace pk::detail {

template <class DataType>
using host_unmanaged =
    Kokkos::View<DataType, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// Where Exec cannot run on host memory (CUDA), the host entry points copy their arrays: refuses
// (pk::memory_error) `bytes` of copies that the device has not free, before allocating them.
template <class Exec>
void require_copies(const char* who, double bytes) {
  if constexpr (!Kokkos::SpaceAccessibility<typename Exec::memory_space, Kokkos::HostSpace>::accessible)
    require_memory(backend_of<Exec>(), bytes, std::string(who) + " (its arrays copied to the GPU)");
}

// A View of the host data in Exec's memory space (the same memory when the host can run Exec).
template <class Exec, class HostView>
auto to_backend(const HostView& host) {
  return Kokkos::create_mirror_view_and_copy(typename Exec::memory_space(), host);
}

// A View in Exec's memory space shaped like `host`, for an output that is fully overwritten:
// not copied in.
template <class Exec, class HostView>
auto output_on_backend(const HostView& host) {
  using memory_space = typename Exec::memory_space;
  using mirror = decltype(Kokkos::create_mirror_view(memory_space(), host));
  if constexpr (std::is_same_v<typename mirror::memory_space, typename HostView::memory_space>) {
    return mirror(host);
  } else {
    return mirror(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pk_output"), host.layout());
  }
}

// Copies a backend result into the caller's array (nothing to do when they share memory).
template <class HostView, class BackendView>
void copy_to_host(const HostView& host, const BackendView& result) {
  if (static_cast<const void*>(host.data()) != static_cast<const void*>(result.data()))
    Kokkos::deep_copy(host, result);
  else
    Kokkos::fence();
}

}  // namespace pk::detail
