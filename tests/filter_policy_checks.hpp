#pragma once
// What the filter-policy suites share (test_filter_policies.cpp, test_filter_pixel_quads.cpp): a
// policy's kernels run on the host through run_tiles, against the float64 reference, for kernels
// of radius 0 to 3, odd shapes and every border mode.
#include <pk/filter.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "filter/filter_impl.hpp"
#include "filter/stage_boxes.hpp"
#include "filter/stage_packs.hpp"
#include "filter_reference.hpp"
#include "test_support.hpp"

namespace filter_policy_checks {

namespace d = pk::detail;
using filter_ref::image_shape;

// What the test policies share: the portable primitives, no scratch limit, a kernel per radius,
// no launch bounds, a tile's work inlined. Each names its team, tiles, schedule and staging.
struct host_test_policy {
  using primitives = d::portable_primitives;
  static constexpr std::size_t ScratchLimit = 0;
  static constexpr bool FixedRadius = true;
  template <class T, class Op>
  static constexpr int teams_per_sm = 0;
  template <class T, class Op, class Exec>
  static std::int64_t min_tiles(const Exec&) { return 0; }
  template <class F>
  KOKKOS_INLINE_FUNCTION static void run_tile(const F& f) {
    f();
  }
};

template <class Op>
inline constexpr bool is_conv2d = false;
template <class Radius>
inline constexpr bool is_conv2d<d::Conv2D<Radius>> = true;

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

// Floats: also the float kernels (a policy that changes only uint8 leaves them out: its suite
// compiles fewer kernels).
template <class Policy, class Exec, int R, bool Floats>
void check_radius(image_shape s, pk::border b) {
  constexpr int size = 2 * R + 1;
  CAPTURE(size);
  const auto in = pk_test::random_vector<float>(s.size(), -1.0, 1.0);
  const auto bytes = pk_test::random_bytes(s.size());
  const auto general = filter_ref::random_kernel(size, -1, 1);
  const auto separable_kernel = filter_ref::random_separable_kernel(size, -1, 1);
  const auto smoothing = filter_ref::random_kernel(size, -0.3 / (size * size), 2.0 / (size * size));
  if constexpr (Floats) {
    for (const auto* k : {&general, &separable_kernel}) {
      const auto w = filter_ref::weights_of(*k);
      const auto ref = filter_ref::convolve(in, s, size, w, b);
      const auto out =
          k->separable() ? run<Policy, Exec>(in, s, separable<R>(*k), b) : run<Policy, Exec>(in, s, conv2d<R>(*k), b);
      CHECK(filter_ref::worst_float_error(out, ref, filter_ref::error_scale(in, w)) <= filter_ref::float_tolerance);
    }
  }
  const auto ref_bytes = filter_ref::convolve(bytes, s, size, filter_ref::weights_of(smoothing), b);
  CHECK(filter_ref::worst_uint8_error(run<Policy, Exec>(bytes, s, conv2d<R>(smoothing), b), ref_bytes) <= 1);
  const auto smooth_separable = pk::separable_kernel(std::vector<float>(size, 1.f / size), std::vector<float>(size, 1.f / size));
  CHECK(filter_ref::worst_uint8_error(run<Policy, Exec>(bytes, s, separable<R>(smooth_separable), b),
                                      filter_ref::convolve(bytes, s, size, filter_ref::weights_of(smooth_separable), b)) <= 1);
  if constexpr (R == 1) {
    if constexpr (Floats)
      CHECK(filter_ref::worst_float_error(run<Policy, Exec>(in, s, d::SobelMagnitude{}, b), filter_ref::sobel_magnitude(in, s, b),
                                          filter_ref::error_scale(in, std::vector<double>(8, 1.0))) <=
            filter_ref::float_tolerance);
    CHECK(filter_ref::worst_uint8_error(run<Policy, Exec>(bytes, s, d::SobelMagnitude{}, b),
                                        filter_ref::sobel_magnitude(bytes, s, b)) <= 1);
  }
}

template <class Policy, class Exec, bool Floats = true>
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
      check_radius<Policy, Exec, 0, Floats>(s, b);
      check_radius<Policy, Exec, 1, Floats>(s, b);
      check_radius<Policy, Exec, 2, Floats>(s, b);
      check_radius<Policy, Exec, 3, Floats>(s, b);
    }
}

}  // namespace filter_policy_checks
