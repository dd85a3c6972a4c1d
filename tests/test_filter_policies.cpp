// The GPU's ways of running the filter kernels, run on the host with small tiles and the portable
// primitives: kernels compiled per radius, teams of several lanes and groups, row groups, quads,
// staging by 16-byte packs (through registers and by "asynchronous" copies) and by tensor copies
// (boxes, their border filled in scratch), tiles shrunk to a scratch limit, every border mode, at
// the image's edges and corners. The CUDA policy (backends/cuda/cuda_filter_policy.hpp) takes these
// paths with its own numbers and primitives; test_filter.cpp runs it in a CUDA build.
#include <pk/filter.hpp>

#include <random>
#include <string>
#include <vector>

#include "filter/filter_impl.hpp"
#include "filter/stage_boxes.hpp"
#include "filter/stage_packs.hpp"
#include "filter_reference.hpp"
#include "test_support.hpp"

using filter_ref::image_shape;

namespace {

namespace d = pk::detail;

template <class Op>
inline constexpr bool is_conv2d = false;
template <class Radius>
inline constexpr bool is_conv2d<d::Conv2D<Radius>> = true;

// One thread, 8 x 4 tiles in row groups of 2, quads for one-channel float convolutions, element
// staging two rows x four elements at a time.
struct one_thread {
  using primitives = d::portable_primitives;
  using team = d::team_shape<1, 1>;
  static constexpr int TileW = 8, TileH = 4;
  static constexpr std::size_t ScratchLimit = 0;
  static constexpr bool FixedRadius = true;
  template <class T, class Op>
  using schedule = d::output_blocks<team, 2, 1, is_conv2d<Op>>;
  template <class T, class Op>
  using staging = d::staged_by_elements<team, 2, 4>;
  template <class T, class Op>
  static constexpr int teams_per_sm = 0;
  template <class F>
  KOKKOS_INLINE_FUNCTION static void run_tile(const F& f) {
    f();
  }
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
  using schedule = d::output_blocks<team, 4, 2, std::is_same_v<T, float> && is_conv2d<Op>>;
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

// uint8 tiles as cuda_filter_policy runs them: kept uint8 in scratch, staged by packs (the
// primitives' "asynchronous" copies) or element by element at the edges, and every operation by
// quads of 2 x 4 outputs for 1-4 channels (radius up to 3: all tested here). Team: Size threads
// in lanes of Lanes.
template <int Size, int Lanes>
struct pixel_quads : one_thread {
  using team = d::team_shape<Size, Lanes>;
  static constexpr int TileW = 16, TileH = 4;
  template <class T, class Op>
  using schedule = std::conditional_t<std::is_same_v<T, std::uint8_t>, d::output_blocks<team, 2, 4, true, 4>,
                                      d::output_blocks<team, 2, 1>>;
  template <class T, class Op>
  using staging = std::conditional_t<
      std::is_same_v<T, std::uint8_t>,
      d::staged_by_packs<team, 1, 2, d::copy_asynchronously<primitives>, d::staged_as_pixels>,
      d::staged_by_elements<team, 1, 1>>;
};

template <class Policy, class Exec, class T, class Op>
std::vector<T> run(const std::vector<T>& in, image_shape s, const Op& op, pk::border b) {
  return filter_ref::run_poisoned(s.size(), T{}, [&](std::vector<T>& out) {
    const pk::image_view<const T, Exec> vin(in.data(), s.h, s.w, s.c);
    const pk::image_view<T, Exec> vout(out.data(), s.h, s.w, s.c);
    d::run_tiles("test", Exec(), d::FilterTile<T, Exec, Policy, Op>{vin, vout, d::image_grid(vin, op.radius), b, op, {}});
    Exec().fence();
  });
}

template <int R>
d::Conv2D<d::fixed<R>> conv2d(const pk::filter_kernel& k) {
  d::Conv2D<d::fixed<R>> op{};
  for (int i = 0; i < k.size * k.size; ++i) op.weights.w[i] = k.weights[i];
  return op;
}
template <int R>
d::SeparableConv<d::fixed<R>> separable(const pk::filter_kernel& k) {
  d::SeparableConv<d::fixed<R>> op{};
  for (int i = 0; i < k.size; ++i) op.row.t[i] = k.row[i], op.column.t[i] = k.column[i];
  return op;
}

template <class Policy, class Exec, int R>
void check_radius(image_shape s, pk::border b) {
  constexpr int size = 2 * R + 1;
  CAPTURE(size);
  const auto in = pk_test::random_vector<float>(s.size(), -1.0, 1.0);
  const auto bytes = pk_test::random_bytes(s.size());
  const auto general = filter_ref::random_kernel(size, -1, 1);
  const auto separable_kernel = filter_ref::random_separable_kernel(size, -1, 1);
  const auto smoothing = filter_ref::random_kernel(size, -0.3 / (size * size), 2.0 / (size * size));
  for (const auto* k : {&general, &separable_kernel}) {
    const auto w = filter_ref::weights_of(*k);
    const auto ref = filter_ref::convolve(in, s, size, w, b);
    const auto out = k->separable() ? run<Policy, Exec>(in, s, separable<R>(*k), b) : run<Policy, Exec>(in, s, conv2d<R>(*k), b);
    CHECK(filter_ref::worst_float_error(out, ref, filter_ref::error_scale(in, w)) <= filter_ref::float_tolerance);
  }
  const auto ref_bytes = filter_ref::convolve(bytes, s, size, filter_ref::weights_of(smoothing), b);
  CHECK(filter_ref::worst_uint8_error(run<Policy, Exec>(bytes, s, conv2d<R>(smoothing), b), ref_bytes) <= 1);
  const auto smooth_separable = pk::separable_kernel(std::vector<float>(size, 1.f / size), std::vector<float>(size, 1.f / size));
  CHECK(filter_ref::worst_uint8_error(run<Policy, Exec>(bytes, s, separable<R>(smooth_separable), b),
                                      filter_ref::convolve(bytes, s, size, filter_ref::weights_of(smooth_separable), b)) <= 1);
  if constexpr (R == 1) {
    CHECK(filter_ref::worst_float_error(run<Policy, Exec>(in, s, d::SobelMagnitude{}, b), filter_ref::sobel_magnitude(in, s, b),
                                        filter_ref::error_scale(in, std::vector<double>(8, 1.0))) <=
          filter_ref::float_tolerance);
    CHECK(filter_ref::worst_uint8_error(run<Policy, Exec>(bytes, s, d::SobelMagnitude{}, b),
                                        filter_ref::sobel_magnitude(bytes, s, b)) <= 1);
  }
}

template <class Policy, class Exec>
void check_policy() {
  std::uniform_int_distribution<int> channels(1, 4);
  // Odd shapes and, with one channel, multiples of the tiles (whole tiles at the right and bottom
  // edges: boxes with borders to fill) and of 16-byte packs (staged by packs where the policy asks).
  // Rows of whole packs with 2, 3 and 4 channels, too (uint8: 16 bytes).
  const std::vector<image_shape> shapes{{1, 1, 0},  {5, 17, 0},  {13, 9, 0}, {30, 41, 0}, {8, 32, 1},
                                        {12, 48, 1}, {40, 64, 0}, {9, 24, 2}, {11, 48, 3}, {6, 20, 4}};
  for (image_shape shape : shapes)
    for (pk::border b : filter_ref::all_borders()) {
      const image_shape s{shape.h, shape.w, shape.c ? shape.c : channels(pk_test::rng())};
      CAPTURE(s.h);
      CAPTURE(s.w);
      CAPTURE(s.c);
      const std::string border_name = pk::to_string(b);
      CAPTURE(border_name);
      check_radius<Policy, Exec, 0>(s, b);
      check_radius<Policy, Exec, 1>(s, b);
      check_radius<Policy, Exec, 2>(s, b);
      check_radius<Policy, Exec, 3>(s, b);
    }
}

}  // namespace

TEST_CASE("filters with the GPU's schedules and element staging, one thread (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<one_thread, Kokkos::Serial>();
}

TEST_CASE("uint8 filters staged as pixels and read by quads, one thread (Serial)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<pixel_quads<1, 1>, Kokkos::Serial>();
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
  check_policy<pixel_quads<2, 2>, Kokkos::OpenMP>();
}
#endif
