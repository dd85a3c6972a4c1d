#pragma once
// What every filter functor shares: how the image is cut into output tiles, how one team stages
// its tile plus halo into team scratch memory (as float, borders resolved), and how a run of
// results goes back to the image (uint8: rounded to nearest and saturated).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <pk/filter.hpp>

#include "filter/border_index.hpp"

namespace pk::detail {

// Weights travel inside the functor, by value: no device allocation, and on a GPU they end up
// in constant or parameter memory, where every thread of a warp reads the same weight at once.
struct kernel_weights {
  float w[max_filter_size * max_filter_size];
};
struct kernel_taps {
  float t[max_filter_size];
};

// One output tile: rows [y0, y0+h), columns [x0, x0+w) of the image.
struct tile_box {
  std::int64_t y0, x0;
  int h, w;
};

// The image, its cut into tiles of tile_h x tile_w pixels, and the scratch layout of a tile.
// A staged row holds (tile_w + 2r) pixels of C channels, padded so that a lane's Chunk-wide run
// that starts inside the tile can read its whole stencil without a bounds test. Where tiles are
// staged by 16-byte packs (tile_staging.hpp), a staged row also starts `lead` elements before
// the halo, so that it starts on a pack boundary of the image row, and its pitch is whole packs:
//
//   staged row:  [ lead | r*C halo | tile_w*C tile | r*C halo | padding ]
//                ^ a pack boundary in the image when x0*C is one
struct tile_grid {
  std::int64_t height, width;
  int channels, radius;
  int tile_h, tile_w, tiles_x, tiles_y;
  int out_pitch;     // floats of one row of results: tile_w*C rounded up to a multiple of Chunk
  int lead;          // staged elements before the halo's first (0 unless staged by packs)
  int staged_pitch;  // floats of one staged row: lead + out_pitch + 2r*C, rounded up to whole packs
  int staged_rows;   // tile_h + 2r

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
  KOKKOS_INLINE_FUNCTION std::int64_t staged_floats() const { return static_cast<std::int64_t>(staged_rows) * staged_pitch; }
  // The separable filters' row-pass results: every staged row, the tile's columns only.
  KOKKOS_INLINE_FUNCTION std::int64_t row_pass_floats() const { return static_cast<std::int64_t>(staged_rows) * out_pitch; }
};

constexpr int round_up(int n, int multiple) { return (n + multiple - 1) / multiple * multiple; }

// Staged elements before the halo's first (tile_grid::lead): enough that the halo, radius_elements
// = r*C of them, ends a whole number of packs into the staged row.
constexpr int staged_lead(int radius_elements, int pack) { return round_up(radius_elements, pack) - radius_elements; }

// row_multiple: register tiles (filter_register_tiles.hpp) compute rows in groups of that many,
// reading the staged rows of a whole last group. pack: image elements per 16-byte load where
// tiles are staged by packs (1: element by element).
template <int Chunk>
tile_grid make_tile_grid(std::int64_t height, std::int64_t width, int channels, int radius, int tile_h,
                         int tile_w, int row_multiple = 1, int pack = 1) {
  tile_grid g;
  g.height = height;
  g.width = width;
  g.channels = channels;
  g.radius = radius;
  g.tile_h = tile_h;
  g.tile_w = tile_w;
  g.tiles_x = static_cast<int>((width + tile_w - 1) / tile_w);
  g.tiles_y = static_cast<int>((height + tile_h - 1) / tile_h);
  g.out_pitch = round_up(tile_w * channels, Chunk);
  g.lead = staged_lead(radius * channels, pack);
  g.staged_pitch = round_up(g.lead + g.out_pitch + 2 * radius * channels, pack);
  g.staged_rows = round_up(tile_h, row_multiple) + 2 * radius;
  return g;
}

template <class Exec>
using scratch_floats = Kokkos::View<float*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// The tile plus its halo, as float, into `staged` (g.staged_rows x g.staged_pitch). Rows and
// columns outside the image read what the border mode says. Each thread stages whole rows, its
// lanes consecutive elements of them: the part of a row inside the image is one contiguous,
// vectorizable copy; only the at most r pixels either side of it look up their border source.
template <class Member, class T>
KOKKOS_INLINE_FUNCTION void stage_tile_with_halo(const Member& team, const T* image, const tile_grid& g,
                                                 const tile_box& t, border mode, float* staged) {
  const int r = g.radius, C = g.channels;
  const int cols = t.w + 2 * r, rows = t.h + 2 * r;
  const std::int64_t first_x = t.x0 - r;
  // Staged columns [inside_begin, inside_end) lie inside the image.
  const int inside_begin = first_x < 0 ? static_cast<int>(-first_x) : 0;
  const std::int64_t right = g.width - first_x;
  const int inside_end = right < cols ? static_cast<int>(right) : cols;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows), [&](int yy) {
    float* dst = staged + static_cast<std::int64_t>(yy) * g.staged_pitch;
    const std::int64_t sy = border_index(t.y0 - r + yy, g.height, mode);
    if (sy < 0) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, g.staged_pitch), [&](int e) { dst[e] = 0.f; });
      return;
    }
    const T* row = image + g.offset(sy, 0);
    const T* src = row + first_x * C;  // staged element e reads src[e] inside the image
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, inside_begin * C, inside_end * C),
                         [&](int e) { dst[e] = static_cast<float>(src[e]); });
    const auto border_pixel = [&](int xx) {
      const std::int64_t sx = border_index(first_x + xx, g.width, mode);
      for (int c = 0; c < C; ++c) dst[xx * C + c] = sx < 0 ? 0.f : static_cast<float>(row[sx * C + c]);
    };
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, 0, inside_begin), border_pixel);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, inside_end, cols), border_pixel);
    // The padding past the tile: read by the last run of a row, whose results are not stored.
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, cols * C, g.staged_pitch), [&](int e) { dst[e] = 0.f; });
  });
}

// A result as a pixel: float as is; uint8 rounded to nearest (half to even, like cvRound) and
// saturated to 0..255 like cv::saturate_cast (NaN gives 0).
template <class T>
KOKKOS_INLINE_FUNCTION T to_pixel(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    v = v > 0.f ? v : 0.f;
    v = v < 255.f ? v : 255.f;
    return static_cast<T>(static_cast<int>(rintf(v)));
  }
}

// Writes `count` results of a lane's run (all Chunk of them when the run lies inside the tile).
template <int Chunk, class T>
KOKKOS_INLINE_FUNCTION void store_run(T* dst, const float (&acc)[Chunk], int count) {
  if (count >= Chunk) {
    for (int v = 0; v < Chunk; ++v) dst[v] = to_pixel<T>(acc[v]);
  } else {
    for (int v = 0; v < count; ++v) dst[v] = to_pixel<T>(acc[v]);
  }
}

// Row y of the tile in the output image.
template <class T>
KOKKOS_INLINE_FUNCTION T* output_row(T* image, const tile_grid& g, const tile_box& t, int y) {
  return image + g.offset(t.y0 + y, t.x0);
}

}  // namespace pk::detail
