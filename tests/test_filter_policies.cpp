// The GPU's ways of running the filter kernels, run on the host with small tiles and the portable
// primitives: kernels compiled per radius, teams of several lanes and groups, row groups, quads,
// staging by 16-byte packs (through registers and by "asynchronous" copies) and by tensor copies
// (boxes, their border filled in scratch), tiles shrunk to a scratch limit, every border mode, at
// the image's edges and corners. The CUDA policy (backends/cuda/cuda_filter_policy.hpp) takes these
// paths with its own numbers and primitives; test_filter.cpp runs it in a CUDA build.
#include "filter_policy_checks.hpp"

namespace {

namespace d = pk::detail;
using filter_policy_checks::check_policy;
using filter_policy_checks::is_conv2d;

// One thread, 8 x 4 tiles in row groups of 2, quads for every one-channel float operation (as the
// CUDA policy), element staging two rows x four elements at a time.
struct one_thread : filter_policy_checks::host_test_policy {
  using team = d::team_shape<1, 1>;
  static constexpr int TileW = 8, TileH = 4;
  template <class T, class Op>
  using schedule = d::output_blocks<team, 2, 1, std::is_same_v<T, float>>;
  template <class T, class Op>
  using staging = d::staged_by_elements<team, 2, 4>;
};

// Two groups of one lane, groups of 3 rows (tiles of 6 rows), and a scratch limit so small that
// wide halos shrink the tile (rows, then columns). Tiles are staged by 16-byte packs where they
// can be, three loads in flight.
struct two_groups_small_scratch : one_thread {
  using team = d::team_shape<2, 1>;
  static constexpr int TileW = 8, TileH = 6;
  static constexpr std::size_t ScratchLimit = 6144;
  template <class T, class Op>
  using schedule = d::output_blocks<team, 3, 1, is_conv2d<Op>>;
  template <class T, class Op>
  using staging = d::staged_by_packs<team, 1, 2, d::copy_through_registers<3>>;
};

// One group of two lanes, blocks of 4 x 2 elements, packs by the primitives' asynchronous copies,
// and one-channel float convolutions of radius 1 and 2 by tensor copies (boxes of 8 outputs, two
// a tile).
struct two_lanes_tensor_copies : one_thread {
  using team = d::team_shape<2, 2>;
  static constexpr int TileW = 16, TileH = 4;
  template <class T, class Op>
  using schedule = d::output_blocks<team, 4, 2, std::is_same_v<T, float>>;
  template <class T, class Op>
  using packs = d::staged_by_packs<team, 2, 2, d::copy_asynchronously<primitives>>;
  template <class T, class Op>
  static constexpr int R = d::radius_of<decltype(Op::radius)>::value;
  template <class T, class Op>
  using staging = std::conditional_t<
      std::is_same_v<T, float>,
      std::conditional_t<is_conv2d<Op> && (R<T, Op> == 1 || R<T, Op> == 2),
                         d::staged_by_tensor_copies<primitives, team, R<T, Op>, packs<T, Op>>, packs<T, Op>>,
      d::staged_by_elements<team, 1, 1>>;
};

// Tiles of 64 x 16 that shrink (down to 32 x Rows) until an image has 1000 of them: min_tiles, the
// small images' knob of run_tiles, over every shape.
struct shrinking_tiles : one_thread {
  static constexpr int TileW = 64, TileH = 16;
  template <class T, class Op, class Exec>
  static std::int64_t min_tiles(const Exec&) { return 1000; }
};

// The separable filter's row pass kept in each block's registers (no row-pass buffer): blocks of
// 2 x 1, one-channel floats by quads of 2 x 4; then teams of two lanes, blocks of 3 x 1.
struct row_pass_in_registers : one_thread {
  template <class T, class Op>
  using schedule = d::output_blocks<team, 2, 1, std::is_same_v<T, float>, 1, true>;
};
struct row_pass_in_registers_two_lanes : one_thread {
  using team = d::team_shape<2, 2>;
  static constexpr int TileW = 16, TileH = 6;
  template <class T, class Op>
  using schedule = d::output_blocks<team, 3, 1, std::is_same_v<T, float>, 1, true>;
};

}  // namespace

TEST_CASE("filters with the GPU's schedules and element staging, one thread (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<one_thread, Kokkos::Serial>();
}

TEST_CASE("filters on tiles shrunk for small images (min_tiles), one thread (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<shrinking_tiles, Kokkos::Serial>();
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE("filters with teams of two: packs, asynchronous and tensor copies, a scratch limit (OpenMP)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  if (Kokkos::OpenMP::concurrency() < 2) {
    MESSAGE("OpenMP runs one thread: teams of two cannot be formed, skipped");
    return;
  }
  check_policy<two_groups_small_scratch, Kokkos::OpenMP>();
  check_policy<two_lanes_tensor_copies, Kokkos::OpenMP>();
  check_policy<row_pass_in_registers_two_lanes, Kokkos::OpenMP>();
}
#endif

TEST_CASE("separable filters with the row pass in registers, one thread (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<row_pass_in_registers, Kokkos::Serial>();
}
