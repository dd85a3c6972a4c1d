#pragma once
// Inputs for the benchmarks: fresh random values for every process (never zeros: they hide
// unwritten outputs and can run faster than real data), and NaN poison for outputs, so that an
// element the kernel never wrote fails its check.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

namespace pk_bench {

class random_stream {
 public:
  random_stream() : state_((std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}()) {}
  std::uint64_t next() {  // SplitMix64: fast enough for 2^28 values
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)

 private:
  std::uint64_t state_;
};

// Fills a View with uniform values: [-1, 1) for floating point, 0..255 for bytes. Returns the
// host copy the checks read.
template <class View>
auto random_view(const View& v, random_stream& rng) {
  using T = typename View::non_const_value_type;
  auto host = Kokkos::create_mirror_view(v);
  T* p = host.data();
  for (std::size_t i = 0; i < host.span(); ++i) {
    if constexpr (std::is_floating_point_v<T>)
      p[i] = static_cast<T>(2.0 * rng.unit() - 1.0);
    else
      p[i] = static_cast<T>(rng.next() >> 56);
  }
  Kokkos::deep_copy(v, host);
  return host;
}

// NaN for floating point; for bytes there is no NaN, and 77 is as good a poison as any.
template <class View>
void poison(const View& v) {
  using T = typename View::non_const_value_type;
  if constexpr (std::is_floating_point_v<T>)
    Kokkos::deep_copy(v, std::numeric_limits<T>::quiet_NaN());
  else
    Kokkos::deep_copy(v, T(77));
}

}  // namespace pk_bench
