// The GPU filter kernels (register tiles, src/filter/filter_register_tiles.hpp) run on the host
// with small tiles: row groups, several lanes and warps, persistent teams, interior tiles
// (prefetched into registers) and edge tiles (border lookups), tiles shrunk to fit a scratch
// limit, small separable kernels as 2D stencils. A CUDA build runs them with
// its own tile shape in test_filter.cpp; here they are checked in every build.
#include <pk/filter.hpp>

#include <random>
#include <string>
#include <vector>

#include "filter/filter_impl.hpp"
#include "filter_reference.hpp"
#include "test_support.hpp"

using filter_ref::image_shape;

namespace {

// What every shape below shares: three persistent teams, each looping over many tiles, with
// the next tile prefetched into StageSlots "registers" a thread where it fits (small radii) and
// staged directly where it does not (edge tiles, large radii and channel counts).
struct pipelined {
  static constexpr int VectorLength = 1, Chunk = 1, MinTeamsPerSM = 1;
  template <class T, int R>
  static constexpr bool async_staging = false;  // (CUDA only)
  template <class T, int R>
  static constexpr bool tensor_staging = false;  // (CUDA only)
  static constexpr bool Pipelined = true;
  template <class T>
  static constexpr int StagePacks = 0;  // element by element
  template <class T, int R>
  static constexpr int min_teams_per_sm = 1;  // (launch bounds: no effect on the host)
  template <class Exec>
  static int concurrent_teams(const Exec&) {
    return 3;
  }
};
// One thread: 8 x 4 tiles in row groups of 2; separable kernels always take the separable path.
struct one_thread : pipelined {
  static constexpr int TileW = 8, TileH = 4, TeamSize = 1, Lanes = 1, RowsPerThread = 2;
  static constexpr int StageSlots = 64, SeparableFromRadius = 0;
  static constexpr bool RegisterTiles = true, ScratchIsSharedMemory = false;
  static constexpr std::size_t ScratchLimit = 0;
};
// Two "warps" of one lane, groups of 3 rows (tiles of 6 rows), and a scratch limit so small that
// wide halos shrink the tile (rows, then columns). Tiles are staged by 16-byte packs where they
// can be, three loads in flight (staged rows with a lead then never go through the prefetch).
// Separable kernels of radius 1 and 2 run as 2D stencils.
struct two_warps_small_scratch : pipelined {
  static constexpr int TileW = 8, TileH = 6, TeamSize = 2, Lanes = 1, RowsPerThread = 3;
  template <class T>
  static constexpr int StagePacks = 3;
  static constexpr int StageSlots = 48, SeparableFromRadius = 3;
  static constexpr bool RegisterTiles = true, ScratchIsSharedMemory = true;
  static constexpr std::size_t ScratchLimit = 6144;
};
// One warp of two lanes.
struct two_lanes : pipelined {
  static constexpr int TileW = 8, TileH = 4, TeamSize = 2, Lanes = 2, RowsPerThread = 4;
  static constexpr int StageSlots = 32, SeparableFromRadius = 2;
  static constexpr bool RegisterTiles = true, ScratchIsSharedMemory = false;
  static constexpr std::size_t ScratchLimit = 0;
};

// Two lanes, one tile per team (no pipeline), staged by packs, as the CUDA backend runs.
struct two_lanes_one_tile_per_team : two_lanes {
  static constexpr bool Pipelined = false;
  template <class T>
  static constexpr int StagePacks = 2;
};

template <class Tiles, class Exec, class T>
std::vector<T> run(const std::vector<T>& in, image_shape s, const pk::filter_spec& f, pk::border b) {
  return filter_ref::run_poisoned(s.size(), T{}, [&](std::vector<T>& out) {
    const pk::image_view<const T, Exec> vin(in.data(), s.h, s.w, s.c);
    const pk::image_view<T, Exec> vout(out.data(), s.h, s.w, s.c);
    if (f.op == pk::filter_op::sobel_magnitude)
      pk::detail::sobel_magnitude_tiled<Exec, T, Tiles>(Exec(), vin, vout, b);
    else
      pk::detail::filter_tiled<Exec, T, Tiles>(Exec(), vin, vout, f.kernel, b);
    Exec().fence();
  });
}

template <class Tiles, class Exec>
void check_tiles() {
  std::uniform_int_distribution<int> channels(1, 4);
  // (40 x 64: rows of whole 16-byte packs for float and uint8, so interior tiles are staged by packs
  // where Tiles ask for it.)
  const std::vector<image_shape> shapes{{1, 1, 1}, {5, 17, 1}, {13, 9, 1}, {30, 41, 1}, {40, 64, 1}};
  for (image_shape shape : shapes)
    for (int size : {1, 3, 5, 15})
      for (pk::border b : filter_ref::all_borders()) {
        const image_shape s{shape.h, shape.w, channels(pk_test::rng())};
        CAPTURE(s.h);
        CAPTURE(s.w);
        CAPTURE(s.c);
        CAPTURE(size);
        const std::string border_name = pk::to_string(b);
        CAPTURE(border_name);
        const auto in = pk_test::random_vector<float>(s.size(), -1.0, 1.0);
        const auto bytes = pk_test::random_bytes(s.size());
        const pk::filter_spec general{pk::filter_op::convolve, filter_ref::random_kernel(size, -1, 1)};
        const pk::filter_spec separable{pk::filter_op::convolve, filter_ref::random_separable_kernel(size, -1, 1)};
        const pk::filter_spec smoothing{pk::filter_op::convolve,
                                        filter_ref::random_kernel(size, -0.3 / (size * size), 2.0 / (size * size))};
        for (const pk::filter_spec* f : {&general, &separable}) {
          const auto w = filter_ref::weights_of(f->kernel);
          const auto ref = filter_ref::convolve(in, s, size, w, b);
          CHECK(filter_ref::worst_float_error(run<Tiles, Exec>(in, s, *f, b), ref, filter_ref::error_scale(in, w)) <=
                filter_ref::float_tolerance);
        }
        const auto ref_bytes = filter_ref::convolve(bytes, s, size, filter_ref::weights_of(smoothing.kernel), b);
        CHECK(filter_ref::worst_uint8_error(run<Tiles, Exec>(bytes, s, smoothing, b), ref_bytes) <= 1);
        if (size == 3) {
          const auto sobel = pk::parse_filter("sobel");
          CHECK(filter_ref::worst_float_error(run<Tiles, Exec>(in, s, sobel, b), filter_ref::sobel_magnitude(in, s, b),
                                              filter_ref::error_scale(in, std::vector<double>(8, 1.0))) <=
                filter_ref::float_tolerance);
          CHECK(filter_ref::worst_uint8_error(run<Tiles, Exec>(bytes, s, sobel, b),
                                              filter_ref::sobel_magnitude(bytes, s, b)) <= 1);
        }
      }
}

}  // namespace

TEST_CASE("register-tile filters with one thread (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_tiles<one_thread, Kokkos::Serial>();
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE("register-tile filters with teams of two (OpenMP)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  if (Kokkos::OpenMP::concurrency() < 2) {
    MESSAGE("OpenMP runs one thread: teams of two cannot be formed, skipped");
    return;
  }
  check_tiles<two_warps_small_scratch, Kokkos::OpenMP>();
  check_tiles<two_lanes, Kokkos::OpenMP>();
  check_tiles<two_lanes_one_tile_per_team, Kokkos::OpenMP>();
}
#endif
