// pk matmul M N K [--check] [--double] [--transpose-a] [--transpose-b] [--repeat R]:
// C = op(A)*op(B) on random matrices, timed in GFLOP/s, optionally checked.
#include <cstdio>

#include <pk/error.hpp>

#include "commands.hpp"
#include "measurement.hpp"
#include "options.hpp"
#include "report.hpp"

namespace pk_app {

int cmd_matmul(const std::vector<std::string>& args) {
  const parsed_args p =
      parse_args("matmul", args, {"--check", "--double", "--transpose-a", "--transpose-b"}, {"--repeat", "--json"});
  if (p.help) {
    std::printf(
        "usage: pk matmul M N K [--check] [--double] [--transpose-a] [--transpose-b] [--repeat R]\n"
        "                 [--json FILE]\n\n"
        "C = op(A)*op(B), row-major: op(A) is M x K, op(B) is K x N, C is M x N; random entries in\n"
        "[-1, 1), float (or double with --double). --transpose-a stores A as K x M and multiplies by\n"
        "its transpose (likewise --transpose-b). Prints the median time of R runs (default: up to 5)\n"
        "after a warm-up and GFLOP/s (2*M*N*K flops per run), the matrices already in the backend's\n"
        "memory.\n\n"
        "--check compares 1000 random entries of C (not all of them: that would take as long as the\n"
        "multiply itself, in float64; every entry where C has fewer) with float64 dot products; each\n"
        "error is relative to its entry's sum |a||b|, the tolerance K roundings. Exits 1 if above.\n");
    return 0;
  }
  if (p.positional.size() != 3)
    usage_fail("matmul", "expected three sizes M N K, got " + count_of(std::int64_t(p.positional.size()), "argument"));
  const std::int64_t limit = std::int64_t(1) << 20;
  const std::int64_t m = parse_count("matmul", "M", p.positional[0], 1, limit);
  const std::int64_t n = parse_count("matmul", "N", p.positional[1], 1, limit);
  const std::int64_t k = parse_count("matmul", "K", p.positional[2], 1, limit);
  const int repeat = p.value("--repeat") ? int(parse_count("matmul", "--repeat", *p.value("--repeat"), 1, 1000)) : 0;
  if (p.value("--json")) require_writable("matmul", *p.value("--json"));
  const bool check = p.has("--check");
  if (check)
    std::fprintf(stderr, "pk matmul: will check %s of C against float64 dot products (seed %llu)\n",
                 m * n <= 1000 ? "every entry" : "1000 random entries", static_cast<unsigned long long>(rng_seed()));
  const measurement r = run_matmul(globals().backend, m, n, k, p.has("--double"), p.has("--transpose-a"),
                                   p.has("--transpose-b"), repeat, check);
  const std::string* json = p.value("--json");
  print_summary(r, globals().backend, json && *json == "-" ? stderr : stdout);
  if (json) write_json("matmul", {r}, globals().backend, *json);
  if (!r.pass()) throw pk::error("matmul: the result is wrong (error above tolerance)");
  return 0;
}

}  // namespace pk_app
