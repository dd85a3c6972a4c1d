// Backend names, availability and device descriptions.
#include <pk/backend.hpp>

#include <Kokkos_Core.hpp>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/check.hpp"
#include "core/devices.hpp"
#include "core/dispatch.hpp"

namespace pk {

const char* to_string(backend b) noexcept {
  switch (b) {
    case backend::serial: return "serial";
    case backend::openmp: return "openmp";
    case backend::cuda: return "cuda";
  }
  return "unknown";
}

std::vector<backend> available_backends() {
  std::vector<backend> out;
#if defined(KOKKOS_ENABLE_CUDA)
  out.push_back(backend::cuda);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  out.push_back(backend::openmp);
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
  out.push_back(backend::serial);
#endif
  return out;
}

bool is_available(backend b) noexcept {
  for (backend a : available_backends())
    if (a == b) return true;
  return false;
}

backend default_backend() noexcept {
  auto all = available_backends();
  return all.empty() ? backend::serial : all.front();
}

namespace detail {
std::string available_backend_names() {
  std::string names;
  for (backend b : available_backends()) names += (names.empty() ? "" : ", ") + std::string(to_string(b));
  return names;
}
}  // namespace detail

backend parse_backend(const std::string& name) {
  for (backend b : {backend::serial, backend::openmp, backend::cuda}) {
    if (name != to_string(b)) continue;
    if (!is_available(b))
      detail::fail("pk::parse_backend", "backend '", name, "' is not compiled into this build (available: ",
                   detail::available_backend_names(), ")");
    return b;
  }
  detail::fail("pk::parse_backend", "unknown backend '", name, "' (expected one of: ",
               detail::available_backend_names(), ")");
}

namespace {

std::string host_cpu_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "host CPU";
}

std::size_t host_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

}  // namespace

device_info detail::host_device_query::host(backend b, int concurrency) {
  device_info d;
  d.which = b;
  d.name = host_cpu_name();
  d.concurrency = concurrency;
  d.memory_bytes = host_memory_bytes();
  return d;
}

std::vector<device_info> list_devices(backend b) {
  return detail::on_backend(b, "pk::list_devices",
                            [](auto space) { return detail::list_devices_on<decltype(space)>(); });
}

device_info current_device(backend b) {
  return detail::on_backend(b, "pk::current_device",
                            [](auto space) { return detail::current_device_on<decltype(space)>(space); });
}

}  // namespace pk
