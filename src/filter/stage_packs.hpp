#pragma once
// Staging a tile by 16-byte packs: the tile's staged rows, lead and padding included, copied as
// whole packs of the image (LDG.128 / STS.128 on a GPU, or the backend's asynchronous copies),
// for tiles whose staged columns lie inside the image and are aligned; the others go element by
// element (stage_elements.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "core/pack.hpp"
#include "core/unroll.hpp"
#include "filter/border_index.hpp"
#include "filter/stage_elements.hpp"
#include "filter/tile_grid.hpp"

namespace pk::detail {

// How packs reach scratch (the "copy" of staged_by_packs), as scratch elements S (float, or the
// image's own T). Through registers: each thread issues Batch loads before it stores any,
// converted to S (the compiler cannot tell that scratch and the image do not overlap, so a plain
// copy loop would wait for each load before the next).
template <int Batch_>
struct copy_through_registers {
  static constexpr int Batch = Batch_;
  template <class T, class S>
  struct in_flight {
    pack<T> v[Batch]{};  // (every slot used is loaded; {} keeps compilers from warning)
    KOKKOS_INLINE_FUNCTION void start(int j, S*, const T* src) { v[j] = *reinterpret_cast<const pack<T>*>(src); }
    KOKKOS_INLINE_FUNCTION void finish(int j, S* dst) const {
      if constexpr (std::is_same_v<S, T>) {
        *reinterpret_cast<pack<T>*>(dst) = v[j];
      } else {
        static_assert(std::is_same_v<S, float> && pack<T>::size % 4 == 0, "a pack is stored as whole packs of four floats");
        PK_UNROLL
        for (int q = 0; q < pack<T>::size; q += 4)
          *reinterpret_cast<pack<float>*>(dst + q) =
              pack<float>{{static_cast<float>(v[j].v[q]), static_cast<float>(v[j].v[q + 1]),
                           static_cast<float>(v[j].v[q + 2]), static_cast<float>(v[j].v[q + 3])}};
      }
    }
  };
  KOKKOS_INLINE_FUNCTION static void wait() {}
};

// By the backend's asynchronous copies (Primitives::copy_async: bytes unchanged, no registers
// between global and scratch memory), all of a thread's packs in flight at once, waited for at
// the end.
template <class Primitives>
struct copy_asynchronously {
  static constexpr int Batch = 1;
  template <class T, class S>
  struct in_flight {
    static_assert(std::is_same_v<T, S>, "asynchronous copies move bytes: scratch holds the image's own type");
    KOKKOS_INLINE_FUNCTION void start(int, S* dst, const T* src) { Primitives::copy_async(dst, src); }
    KOKKOS_INLINE_FUNCTION void finish(int, S*) const {}
  };
  KOKKOS_INLINE_FUNCTION static void wait() { Primitives::wait_copies(); }
};

// Whether tile t can be staged by packs: its staged columns (lead and padding included) lie
// inside the image, and they, the image rows and scratch are aligned to packs. Rows outside the
// image are fine (stage_packs reads the row the border mode says), so only the tiles at the
// image's left and right edges, and images whose rows are not whole packs (e.g. RGB of odd
// width), go element by element.
template <class T, class S>
KOKKOS_INLINE_FUNCTION bool stages_by_packs(const T* image, const tile_grid& g, const tile_box& t, const S* staged) {
  constexpr int Pack = pack<T>::size;
  const std::int64_t row_elements = g.width * g.channels, first = (t.x0 - g.radius) * g.channels - g.lead;
  return first >= 0 && first + g.staged_pitch <= row_elements && first % Pack == 0 && row_elements % Pack == 0 &&
         g.staged_pitch % Pack == 0 && pack_aligned(image) && pack_aligned(staged);
}

// The tile's staged rows [0, t.h + 2r) by packs, for a tile that stages_by_packs. The rows inside
// the image are one flat list of packs (a staged row is whole packs): thread `rank` takes packs
// rank, rank + TeamSize, ..., so consecutive threads read consecutive packs of an image row, and
// a pack's place in scratch is its index in the list times its size. The at most r rows above or
// below the image (tiles at its top and bottom) go a group per row, from the row the border mode
// names: looked up once per row, outside the unrolled loop, whose registers would otherwise hold
// a border lookup per pack.
template <class Team, class Copy, class Member, class T, class S>
KOKKOS_INLINE_FUNCTION void stage_packs(const Member& team, const T* image, const tile_grid& g, const tile_box& t,
                                        border mode, S* staged) {
  constexpr int Batch = Copy::Batch, Size = Team::Size, Pack = pack<T>::size;
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
    // Thread rank's pack first + k, k = rank + Size * j, is pack `column` of inside row `row`,
    // stepped by Size packs at a time (no division per pack).
    const int step_rows = Size / per_row, step_columns = Size % per_row;
    int row = team.team_rank() / per_row, column = team.team_rank() % per_row;
    const auto pack_in_image = [&] { return inside + row * src_pitch + column * Pack; };
    const auto next_pack = [&] {
      row += step_rows;
      column += step_columns;
      if (column >= per_row) column -= per_row, ++row;
    };
    for (int k0 = first + team.team_rank(); k0 < total; k0 += Batch * Size) {
      typename Copy::template in_flight<T, S> packs;
      PK_UNROLL
      for (int j = 0; j < Batch; ++j) {
        const int k = k0 + j * Size;
        if (k < total) packs.start(j, staged + static_cast<std::int64_t>(k) * Pack, pack_in_image());
        next_pack();
      }
      PK_UNROLL
      for (int j = 0; j < Batch; ++j) {
        const int k = k0 + j * Size;
        if (k < total) packs.finish(j, staged + static_cast<std::int64_t>(k) * Pack);
      }
    }
    Copy::wait();
  }
  const Team th(team);
  const int outside = rows - (inside_end - inside_begin);
  PK_NO_UNROLL
  for (int i = th.group; i < outside; i += Team::Groups) {
    const int yy = i < inside_begin ? i : inside_end + (i - inside_begin);
    const std::int64_t sy = border_index(first_y + yy, g.height, mode);
    S* dst = staged + static_cast<std::int64_t>(yy) * g.staged_pitch;
    PK_NO_UNROLL
    for (int column = th.lane; column < per_row; column += Team::Lanes) {
      typename copy_through_registers<1>::template in_flight<T, S> p;  // zeros where the border mode says so
      if (sy >= 0) p.start(0, dst, src + sy * src_pitch + column * Pack);
      p.finish(0, dst + column * Pack);
    }
  }
}

// The staging mechanism "16-byte packs" (a policy's staging type, filter_policy.hpp): tiles that
// stages_by_packs go by Copy, the others element by element (RowBatch x ColBatch in flight), in
// the same scratch layout, as As says (staged_as_float or staged_as_pixels).
template <class Team, int RowBatch, int ColBatch, class Copy, class As = staged_as_float>
struct staged_by_packs : staged_by_elements<Team, RowBatch, ColBatch, false, As> {
  template <class T>
  static constexpr int pack_elements = pack<T>::size;  // staged rows start and end on packs
  template <int R, class Member, class T, class S, class Body>
  KOKKOS_INLINE_FUNCTION void stage(const Member& team, S* staged, const T* image, const tile_grid& g,
                                    const tile_box& t, border mode, Body&& body) const {
    if (stages_by_packs(image, g, t, staged)) {
      zero_rows_below<Team>(team, g, t, staged);
      stage_packs<Team, Copy>(team, image, g, t, mode, staged);
    } else {
      stage_elements<Team, RowBatch, ColBatch, false>(team, image, g, t, mode, staged);
    }
    team.team_barrier();  // the outputs read what other threads staged
    body(staged_rows<S>{staged, g.staged_pitch, g.lead, g.channels});
  }
};

}  // namespace pk::detail
