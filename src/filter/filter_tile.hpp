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
template <class Schedule, class Primitives_, int R, int QuadLead, class Member, class T, class Staged>
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

  // f(window, acc) for every block of the tile's outputs, then acc stored as pixels.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_output(F&& f) const {
    if constexpr (Schedule::Quads && std::is_same_v<T, float> && R >= 0) {
      if (staged.template quads_fit<QuadLead>(g)) {
        for_each_block<team, Rows, 4>(member, t.h, t.w, [&](int y, int e) {
          float acc[Rows][4];
          f(staged.template quads<R, QuadLead>(y, e), acc);
          store_block<primitives>(out, g, t, y, e, acc);
        });
        return;
      }
    }
    if constexpr (!Staged::quads_only) {
      for_each_block<team, Rows, Cols>(member, t.h, t.w * g.channels, [&](int y, int e) {
        float acc[Rows][Cols];
        f(staged.window(y, e), acc);
        store_block<primitives>(out, g, t, y, e, acc);
      });
    }
  }

  // f(window, acc) for blocks of one row of every staged row (the column pass that follows reads
  // the staged rows of whole row groups), acc stored in row_pass; then a barrier.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_row_pass_output(F&& f) const {
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
    member.team_barrier();  // the column pass reads row-pass results of other threads' rows
  }

  // f(window, acc) for every block of the tile's outputs, its window in the row pass's results.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_output_of_row_pass(F&& f) const {
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
  // The lead of staged rows for the quads (tile_grid): radius R with the staging's packs.
  static constexpr int QuadLead = R >= 0 ? staged_lead(R, staging::template pack_elements<T>) : 0;

  image_view<const T, Exec> in;
  image_view<T, Exec> out;
  tile_grid grid;
  border mode;
  Op op;
  staging stage;

  std::size_t scratch_bytes() const {
    using floats = Kokkos::View<float*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    return floats::shmem_size(stage.scratch_floats(grid)) + staging::Align +
           (Op::row_pass ? floats::shmem_size(grid.row_pass_floats()) : 0);
  }
  // Host, once the grid is final: what the staging needs of this image (a tensor map).
  void prepare() { stage.prepare(in.data(), grid); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    Policy::run_tile([&] {
      const tile_box t = grid.tile(team.league_rank());
      float* const scratch = aligned_scratch<staging::Align>(team, stage.scratch_floats(grid));
      stage.template stage<R>(team, scratch, in.data(), grid, t, mode, [&](const auto& staged) {
        using staged_type = std::remove_cv_t<std::remove_reference_t<decltype(staged)>>;
        float* row_pass = nullptr;
        if constexpr (Op::row_pass)
          row_pass = Kokkos::View<float*, typename Exec::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                         team.team_scratch(0), grid.row_pass_floats())
                         .data();
        op(staged_tile<schedule, typename Policy::primitives, R, QuadLead, member_type, T, staged_type>{
            team, grid, t, staged, out.data(), row_pass});
      });
    });
  }
};

}  // namespace pk::detail
