// The serial backend: the filter kernels compiled for Kokkos::Serial, with the CPUs' policy
// (src/filter/filter_policy.hpp: one thread a team, blocks of 64 outputs (128 for uint8), element staging).
#include <Kokkos_Core.hpp>

#include "filter/filter_impl.hpp"

namespace pk::detail {
template <>
struct filter_policy<Kokkos::Serial> : host_filter_policy {};
}  // namespace pk::detail

PK_INSTANTIATE_FILTER(Kokkos::Serial)
