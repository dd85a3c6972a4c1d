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
// blocks of 4 x 1 (columns: coalesced loads and stores, conflict-free scratch reads), or 4 x 4
// read as quads (Quads: packs of 4 staged elements, 16 bytes of float or a 32-bit word of uint8
// pixels: the address arithmetic of a window row then serves 4 outputs, and each result row is
// one store of 16 or 4 bytes).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "core/pack.hpp"
#include "core/unroll.hpp"
#include "filter/stencils.hpp"
#include "filter/tile_grid.hpp"

namespace pk::detail {

// Where a block's window lies in scratch: tap 0 of output 0 in its first window row at `first`,
// window rows `pitch` elements apart (fixed<N> where the layout is known when compiled: every
// read is then base + immediate), an output's taps `channels` elements apart, its outputs 1
// apart. Elements of S (float, or uint8 pixels, converted as read).
template <class Pitch, class S = float>
struct scratch_window {
  const S* first;
  Pitch pitch;
  int channels;
  struct values {
    const S* p;
    int channels;
    KOKKOS_INLINE_FUNCTION float operator()(int j, int q) const { return static_cast<float>(p[j * channels + q]); }
  };
  KOKKOS_INLINE_FUNCTION values row(int i) const { return {first + i * pitch, channels}; }
};

// Four staged elements from a pack boundary, as floats: a 16-byte quad of floats, or a 32-bit word
// of uint8 pixels widened by the primitives.
template <class Primitives, class S>
KOKKOS_INLINE_FUNCTION void load_quad(const S* p, float* v) {
  if constexpr (std::is_same_v<S, float>) {
    const pack<float> x = *reinterpret_cast<const pack<float>*>(p);
    PK_UNROLL
    for (int q = 0; q < 4; ++q) v[q] = x.v[q];
  } else {
    static_assert(std::is_same_v<S, std::uint8_t>, "quads of float or uint8");
    float x[4];
    Primitives::widen_bytes(*reinterpret_cast<const pack<std::uint8_t, 4>*>(p), x);
    PK_UNROLL
    for (int q = 0; q < 4; ++q) v[q] = x[q];
  }
}

// The quads a window row of Taps taps of C channels spans for 4 outputs, from Offset elements past
// a pack boundary.
KOKKOS_INLINE_FUNCTION constexpr int window_quads(int taps, int channels, int offset) { return (offset + 3 + (taps - 1) * channels) / 4 + 1; }

// The window of a block of 4 consecutive elements (outputs) of a tile of C interleaved channels,
// read by quads: `first` is the pack boundary Offset elements before tap 0 of output 0, and a
// window row is the Quads quads from there, loaded into registers as floats; tap j of output q is
// element Offset + q + j * C of it.
template <class Primitives, class S, int Taps, int C, int Offset, class Pitch>
struct quad_window {
  static constexpr int Quads = window_quads(Taps, C, Offset);
  const S* first;
  Pitch pitch;
  struct values {
    float v[4 * Quads];
    KOKKOS_INLINE_FUNCTION float operator()(int j, int q) const { return v[Offset + q + j * C]; }
  };
  KOKKOS_INLINE_FUNCTION values row(int i) const {
    values r;
    PK_UNROLL
    for (int b = 0; b < Quads; ++b) load_quad<Primitives>(first + i * pitch + 4 * b, r.v + 4 * b);
    return r;
  }
};

// The window of the separable filter's column pass where the row pass stays in registers
// (schedules with RowPassInRegisters): row i is the row pass over row i of a block's 2-D window,
// computed when the column pass reads it, as one tap a row. No row-pass buffer in scratch and no
// barrier between the passes; the row pass of a window row is computed once for every block that
// reads it (Rows + 2r rows for Rows output rows).
template <int Cols, class Window, class RowPass>
struct row_passed_window {
  const Window& window;
  const RowPass& pass;
  template <class Row>
  struct one_row {
    Row r;
    KOKKOS_INLINE_FUNCTION const Row& row(int) const { return r; }
  };
  struct values {
    float v[1][Cols];
    KOKKOS_INLINE_FUNCTION float operator()(int, int q) const { return v[0][q]; }
  };
  KOKKOS_INLINE_FUNCTION values row(int i) const {
    values out;
    pass(one_row<decltype(window.row(i))>{window.row(i)}, out.v);
    return out;
  }
};

// A tile staged row by row (stage_elements.hpp, stage_packs.hpp): staged row yy at
// staged + yy * pitch, `lead` elements before its halo; elements of S.
template <class S = float>
struct staged_rows {
  static constexpr bool quads_only = false;
  const S* staged;
  int pitch, lead, channels;
  KOKKOS_INLINE_FUNCTION scratch_window<int, S> window(int y, int e) const {
    return {staged + static_cast<std::int64_t>(y) * pitch + lead + e, pitch, channels};
  }
  // Quads need the lead Lead (output e's tap 0 is then Lead % 4 elements past a pack boundary for
  // every e that is a multiple of 4), rows of whole quads and aligned scratch.
  template <int Lead>
  KOKKOS_INLINE_FUNCTION bool quads_fit(const tile_grid& g) const {
    return lead == Lead && pitch % 4 == 0 && g.tile_w * g.channels % 4 == 0 && pack_aligned(staged);
  }
  template <class Primitives, int Taps, int C, int Lead>
  KOKKOS_INLINE_FUNCTION quad_window<Primitives, S, Taps, C, Lead % 4, int> quads(int y, int e) const {
    return {staged + static_cast<std::int64_t>(y) * pitch + Lead / 4 * 4 + e, pitch};
  }
};

// Calls f(std::integral_constant<int, C>) with C = channels where it is at most MaxC and returns
// true; false otherwise (kernels whose windows need the channel count when compiled).
template <int MaxC, class F>
KOKKOS_INLINE_FUNCTION bool with_channels(int channels, F&& f) {
  bool done = false;
  if constexpr (MaxC >= 1) if (channels == 1) done = f(std::integral_constant<int, 1>());
  if constexpr (MaxC >= 2) if (channels == 2) done = f(std::integral_constant<int, 2>());
  if constexpr (MaxC >= 3) if (channels == 3) done = f(std::integral_constant<int, 3>());
  if constexpr (MaxC >= 4) if (channels == 4) done = f(std::integral_constant<int, 4>());
  return done;
}

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
// e, e + 1, ... of them (those inside it). A block row of 16 bytes (float quads) goes as one
// store, where aligned, that the backend may keep out of its caches: the kernel never reads it
// back; one of 4 uint8 pixels as one 32-bit word, narrowed by the primitives.
template <class Primitives, int Rows, int Cols, class T>
KOKKOS_INLINE_FUNCTION void store_block(T* image, const tile_grid& g, const tile_box& t, int y, int e,
                                        const float (&acc)[Rows][Cols]) {
  T* dst = image + g.offset(t.y0 + y, t.x0) + e;
  const std::int64_t row_stride = g.width * g.channels;
  const int used = t.w * g.channels;
  const bool whole = e + Cols <= used;
  constexpr bool one_pack = Cols * sizeof(T) == sizeof(pack<T>);
  constexpr bool one_word = std::is_same_v<T, std::uint8_t> && Cols == 4;
  constexpr int Bytes = one_word ? 4 : 16;
  const bool as_pack = (one_pack || one_word) && whole && pack_aligned<Bytes>(dst) && row_stride % Cols == 0;
  const auto store_pack = [&](int o) {
    T* at = dst + o * row_stride;
    if constexpr (one_word) {
      Primitives::store_streaming(reinterpret_cast<pack<std::uint8_t, 4>*>(at), Primitives::narrow_to_bytes(acc[o]));
    } else {
      pack<T> p;
      PK_UNROLL
      for (int q = 0; q < Cols; ++q) p.v[q] = to_pixel<T>(acc[o][q]);
      Primitives::store_streaming(reinterpret_cast<pack<T>*>(at), p);
    }
  };
  if constexpr (one_pack || one_word) {
    // A block with all its rows inside the tile (every one but the tile's last, where its height is
    // not a multiple of Rows): its rows as packs, with no test a row.
    if (as_pack && y + Rows <= t.h) {
      PK_UNROLL
      for (int o = 0; o < Rows; ++o) store_pack(o);
      return;
    }
  }
  PK_UNROLL
  for (int o = 0; o < Rows; ++o) {
    if (y + o >= t.h) continue;
    if constexpr (one_pack || one_word) {
      if (as_pack) {
        store_pack(o);
        continue;
      }
    }
    T* at = dst + o * row_stride;
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

// The schedule: Team (team_shape) threads, blocks of Rows x Cols, and with Quads blocks of Rows x 4
// read by quads where the staged tile allows them, for tiles of up to QuadChannels channels (each
// count a variant of the kernel's code: its windows' taps at compile-time offsets). The separable
// filter's row pass goes to a second scratch buffer, read by the column pass after a barrier, or
// with RowPassInRegisters stays in each block's registers (row_passed_window).
template <class Team, int Rows_, int Cols_, bool Quads_ = false, int QuadChannels_ = 1, bool RowPassInRegisters_ = false>
struct output_blocks {
  using team = Team;
  static constexpr int Rows = Rows_, Cols = Cols_;
  static constexpr bool Quads = Quads_;
  static constexpr int QuadChannels = QuadChannels_;
  static constexpr bool RowPassInRegisters = RowPassInRegisters_;
};

}  // namespace pk::detail
