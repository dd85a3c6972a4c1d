#pragma once
// How a filter cuts an image into output tiles, one per team, and how a team's threads split a
// tile: what every filter kernel shares, on every backend.
//
// A team stages its tile plus a halo of r = size/2 pixels on every side in team scratch memory
// (as float, borders resolved), then computes every output of the tile from there. A staged row
// holds (tile_w + 2r) pixels of C interleaved channels, padded so that a thread's block of
// outputs that starts inside the tile reads its whole window without a bounds test. Where tiles
// are staged by 16-byte packs (stage_packs.hpp), a staged row also starts `lead` elements before
// the halo, so that it starts on a pack boundary of the image row, and its pitch is whole packs:
//
//   staged row:  [ lead | r*C halo | tile_w*C tile | r*C halo | padding ]
//                ^ a pack boundary in the image when x0*C is one
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <pk/filter.hpp>

#include "core/primitives.hpp"

namespace pk::detail {

// One output tile: rows [y0, y0+h), columns [x0, x0+w) of the image.
struct tile_box {
  std::int64_t y0, x0;
  int h, w;
};

// The image, its cut into tiles of tile_h x tile_w pixels, and the scratch layout of a tile.
struct tile_grid {
  std::int64_t height, width;
  int channels, radius;
  int tile_h, tile_w, tiles_x, tiles_y;
  int out_pitch;     // floats of one row of row-pass results: tile_w*C rounded up to whole blocks
  int lead;          // staged elements before the halo's first (0 unless staged by packs)
  int staged_pitch;  // elements of one staged row: lead + out_pitch + 2r*C, rounded up to whole packs
  int staged_rows;   // tile_h rounded up to whole row groups, + 2r

  KOKKOS_INLINE_FUNCTION tile_box tile(int index) const {  // row-major over the tiles
    const int ty = index / tiles_x, tx = index - ty * tiles_x;
    tile_box t;
    t.y0 = static_cast<std::int64_t>(ty) * tile_h;
    t.x0 = static_cast<std::int64_t>(tx) * tile_w;
    t.h = static_cast<int>(height - t.y0 < tile_h ? height - t.y0 : tile_h);
    t.w = static_cast<int>(width - t.x0 < tile_w ? width - t.x0 : tile_w);
    return t;
  }
  // Where pixel (y, x), channel 0, lies in the interleaved image: 64-bit, since an image of int
  // sides can have far more than 2^31 elements (every kernel addresses the image through this).
  KOKKOS_INLINE_FUNCTION std::int64_t offset(std::int64_t y, std::int64_t x) const { return (y * width + x) * channels; }
  KOKKOS_INLINE_FUNCTION int tile_count() const { return tiles_x * tiles_y; }  // run_tiles checks it fits
  KOKKOS_INLINE_FUNCTION std::int64_t staged_elements() const { return static_cast<std::int64_t>(staged_rows) * staged_pitch; }
  // The separable filters' row-pass results: every staged row, the tile's columns only.
  KOKKOS_INLINE_FUNCTION std::int64_t row_pass_floats() const { return static_cast<std::int64_t>(staged_rows) * out_pitch; }
};

KOKKOS_INLINE_FUNCTION constexpr int round_up(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

// Staged elements before the halo's first (tile_grid::lead): enough that the halo, radius_elements
// = r*C of them, ends a whole number of packs into the staged row.
KOKKOS_INLINE_FUNCTION constexpr int staged_lead(int radius_elements, int pack) { return round_up(radius_elements, pack) - radius_elements; }

// row_multiple: tiles are computed in groups of that many rows, reading the staged rows of a
// whole last group; block_elements: row-pass results are written in blocks of that many; pack:
// image elements per staged load (1: element by element).
inline tile_grid make_tile_grid(std::int64_t height, std::int64_t width, int channels, int radius, int tile_h,
                                int tile_w, int row_multiple, int block_elements, int pack) {
  tile_grid g;
  g.height = height;
  g.width = width;
  g.channels = channels;
  g.radius = radius;
  g.tile_h = tile_h;
  g.tile_w = tile_w;
  g.tiles_x = static_cast<int>((width + tile_w - 1) / tile_w);
  g.tiles_y = static_cast<int>((height + tile_h - 1) / tile_h);
  g.out_pitch = round_up(tile_w * channels, block_elements);
  g.lead = staged_lead(radius * channels, pack);
  g.staged_pitch = round_up(g.lead + g.out_pitch + 2 * radius * channels, pack);
  g.staged_rows = round_up(tile_h, row_multiple) + 2 * radius;
  return g;
}

// The tile's staged rows [0, t.h + 2r) and elements [0, (t.w + 2r) * C) lie inside the image.
KOKKOS_INLINE_FUNCTION bool staged_inside_image(const tile_grid& g, const tile_box& t) {
  const int r = g.radius;
  return t.y0 - r >= 0 && t.y0 + t.h + r <= g.height && t.x0 - r >= 0 && t.x0 + t.w + r <= g.width;
}

// How a team's threads split a tile: Lanes threads along a row (on a GPU a warp: consecutive
// elements, so global accesses coalesce and scratch reads are conflict-free), TeamSize / Lanes
// groups of them down it.
template <int TeamSize, int Lanes_>
struct team_shape {
  static_assert(TeamSize % Lanes_ == 0, "a team is whole groups of lanes");
  static constexpr int Size = TeamSize, Lanes = Lanes_, Groups = TeamSize / Lanes_;
  int lane, group;
  template <class Member>
  KOKKOS_INLINE_FUNCTION explicit team_shape(const Member& team)
      : lane(team.team_rank() % Lanes), group(team.team_rank() / Lanes) {}
};

// n elements of S in team scratch on an Align-byte boundary; a functor's scratch_bytes counts
// aligned_scratch_bytes for it.
template <int Align, class S = float, class Member>
KOKKOS_INLINE_FUNCTION S* aligned_scratch(const Member& team, std::int64_t n) {
  return static_cast<S*>(team.team_scratch(0).get_shmem_aligned(n * std::int64_t(sizeof(S)), Align));
}
template <int Align, class Exec, class S = float>
std::size_t aligned_scratch_bytes(std::int64_t n) {
  using elements = Kokkos::View<S*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  return elements::shmem_size(n) + Align;
}

}  // namespace pk::detail
