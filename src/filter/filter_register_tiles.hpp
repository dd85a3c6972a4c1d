#pragma once
// The filter kernels for GPUs as Kokkos team functors (chosen by Tiles::RegisterTiles, e.g. in
// backends/cuda/filter_tiles_cuda.hpp). Same contract as filter_functors.hpp: a team stages its
// output tile plus halo in team scratch (shared memory), meets at a barrier, and computes every
// output of the tile from scratch. What differs is how a thread computes:
//
//   - the radius R is a template parameter, so every loop over the stencil unrolls and each
//     weight is a compile-time index into the functor (constant memory on a GPU, read by every
//     thread of a warp at once);
//   - a thread owns a column of Rows outputs (a register tile) and slides down it: each staged
//     value it reads is used by up to 2R+1 of its outputs, so a K x K stencil costs
//     (Rows + 2R) * K scratch reads per Rows outputs instead of K * K per output;
//   - the Lanes threads of a warp take consecutive elements of a row (coalesced global loads and
//     stores, conflict-free scratch reads); the warps take groups of Rows rows.
//
//        staged tile (rows of tile_w + 2R pixels, channels interleaved)
//        +---------------------------------------+
//        |  halo                                 |   warp w, lane l: element e = l, l + Lanes, ...
//        |     +---+                             |   of the row groups w, w + Warps, ...; for each,
//        |     | e | <- Rows outputs of one      |   the Rows + 2R staged rows from the group's
//        |     |   |    thread, in registers     |   first row down, K values from each
//        |     +---+                             |
//        +---------------------------------------+
//
// Tiles whose staged area lies inside the image copy whole rows; only tiles at the image's edge
// look up border sources per element.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <pk/kokkos/views.hpp>

#include "filter/filter_tile.hpp"
#include "matmul/matmul_functors.hpp"  // PK_UNROLL

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

// The tile plus halo, as float, into `staged` (g.staged_rows x g.staged_pitch), by whole warps
// per row; the staged rows below the tile's own (present when its height is not a multiple of
// Rows) are zeros, read only for outputs that are not stored.
//
// Inside the image, each lane first loads RowBatch x ColBatch elements into registers and only
// then stores them: the compiler cannot tell that scratch and the image do not overlap, so a
// plain copy loop would wait for each load before the next (one load in flight per warp, a
// quarter of the memory's bandwidth at best); batched, 8 are in flight.
template <class Tiles, class Member, class T>
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
  const bool inside = first_y >= 0 && first_y + rows <= g.height && first_x >= 0 && first_x + t.w + 2 * r <= g.width;
  if (inside) {
    const T* src = image + (first_y * g.width + first_x) * C;
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
  for (int yy = th.warp; yy < rows; yy += threads::Warps) {
    float* dst = staged + static_cast<std::int64_t>(yy) * g.staged_pitch;
    const std::int64_t sy = border_index(first_y + yy, g.height, mode);
    if (sy < 0) {
      for (int e = th.lane; e < elements; e += threads::Lanes) dst[e] = 0.f;
      continue;
    }
    const T* row = image + sy * g.width * C;
    for (int e = th.lane; e < elements; e += threads::Lanes) {
      const int px = e / C, c = e - px * C;
      const std::int64_t sx = border_index(first_x + px, g.width, mode);
      dst[e] = sx < 0 ? 0.f : static_cast<float>(row[sx * C + c]);
    }
  }
}

// Stores one thread's column of results: rows y .. y+Rows-1 of the tile (those inside it).
template <int Rows, class T>
KOKKOS_INLINE_FUNCTION void store_column(T* image, const tile_grid& g, const tile_box& t, int y, int e,
                                         const float (&acc)[Rows]) {
  T* dst = image + ((t.y0 + y) * g.width + t.x0) * g.channels + e;
  const std::int64_t row_stride = g.width * g.channels;
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    if (y + o < t.h) dst[o * row_stride] = to_pixel<T>(acc[o]);
  }
}

// out = in (*) w, w of (2R+1) x (2R+1) weights.
template <class T, class Exec, class Tiles, int R>
struct Conv2DRegisterTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using threads = register_tile_threads<Tiles>;
  static constexpr int K = 2 * R + 1, Rows = threads::Rows;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  kernel_weights weights;  // K x K, row-major

  std::size_t scratch_bytes() const { return scratch_floats<Exec>::shmem_size(grid.staged_floats()); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const tile_box t = grid.tile(team.league_rank());
    scratch_floats<Exec> staged(team.team_scratch(0), grid.staged_floats());
    stage_rows<Tiles>(team, in.data(), grid, t, mode, staged.data());
    team.team_barrier();  // every output reads pixels that other threads staged

    const threads th(team);
    const int C = grid.channels, used = t.w * C, groups = (t.h + Rows - 1) / Rows;
    for (int group = th.warp; group < groups; group += threads::Warps) {
      for (int e = th.lane; e < used; e += threads::Lanes) {
        const float* src = staged.data() + static_cast<std::int64_t>(group * Rows) * grid.staged_pitch + e;
        float acc[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) acc[o] = 0.f;
        // Staged row i of the window feeds output o through weight row i - o.
        PK_UNROLL
        for (int i = 0; i < Rows + 2 * R; ++i) {
          float v[K];
          PK_UNROLL
          for (int j = 0; j < K; ++j) v[j] = src[i * grid.staged_pitch + j * C];
          PK_UNROLL
          for (int o = 0; o < Rows; ++o) {
            if (i - o < 0 || i - o >= K) continue;
            PK_UNROLL
            for (int j = 0; j < K; ++j) acc[o] += weights.w[(i - o) * K + j] * v[j];
          }
        }
        store_column<Rows>(out.data(), grid, t, group * Rows, e, acc);
      }
    }
  }
};

// out = in (*) column (x) row: a row pass over every staged row into a second scratch buffer,
// then the sliding column pass from it.
template <class T, class Exec, class Tiles, int R>
struct SeparableRegisterTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using threads = register_tile_threads<Tiles>;
  static constexpr int K = 2 * R + 1, Rows = threads::Rows;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  kernel_taps row, column;

  KOKKOS_INLINE_FUNCTION std::int64_t row_pass_floats() const {
    return static_cast<std::int64_t>(grid.staged_rows) * grid.out_pitch;
  }
  std::size_t scratch_bytes() const {
    return scratch_floats<Exec>::shmem_size(grid.staged_floats()) + scratch_floats<Exec>::shmem_size(row_pass_floats());
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const tile_box t = grid.tile(team.league_rank());
    scratch_floats<Exec> staged(team.team_scratch(0), grid.staged_floats());
    scratch_floats<Exec> rows(team.team_scratch(0), row_pass_floats());
    stage_rows<Tiles>(team, in.data(), grid, t, mode, staged.data());
    team.team_barrier();  // the row pass reads pixels that other threads staged

    const threads th(team);
    const int C = grid.channels, used = t.w * C, groups = (t.h + Rows - 1) / Rows;
    for (int yy = th.warp; yy < grid.staged_rows; yy += threads::Warps) {
      const float* src = staged.data() + static_cast<std::int64_t>(yy) * grid.staged_pitch;
      float* dst = rows.data() + static_cast<std::int64_t>(yy) * grid.out_pitch;
      for (int e = th.lane; e < used; e += threads::Lanes) {
        float acc = 0.f;
        PK_UNROLL
        for (int j = 0; j < K; ++j) acc += row.t[j] * src[e + j * C];
        dst[e] = acc;
      }
    }
    team.team_barrier();  // the column pass reads row-pass results of other threads' rows

    for (int group = th.warp; group < groups; group += threads::Warps) {
      for (int e = th.lane; e < used; e += threads::Lanes) {
        const float* src = rows.data() + static_cast<std::int64_t>(group * Rows) * grid.out_pitch + e;
        float acc[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) acc[o] = 0.f;
        PK_UNROLL
        for (int i = 0; i < Rows + 2 * R; ++i) {
          const float v = src[i * grid.out_pitch];
          PK_UNROLL
          for (int o = 0; o < Rows; ++o) {
            if (i - o >= 0 && i - o < K) acc[o] += column.t[i - o] * v;
          }
        }
        store_column<Rows>(out.data(), grid, t, group * Rows, e, acc);
      }
    }
  }
};

// out = sqrt(gx^2 + gy^2), the 3x3 Sobel derivatives, from one sliding window.
template <class T, class Exec, class Tiles>
struct SobelRegisterTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using threads = register_tile_threads<Tiles>;
  static constexpr int Rows = threads::Rows;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;  // radius 1
  border mode;

  std::size_t scratch_bytes() const { return scratch_floats<Exec>::shmem_size(grid.staged_floats()); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const tile_box t = grid.tile(team.league_rank());
    scratch_floats<Exec> staged(team.team_scratch(0), grid.staged_floats());
    stage_rows<Tiles>(team, in.data(), grid, t, mode, staged.data());
    team.team_barrier();  // every output reads pixels that other threads staged

    // d/dx = [1 2 1]^T (x) [-1 0 1], d/dy = [-1 0 1]^T (x) [1 2 1]: per staged row, the
    // horizontal difference and the horizontal smoothing feed the outputs above and below it.
    constexpr float smooth[3] = {1.f, 2.f, 1.f}, slope[3] = {-1.f, 0.f, 1.f};
    const threads th(team);
    const int C = grid.channels, used = t.w * C, groups = (t.h + Rows - 1) / Rows;
    for (int group = th.warp; group < groups; group += threads::Warps) {
      for (int e = th.lane; e < used; e += threads::Lanes) {
        const float* src = staged.data() + static_cast<std::int64_t>(group * Rows) * grid.staged_pitch + e;
        float gx[Rows], gy[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) gx[o] = gy[o] = 0.f;
        PK_UNROLL
        for (int i = 0; i < Rows + 2; ++i) {
          const float* p = src + i * grid.staged_pitch;
          const float left = p[0], mid = p[C], right = p[2 * C];
          const float difference = right - left, smoothed = left + 2.f * mid + right;
          PK_UNROLL
          for (int o = 0; o < Rows; ++o) {
            if (i - o < 0 || i - o > 2) continue;
            gx[o] += smooth[i - o] * difference;
            gy[o] += slope[i - o] * smoothed;
          }
        }
        float mag[Rows];
        PK_UNROLL
        for (int o = 0; o < Rows; ++o) mag[o] = sqrtf(gx[o] * gx[o] + gy[o] * gy[o]);
        store_column<Rows>(out.data(), grid, t, group * Rows, e, mag);
      }
    }
  }
};

}  // namespace pk::detail
