#pragma once
// Staging a tile element by element: the portable way a team brings its tile plus halo into
// scratch (as float, borders resolved), and the fallback of the faster mechanisms
// (stage_packs.hpp, stage_boxes.hpp) for tiles they cannot take.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "core/unroll.hpp"
#include "filter/border_index.hpp"
#include "filter/output_blocks.hpp"
#include "filter/tile_grid.hpp"

namespace pk::detail {

// Staged rows from t.h + 2r on (read by a last row group's outputs that are not stored): zeros.
template <class Team, class Member, class S>
KOKKOS_INLINE_FUNCTION void zero_rows_below(const Member& team, const tile_grid& g, const tile_box& t, S* staged) {
  const Team th(team);
  for (int yy = t.h + 2 * g.radius + th.group; yy < g.staged_rows; yy += Team::Groups) {
    S* dst = staged + static_cast<std::int64_t>(yy) * g.staged_pitch;
    for (int e = th.lane; e < g.staged_pitch; e += Team::Lanes) dst[e] = S(0);
  }
}

// The tile plus halo, as S (float, or the image's own type), into `staged` (g.staged_rows x g.staged_pitch, g.lead elements
// before the halo), element by element: the groups of a team take staged rows, their lanes
// consecutive elements of them. The part of a row inside the image is a straight copy; only the
// at most r pixels either side of it look up their source column, and only rows outside the
// image their source row. With ZeroPadding, the padding past a row's last staged element is zeros:
// CPU blocks of 64 (uint8: 128) outputs read far into it at a partial tile (results that are not stored;
// left as it was, it could hold denormals, slow on x86), GPU blocks of 1 or 4 only a few floats.
//
// Each lane loads RowBatch x ColBatch elements before it stores them: the compiler cannot tell
// that scratch and the image do not overlap, so a plain copy loop would wait for each load before
// the next (on a GPU, with one element in flight a lane an edge tile took about 40 dependent round
// trips to stage).
template <class Team, int RowBatch, int ColBatch, bool ZeroPadding, class Member, class T, class S>
KOKKOS_INLINE_FUNCTION void stage_elements(const Member& team, const T* image, const tile_grid& g, const tile_box& t,
                                           border mode, S* staged) {
  const Team th(team);
  const int r = g.radius, C = g.channels;
  const int rows = t.h + 2 * r, elements = (t.w + 2 * r) * C;
  const std::int64_t first_y = t.y0 - r, first_x = t.x0 - r;
  zero_rows_below<Team>(team, g, t, staged);
  staged += g.lead;  // the lead's elements are never read
  if constexpr (ZeroPadding) {
    for (int yy = th.group; yy < rows; yy += Team::Groups) {
      S* dst = staged + static_cast<std::int64_t>(yy) * g.staged_pitch;
      for (int e = elements + th.lane; e < g.staged_pitch - g.lead; e += Team::Lanes) dst[e] = S(0);
    }
  }
  if (staged_inside_image(g, t)) {
    const T* src = image + g.offset(first_y, first_x);
    const std::int64_t src_pitch = g.width * C;
    for (int y0 = th.group * RowBatch; y0 < rows; y0 += Team::Groups * RowBatch) {
      for (int e0 = th.lane; e0 < elements; e0 += ColBatch * Team::Lanes) {
        S v[RowBatch][ColBatch];
        PK_UNROLL
        for (int i = 0; i < RowBatch; ++i) {
          PK_UNROLL
          for (int j = 0; j < ColBatch; ++j) {
            const int yy = y0 + i, e = e0 + j * Team::Lanes;
            v[i][j] = yy < rows && e < elements ? static_cast<S>(src[yy * src_pitch + e]) : S(0);
          }
        }
        PK_UNROLL
        for (int i = 0; i < RowBatch; ++i) {
          PK_UNROLL
          for (int j = 0; j < ColBatch; ++j) {
            const int yy = y0 + i, e = e0 + j * Team::Lanes;
            if (yy < rows && e < elements) staged[yy * g.staged_pitch + e] = v[i][j];
          }
        }
      }
    }
    return;
  }
  // The image's edge: each group takes RowBatch staged rows at a time, whose source rows the
  // border mode names. (This loop also stages the tiles inside the image correctly, but measured
  // slower there than the one above on the H200: gaussian 5x5 separable 0.60 of copy bandwidth
  // against 0.68, uint8 RGB 0.121 against 0.143.)
  const int inside_begin = first_x < 0 ? static_cast<int>(-first_x) : 0;
  const std::int64_t right = g.width - first_x;
  const int inside_end = right < t.w + 2 * r ? static_cast<int>(right) : t.w + 2 * r;
  const int copy_begin = inside_begin * C, copy_end = inside_end * C;
  const std::int64_t x_offset = first_x * C;  // staged element e is element x_offset + e of its source row
  for (int y0 = th.group * RowBatch; y0 < rows; y0 += Team::Groups * RowBatch) {
    // Each staged row's source row, and whether it is a row of zeros (border::zero) instead: such
    // a row still reads the image's first row (unconditional loads, which a CPU vectorizes) and
    // stores zeros.
    const T* source[RowBatch];
    bool zeros[RowBatch];
    PK_UNROLL
    for (int i = 0; i < RowBatch; ++i) {
      const std::int64_t sy = y0 + i < rows ? border_index(first_y + y0 + i, g.height, mode) : -1;
      zeros[i] = sy < 0;
      source[i] = image + (sy < 0 ? 0 : g.offset(sy, 0));
    }
    for (int e0 = copy_begin + th.lane; e0 < copy_end; e0 += ColBatch * Team::Lanes) {
      S v[RowBatch][ColBatch];
      PK_UNROLL
      for (int i = 0; i < RowBatch; ++i) {
        PK_UNROLL
        for (int j = 0; j < ColBatch; ++j) {
          const int e = e0 + j * Team::Lanes;
          v[i][j] = e < copy_end ? static_cast<S>(source[i][x_offset + e]) : S(0);
        }
      }
      PK_UNROLL
      for (int i = 0; i < RowBatch; ++i) {
        PK_UNROLL
        for (int j = 0; j < ColBatch; ++j) {
          const int e = e0 + j * Team::Lanes;
          if (y0 + i < rows && e < copy_end) staged[(y0 + i) * g.staged_pitch + e] = zeros[i] ? S(0) : v[i][j];
        }
      }
    }
    PK_UNROLL
    for (int i = 0; i < RowBatch; ++i) {
      if (y0 + i >= rows) continue;
      S* dst = staged + static_cast<std::int64_t>(y0 + i) * g.staged_pitch;
      const T* row = source[i];
      const bool zero_row = zeros[i];
      const auto border_pixel = [&](int xx) {
        const std::int64_t sx = zero_row ? -1 : border_index(first_x + xx, g.width, mode);
        for (int c = 0; c < C; ++c) dst[xx * C + c] = sx < 0 ? S(0) : static_cast<S>(row[sx * C + c]);
      };
      for (int xx = th.lane; xx < inside_begin; xx += Team::Lanes) border_pixel(xx);
      for (int xx = inside_end + th.lane; xx < t.w + 2 * r; xx += Team::Lanes) border_pixel(xx);
    }
  }
}

// What a staged tile holds: floats (each pixel converted once, as it is staged), or the image's
// own pixels (uint8: a quarter of the scratch and of its traffic, converted as windows are read).
struct staged_as_float {
  template <class T>
  using type = float;
};
struct staged_as_pixels {
  template <class T>
  using type = T;
};

// The staging mechanism "element by element" (a policy's staging type, filter_policy.hpp): the
// staged tile is rows of g.staged_pitch elements of scratch_type<T> (staged_rows) in 16-byte
// aligned scratch.
template <class Team, int RowBatch, int ColBatch, bool ZeroPadding = false, class As = staged_as_float>
struct staged_by_elements {
  static constexpr int Align = 16;
  template <class T>
  using scratch_type = typename As::template type<T>;
  template <class T>
  static constexpr int pack_elements = 1;  // staged rows are not laid out on packs
  KOKKOS_INLINE_FUNCTION std::int64_t scratch_elements(const tile_grid& g) const { return g.staged_elements(); }
  template <class T>
  void prepare(const T*, const tile_grid&) {}
  template <int R, class Member, class T, class S, class Body>
  KOKKOS_INLINE_FUNCTION void stage(const Member& team, S* staged, const T* image, const tile_grid& g,
                                    const tile_box& t, border mode, Body&& body) const {
    stage_elements<Team, RowBatch, ColBatch, ZeroPadding>(team, image, g, t, mode, staged);
    team.team_barrier();  // the outputs read what other threads staged
    body(staged_rows<S>{staged, g.staged_pitch, g.lead, g.channels});
  }
};

}  // namespace pk::detail
