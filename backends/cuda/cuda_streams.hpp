#pragma once
// What src/core/workspace.hpp asks of the CUDA backend: the stream a Kokkos::Cuda instance runs
// on, so that a kernel's temporary memory is taken and given back in that stream's order.
#include <Kokkos_Core.hpp>

#include "core/workspace.hpp"

namespace pk::detail {

template <>
struct exec_stream<Kokkos::Cuda> {
  static constexpr bool stream_ordered = true;
  static stream_handle of(const Kokkos::Cuda& space) { return reinterpret_cast<stream_handle>(space.cuda_stream()); }
};

}  // namespace pk::detail
