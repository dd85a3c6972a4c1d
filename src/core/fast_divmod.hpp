#pragma once
// n / d and n % d for 0 <= n < 2^31 by one multiply and a shift (Granlund and Montgomery), for a
// divisor fixed before a kernel runs: on a GPU an integer division is a long subroutine, and index
// arithmetic that splits a flat index into coordinates runs in a kernel's innermost loops.
// With s = ceil(log2 d) and m = ceil(2^(31+s) / d), n*m / 2^(31+s) exceeds n/d by less than
// 2^-s <= 1/d, which never reaches the next integer; m < 2^32 (2^(s-1) < d), so the product is one
// 32 x 32 -> 64-bit multiply.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace pk::detail {

struct fast_divmod {
  std::uint32_t multiplier = std::uint32_t(1) << 31;
  int shift = 31, divisor = 1;
  fast_divmod() = default;
  explicit fast_divmod(int d) : divisor(d) {  // 1 <= d < 2^31 (the caller checks)
    int s = 0;
    while ((std::int64_t(1) << s) < d) ++s;
    shift = 31 + s;
    multiplier = static_cast<std::uint32_t>(((std::uint64_t(1) << shift) + std::uint64_t(d) - 1) / std::uint64_t(d));
  }
  KOKKOS_INLINE_FUNCTION int quotient(int n) const {
    return static_cast<int>((static_cast<std::uint64_t>(n) * multiplier) >> shift);
  }
  KOKKOS_INLINE_FUNCTION void divmod(int n, int& q, int& r) const {
    q = quotient(n);
    r = n - q * divisor;
  }
};

}  // namespace pk::detail
