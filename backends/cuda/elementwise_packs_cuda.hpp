#pragma once
// Element-wise kernels on Kokkos::Cuda take 16-byte packs (src/add/add_functors.hpp): one
// LDG.128 per operand per thread instead of four LDG.32. Measured on the H200: add float at 2^28
// moves 4.33 TB/s, 1.03x cudaMemcpy device-to-device (bench/results/h200.md).
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "add/add_functors.hpp"

namespace pk::detail {

template <>
struct elementwise_packs<Kokkos::Cuda> : std::true_type {};

}  // namespace pk::detail
