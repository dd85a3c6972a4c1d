#pragma once
// The device queries of devices.hpp, written once for every backend: compiled by a backend's
// PK_INSTANTIATE_DEVICES(ExecSpace) after its device_query<ExecSpace>.
#include "core/devices.hpp"

namespace pk::detail {

template <class Exec>
std::vector<device_info> list_devices_on() {
  return device_query<Exec>::template list<Exec>();
}
template <class Exec>
device_info current_device_on(const Exec& space) {
  return device_query<Exec>::current(space);
}
template <class Exec>
int device_count_on() {
  return device_query<Exec>::count();
}

}  // namespace pk::detail

#define PK_INSTANTIATE_DEVICES(EXEC)                                                       \
  template std::vector<pk::device_info> pk::detail::list_devices_on<EXEC>();              \
  template pk::device_info pk::detail::current_device_on<EXEC>(const EXEC&);              \
  template int pk::detail::device_count_on<EXEC>();
