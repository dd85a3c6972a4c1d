#pragma once
// The filter kernels as Kokkos team functors. A team owns one output tile: it stages the tile plus
// halo in team scratch (filter_tile.hpp), waits at a barrier for the whole stage, and computes
// every output of the tile from scratch. Team threads take rows, their vector lanes take
// Chunk-wide runs along a row: acc[v] for v < Chunk is one run of outputs, independent
// accumulators that the host compiles to SIMD registers (Chunk is 1 on a GPU, where the lanes of
// a warp take consecutive elements instead).
//
// Row index in scratch = output row + i, element = output element + j*C: the stencil offset
// (i - r, j - r) of out(y,x,c) = sum w(i,j) in(y+i-r, x+j-r, c) lands at staged (y+i, x+j).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

#include <pk/kokkos/views.hpp>

#include "filter/filter_tile.hpp"
#include "filter/filter_tiles.hpp"

namespace pk::detail {

// Every output of tile t, as the header says: team threads take its rows y, vector lanes take
// Chunk-wide runs of a row from element e0. sum(y, e0, acc) computes a run's Chunk results into
// acc (from zeros), which are then stored in out (only those inside the tile at its right edge).
template <int Chunk, class Member, class T, class Sum>
KOKKOS_INLINE_FUNCTION void compute_output_runs(const Member& team, const tile_grid& grid, const tile_box& t, T* out,
                                                Sum&& sum) {
  const int used = t.w * grid.channels, runs = (used + Chunk - 1) / Chunk;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t.h), [&](int y) {
    T* dst = output_row(out, grid, t, y);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, runs), [&](int run) {
      const int e0 = run * Chunk;
      float acc[Chunk];
      for (int v = 0; v < Chunk; ++v) acc[v] = 0.f;
      sum(y, e0, acc);
      store_run<Chunk>(dst + e0, acc, used - e0);
    });
  });
}

// out = in (*) w for any size x size kernel: size^2 multiply-adds per output, from scratch.
template <class T, class Exec, class Tiles = filter_tiles<Exec>>
struct Conv2DTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int Chunk = Tiles::Chunk;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  int size;
  kernel_weights weights;

  std::size_t scratch_bytes() const { return scratch_floats<Exec>::shmem_size(grid.staged_floats()); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const tile_box t = grid.tile(team.league_rank());
    scratch_floats<Exec> staged(team.team_scratch(0), grid.staged_floats());
    stage_tile_with_halo(team, in.data(), grid, t, mode, staged.data());
    team.team_barrier();  // every output reads pixels that other threads staged

    const int C = grid.channels;
    compute_output_runs<Chunk>(team, grid, t, out.data(), [&](int y, int e0, float (&acc)[Chunk]) {
      for (int i = 0; i < size; ++i) {
        const float* src = staged.data() + static_cast<std::int64_t>(y + i) * grid.staged_pitch + e0;
        for (int j = 0; j < size; ++j) {
          const float w = weights.w[i * size + j];
          const float* tap = src + j * C;
          for (int v = 0; v < Chunk; ++v) acc[v] += w * tap[v];
        }
      }
    });
  }
};

// out = in (*) column (x) row: a row pass over tile plus halo rows into a second scratch buffer,
// then a column pass from it; 2*size multiply-adds per output, and the intermediate image never
// goes through global memory.
template <class T, class Exec, class Tiles = filter_tiles<Exec>>
struct SeparableConvTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int Chunk = Tiles::Chunk;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  int size;
  kernel_taps row, column;

  std::size_t scratch_bytes() const {
    return scratch_floats<Exec>::shmem_size(grid.staged_floats()) + scratch_floats<Exec>::shmem_size(grid.row_pass_floats());
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const tile_box t = grid.tile(team.league_rank());
    scratch_floats<Exec> staged(team.team_scratch(0), grid.staged_floats());
    scratch_floats<Exec> rows(team.team_scratch(0), grid.row_pass_floats());
    stage_tile_with_halo(team, in.data(), grid, t, mode, staged.data());
    team.team_barrier();  // the row pass reads pixels that other threads staged

    const int used = t.w * grid.channels, runs = (used + Chunk - 1) / Chunk, C = grid.channels;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, t.h + 2 * grid.radius), [&](int yy) {
      const float* src = staged.data() + static_cast<std::int64_t>(yy) * grid.staged_pitch;
      float* dst = rows.data() + static_cast<std::int64_t>(yy) * grid.out_pitch;
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, runs), [&](int run) {
        const int e0 = run * Chunk;
        float acc[Chunk];
        for (int v = 0; v < Chunk; ++v) acc[v] = 0.f;
        for (int j = 0; j < size; ++j) {
          const float w = row.t[j];
          const float* tap = src + e0 + j * C;
          for (int v = 0; v < Chunk; ++v) acc[v] += w * tap[v];
        }
        for (int v = 0; v < Chunk; ++v) dst[e0 + v] = acc[v];
      });
    });
    team.team_barrier();  // the column pass reads row-pass results of other threads' rows

    compute_output_runs<Chunk>(team, grid, t, out.data(), [&](int y, int e0, float (&acc)[Chunk]) {
      for (int i = 0; i < size; ++i) {
        const float w = column.t[i];
        const float* tap = rows.data() + static_cast<std::int64_t>(y + i) * grid.out_pitch + e0;
        for (int v = 0; v < Chunk; ++v) acc[v] += w * tap[v];
      }
    });
  }
};

// out = sqrt(gx^2 + gy^2), gx and gy the 3x3 Sobel derivatives, both from one staged tile.
template <class T, class Exec, class Tiles = filter_tiles<Exec>>
struct SobelMagnitudeTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  static constexpr int Chunk = Tiles::Chunk;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;  // radius 1
  border mode;

  std::size_t scratch_bytes() const { return scratch_floats<Exec>::shmem_size(grid.staged_floats()); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const tile_box t = grid.tile(team.league_rank());
    scratch_floats<Exec> staged(team.team_scratch(0), grid.staged_floats());
    stage_tile_with_halo(team, in.data(), grid, t, mode, staged.data());
    team.team_barrier();  // every output reads pixels that other threads staged

    const int C = grid.channels;
    compute_output_runs<Chunk>(team, grid, t, out.data(), [&](int y, int e0, float (&acc)[Chunk]) {
      const float* above = staged.data() + static_cast<std::int64_t>(y) * grid.staged_pitch;
      const float* here = above + grid.staged_pitch;
      const float* below = here + grid.staged_pitch;
      for (int v = 0; v < Chunk; ++v) {
        const int left = e0 + v, mid = left + C, right = mid + C;
        const float gx = (above[right] - above[left]) + 2.f * (here[right] - here[left]) + (below[right] - below[left]);
        const float gy = (below[left] + 2.f * below[mid] + below[right]) - (above[left] + 2.f * above[mid] + above[right]);
        acc[v] = sqrtf(gx * gx + gy * gy);
      }
    });
  }
};

}  // namespace pk::detail
