// pk demo, pk add and pk matmul: the harness's cases (apps/harness/cases.hpp) run on one backend,
// timed after one warm-up and checked, as measurement rows.
#include <pk/kokkos/on_backend.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include <cases.hpp>
#include <timer.hpp>

#include "measurement.hpp"

namespace pk_app {
namespace {

std::string count_name(std::int64_t n) {
  const bool power = n > 0 && (n & (n - 1)) == 0;
  return power ? "2^" + std::to_string(int(std::log2(double(n)))) : std::to_string(n);
}

// One warm-up, then `repeat` runs (0: as many as fit), each fenced; throughput = amount / time.
template <class Case, class Exec>
void time_it(measurement& m, const Case& c, const Exec& space, int repeat, double amount, const char* unit) {
  m.unit = unit;
  const auto t = pk_harness::measure(space, [&] { c.run(space); }, repeat, 1, 0);  // quick: one warm-up
  m.ms = t.median_ms;
  m.runs = t.runs;
  m.throughput = amount / (t.median_ms * 1e6);
}

void take(measurement& m, const pk_harness::check& c) {
  m.checked = c.checked;
  m.error = c.error;
  m.tolerance = c.tolerance;
  m.check_note = c.note;
}

}  // namespace

std::uint64_t rng_seed() { return pk_harness::process_seed(); }

measurement run_add(pk::backend on, std::int64_t n, bool use_double, int repeat, bool check) {
  return pk::on_backend(on, [&](auto space) {
    const auto run = [&](auto zero) {
      using T = decltype(zero);
      pk_harness::random_stream rng;
      const pk_harness::axpby_case<T, decltype(space)> c(n, true, rng);
      measurement m;
      m.kernel = sizeof(T) == 4 ? "add float" : "add double";
      m.size = count_name(n);
      time_it(m, c, space, repeat, c.bytes(), "GB/s");
      if (check) take(m, c.verify());
      return m;
    };
    return use_double ? run(0.0) : run(0.f);
  });
}

measurement run_filter(pk::backend on, const std::string& filter_name, int height, int width, int channels,
                       bool use_u8, int repeat, bool check) {
  return pk::on_backend(on, [&](auto space) {
    const auto run = [&](auto zero) {
      using T = decltype(zero);
      pk_harness::random_stream rng;
      const pk_harness::filter_case<T, decltype(space)> c(pk::parse_filter(filter_name), pk::border::reflect101, height,
                                                          width, channels, rng);
      measurement m;
      m.kernel = "filter " + filter_name + (use_u8 ? " uint8" : " float");
      m.size = std::to_string(height) + "x" + std::to_string(width) + (channels > 1 ? "x" + std::to_string(channels) : "");
      time_it(m, c, space, repeat, c.bytes(), "GB/s");
      if (check) take(m, c.verify(space, 0, rng));
      return m;
    };
    return use_u8 ? run(std::uint8_t(0)) : run(0.f);
  });
}

measurement run_matmul(pk::backend on, std::int64_t m, std::int64_t n, std::int64_t k, bool use_double,
                       bool transpose_a, bool transpose_b, int repeat, bool check) {
  return pk::on_backend(on, [&](auto space) {
    const auto run = [&](auto zero) {
      using T = decltype(zero);
      pk_harness::random_stream rng;
      const pk_harness::gemm_case<T, decltype(space)> c(m, n, k, transpose_a, transpose_b, rng);
      if (c.flop() >= 1e12)  // long products say what they are before the minutes they take
        std::fprintf(stderr, "pk matmul: %.1f TFLOP a run (a warm-up, then up to 5 timed runs) on %s...\n",
                     c.flop() / 1e12, pk::to_string(on));
      measurement r;
      r.kernel = sizeof(T) == 4 ? "matmul float" : "matmul double";
      r.size = m == n && n == k ? std::to_string(m) + "^3"
                                : std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
      time_it(r, c, space, repeat, c.flop(), "GFLOP/s");
      if (check) take(r, c.verify(1000, rng));
      return r;
    };
    return use_double ? run(0.0) : run(0.f);
  });
}

}  // namespace pk_app
