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

// The CUDA policy's uint8 tiles in small: blocks of 8 x 4 on tiles of tile_rows = 16 rows (not
// TileH), the separable row pass in registers, and min_tiles for uint8 only: the tiles of every
// image under 50 of them shrink to 8 rows.
struct tall_pixel_quads : pixel_quads<1, 1, true> {
  template <class T, class Op>
  static constexpr int tile_rows = 16;
  template <class T, class Op>
  using schedule = d::output_blocks<team, 8, 4, true, 4, true>;
  template <class T, class Op, class Exec>
  static std::int64_t min_tiles(const Exec&) {
    return std::is_same_v<T, std::uint8_t> ? 50 : 0;
  }
};
static_assert(d::tile_rows_of<tall_pixel_quads, std::uint8_t, d::Conv2D<d::fixed<1>>>::value == 16);
static_assert(d::tile_rows_of<pixel_quads<1, 1>, std::uint8_t, d::Conv2D<d::fixed<1>>>::value == 4);

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

TEST_CASE("uint8 filters by quads of 8 rows on taller tiles, shrunk for small images (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<tall_pixel_quads, Kokkos::Serial, false>();
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
