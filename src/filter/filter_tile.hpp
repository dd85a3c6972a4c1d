#pragma once
// The one filter kernel: FilterTile<T, Exec, Policy, Op>, a Kokkos team functor that computes one
// output tile per team, for every operation (stencils.hpp: Conv2D, SeparableConv, SobelMagnitude)
// on every backend. What differs per backend comes from its Policy (filter_policy.hpp): the tile
// shape, the staging mechanism (how the tile plus halo reaches team scratch: element by element,
// 16-byte packs, asynchronous or tensor copies) and the schedule (how the team's threads cover
// the tile's outputs: output_blocks.hpp).
//
//   team: stage the tile (and wait for it) -> the operation's passes over blocks of outputs,
//         each block's window read from scratch, its results stored to the image
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include <pk/kokkos/views.hpp>

#include "filter/output_blocks.hpp"
#include "filter/stencils.hpp"
#include "filter/tile_grid.hpp"

namespace pk::detail {

// One team's staged tile, as the operations see it: their passes over blocks of outputs.
template <class Schedule, class Primitives_, int R, int PackElements, class Member, class T, class Staged>
struct staged_tile {
  using primitives = Primitives_;
  using team = typename Schedule::team;
  static constexpr int Rows = Schedule::Rows, Cols = Schedule::Cols;

  const Member& member;
  const tile_grid& g;
  const tile_box& t;
  const Staged& staged;
  T* out;
  float* row_pass;  // the separable row pass's results (g.out_pitch floats a staged row), or null

  // f(C, Lead) where the schedule reads this tile by quads (output_blocks.hpp): C its channels,
  // Lead its staged rows' lead (that of radius R with C channels), both compile-time constants;
  // false where it does not.
  template <class F>
  KOKKOS_INLINE_FUNCTION bool by_quads(F&& f) const {
    if constexpr (Schedule::Quads && R >= 0) {
      return with_channels<Schedule::QuadChannels>(g.channels, [&](auto c) {
        constexpr int Lead = staged_lead(R * decltype(c)::value, PackElements);
        if (!staged.template quads_fit<Lead>(g)) return false;
        f(c, std::integral_constant<int, Lead>());
        return true;
      });
    } else {
      return false;
    }
  }
  // The row-pass results are read by quads too where their rows are whole aligned quads.
  KOKKOS_INLINE_FUNCTION bool row_pass_quads() const { return g.out_pitch % 4 == 0 && pack_aligned(row_pass); }

  // f(window, acc) for every block of the tile's outputs, then acc stored as pixels.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_output(F&& f) const {
    const bool done = by_quads([&](auto c, auto lead) {
      constexpr int C = decltype(c)::value, Lead = decltype(lead)::value;
      for_each_block<team, Rows, 4>(member, t.h, t.w * C, [&](int y, int e) {
        float acc[Rows][4];
        f(staged.template quads<primitives, 2 * R + 1, C, Lead>(y, e), acc);
        store_block<primitives>(out, g, t, y, e, acc);
      });
    });
    if constexpr (!Staged::quads_only) {
      if (done) return;
      for_each_block<team, Rows, Cols>(member, t.h, t.w * g.channels, [&](int y, int e) {
        float acc[Rows][Cols];
        f(staged.window(y, e), acc);
        store_block<primitives>(out, g, t, y, e, acc);
      });
    }
  }

  // The separable filter's passes, row_f then column_f (each f(window, acc)): through the row-pass
  // buffer, or with the schedule's RowPassInRegisters block by block, the column pass reading
  // the row pass of each window row as it is computed.
  template <class RowF, class ColumnF>
  KOKKOS_INLINE_FUNCTION void separable(const RowF& row_f, const ColumnF& column_f) const {
    if constexpr (Schedule::RowPassInRegisters) {
      for_each_output([&](const auto& window, auto& acc) {
        constexpr int BlockCols = std::extent<std::remove_reference_t<decltype(acc)>, 1>::value;
        column_f(row_passed_window<BlockCols, std::remove_cv_t<std::remove_reference_t<decltype(window)>>, RowF>{window, row_f},
                 acc);
      });
    } else {
      for_each_row_pass_output(row_f);
      for_each_output_of_row_pass(column_f);
    }
  }

  // f(window, acc) for blocks of one row of every staged row (the column pass that follows reads
  // the staged rows of whole row groups), acc stored in row_pass; then a barrier.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_row_pass_output(F&& f) const {
    const bool done = row_pass_quads() && by_quads([&](auto c, auto lead) {
      constexpr int C = decltype(c)::value, Lead = decltype(lead)::value;
      for_each_block<team, 1, 4>(member, g.staged_rows, t.w * C, [&](int yy, int e) {
        float acc[1][4];
        f(staged.template quads<primitives, 2 * R + 1, C, Lead>(yy, e), acc);
        *reinterpret_cast<pack<float>*>(row_pass + static_cast<std::int64_t>(yy) * g.out_pitch + e) =
            pack<float>{{acc[0][0], acc[0][1], acc[0][2], acc[0][3]}};
      });
    });
    if (!done) {
      const int used = t.w * g.channels;
      for_each_block<team, 1, Cols>(member, g.staged_rows, used, [&](int yy, int e) {
        float acc[1][Cols];
        f(staged.window(yy, e), acc);
        float* dst = row_pass + static_cast<std::int64_t>(yy) * g.out_pitch + e;
        if (e + Cols <= used) {
          PK_UNROLL_GPU
          for (int q = 0; q < Cols; ++q) dst[q] = acc[0][q];
        } else {
          PK_UNROLL_GPU
          for (int q = 0; q < Cols; ++q)
            if (e + q < used) dst[q] = acc[0][q];
        }
      });
    }
    member.team_barrier();  // the column pass reads row-pass results of other threads' rows
  }

  // f(window, acc) for every block of the tile's outputs, its window in the row pass's results
  // (by quads where the schedule reads quads).
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_output_of_row_pass(F&& f) const {
    if constexpr (Schedule::Quads) {
      if (row_pass_quads()) {
        for_each_block<team, Rows, 4>(member, t.h, t.w * g.channels, [&](int y, int e) {
          float acc[Rows][4];
          f(quad_window<primitives, float, 1, 1, 0, int>{row_pass + static_cast<std::int64_t>(y) * g.out_pitch + e,
                                                           g.out_pitch},
            acc);
          store_block<primitives>(out, g, t, y, e, acc);
        });
        return;
      }
    }
    for_each_block<team, Rows, Cols>(member, t.h, t.w * g.channels, [&](int y, int e) {
      float acc[Rows][Cols];
      f(scratch_window<int>{row_pass + static_cast<std::int64_t>(y) * g.out_pitch + e, g.out_pitch, g.channels}, acc);
      store_block<primitives>(out, g, t, y, e, acc);
    });
  }
};

template <class T, class Exec, class Policy, class Op>
struct FilterTile {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using policy = Policy;
  using op_type = Op;
  using value_type = T;
  using schedule = typename Policy::template schedule<T, Op>;
  using staging = typename Policy::template staging<T, Op>;
  static constexpr int R = radius_of<decltype(Op::radius)>::value;
  using scratch_type = typename staging::template scratch_type<T>;  // what the staged tile holds

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  Op op;
  staging stage;

  // The separable row pass's buffer in scratch (not where the schedule keeps it in registers).
  static constexpr bool row_pass_buffer = Op::row_pass && !schedule::RowPassInRegisters;

  std::size_t scratch_bytes() const {
    return aligned_scratch_bytes<staging::Align, Exec, scratch_type>(stage.scratch_elements(grid)) +
           (row_pass_buffer ? aligned_scratch_bytes<16, Exec>(grid.row_pass_floats()) : 0);
  }
  // Host, once the grid is final: what the staging needs of this image (a tensor map).
  void prepare() { stage.prepare(in.data(), grid); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    Policy::run_tile([&] {
      const tile_box t = grid.tile(team.league_rank());
      scratch_type* const scratch = aligned_scratch<staging::Align, scratch_type>(team, stage.scratch_elements(grid));
      stage.template stage<R>(team, scratch, in.data(), grid, t, mode, [&](const auto& staged) {
        using staged_type = std::remove_cv_t<std::remove_reference_t<decltype(staged)>>;
        float* row_pass = nullptr;
        if constexpr (row_pass_buffer) row_pass = aligned_scratch<16>(team, grid.row_pass_floats());
        op(staged_tile<schedule, typename Policy::primitives, R, staging::template pack_elements<T>, member_type, T,
                       staged_type>{team, grid, t, staged, out.data(), row_pass});
      });
    });
  }
};

}  // namespace pk::detail
