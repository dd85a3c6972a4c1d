#pragma once
// What a kernel run reports: the rows of `pk demo`'s table, and the lines of `pk add` / `pk matmul`.
// The runs themselves (runs.cpp) are the harness's cases (apps/harness/cases.hpp: random inputs,
// the one timer, the float64 reference), on one backend.
#include <cstdint>
#include <string>

#include <pk/backend.hpp>

namespace pk_app {

struct measurement {
  std::string kernel;      // "add float", "filter gaussian5 float", ...
  std::string size;        // "2^24", "2048x2048", "1024^3"
  double ms = 0;           // median over `runs`
  int runs = 0;
  double throughput = 0;   // in `unit`
  const char* unit = "";   // "GB/s" or "GFLOP/s"
  bool checked = false;
  double error = 0;        // max relative error against float64 (see each run for its definition)
  double tolerance = 0;
  std::string check_note;  // how it was checked ("full", "1000 random entries")
  bool pass() const { return !checked || error <= tolerance; }
};

// The process's random seed (apps/harness/inputs.hpp), printed by the commands that check.
std::uint64_t rng_seed();

measurement run_add(pk::backend on, std::int64_t n, bool use_double, int repeat, bool check);
measurement run_matmul(pk::backend on, std::int64_t m, std::int64_t n, std::int64_t k, bool use_double,
                       bool transpose_a, bool transpose_b, int repeat, bool check);
// filter_name as `pk filter --kernel` takes it; channels 1..4; uint8 or float pixels.
measurement run_filter(pk::backend on, const std::string& filter_name, int height, int width, int channels,
                       bool use_u8, int repeat, bool check);

}  // namespace pk_app
