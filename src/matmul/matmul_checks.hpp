#pragma once
// Checks shared by the View interface (matmul_impl.hpp) and the host-array one (matmul_api.cpp).
#include <climits>
#include <cstdint>

#include <pk/matmul.hpp>

#include "core/check.hpp"

namespace pk::detail {

inline const char* op_name(op o) noexcept { return o == op::none ? "none" : "transpose"; }

// The teams of a GEMM launch: one per tile_m x tile_n block tile of the m x n C. Kokkos counts a
// league in int, so more than INT_MAX tiles is refused here (in 64-bit arithmetic) rather than
// wrapping around to a launch that skips most of C.
inline int block_tile_league(const char* who, std::int64_t m, std::int64_t n, int tile_m, int tile_n) {
  const std::int64_t rows = (m + tile_m - 1) / tile_m, cols = (n + tile_n - 1) / tile_n;
  std::int64_t tiles = 0;
  if (!checked_product(rows, cols, tiles) || tiles > INT_MAX)
    fail(who, "c is ", m, " x ", n, ": ", rows, " x ", cols, " block tiles of ", tile_m, " x ", tile_n,
         ", more than one launch can take (", INT_MAX, ")");
  return static_cast<int>(tiles);
}

}  // namespace pk::detail
