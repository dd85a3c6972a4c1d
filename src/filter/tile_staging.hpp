#pragma once
// How a GPU filter team stages its tile plus halo into scratch (team shared memory), as float:
// by 16-byte packs (LDG.128 / STS.128, or cp.async where Tiles::async_staging asks for it) where
// the tile's staged columns lie inside the image and are aligned, else element by element by whole
// warps per row, the border mode's rows and columns looked up where the area leaves the image.
// The kernels (filter_register_tiles.hpp) call these through tile_pipeline.hpp, which says which
// tiles a team stages and when; tiles staged by the tensor memory accelerator instead are in
// tile_tensor_copy.hpp.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "core/unroll.hpp"
#include "filter/border_index.hpp"
#include "filter/filter_tile.hpp"

namespace pk::detail {

// How a team's threads split a tile: Lanes along a row (a warp), Warps = TeamSize / Lanes down it.
template <class Tiles>
struct register_tile_threads {
  static constexpr int Rows = Tiles::RowsPerThread, Lanes = Tiles::Lanes, Warps = Tiles::TeamSize / Tiles::Lanes;
  static_assert(Tiles::TeamSize % Tiles::Lanes == 0, "a team is whole warps");
  int lane, warp;
  template <class Member>
  KOKKOS_INLINE_FUNCTION explicit register_tile_threads(const Member& team)
      : lane(team.team_rank() % Lanes), warp(team.team_rank() / Lanes) {}
};

// The tile's staged rows [0, t.h + 2r) and elements [0, (t.w + 2r) * C) lie inside the image.
KOKKOS_INLINE_FUNCTION bool staged_inside_image(const tile_grid& g, const tile_box& t) {
  const int r = g.radius;
  return t.y0 - r >= 0 && t.y0 + t.h + r <= g.height && t.x0 - r >= 0 && t.x0 + t.w + r <= g.width;
}

// 16 bytes of image elements, loaded or stored as one (LDG.128 / STS.128 on a GPU).
template <class T>
struct alignas(16) element_pack {
  static constexpr int size = 16 / sizeof(T);
  T v[size];
};

// Image elements a staged load moves for Tiles and element type T: a 16-byte pack where Tiles
// stage by packs (StagePacks > 0), else one. A staged row's lead and pitch are whole packs of it
// (make_tile_grid).
template <class Tiles, class T>
inline constexpr int staging_pack = Tiles::template StagePacks<T> > 0 ? element_pack<T>::size : 1;

// Whether tile t can be staged by packs (stage_packs): Tiles asks for it (StagePacks > 0), the
// staged columns (lead and padding included) lie inside the image, and they, the image rows and
// scratch are aligned to 16 bytes. Rows outside the image are fine (stage_packs reads the row the
// border mode says), so only the tiles at the image's left and right edges, and images whose rows
// are not whole packs (e.g. RGB of odd width), go element by element.
template <class Tiles, class T>
KOKKOS_INLINE_FUNCTION bool stages_by_packs(const T* image, const tile_grid& g, const tile_box& t, const float* staged) {
  if constexpr (Tiles::template StagePacks<T> <= 0) {
    return false;
  } else {
    constexpr int Pack = element_pack<T>::size;
    const int r = g.radius, C = g.channels;
    const std::int64_t row_elements = g.width * C, first = (t.x0 - r) * C - g.lead;
    return first >= 0 && first + g.staged_pitch <= row_elements && first % Pack == 0 && row_elements % Pack == 0 &&
           g.staged_pitch % Pack == 0 && reinterpret_cast<std::uintptr_t>(image) % 16 == 0 &&
           reinterpret_cast<std::uintptr_t>(staged) % 16 == 0;
  }
}

// Converts a pack of image elements to floats and stores it at `dst` (16-byte aligned scratch),
// as 16-byte stores of four floats.
template <class T>
KOKKOS_INLINE_FUNCTION void store_pack(float* dst, const element_pack<T>& v) {
  constexpr int Pack = element_pack<T>::size;
  static_assert(Pack % 4 == 0, "a pack is stored as whole packs of four floats");
  PK_UNROLL
  for (int q = 0; q < Pack; q += 4)
    *reinterpret_cast<element_pack<float>*>(dst + q) =
        element_pack<float>{{static_cast<float>(v.v[q]), static_cast<float>(v.v[q + 1]), static_cast<float>(v.v[q + 2]),
                             static_cast<float>(v.v[q + 3])}};
}

// The tile's staged rows [0, t.h + 2r) by 16-byte packs, for a tile that stages_by_packs.
//
// The rows inside the image are one flat list of packs (a staged row is whole packs): thread
// `rank` takes packs rank, rank + TeamSize, ..., so consecutive threads read consecutive packs of
// an image row. Each thread issues StagePacks loads before it stores any (the compiler cannot tell
// that scratch and the image do not overlap, so a plain copy loop would wait for each load before
// the next), and a pack's place in scratch is its index in the list times its size. Where
// Tiles::async_staging<T, R> (float on a GPU, radius R), the packs go by asynchronous copies
// instead, with no registers between global and shared memory. The at most
// r rows above or below the image (tiles at its top and bottom) go a warp per row, from the row
// the border mode names: looked up once per row, outside the unrolled loop, whose registers
// would otherwise hold a border lookup per pack.
template <class Tiles, int R, class Member, class T>
KOKKOS_INLINE_FUNCTION void stage_packs(const Member& team, const T* image, const tile_grid& g, const tile_box& t,
                                        border mode, float* staged) {
  using pack = element_pack<T>;
  using threads = register_tile_threads<Tiles>;
  constexpr int Batch = Tiles::template StagePacks<T>, Team = Tiles::TeamSize, Pack = pack::size;
  const int r = g.radius, C = g.channels, rows = t.h + 2 * r, per_row = g.staged_pitch / Pack;
  const std::int64_t src_pitch = g.width * C, first_y = t.y0 - r;
  const T* src = image + (t.x0 - r) * C - g.lead;  // staged column 0 of image row 0
  // Staged rows [inside_begin, inside_end) lie inside the image.
  const int inside_begin = first_y < 0 ? static_cast<int>(-first_y) : 0;
  const std::int64_t below = g.height - first_y;
  const int inside_end = below < rows ? static_cast<int>(below) : rows;
  {
    const int first = inside_begin * per_row, total = inside_end * per_row;
    const T* inside = src + (first_y + inside_begin) * src_pitch;
    // Thread rank's pack first + k, k = rank + Team * j, is pack `column` of inside row `row`,
    // stepped by Team packs at a time (no division per pack).
    const int step_rows = Team / per_row, step_columns = Team % per_row;
    int row = team.team_rank() / per_row, column = team.team_rank() % per_row;
    const auto pack_in_image = [&] { return inside + row * src_pitch + column * Pack; };
    const auto next_pack = [&] {
      row += step_rows;
      column += step_columns;
      if (column >= per_row) column -= per_row, ++row;
    };
    bool copied = false;
#if defined(__CUDA_ARCH__)
    if constexpr (Tiles::template async_staging<T, R>) {
      // Each pack straight from global to shared memory (cp.async.cg, LDGSTS bypassing L1: no
      // registers hold it), all of a thread's packs in flight at once, waited for before returning.
      // .L2::128B asks L2 to fetch the whole 128-byte line a pack lies in: on the H200 that took
      // the 5x5 from 0.79 to 0.82 of copy bandwidth (256 bytes: 0.81; an evict-first policy on the
      // loads: 0.74; bench/results/h200.md, step 22).
      for (int k = first + team.team_rank(); k < total; k += Team) {
        const auto to = static_cast<unsigned>(__cvta_generic_to_shared(staged + static_cast<std::int64_t>(k) * Pack));
        asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(to), "l"(pack_in_image()) : "memory");
        next_pack();
      }
      asm volatile("cp.async.wait_all;" ::: "memory");
      copied = true;
    }
#endif
    for (int k0 = first + team.team_rank(); !copied && k0 < total; k0 += Batch * Team) {
      pack v[Batch]{};  // (every slot used is loaded; {} keeps compilers from warning)
      PK_UNROLL
      for (int j = 0; j < Batch; ++j) {
        if (k0 + j * Team < total) v[j] = *reinterpret_cast<const pack*>(pack_in_image());
        next_pack();
      }
      PK_UNROLL
      for (int j = 0; j < Batch; ++j) {
        const int k = k0 + j * Team;
        if (k < total) store_pack(staged + static_cast<std::int64_t>(k) * Pack, v[j]);
      }
    }
  }
  const threads th(team);
  const int outside = rows - (inside_end - inside_begin);
  PK_NO_UNROLL
  for (int i = th.warp; i < outside; i += threads::Warps) {
    const int yy = i < inside_begin ? i : inside_end + (i - inside_begin);
    const std::int64_t sy = border_index(first_y + yy, g.height, mode);
    float* dst = staged + static_cast<std::int64_t>(yy) * g.staged_pitch;
    PK_NO_UNROLL
    for (int column = th.lane; column < per_row; column += threads::Lanes) {
      pack v{};  // zeros where the border mode says so
      if (sy >= 0) v = *reinterpret_cast<const pack*>(src + sy * src_pitch + column * Pack);
      store_pack(dst + column * Pack, v);
    }
  }
}

// The tile plus halo, as float, into `staged` (g.staged_rows x g.staged_pitch, g.lead elements
// before the halo), by 16-byte packs where stages_by_packs, else element by element by whole
// warps per row, the source rows and the border pixels' columns looked up where the area leaves
// the image. Staged rows below the tile's
// own (present when its height is not a multiple of Rows) are zeros, read only for outputs that
// are not stored.
//
// Each lane loads RowBatch x ColBatch elements into registers before it stores them: the
// compiler cannot tell that scratch and the image do not overlap, so a plain copy loop would
// wait for each load before the next.
template <class Tiles, int R, class Member, class T>
KOKKOS_INLINE_FUNCTION void stage_rows(const Member& team, const T* image, const tile_grid& g, const tile_box& t,
                                       border mode, float* staged) {
  using threads = register_tile_threads<Tiles>;
  constexpr int RowBatch = 2, ColBatch = 4;
  const threads th(team);
  const int r = g.radius, C = g.channels;
  const int rows = t.h + 2 * r, elements = (t.w + 2 * r) * C;
  const std::int64_t first_y = t.y0 - r, first_x = t.x0 - r;
  for (int yy = rows + th.warp; yy < g.staged_rows; yy += threads::Warps) {
    float* dst = staged + static_cast<std::int64_t>(yy) * g.staged_pitch;
    for (int e = th.lane; e < g.staged_pitch; e += threads::Lanes) dst[e] = 0.f;
  }
  if constexpr (Tiles::template StagePacks<T> > 0)
    if (stages_by_packs<Tiles>(image, g, t, staged)) return stage_packs<Tiles, R>(team, image, g, t, mode, staged);
  staged += g.lead;  // the lead's elements are never read
  if (staged_inside_image(g, t)) {
    const T* src = image + g.offset(first_y, first_x);
    const std::int64_t src_pitch = g.width * C;
    for (int y0 = th.warp * RowBatch; y0 < rows; y0 += threads::Warps * RowBatch) {
      for (int e0 = th.lane; e0 < elements; e0 += ColBatch * threads::Lanes) {
        float v[RowBatch][ColBatch];
        PK_UNROLL
        for (int i = 0; i < RowBatch; ++i) {
          PK_UNROLL
          for (int j = 0; j < ColBatch; ++j) {
            const int yy = y0 + i, e = e0 + j * threads::Lanes;
            v[i][j] = yy < rows && e < elements ? static_cast<float>(src[yy * src_pitch + e]) : 0.f;
          }
        }
        PK_UNROLL
        for (int i = 0; i < RowBatch; ++i) {
          PK_UNROLL
          for (int j = 0; j < ColBatch; ++j) {
            const int yy = y0 + i, e = e0 + j * threads::Lanes;
            if (yy < rows && e < elements) staged[yy * g.staged_pitch + e] = v[i][j];
          }
        }
      }
    }
    return;
  }
  // The image's edge: each warp takes RowBatch staged rows at a time, whose source rows the
  // border mode names. The part of a row inside the image is a straight copy, each lane loading
  // RowBatch x ColBatch elements before it stores them (as above: with one element in flight a
  // lane, an edge tile took about 40 dependent round trips to stage; bench/results/h200.md, step
  // 17); only the at most r pixels either side of it look up their source column. (This loop
  // also stages the tiles inside the image correctly, but measured slower there than the one
  // above: gaussian 5x5 separable 0.60 of copy bandwidth against 0.68, uint8 RGB 0.121 against
  // 0.143, on the H200.)
  const int inside_begin = first_x < 0 ? static_cast<int>(-first_x) : 0;
  const std::int64_t right = g.width - first_x;
  const int inside_end = right < t.w + 2 * r ? static_cast<int>(right) : t.w + 2 * r;
  const int copy_begin = inside_begin * C, copy_end = inside_end * C;
  const std::int64_t x_offset = first_x * C;  // staged element e is element x_offset + e of its source row
  for (int y0 = th.warp * RowBatch; y0 < rows; y0 += threads::Warps * RowBatch) {
    const T* source[RowBatch];  // each staged row's source row; null: a row of zeros (border::constant)
    PK_UNROLL
    for (int i = 0; i < RowBatch; ++i) {
      const std::int64_t sy = y0 + i < rows ? border_index(first_y + y0 + i, g.height, mode) : -1;
      source[i] = sy < 0 ? nullptr : image + g.offset(sy, 0);
    }
    for (int e0 = copy_begin + th.lane; e0 < copy_end; e0 += ColBatch * threads::Lanes) {
      float v[RowBatch][ColBatch];
      PK_UNROLL
      for (int i = 0; i < RowBatch; ++i) {
        PK_UNROLL
        for (int j = 0; j < ColBatch; ++j) {
          const int e = e0 + j * threads::Lanes;
          v[i][j] = source[i] && e < copy_end ? static_cast<float>(source[i][x_offset + e]) : 0.f;
        }
      }
      PK_UNROLL
      for (int i = 0; i < RowBatch; ++i) {
        PK_UNROLL
        for (int j = 0; j < ColBatch; ++j) {
          const int e = e0 + j * threads::Lanes;
          if (y0 + i < rows && e < copy_end) staged[(y0 + i) * g.staged_pitch + e] = v[i][j];
        }
      }
    }
    PK_UNROLL
    for (int i = 0; i < RowBatch; ++i) {
      if (y0 + i >= rows) continue;
      float* dst = staged + static_cast<std::int64_t>(y0 + i) * g.staged_pitch;
      const T* row = source[i];
      const auto border_pixel = [&](int xx) {
        const std::int64_t sx = row ? border_index(first_x + xx, g.width, mode) : -1;
        for (int c = 0; c < C; ++c) dst[xx * C + c] = sx < 0 ? 0.f : static_cast<float>(row[sx * C + c]);
      };
      for (int xx = th.lane; xx < inside_begin; xx += threads::Lanes) border_pixel(xx);
      for (int xx = inside_end + th.lane; xx < t.w + 2 * r; xx += threads::Lanes) border_pixel(xx);
    }
  }
}

}  // namespace pk::detail
