#pragma once
// Integer division by a divisor that is fixed for a whole launch and known on the host (the tiles
// of an image row, the 16-byte packs of a staged row): n / d as one 32 x 32 -> 64-bit multiply and
// a shift, where a 32-bit division by a run-time value is a dozen-odd instructions on a GPU.
//
// The round-up method (Granlund and Montgomery, "Division by invariant integers using
// multiplication", 1994): with l = ceil(log2 d) and m = ceil(2^(31+l) / d), which fits 32 bits,
// n / d == (n * m) >> (31 + l) for every 0 <= n < 2^31, since m * d - 2^(31+l) < d <= 2^l keeps
// the error of n * m / 2^(31+l) below 1/d.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace pk::detail {

class fast_divisor {
 public:
  fast_divisor() = default;  // divides by nothing: set one before use
  explicit fast_divisor(int d) : m_divisor(d) {
    int l = 0;
    while ((std::int64_t(1) << l) < d) ++l;
    m_multiplier = static_cast<std::uint32_t>(((std::uint64_t(1) << (31 + l)) + std::uint64_t(d) - 1) / std::uint64_t(d));
    m_shift = 31 + l;
  }
  // n / d, for 0 <= n < 2^31 (1 <= d < 2^31).
  KOKKOS_INLINE_FUNCTION int divide(int n) const {
    return static_cast<int>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(n)) * m_multiplier) >> m_shift);
  }
  KOKKOS_INLINE_FUNCTION int divisor() const { return m_divisor; }

 private:
  std::uint32_t m_multiplier = 0;
  int m_shift = 0, m_divisor = 0;
};

}  // namespace pk::detail
