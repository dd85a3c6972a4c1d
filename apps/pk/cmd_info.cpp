// pk info: what this build of pk is and what it can run on.
#include <Kokkos_Core.hpp>
#include <cstdio>

#include <pk/backend.hpp>

#include "commands.hpp"
#include "options.hpp"

#include <json.hpp>

#ifndef PK_VERSION
#define PK_VERSION "unknown"
#endif

namespace pk_app {
namespace {

double gib(std::size_t bytes) { return double(bytes) / double(1ull << 30); }

}  // namespace

int cmd_info(const std::vector<std::string>& args) {
  const parsed_args p = parse_args("info", args, {"--json"}, {});
  if (p.help) {
    std::printf("usage: pk info [--json]\n\nPrints the versions of pk and Kokkos, the backends compiled into this build\n"
                "and the devices of each (CUDA: every visible GPU); --json: the same as JSON.\n");
    return 0;
  }
  if (!p.positional.empty()) usage_fail("info", "takes no arguments, got '" + p.positional[0] + "'");
  if (p.has("--json")) {
    std::printf("{\n  \"pk_version\": \"%s\",\n  \"kokkos\": \"%d.%d.%d\",\n  \"default_backend\": \"%s\",\n  \"backends\": [",
                PK_VERSION, KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
                pk::to_string(pk::default_backend()));
    bool first_backend = true;
    for (pk::backend b : pk::available_backends()) {
      std::printf("%s\n    {\"name\": \"%s\", \"devices\": [", first_backend ? "" : ",", pk::to_string(b));
      first_backend = false;
      bool first = true;
      for (const pk::device_info& d : pk::list_devices(b)) {
        const std::string name = pk_harness::json_quoted(d.name);
        std::printf("%s\n      {\"id\": %d, \"name\": %s, \"concurrency\": %d, \"memory_bytes\": %zu, "
                    "\"free_bytes\": %zu",
                    first ? "" : ",", d.id, name.c_str(), d.concurrency, d.memory_bytes, d.free_bytes);
        if (b == pk::backend::cuda)
          std::printf(", \"multiprocessors\": %d, \"compute_capability\": [%d, %d], \"l2_bytes\": %zu, "
                      "\"shared_memory_per_block\": %zu",
                      d.multiprocessors, d.compute_major, d.compute_minor, d.l2_bytes, d.shared_memory_per_block);
        std::printf("}");
        first = false;
      }
      std::printf("]}");
    }
    std::printf("\n  ]\n}\n");
    return 0;
  }
  std::printf("pk %s\n", PK_VERSION);
  std::printf("Kokkos %d.%d.%d\n", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100);
  std::string names;
  for (pk::backend b : pk::available_backends()) names += (names.empty() ? "" : ", ") + std::string(pk::to_string(b));
  std::printf("backends (fastest first): %s; default: %s, chosen: %s\n", names.c_str(),
              pk::to_string(pk::default_backend()), pk::to_string(globals().backend));
  for (pk::backend b : pk::available_backends()) {
    const auto devices = pk::list_devices(b);
    std::printf("%s:%s\n", pk::to_string(b), devices.empty() ? " no device" : "");
    for (const pk::device_info& d : devices) {
      if (b == pk::backend::cuda) {
        std::printf("  device %d: %s, compute capability %d.%d, %d SMs, %.1f GiB memory, %.1f MiB L2, "
                    "%zu KiB shared memory per block, %d threads at once\n",
                    d.id, d.name.c_str(), d.compute_major, d.compute_minor, d.multiprocessors, gib(d.memory_bytes),
                    double(d.l2_bytes) / double(1 << 20), d.shared_memory_per_block / 1024, d.concurrency);
      } else {
        std::printf("  %s, %d thread%s, %.1f GiB memory\n", d.name.c_str(), d.concurrency,
                    d.concurrency == 1 ? "" : "s", gib(d.memory_bytes));
      }
    }
  }
  return 0;
}

}  // namespace pk_app
