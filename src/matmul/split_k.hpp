#pragma once
// Split-K: a GEMM whose C has too few block tiles to fill the machine (a convolution's weight
// gradient: C of 32 x 9 over K = batch x pixels; a GEMV-like row times a matrix) cuts K into
// `splits` parts; a team computes one block tile over one part into a partial C of its own, and a
// second kernel adds the parts in a fixed order and applies the epilogue (store_c): the same bits
// run after run. A policy says how many teams it wants in flight (split_k_teams: a fixed count, so
// that host backends cut K alike whatever their thread count and give each other's bits;
// split_k_occupancy: the GPU's resident teams, from the instance's concurrency) and the fewest K
// steps worth a part of its own (min_steps).
#include <cstdint>

namespace pk::detail {

template <int Teams, int MinSteps>
struct split_k_teams {
  static constexpr int min_steps = MinSteps;
  template <class Exec>
  static std::int64_t teams(const Exec&) { return Teams; }
};

// A resident team takes ThreadSlots of the instance's concurrency (its threads and the register or
// shared-memory room that keeps others off the multiprocessor).
template <int ThreadSlots, int MinSteps>
struct split_k_occupancy {
  static constexpr int min_steps = MinSteps;
  template <class Exec>
  static std::int64_t teams(const Exec& space) {
    const std::int64_t t = static_cast<std::int64_t>(space.concurrency()) / ThreadSlots;
    return t > 0 ? t : 1;
  }
};

// Never split (policies for which a partial C is not worth it).
struct split_k_never {
  static constexpr int min_steps = 0;
  template <class Exec>
  static std::int64_t teams(const Exec&) { return 0; }
};

// How K is cut: `steps_per_split` K steps a part, `splits` parts (1: not split).
struct split_k_plan {
  std::int64_t splits = 1, steps_per_split = 0;
};

// Split when the block tiles fill at most half the wanted teams and K has at least two parts of
// min_steps; as many parts as fill the teams, of at least min_steps each but the last (which
// takes what is left, possibly a single step), the partial Cs within max_elements.
inline split_k_plan plan_split_k(std::int64_t tiles, std::int64_t steps, std::int64_t teams, int min_steps,
                                 std::int64_t mn, std::int64_t max_elements) {
  split_k_plan p;
  p.steps_per_split = steps;
  if (min_steps <= 0 || tiles * 2 > teams || steps < 2 * std::int64_t(min_steps)) return p;
  std::int64_t splits = (teams + tiles - 1) / tiles;
  if (splits > steps / min_steps) splits = steps / min_steps;
  if (mn > 0 && splits > max_elements / mn) splits = max_elements / mn;
  if (splits < 2) return p;
  p.steps_per_split = (steps + splits - 1) / splits;
  p.splits = (steps + p.steps_per_split - 1) / p.steps_per_split;  // none of them empty
  return p;
}

}  // namespace pk::detail
