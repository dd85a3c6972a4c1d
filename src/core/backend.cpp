// Backend names, availability and device descriptions.
#include <pk/backend.hpp>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/check.hpp"
#include "core/devices.hpp"
#include "core/dispatch.hpp"
#include "core/region.hpp"

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

// A number from the first line of a file ("max" or missing: 0).
std::size_t read_number(const char* path) {
  std::ifstream in(path);
  unsigned long long v = 0;
  return in >> v ? static_cast<std::size_t>(v) : 0;
}

// What the kernel would still give this process: MemAvailable, or less when a cgroup (v2) limit
// is nearer (containers, CI runners): past either the OOM killer ends the process silently.
std::size_t host_free_bytes() {
  std::size_t avail = 0;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemAvailable:", 0) == 0) avail = static_cast<std::size_t>(std::stoull(line.substr(13))) * 1024;
  }
  if (avail == 0) avail = host_memory_bytes();
  const std::size_t limit = read_number("/sys/fs/cgroup/memory.max"), used = read_number("/sys/fs/cgroup/memory.current");
  if (limit > 0 && used < limit && limit - used < avail) avail = limit - used;
  return avail;
}

}  // namespace

device_info detail::host_device_query::host(backend b, int concurrency) {
  device_info d;
  d.which = b;
  d.name = host_cpu_name();
  d.concurrency = concurrency;
  d.memory_bytes = host_memory_bytes();
  d.free_bytes = host_free_bytes();
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

void require_memory(backend b, double bytes, const std::string& what) {
  const bool gpu = b == backend::cuda;
  const device_info d = gpu ? current_device(b) : device_info{};  // (the host: before Kokkos starts too)
  const std::size_t free = gpu ? d.free_bytes : host_free_bytes();
  if (bytes <= double(free)) return;
  char need[32], have[32];
  std::snprintf(need, sizeof need, "%.1f GB", bytes / 1e9);
  std::snprintf(have, sizeof have, "%.1f GB", double(free) / 1e9);
  throw memory_error(what + ": needs " + need + ", more than the " + have + " free on " +
                     (gpu ? d.name + " (GPU " + std::to_string(d.id) + ")" : std::string("the host")));
}

}  // namespace pk

namespace pk::detail {

region_marks& backend_region_marks() {
  static region_marks marks;
  return marks;
}

}  // namespace pk::detail
