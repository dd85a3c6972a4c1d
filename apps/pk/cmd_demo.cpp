// pk demo: every kernel of portable-kernels on generated random data, on one backend (default:
// the fastest compiled in), each checked against a float64 reference and timed. Exits 1 if any
// result is wrong. Sized to finish in a few seconds on two CPU cores.
#include <cstdio>

#include <pk/backend.hpp>
#include <pk/error.hpp>

#include "commands.hpp"
#include "measurement.hpp"
#include "options.hpp"
#include "report.hpp"

namespace pk_app {

int cmd_demo(const std::vector<std::string>& args) {
  const parsed_args p = parse_args("demo", args, {}, {"--repeat", "--json"});
  if (p.help) {
    std::printf(
        "usage: pk demo [--backend NAME] [--repeat R] [--json FILE]\n\n"
        "Runs each kernel on random data on one backend and checks it against float64:\n"
        "  add       float, 2^24 elements                        checked in full\n"
        "  filter    gaussian5 and sobel, 2048x2048 float image;  checked in full\n"
        "            gaussian5, 2048x2048 RGB uint8 image\n"
        "  matmul    float, 1024 x 1024 x 1024                    1000 random entries of C checked\n"
        "Times are the median of R runs (default: up to 5) after a warm-up, each fenced.\n"
        "Exits 1 if any result is above its tolerance.\n");
    return 0;
  }
  if (!p.positional.empty()) usage_fail("demo", "takes no arguments, got '" + p.positional[0] + "'");
  const int repeat = p.value("--repeat") ? int(parse_count("demo", "--repeat", *p.value("--repeat"), 1, 100)) : 0;
  if (p.value("--json")) require_writable("demo", *p.value("--json"));
  const pk::backend on = globals().backend;
  const pk::device_info device = pk::current_device(on);
  std::fprintf(stderr, "pk demo: backend %s (%s, %s at once), random inputs from seed %llu\n",
               pk::to_string(on), device.name.c_str(), count_of(device.concurrency, "thread").c_str(),
               static_cast<unsigned long long>(rng_seed()));

  std::vector<measurement> rows;
  auto step = [&](const char* what, auto&& run) {
    std::fprintf(stderr, "pk demo: %s ...\n", what);
    rows.push_back(run());
  };
  step("add, float, 2^24 elements", [&] { return run_add(on, std::int64_t(1) << 24, false, repeat, true); });
  step("filter gaussian5, 2048x2048 float",
       [&] { return run_filter(on, "gaussian5", 2048, 2048, 1, false, repeat, true); });
  step("filter sobel, 2048x2048 float", [&] { return run_filter(on, "sobel", 2048, 2048, 1, false, repeat, true); });
  step("filter gaussian5, 2048x2048 RGB uint8",
       [&] { return run_filter(on, "gaussian5", 2048, 2048, 3, true, repeat, true); });
  step("matmul, float, 1024^3", [&] { return run_matmul(on, 1024, 1024, 1024, false, false, false, repeat, true); });

  std::printf("pk demo on %s (%s)\n\n", pk::to_string(on), device.name.c_str());
  const std::string* json = p.value("--json");
  print_table(rows, json && *json == "-" ? stderr : stdout);
  if (json) write_json("demo", rows, on, *json);
  std::printf(
      "\ntime: median of runs after a warm-up, each ending in a fence, on data already in the\n"
      "backend's memory (no host-device copies).\n"
      "error: |result - float64 reference| relative to the larger |term| of each element (add), to\n"
      "the largest sum |w||x| (float filters), in grey levels off the rounded reference (uint8\n"
      "filters, at most 1), relative to each entry's sum |a||b| (matmul); add and filters are\n"
      "checked on every element, matmul on 1000 random entries of C.\n");
  int failed = 0;
  for (const measurement& m : rows) failed += m.pass() ? 0 : 1;
  if (failed > 0) throw pk::error("demo: " + std::to_string(failed) + " result(s) above tolerance (FAIL above)");
  std::printf("all %zu results PASS\n", rows.size());
  return 0;
}

}  // namespace pk_app
