#pragma once
// The multiprocessors of a Kokkos::Cuda instance, for policies that size their work to the GPU
// (Kokkos counts 2048 threads of concurrency a multiprocessor).
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace pk::detail {

inline std::int64_t cuda_multiprocessors(const Kokkos::Cuda& space) {
  const std::int64_t sms = static_cast<std::int64_t>(space.concurrency()) / 2048;
  return sms > 0 ? sms : 1;
}

}  // namespace pk::detail
