#pragma once
// How the GPU filter kernels (filter_register_tiles.hpp) go over the tiles: one tile per team,
// staged then computed (Tiles::Pipelined false, the CUDA default), or pipelined (true):
//
// A team is persistent: it computes tile after tile (its league rank, then + league size, ...).
// Before it computes tile i from scratch, each thread issues the loads of its share of tile i+1's
// staged area into registers; they complete while the team computes, and go to scratch after it:
//
//   regs <- load(tile 0)
//   for each tile i of the team:
//     scratch <- regs | barrier | regs <- load(tile i+1) | compute tile i from scratch | barrier
//
// The aim: with one tile per team, only the teams that happen to be staging have loads in flight
// (about 60% of copy bandwidth on the H200 for a 3x3 stencil). Measured on the H200, the pipeline
// was slower (3x3: 0.51 of copy against 0.60): the prefetch registers (40 a thread) cap a team at
// 80 registers and an SM at three teams, and the compute phase, now with half the warps of the
// one-tile-per-team kernel, is latency-bound (bench/results/h200.md, step 6). Tiles whose staged
// area reaches outside the image, or does not fit in the registers, are staged directly
// (stage_rows), without the overlap: they are the image's edge (a few percent of an image's
// tiles) or shapes the tile chooser could not fit.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "core/unroll.hpp"
#include "filter/filter_tile.hpp"
#include "filter/tile_staging.hpp"

namespace pk::detail {

// One thread's share of a tile's staged area, loaded into registers ahead of time. The area
// (g.staged_rows x g.staged_pitch floats) is read as one flat list: thread `rank` owns elements
// k = rank + TeamSize * j for j < Slots, so consecutive threads load consecutive elements of a
// row, and the store to scratch is at that same k. Element k is staged row k / staged_pitch,
// element k % staged_pitch: its offset in the image is kept as a 32-bit int and stepped, so a
// slot costs a few integer adds besides its load.
template <class Tiles, class T>
class staged_tile_prefetch {
 public:
  static constexpr int Slots = Tiles::StageSlots, Team = Tiles::TeamSize;

  KOKKOS_INLINE_FUNCTION staged_tile_prefetch(int rank, const tile_grid& g)
      : m_v{}, m_rank(rank), m_first_element(rank % g.staged_pitch) {  // (m_v{}: no slot is ever read unset)
    const int pitch = static_cast<int>(g.width) * g.channels;  // fits() checks it fits
    m_first_offset = rank / g.staged_pitch * pitch + m_first_element;
    m_step_elements = Team % g.staged_pitch;
    m_step_offset = Team / g.staged_pitch * pitch + m_step_elements;
    m_wrap_offset = pitch - g.staged_pitch;
  }

  // Whether tile t can go through the registers: a whole tile (every staged element is a pixel,
  // no padding), whose staged area fits them, needs no border lookups and spans fewer than 2^31
  // image elements.
  KOKKOS_INLINE_FUNCTION static bool fits(const tile_grid& g, const tile_box& t) {
    return t.h + 2 * g.radius == g.staged_rows && (t.w + 2 * g.radius) * g.channels == g.staged_pitch &&
           g.staged_floats() <= std::int64_t(Team) * Slots && staged_inside_image(g, t) &&
           g.staged_rows * g.width * g.channels < std::int64_t(2147483647);
  }

  // Issues the loads; the values arrive while the team does other work. Only for tiles that fit().
  KOKKOS_INLINE_FUNCTION void load(const T* image, const tile_grid& g, const tile_box& t) {
    const int area = static_cast<int>(g.staged_floats());
    const T* src = image + g.offset(t.y0 - g.radius, t.x0 - g.radius);
    int e = m_first_element, offset = m_first_offset;
    PK_UNROLL
    for (int j = 0; j < Slots; ++j) {
      if (m_rank + j * Team < area) m_v[j] = src[offset];
      e += m_step_elements;
      offset += m_step_offset;
      if (e >= g.staged_pitch) e -= g.staged_pitch, offset += m_wrap_offset;
    }
  }

  KOKKOS_INLINE_FUNCTION void store(const tile_grid& g, float* staged) const {
    const int area = static_cast<int>(g.staged_floats());
    PK_UNROLL
    for (int j = 0; j < Slots; ++j) {
      const int k = m_rank + j * Team;
      if (k < area) staged[k] = static_cast<float>(m_v[j]);
    }
  }

 private:
  T m_v[Slots];
  int m_rank, m_first_element, m_first_offset, m_step_elements, m_step_offset, m_wrap_offset;
};

// Runs compute(tile) for every tile of this team (league rank, + league size, ...), each staged
// in `staged` when compute runs, the next one's loads in flight meanwhile (see the top); with
// Tiles::Pipelined false, for the one tile of this team.
// compute may use team barriers: every thread of a team runs the same tiles.
template <class Tiles, int R, class Member, class T, class Compute>
KOKKOS_INLINE_FUNCTION void for_each_staged_tile(const Member& team, const T* image, const tile_grid& g,
                                                 border mode, float* staged, Compute&& compute) {
  if constexpr (!Tiles::Pipelined) {
    // One tile per team (run_tiles launches a team per tile): stage, then compute.
    const tile_box t = g.tile(team.league_rank());
    stage_rows<Tiles, R>(team, image, g, t, mode, staged);
    team.team_barrier();  // compute reads what other threads staged
    compute(t);
  } else {
    using prefetch = staged_tile_prefetch<Tiles, T>;
    const int tiles = g.tile_count(), step = team.league_size();
    prefetch next(team.team_rank(), g);
    int i = team.league_rank();
    const auto has_next = [&] { return step < tiles - i; };  // i + step < tiles, without overflow
    bool loaded = i < tiles && prefetch::fits(g, g.tile(i));
    if (loaded) next.load(image, g, g.tile(i));
    for (; i < tiles; i = has_next() ? i + step : tiles) {
      const tile_box t = g.tile(i);
      if (loaded)
        next.store(g, staged);
      else
        stage_rows<Tiles, R>(team, image, g, t, mode, staged);
      team.team_barrier();  // compute reads what other threads staged
      loaded = has_next() && prefetch::fits(g, g.tile(i + step));
      if (loaded) next.load(image, g, g.tile(i + step));
      compute(t);
      team.team_barrier();  // the next tile's staging overwrites what compute read
    }
  }
}

// Calls quad(y, e) for each quad of outputs a thread owns in tile t of a one-channel image:
// elements e .. e+3 (e a multiple of 4) of rows y .. y+Rows-1. Lanes take consecutive quads of a
// row, warps take row groups.
template <class Tiles, class Member, class Quad>
KOKKOS_INLINE_FUNCTION void for_each_output_quad(const Member& team, const tile_box& t, Quad&& quad) {
  using threads = register_tile_threads<Tiles>;
  const threads th(team);
  const int groups = (t.h + threads::Rows - 1) / threads::Rows;
  for (int group = th.warp; group < groups; group += threads::Warps)
    for (int e = 4 * th.lane; e < t.w; e += 4 * threads::Lanes) quad(group * threads::Rows, e);
}

// Calls column(y, e) for each output column a thread owns in tile t: Rows rows from row y of
// the tile, element e of the row (pixel e / C, channel e % C). Lanes take consecutive elements,
// warps take row groups.
template <class Tiles, class Member, class Column>
KOKKOS_INLINE_FUNCTION void for_each_output_column(const Member& team, const tile_box& t, int channels,
                                                   Column&& column) {
  using threads = register_tile_threads<Tiles>;
  const threads th(team);
  const int used = t.w * channels, groups = (t.h + threads::Rows - 1) / threads::Rows;
  if constexpr (Tiles::Pipelined) {
    // Not unrolled: each copy of a column's body would keep its own accumulators live, next to
    // the registers holding the next tile.
    PK_NO_UNROLL
    for (int group = th.warp; group < groups; group += threads::Warps) {
      PK_NO_UNROLL
      for (int e = th.lane; e < used; e += threads::Lanes) column(group * threads::Rows, e);
    }
  } else {
    for (int group = th.warp; group < groups; group += threads::Warps)
      for (int e = th.lane; e < used; e += threads::Lanes) column(group * threads::Rows, e);
  }
}

}  // namespace pk::detail
