// The GPU's uint8 filter kernels (backends/cuda/cuda_filter_policy.hpp) run on the host with small
// tiles and the portable primitives: pixels kept uint8 in scratch, staged by 16-byte packs or
// element by element at the edges, every operation read by quads of 4 elements for 1-4 channels
// (windows widened and results narrowed by the primitives), every border mode, radius 0 to 3.
#include "filter_policy_checks.hpp"

namespace {

namespace d = pk::detail;
using filter_policy_checks::check_policy;

// uint8 tiles as cuda_filter_policy runs them: kept uint8 in scratch, staged by packs (the
// primitives' "asynchronous" copies) or element by element at the edges, and every operation by
// quads of 2 x 4 outputs for 1-4 channels (radius up to 3: all tested here). Team: Size threads
// in lanes of Lanes (uint8 only: the suite runs no float kernel with it).
// With RowPassInRegisters the separable filters' row pass stays in each block's registers.
template <int Size, int Lanes, bool RowPassInRegisters = false>
struct pixel_quads : filter_policy_checks::host_test_policy {
  using team = d::team_shape<Size, Lanes>;
  static constexpr int TileW = 16, TileH = 4;
  template <class T, class Op>
  using schedule = d::output_blocks<team, 2, 4, true, 4, RowPassInRegisters>;
  template <class T, class Op>
  using staging = d::staged_by_packs<team, 1, 2, d::copy_asynchronously<primitives>, d::staged_as_pixels>;
};

}  // namespace

TEST_CASE("uint8 filters staged as pixels and read by quads, one thread (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<pixel_quads<1, 1>, Kokkos::Serial, false>();
}

TEST_CASE("uint8 filters by quads, the separable row pass in registers (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<pixel_quads<1, 1, true>, Kokkos::Serial, false>();
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE("uint8 filters staged as pixels and read by quads, teams of two lanes (OpenMP)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  if (Kokkos::OpenMP::concurrency() < 2) {
    MESSAGE("OpenMP runs one thread: teams of two cannot be formed, skipped");
    return;
  }
  check_policy<pixel_quads<2, 2>, Kokkos::OpenMP, false>();
}
#endif
