// pk add N [--double] [--repeat R]: c = a + b on N random elements, timed and checked.
#include <cstdio>

#include <pk/error.hpp>

#include "commands.hpp"
#include "measurement.hpp"
#include "options.hpp"
#include "report.hpp"

namespace pk_app {

int cmd_add(const std::vector<std::string>& args) {
  const parsed_args p = parse_args("add", args, {"--double"}, {"--repeat", "--json"});
  if (p.help) {
    std::printf(
        "usage: pk add N [--double] [--repeat R] [--json FILE] [--backend NAME]\n\n"
        "c = a + b on N random elements (float, or double with --double) in the backend's memory.\n"
        "Prints the median time of R runs (default: up to 5) after a warm-up, the bandwidth (3 arrays\n"
        "moved: GB/s), and the largest error against float64 sums; exits 1 if it is above tolerance.\n");
    return 0;
  }
  if (p.positional.size() != 1)
    usage_fail("add", "expected one length N, got " + count_of(std::int64_t(p.positional.size()), "argument"));
  const std::int64_t n = parse_count("add", "N", p.positional[0], 1, std::int64_t(1) << 33);
  const int repeat = p.value("--repeat") ? int(parse_count("add", "--repeat", *p.value("--repeat"), 1, 1000)) : 0;
  if (p.value("--json")) require_writable("add", *p.value("--json"));
  const measurement m = run_add(globals().backend, n, p.has("--double"), repeat, true);
  const std::string* json = p.value("--json");
  print_summary(m, globals().backend, json && *json == "-" ? stderr : stdout);
  if (json) write_json("add", {m}, globals().backend, *json);
  if (!m.pass()) throw pk::error("add: the result is wrong (error above tolerance)");
  return 0;
}

}  // namespace pk_app
