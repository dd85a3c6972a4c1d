#pragma once
// Inputs of pk's programs: fresh random values every process (never zeros: they hide unwritten
// outputs and can run faster than real data), from one seed the commands print, and poison for
// outputs, so that an element a kernel never wrote fails its check.
#include <Kokkos_Core.hpp>
#include <pk/kokkos/on_backend.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

namespace pk_harness {

// The first base of every case: refuses it (pk::memory_error, one line naming the size and the
// memory free) before any of its views is allocated. `bytes`: the case's views; they live in
// Exec's memory and, where that is not the host's, once more in host mirrors (inputs and the
// result the check reads).
template <class Exec>
struct fits_in_memory {
  fits_in_memory(double bytes, const std::string& what) {
    constexpr pk::backend b = pk::backend_of<Exec>();
    pk::require_memory(b, bytes, what);
    if (b == pk::backend::cuda) pk::require_memory(pk::backend::serial, bytes, what + " (host copies)");
  }
};

// The process's seed: every random_stream is drawn from it.
inline std::uint64_t process_seed() {
  static const std::uint64_t seed = (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  return seed;
}

class random_stream {
 public:
  random_stream() : state_(process_seed() + 0x9e3779b97f4a7c15ull * ++streams()) {}
  std::uint64_t next() {  // SplitMix64: fast enough for 2^28 values
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(n)); }

 private:
  static std::uint64_t& streams() {
    static std::uint64_t n = 0;
    return n;
  }
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

// NaN for floating point; bytes have no NaN: `value`, and the check runs a second time over
// another poison (cases.hpp).
template <class View>
void poison(const View& v, std::uint8_t value = 0x00) {
  using T = typename View::non_const_value_type;
  if constexpr (std::is_floating_point_v<T>)
    Kokkos::deep_copy(v, std::numeric_limits<T>::quiet_NaN());
  else
    Kokkos::deep_copy(v, T(value));
}

}  // namespace pk_harness
