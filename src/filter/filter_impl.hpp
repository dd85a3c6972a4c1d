#pragma once
// The filter kernels: argument checks and launches, written once for every execution space.
// A backend compiles them by defining its filter_policy<ExecSpace> (filter_policy.hpp) and naming
// PK_INSTANTIATE_FILTER(ExecSpace) in backends/<name>/.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

#include <pk/kokkos/filter.hpp>
#include <pk/runtime.hpp>

#include "core/check.hpp"
#include "core/region.hpp"
#include "core/host_views.hpp"
#include "filter/filter_checks.hpp"
#include "filter/filter_host.hpp"
#include "filter/filter_policy.hpp"
#include "filter/filter_tile.hpp"
#include "filter/stencils.hpp"

namespace pk::detail {

template <class View>
image_extents extents_of(const View& v) {
  return {static_cast<std::int64_t>(v.extent(0)), static_cast<std::int64_t>(v.extent(1)),
          static_cast<std::int64_t>(v.extent(2))};
}

// Checks the images; false when there is nothing to compute (0 rows or 0 columns: allowed, and
// nothing is written).
template <class Exec, class T>
bool check_filter_views(const char* who, const image_view<const T, Exec>& in, const image_view<T, Exec>& out) {
  check_filter_images(who, extents_of(in), extents_of(out), in.data(), out.data(), sizeof(T));
  // The kernels address pixel (y, x, c) at (y*W + x)*C + c: a padded allocation would not be.
  if (in.span() != in.size() || out.span() != out.size())
    fail(who, in.span() != in.size() ? "in" : "out", " is not dense (padded rows), expected a contiguous H x W x C View");
  return in.extent(0) > 0 && in.extent(1) > 0;
}

// Launches FilterTile f, one team per output tile. Where the image has fewer tiles than the
// policy wants (min_tiles: small images on a GPU; -1 takes the policy's min_tiles<T, Op>(space)), tiles shrink
// down to 32 x Rows so that more multiprocessors share the work. Where team scratch is a GPU's
// shared memory (Policy::ScratchLimit), the tile loses rows or columns until its scratch fits
// what a team may use (wide halos of 4-channel images); on a host it stays as chosen.
template <class Functor, class Exec>
void run_tiles(const char* label, const Exec& space, Functor f, std::int64_t min_tiles = -1) {
  using policy = typename Functor::policy;
  using schedule = typename Functor::schedule;
  using T = typename Functor::value_type;
  using Op = typename Functor::op_type;
  const auto regrid = [&f](int tile_h, int tile_w) {
    f.grid = make_tile_grid(f.grid.height, f.grid.width, f.grid.channels, f.grid.radius, tile_h, tile_w,
                            schedule::Rows, schedule::Cols, Functor::staging::template pack_elements<T>);
  };
  regrid(tile_rows_of<policy, T, Op>::value, policy::TileW);
  // Halve the longer side (in elements, width counting as a quarter), the width only while over
  // min_w: a tile that stays roughly 4:1 keeps its halo, which is read twice, a small part of what
  // it stages.
  const auto shrink = [&](int min_w) {
    if (f.grid.tile_w > min_w && (f.grid.tile_w * f.grid.channels > 4 * f.grid.tile_h || f.grid.tile_h <= schedule::Rows))
      regrid(f.grid.tile_h, f.grid.tile_w / 2);
    else
      regrid(f.grid.tile_h / 2, f.grid.tile_w);
  };
  if (min_tiles < 0) min_tiles = policy::template min_tiles<T, Op>(space);
  while (std::int64_t(f.grid.tiles_x) * f.grid.tiles_y < min_tiles && (f.grid.tile_w > 32 || f.grid.tile_h > schedule::Rows))
    shrink(32);
  if constexpr (policy::ScratchLimit > 0) {
    const auto limit = std::min<std::size_t>(
        policy::ScratchLimit, Kokkos::TeamPolicy<Exec>(space, 1, policy::team::Size).scratch_size_max(0));
    while (f.scratch_bytes() > limit && (f.grid.tile_h > schedule::Rows || f.grid.tile_w > 1)) shrink(1);
    if (f.scratch_bytes() > limit)
      fail(label, "a tile needs ", f.scratch_bytes(), " bytes of team scratch, more than the ", limit, " available");
  }
  f.prepare();
  const std::int64_t tiles_y = (f.grid.height + f.grid.tile_h - 1) / f.grid.tile_h;
  const std::int64_t tile_count = tiles_y * ((f.grid.width + f.grid.tile_w - 1) / f.grid.tile_w);
  if (tile_count > INT_MAX) fail(label, "the image has ", tile_count, " tiles, more than a launch can take");
  // With launch bounds where the policy asks for a number of teams an SM (GPUs: the compiler then
  // keeps a thread's registers within 65536 / (TeamSize x that number)).
  constexpr int min_teams = policy::template teams_per_sm<T, Op>;
  using bounds = std::conditional_t<(min_teams > 0), Kokkos::LaunchBounds<policy::team::Size, min_teams>,
                                    Kokkos::LaunchBounds<>>;
  const auto launch = Kokkos::TeamPolicy<Exec, bounds>(space, static_cast<int>(tile_count), policy::team::Size, 1)
                          .set_scratch_size(0, Kokkos::PerTeam(f.scratch_bytes()));
  // HintLightWeight: the functor goes as a kernel parameter (Kokkos does so for functors under
  // the 4 KB CUDA allows; a convolution's is about 1 KB). Kokkos' default for functors over 512
  // bytes is constant memory, which costs every launch a wait for the previous such kernel, a
  // host-to-device copy of the functor and an event, all inside the filter call.
  Kokkos::parallel_for(label,
                       Kokkos::Experimental::require(launch, Kokkos::Experimental::WorkItemProperty::HintLightWeight), f);
}

// Calls f(radius) with the radius r = 0..7 (kernel sizes 1..15) as fixed<r> where the policy
// compiles a kernel per radius, else as the int r.
template <class Policy, class F>
void with_radius(int r, F&& f) {
  if constexpr (!Policy::FixedRadius) {
    return f(r);
  } else {
    switch (r) {
      case 0: return f(fixed<0>());
      case 1: return f(fixed<1>());
      case 2: return f(fixed<2>());
      case 3: return f(fixed<3>());
      case 4: return f(fixed<4>());
      case 5: return f(fixed<5>());
      case 6: return f(fixed<6>());
      case 7: return f(fixed<7>());
    }
    fail("pk::filter", "kernel radius ", r, " is over the largest, ", max_filter_size / 2);
  }
}

// The image's grid before run_tiles cuts it into tiles.
template <class View>
tile_grid image_grid(const View& in, int radius) {
  tile_grid grid{};
  grid.height = static_cast<std::int64_t>(in.extent(0));
  grid.width = static_cast<std::int64_t>(in.extent(1));
  grid.channels = static_cast<int>(in.extent(2));
  grid.radius = radius;
  return grid;
}

// The filters with a given policy: the backend's filter_policy, or others in tests and tuning.
template <class Exec, class T, class Policy>
void filter_with(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                 const filter_kernel& k, border b) {
  const char* who = "pk::filter";
  const tools_region region(who);
  pk::require_initialized(who);
  check_filter_kernel(who, k);
  if (!check_filter_views<Exec, T>(who, in, out)) return;
  const tile_grid grid = image_grid(in, k.size / 2);
  with_radius<Policy>(grid.radius, [&](auto radius) {
    using Radius = decltype(radius);
    if (k.separable()) {
      SeparableConv<Radius> op{radius, {}, {}};
      for (int i = 0; i < k.size; ++i) op.row.t[i] = k.row[i], op.column.t[i] = k.column[i];
      const std::string label = "pk::filter separable" + std::to_string(k.size) + " " + type_tag<T>();
      run_tiles(label.c_str(), space, FilterTile<T, Exec, Policy, SeparableConv<Radius>>{in, out, grid, b, op, {}});
    } else {
      Conv2D<Radius> op{radius, {}};
      for (int i = 0; i < k.size * k.size; ++i) op.weights.w[i] = k.weights[i];
      const std::string label =
          "pk::filter conv" + std::to_string(k.size) + "x" + std::to_string(k.size) + " " + type_tag<T>();
      run_tiles(label.c_str(), space, FilterTile<T, Exec, Policy, Conv2D<Radius>>{in, out, grid, b, op, {}});
    }
  });
}

template <class Exec, class T, class Policy>
void sobel_magnitude_with(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                          border b) {
  const char* who = "pk::sobel_magnitude";
  const tools_region region(who);
  pk::require_initialized(who);
  if (!check_filter_views<Exec, T>(who, in, out)) return;
  const std::string label = std::string("pk::sobel_magnitude ") + type_tag<T>();
  run_tiles(label.c_str(), space, FilterTile<T, Exec, Policy, SobelMagnitude>{in, out, image_grid(in, 1), b, {}, {}});
}

template <class Exec, class T>
void filter(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
            const filter_kernel& k, border b) {
  filter_with<Exec, T, filter_policy<Exec>>(space, in, out, k, b);
}

template <class Exec, class T>
void sobel_magnitude(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                     border b) {
  sobel_magnitude_with<Exec, T, filter_policy<Exec>>(space, in, out, b);
}

// Host-array entry points: move the image to the backend, run, bring out back.
template <class Exec, class T>
void filter_host(const T* in, T* out, int height, int width, int channels, const filter_kernel& k, border b) {
  require_copies<Exec>("pk::filter", 2.0 * height * width * channels * sizeof(T));
  Exec space;
  auto host_out = host_unmanaged<T***>(out, height, width, channels);
  auto din = to_backend<Exec>(host_unmanaged<const T***>(in, height, width, channels));
  auto dout = output_on_backend<Exec>(host_out);
  filter<Exec, T>(space, din, dout, k, b);
  space.fence();
  copy_to_host(host_out, dout);
}

template <class Exec, class T>
void sobel_magnitude_host(const T* in, T* out, int height, int width, int channels, border b) {
  require_copies<Exec>("pk::sobel_magnitude", 2.0 * height * width * channels * sizeof(T));
  Exec space;
  auto host_out = host_unmanaged<T***>(out, height, width, channels);
  auto din = to_backend<Exec>(host_unmanaged<const T***>(in, height, width, channels));
  auto dout = output_on_backend<Exec>(host_out);
  sobel_magnitude<Exec, T>(space, din, dout, b);
  space.fence();
  copy_to_host(host_out, dout);
}

}  // namespace pk::detail

#define PK_INSTANTIATE_FILTER_FOR(EXEC, T)                                                                  \
  template void pk::detail::filter<EXEC, T>(const EXEC&, const pk::image_view<const T, EXEC>&,            \
                                            const pk::image_view<T, EXEC>&, const pk::filter_kernel&,     \
                                            pk::border);                                                  \
  template void pk::detail::sobel_magnitude<EXEC, T>(const EXEC&, const pk::image_view<const T, EXEC>&,   \
                                                     const pk::image_view<T, EXEC>&, pk::border);         \
  template void pk::detail::filter_host<EXEC, T>(const T*, T*, int, int, int, const pk::filter_kernel&,   \
                                                 pk::border);                                             \
  template void pk::detail::sobel_magnitude_host<EXEC, T>(const T*, T*, int, int, int, pk::border);

#define PK_INSTANTIATE_FILTER(EXEC)      \
  PK_INSTANTIATE_FILTER_FOR(EXEC, float) \
  PK_INSTANTIATE_FILTER_FOR(EXEC, std::uint8_t)
