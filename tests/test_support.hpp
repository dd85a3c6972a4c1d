#pragma once
// What every test needs: fresh random inputs (a new seed each run, printed on failure),
// poisoned outputs, and comparison against a float64 reference with a stated tolerance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <pk/backend.hpp>

namespace pk_test {

// One generator per test process, seeded from the OS: each run draws new inputs. The seed is
// printed by every failing check (CAPTURE in the caller) so a failure can be replayed with
// PK_TEST_SEED=<seed>.
inline std::uint64_t seed() {
  static const std::uint64_t s = []() -> std::uint64_t {
    if (const char* env = std::getenv("PK_TEST_SEED")) return std::stoull(env);
    return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  }();
  return s;
}
inline std::mt19937_64& rng() {
  static std::mt19937_64 g(seed());
  return g;
}

template <class T>
std::vector<T> random_vector(std::size_t n, double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng()));
  return v;
}

inline std::vector<std::uint8_t> random_bytes(std::size_t n) {
  std::uniform_int_distribution<int> d(0, 255);
  std::vector<std::uint8_t> v(n);
  for (auto& x : v) x = static_cast<std::uint8_t>(d(rng()));
  return v;
}

// Outputs start as NaN: an element the kernel never wrote fails every comparison.
template <class T>
std::vector<T> poisoned(std::size_t n) {
  return std::vector<T>(n, std::numeric_limits<T>::quiet_NaN());
}

// max_i |out_i - ref_i| / (|ref|_inf + tiny): the relative error of a whole result.
// NaN anywhere in out makes it infinite, so a NaN never passes. `terms`: the largest sum of
// |terms| an element was computed from (largest_terms), when that exceeds |ref|_inf: a float
// sum rounds relative to its terms, so a short result that cancels (x + y with y close to -x,
// one element long) would otherwise fail by chance.
template <class T>
double max_relative_error(const std::vector<T>& out, const std::vector<double>& ref, double terms = 0) {
  REQUIRE(out.size() == ref.size());
  double scale = terms, worst = 0;
  for (double r : ref) scale = std::max(scale, std::abs(r));
  scale = std::max(scale, 1e-30);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double o = static_cast<double>(out[i]);
    if (std::isnan(o) && !std::isnan(ref[i])) return std::numeric_limits<double>::infinity();
    if (std::isnan(ref[i])) continue;
    worst = std::max(worst, std::abs(o - ref[i]) / scale);
  }
  return worst;
}

// max_i f(i) for i < n: with f(i) = |a x_i| + |b y_i|, the `terms` of max_relative_error.
template <class F>
double largest_terms(std::size_t n, F f) {
  double m = 0;
  for (std::size_t i = 0; i < n; ++i) m = std::max(m, f(i));
  return m;
}

// Tolerances stated once: float32 results of short sums land within a few ulps of the
// float64 reference; float64 ones far below.
template <class T>
constexpr double elementwise_tolerance() {
  return sizeof(T) == 4 ? 2e-7 : 1e-15;
}

// The lengths every 1-D kernel is tried on: tiny, odd, primes, around powers of two.
inline const std::vector<std::size_t>& odd_lengths() {
  static const std::vector<std::size_t> n{1, 2, 7, 31, 97, 1000, 1023, 1024, 1025, 4099, 65537};
  return n;
}

inline std::string name(pk::backend b) { return pk::to_string(b); }

// Every test body runs on every backend compiled into this build:
//   for (pk::backend b : pk::available_backends()) { CAPTURE_BACKEND(b); ... }
#define CAPTURE_BACKEND(b)                         \
  const std::string backend_name = pk::to_string(b); \
  CAPTURE(backend_name);                           \
  const auto test_seed = pk_test::seed();          \
  CAPTURE(test_seed)

}  // namespace pk_test
