// Random inputs for the timed runs: a fresh seed each process, printed by the commands.
#include <random>

#include "measurement.hpp"

namespace pk_app {

std::uint64_t rng_seed() {
  static const std::uint64_t seed = (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  return seed;
}

std::mt19937_64& rng() {
  static std::mt19937_64 g(rng_seed());
  return g;
}

namespace {

struct splitmix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

template <class T>
void fill(T* p, std::size_t n, double lo, double hi) {
  splitmix64 g{rng()()};
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(lo + (hi - lo) * g.unit());
}

}  // namespace

void fill_uniform(float* p, std::size_t n, double lo, double hi) { fill(p, n, lo, hi); }
void fill_uniform(double* p, std::size_t n, double lo, double hi) { fill(p, n, lo, hi); }
void fill_uniform(std::uint8_t* p, std::size_t n) {
  splitmix64 g{rng()()};
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(g.next() >> 56);
}

}  // namespace pk_app
