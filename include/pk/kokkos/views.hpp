#pragma once
// The View types the Kokkos interface of portable-kernels works on. Each lives in the memory
// space of the execution space that runs the kernel; any View that converts to them
// (same value type, compatible layout and memory space) is accepted.
#include <Kokkos_Core.hpp>
#include <type_traits>

namespace pk {

template <class T, class Exec>
using vector_view = Kokkos::View<T*, Kokkos::LayoutRight, typename Exec::memory_space>;

// Row-major matrix: m(i, j) is row i, column j.
template <class T, class Exec>
using matrix_view = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;

// Interleaved image: img(y, x, c) is row y, column x, channel c (as OpenCV and PNG store it).
template <class T, class Exec>
using image_view = Kokkos::View<T***, Kokkos::LayoutRight, typename Exec::memory_space>;

// Enables the View overloads only for an execution space and Views, so that they never compete
// with the host-array overloads (which take a pk::backend).
template <class Exec, class... Views>
using enable_if_views_t = std::enable_if_t<Kokkos::is_execution_space<Exec>::value &&
                                           (Kokkos::is_view<Views>::value && ...)>;

}  // namespace pk
