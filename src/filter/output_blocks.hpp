#pragma once
// The schedule of a filter kernel: how a team's threads cover a staged tile's outputs, how a
// thread reads its block's window from scratch, and how it stores the block's results. A
// backend's policy chooses one per kernel (filter_policy.hpp).
//
// A thread computes a block of Rows x Cols outputs at a time (Rows consecutive rows, Cols
// consecutive elements of a row, channels interleaved), its sums in registers. The Lanes of a
// group take consecutive blocks of a row, the groups take groups of Rows rows:
//
//        staged tile (rows of tile_w + 2r pixels, channels interleaved)
//        +---------------------------------------+
//        |  halo                                 |   group g, lane l: blocks at elements
//        |     +---+                             |   Cols * (l + Lanes * n) of the row groups
//        |     | e | <- a block of Rows x Cols   |   g, g + Groups, ...; each reads the
//        |     |   |    outputs of one thread    |   Rows + 2r staged rows from its first row
//        |     +---+                             |   down, K values of each
//        +---------------------------------------+
//
// A CPU thread takes blocks of 1 x 64 or 128 (a loop the compiler vectorizes), a GPU warp's lanes take
// blocks of 4 x 1 (columns: coalesced loads and stores, conflict-free scratch reads), or, for
// one-channel float tiles, 4 x 4 read as 16-byte quads (Quads: the address arithmetic of a window
// row then serves 4 outputs, and each result row is one 16-byte store).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "core/pack.hpp"
#include "core/unroll.hpp"
#include "filter/stencils.hpp"
#include "filter/tile_grid.hpp"

namespace pk::detail {

// Where a block's window lies in scratch: tap 0 of output 0 in its first window row at `first`,
// window rows `pitch` floats apart (fixed<N> where the layout is known when compiled: every read
// is then base + immediate), an output's taps `channels` floats apart, its outputs 1 apart.
template <class Pitch>
struct scratch_window {
  const float* first;
  Pitch pitch;
  int channels;
  struct values {
    const float* p;
    int channels;
    KOKKOS_INLINE_FUNCTION float operator()(int j, int q) const { return p[j * channels + q]; }
  };
  KOKKOS_INLINE_FUNCTION values row(int i) const { return {first + i * pitch, channels}; }
};

// The window of a block of 4 outputs of a one-channel tile, read by 16-byte quads: `first` is the
// pack boundary Offset floats before tap 0 of output 0, and a window row is the Quads quads from
// there, loaded into registers.
template <int R, int Offset, class Pitch>
struct quad_window {
  static constexpr int Quads = (Offset + 3 + 2 * R) / 4 + 1;
  const float* first;
  Pitch pitch;
  struct values {
    float v[4 * Quads];
    KOKKOS_INLINE_FUNCTION float operator()(int j, int q) const { return v[Offset + q + j]; }
  };
  KOKKOS_INLINE_FUNCTION values row(int i) const {
    values r;
    PK_UNROLL
    for (int b = 0; b < Quads; ++b) {
      const pack<float> x = *reinterpret_cast<const pack<float>*>(first + i * pitch + 4 * b);
      PK_UNROLL
      for (int q = 0; q < 4; ++q) r.v[4 * b + q] = x.v[q];
    }
    return r;
  }
};

// A tile staged row by row (stage_elements.hpp, stage_packs.hpp): staged row yy at
// staged + yy * pitch, `lead` elements before its halo.
struct staged_rows {
  static constexpr bool quads_only = false;
  const float* staged;
  int pitch, lead, channels;
  KOKKOS_INLINE_FUNCTION scratch_window<int> window(int y, int e) const {
    return {staged + static_cast<std::int64_t>(y) * pitch + lead + e, pitch, channels};
  }
  // Quads need one channel, the lead Lead (output e's tap 0 is then Lead % 4 floats past a pack
  // boundary for every e that is a multiple of 4), rows of whole quads and aligned scratch.
  template <int Lead>
  KOKKOS_INLINE_FUNCTION bool quads_fit(const tile_grid& g) const {
    return channels == 1 && lead == Lead && pitch % 4 == 0 && g.tile_w % 4 == 0 && pack_aligned(staged);
  }
  template <int R, int Lead>
  KOKKOS_INLINE_FUNCTION quad_window<R, Lead % 4, int> quads(int y, int e) const {
    return {staged + static_cast<std::int64_t>(y) * pitch + Lead / 4 * 4 + e, pitch};
  }
};

// Calls block(y, e) for each block of BlockRows x BlockCols this thread owns among `rows` rows of
// `elements` elements (see the top).
template <class Team, int BlockRows, int BlockCols, class Member, class Block>
KOKKOS_INLINE_FUNCTION void for_each_block(const Member& team, int rows, int elements, Block&& block) {
  const Team th(team);
  const int groups = (rows + BlockRows - 1) / BlockRows;
  for (int g = th.group; g < groups; g += Team::Groups)
    for (int e = BlockCols * th.lane; e < elements; e += BlockCols * Team::Lanes) block(g * BlockRows, e);
}

// Stores a block's results as pixels: rows y, y + 1, ... of tile t (those inside it), elements
// e, e + 1, ... of them (those inside it). A block of 16 bytes (float quads) goes as one store,
// where aligned, that the backend may keep out of its caches: the kernel never reads it back.
template <class Primitives, int Rows, int Cols, class T>
KOKKOS_INLINE_FUNCTION void store_block(T* image, const tile_grid& g, const tile_box& t, int y, int e,
                                        const float (&acc)[Rows][Cols]) {
  T* dst = image + g.offset(t.y0 + y, t.x0) + e;
  const std::int64_t row_stride = g.width * g.channels;
  const int used = t.w * g.channels;
  const bool whole = e + Cols <= used;
  constexpr bool one_pack = Cols * sizeof(T) == sizeof(pack<T>);
  const bool as_pack = one_pack && whole && pack_aligned(dst) && row_stride % Cols == 0;
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    if (y + o >= t.h) continue;
    T* at = dst + o * row_stride;
    if constexpr (one_pack) {
      if (as_pack) {
        pack<T> p;
        PK_UNROLL
        for (int q = 0; q < Cols; ++q) p.v[q] = to_pixel<T>(acc[o][q]);
        Primitives::store_streaming(reinterpret_cast<pack<T>*>(at), p);
        continue;
      }
    }
    if (whole) {
      PK_UNROLL_GPU
      for (int q = 0; q < Cols; ++q) at[q] = to_pixel<T>(acc[o][q]);
    } else {
      PK_UNROLL_GPU
      for (int q = 0; q < Cols; ++q)
        if (e + q < used) at[q] = to_pixel<T>(acc[o][q]);
    }
  }
}

// The schedule: Team (team_shape) threads, blocks of Rows x Cols, and with Quads the one-channel
// float tiles by quads where the staged tile allows them.
template <class Team, int Rows_, int Cols_, bool Quads_ = false>
struct output_blocks {
  using team = Team;
  static constexpr int Rows = Rows_, Cols = Cols_;
  static constexpr bool Quads = Quads_;
};

}  // namespace pk::detail
