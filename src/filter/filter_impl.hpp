#pragma once
// The filter kernels: argument checks and launches, written once for every execution space.
// A backend compiles them by naming PK_INSTANTIATE_FILTER(ExecSpace) in backends/<name>/
// (the cuda backend includes its filter_tiles specialization first).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

#include <pk/kokkos/filter.hpp>
#include <pk/runtime.hpp>

#include "core/check.hpp"
#include "core/host_views.hpp"
#include "filter/filter_checks.hpp"
#include "filter/filter_functors.hpp"
#include "filter/filter_register_tiles.hpp"
#include "filter/filter_host.hpp"
#include "filter/filter_tiles.hpp"

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

// Whether a functor's tiles are staged by tensor copies (filter_register_tiles.hpp: CUDA, TMA): it
// then needs its tensor map attached, and its launch bounds are Tiles::TensorTeamsPerSM.
template <class F, class = void>
struct tensor_staged_functor : std::false_type {};
template <class F>
struct tensor_staged_functor<F, std::enable_if_t<F::tensor_staged>> : std::true_type {};

// The functor over every output tile. On a GPU the tile loses rows or columns until its scratch
// fits in the shared memory a team may use (wide halos of 4-channel images) and, for register
// tiles, its staged area fits the registers that prefetch it (tile_pipeline.hpp); on a host it
// stays as chosen.
template <class Tiles, class Exec, class Functor>
void run_tiles(const char* label, const Exec& space, Functor f) {
  using tiles = Tiles;
  using T = std::remove_const_t<typename decltype(f.in)::value_type>;
  constexpr int row_multiple = tiles::RegisterTiles ? tiles::RowsPerThread : 1;
  // Register tiles staged by 16-byte packs (tile_staging.hpp) lay staged rows out on pack boundaries.
  constexpr int pack = tiles::RegisterTiles ? staging_pack<tiles, T> : 1;
  const auto regrid = [&f](int tile_h, int tile_w) {
    f.grid = make_tile_grid<tiles::Chunk>(f.grid.height, f.grid.width, f.grid.channels, f.grid.radius, tile_h, tile_w,
                                          row_multiple, pack);
  };
  regrid(tiles::TileH, tiles::TileW);
  if constexpr (tiles::ScratchIsSharedMemory) {
    const auto limit = std::min<std::size_t>(
        tiles::ScratchLimit,
        Kokkos::TeamPolicy<Exec>(space, 1, tiles::TeamSize, tiles::VectorLength).scratch_size_max(0));
    const auto too_big = [&] {
      if constexpr (tiles::RegisterTiles && tiles::Pipelined)
        if (f.grid.staged_floats() > std::int64_t(tiles::TeamSize) * tiles::StageSlots) return true;
      return f.scratch_bytes() > limit;
    };
    // Halve the longer side (in elements, width counting as a quarter): a tile that stays
    // roughly 4:1 keeps its halo, which is read twice, a small part of what it stages.
    while (too_big() && (f.grid.tile_h > row_multiple || f.grid.tile_w > 1)) {
      if (f.grid.tile_w * f.grid.channels > 4 * f.grid.tile_h || f.grid.tile_h <= row_multiple)
        regrid(f.grid.tile_h, f.grid.tile_w / 2);
      else
        regrid(f.grid.tile_h / 2, f.grid.tile_w);
    }
    // (A staged area larger than the registers is still staged, directly: only the overlap is lost.)
    if (f.scratch_bytes() > limit)
      fail(label, "a tile needs ", f.scratch_bytes(), " bytes of team scratch, more than the ", limit, " available");
  }
  if constexpr (tensor_staged_functor<Functor>::value) f.attach_tensor_map();
  const std::int64_t tiles_y = (f.grid.height + f.grid.tile_h - 1) / f.grid.tile_h;
  const std::int64_t tile_count = tiles_y * ((f.grid.width + f.grid.tile_w - 1) / f.grid.tile_w);
  if (tile_count > INT_MAX) fail(label, "the image has ", tile_count, " tiles, more than a launch can take");
  if constexpr (tiles::RegisterTiles && tiles::Pipelined) {
    // Persistent teams, as many as run at once (a second, partial wave would leave SMs idle).
    const int league = static_cast<int>(std::min<std::int64_t>(tile_count, tiles::concurrent_teams(space)));
    using policy = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<tiles::TeamSize, tiles::MinTeamsPerSM>>;
    // HintHeavyWeight: Kokkos passes the functor through constant memory, not as a kernel
    // parameter. As a parameter, ptxas wanted 196 registers for the Sobel kernel (-Xptxas -v;
    // at the 80 of the launch bounds, 336 bytes of spills a thread); from constant memory, 80
    // and no spills.
    Kokkos::parallel_for(label,
                         Kokkos::Experimental::require(policy(space, league, tiles::TeamSize, tiles::VectorLength)
                                                           .set_scratch_size(0, Kokkos::PerTeam(f.scratch_bytes())),
                                                       Kokkos::Experimental::WorkItemProperty::HintHeavyWeight),
                         f);
  } else {
    // One team per tile; with launch bounds where Tiles asks for a number of teams an SM (GPUs:
    // the compiler then keeps a thread's registers within 65536 / (TeamSize x that number)).
    constexpr int min_teams = [] {
      if constexpr (tensor_staged_functor<Functor>::value) return tiles::TensorTeamsPerSM;
      if constexpr (tiles::RegisterTiles) return tiles::template min_teams_per_sm<T, Functor::radius>;
      return 0;
    }();
    using bounds =
        std::conditional_t<(min_teams > 0), Kokkos::LaunchBounds<tiles::TeamSize, min_teams>, Kokkos::LaunchBounds<>>;
    const auto policy = Kokkos::TeamPolicy<Exec, bounds>(space, static_cast<int>(tile_count), tiles::TeamSize,
                                                         tiles::VectorLength)
                            .set_scratch_size(0, Kokkos::PerTeam(f.scratch_bytes()));
    // HintLightWeight: the functor goes as a kernel parameter (Kokkos does so for functors under
    // the 4 KB CUDA allows; a convolution's is about 1 KB). Kokkos' default for functors over 512
    // bytes is constant memory, which costs every launch a wait for the previous such kernel, a
    // host-to-device copy of the functor and an event, all inside the filter call.
    Kokkos::parallel_for(
        label, Kokkos::Experimental::require(policy, Kokkos::Experimental::WorkItemProperty::HintLightWeight), f);
  }
}

// Calls f(std::integral_constant<int, R>) for the radius r = 0..7 (kernel sizes 1..15): the
// register-tile functors unroll their stencils for a radius known when they are compiled.
template <class F>
void with_radius(int r, F&& f) {
  switch (r) {
    case 0: return f(std::integral_constant<int, 0>());
    case 1: return f(std::integral_constant<int, 1>());
    case 2: return f(std::integral_constant<int, 2>());
    case 3: return f(std::integral_constant<int, 3>());
    case 4: return f(std::integral_constant<int, 4>());
    case 5: return f(std::integral_constant<int, 5>());
    case 6: return f(std::integral_constant<int, 6>());
    case 7: return f(std::integral_constant<int, 7>());
  }
  fail("pk::filter", "kernel radius ", r, " is over the largest, ", max_filter_size / 2);
}

// The filters with a given tile shape: the backend's filter_tiles, or others when tuning
// (bench/tune/tune_filter.cpp).
template <class Exec, class T, class Tiles>
void filter_tiled(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                  const filter_kernel& k, border b) {
  const char* who = "pk::filter";
  pk::require_initialized(who);
  check_filter_kernel(who, k);
  if (!check_filter_views<Exec, T>(who, in, out)) return;
  tile_grid grid{};
  grid.height = static_cast<std::int64_t>(in.extent(0));
  grid.width = static_cast<std::int64_t>(in.extent(1));
  grid.channels = static_cast<int>(in.extent(2));
  grid.radius = k.size / 2;
  kernel_taps row{}, column{};
  kernel_weights weights{};
  for (int i = 0; i < k.size * k.size; ++i) weights.w[i] = k.weights[i];
  if (k.separable())
    for (int i = 0; i < k.size; ++i) row.t[i] = k.row[i], column.t[i] = k.column[i];
  if constexpr (Tiles::RegisterTiles) {
    with_radius(grid.radius, [&](auto radius) {
      constexpr int R = decltype(radius)::value;
      // Small separable kernels run as 2D stencils where Tiles says so: on a GPU, where a 3x3 or
      // 5x5 is memory-bound, that saves the row pass's second scratch buffer and barrier.
      if (k.separable() && R >= Tiles::SeparableFromRadius)
        run_tiles<Tiles>("pk::filter (separable)", space,
                         SeparableRegisterTile<T, Exec, Tiles, R>{in, out, grid, b, row, column});
      else
        run_tiles<Tiles>("pk::filter", space, Conv2DRegisterTile<T, Exec, Tiles, R>{in, out, grid, b, weights});
    });
  } else if (k.separable()) {
    run_tiles<Tiles>("pk::filter (separable)", space, SeparableConvTile<T, Exec, Tiles>{in, out, grid, b, k.size, row, column});
  } else {
    run_tiles<Tiles>("pk::filter", space, Conv2DTile<T, Exec, Tiles>{in, out, grid, b, k.size, weights});
  }
}

template <class Exec, class T, class Tiles>
void sobel_magnitude_tiled(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                           border b) {
  const char* who = "pk::sobel_magnitude";
  pk::require_initialized(who);
  if (!check_filter_views<Exec, T>(who, in, out)) return;
  tile_grid grid{};
  grid.height = static_cast<std::int64_t>(in.extent(0));
  grid.width = static_cast<std::int64_t>(in.extent(1));
  grid.channels = static_cast<int>(in.extent(2));
  grid.radius = 1;
  if constexpr (Tiles::RegisterTiles)
    run_tiles<Tiles>(who, space, SobelRegisterTile<T, Exec, Tiles>{in, out, grid, b});
  else
    run_tiles<Tiles>(who, space, SobelMagnitudeTile<T, Exec, Tiles>{in, out, grid, b});
}

template <class Exec, class T>
void filter(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
            const filter_kernel& k, border b) {
  filter_tiled<Exec, T, filter_tiles<Exec>>(space, in, out, k, b);
}

template <class Exec, class T>
void sobel_magnitude(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                     border b) {
  sobel_magnitude_tiled<Exec, T, filter_tiles<Exec>>(space, in, out, b);
}

// Host-array entry points: move the image to the backend, run, bring out back.
template <class Exec, class T>
void filter_host(const T* in, T* out, int height, int width, int channels, const filter_kernel& k, border b) {
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
