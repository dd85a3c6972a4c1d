// The serial backend's device: the host CPU (src/core/devices.hpp).
#include <Kokkos_Core.hpp>

#include "core/devices_impl.hpp"

namespace pk::detail {
template <>
struct device_query<Kokkos::Serial> : host_device_query {};
}  // namespace pk::detail

PK_INSTANTIATE_DEVICES(Kokkos::Serial)
