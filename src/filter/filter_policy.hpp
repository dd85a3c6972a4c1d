#pragma once
// What a backend chooses for its filter kernels: filter_policy<Exec>, defined by each backend in
// backends/<name>/ (there is no default: a backend that forgets it does not compile). A policy
// names
//   primitives                  the device primitives its kernels use (core/primitives.hpp);
//   TileW, team                 the output tile's columns, and a team's threads (team_shape);
//   TileH or tile_rows<T, Op>   the tile's rows: one count, or one per kernel;
//   ScratchLimit                team scratch bytes a tile may use (0: ordinary memory, no limit;
//                               else tiles shrink until they fit);
//   FixedRadius                 whether kernels are compiled per radius (loops over the stencil
//                               unrolled: GPUs) or one kernel serves every size (CPUs);
//   schedule<T, Op>             how the team covers a tile's outputs (output_blocks.hpp);
//   staging<T, Op>              how a tile reaches scratch (stage_elements.hpp, stage_packs.hpp,
//                               stage_boxes.hpp);
//   teams_per_sm<T, Op>         launch bounds: at least that many teams an SM (0: none);
//   min_tiles<T, Op>(space)     where an image has fewer tiles than that, they shrink (small
//                               images on a GPU: more multiprocessors share the work; 0: never);
//   run_tile(f)                 runs a team's work on its tile, f(): inlined, or (CPUs) outlined;
// for the operation Op (stencils.hpp) on pixels of T. host_filter_policy is the CPUs' choice,
// backends/cuda/cuda_filter_policy.hpp the GPU's.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/host_vector.hpp"
#include "core/primitives.hpp"
#include "core/unroll.hpp"
#include "filter/output_blocks.hpp"
#include "filter/stage_elements.hpp"
#include "filter/tile_grid.hpp"

namespace pk::detail {

template <class Exec>
struct filter_policy;

// CPUs (Serial, OpenMP): a team is one thread, which computes its tile in blocks of 1 x 64
// outputs (128 for uint8 with AVX-512, below): 64 independent accumulators that the compiler turns into SIMD registers (8 AVX2 or 4
// AVX-512, enough to hide the FMA latency; 32 measured the same). Large tiles: the staged tile plus
// the row-pass buffer (C=4, r=7: 78 x 1080 x 4 B + 78 x 1024 x 4 B, about 650 KB) stays within a
// core's L2, and 64 rows make the halo rows the separable row pass computes twice cost 22% at r=7,
// 3% at r=1. Measured on 4096 x 4096 float (one core): 256 x 64 beat 512 x 64, 1024 x 32, 1024 x 64,
// 2048 x 16 and 4096 x 16 by 5-40% on the separable filters. Staged element by element (a row's
// copy is one vectorized loop), the padding past each staged row zeroed.
struct host_filter_policy {
  using primitives = portable_primitives;
  using team = team_shape<1, 1>;
  static constexpr int TileW = 256, TileH = 64;
  static constexpr std::size_t ScratchLimit = 0;
  static constexpr bool FixedRadius = false;
  // uint8 pixels in blocks of 128 where the CPU has 32 vector registers of 16 floats (AVX-512): a
  // block's results leave as two 64-byte stores, and the separable passes keep more outputs a
  // window load (2 cores, 4096^2, A/B in one session: uint8 Gaussian 5x5 1.12-1.38x OpenCV against
  // 0.96-1.22x with 64, uint8 3x3 level or faster; float with 128 was slower for 5x5 and separable
  // 5x5, faster only for 15x15). With 16 registers of 8 (AVX2) 128 accumulators take them all and
  // spill: 64 (AMD EPYC, AVX2, one thread, best of 36 runs: uint8 Gaussian 5x5 gray 16.9 ms
  // against 18.7, RGB 47.7 against 51.6, RGBA 64.9 against 69.4, 3x3 level).
  template <class T, class Op>
  using schedule = output_blocks<team, 1, sizeof(T) == 1 && host_vector_bytes == 64 ? 128 : 64>;
  template <class T, class Op>
  using staging = staged_by_elements<team, 1, 1, true>;
  template <class T, class Op>
  static constexpr int teams_per_sm = 0;
  template <class T, class Op, class Exec>
  static std::int64_t min_tiles(const Exec&) { return 0; }
  // A tile's work as a function of its own: inlined into Kokkos' loop over the tiles, GCC spilled
  // the blocks' accumulators to the stack in every pass of the separable filters (they ran 1.3x
  // slower); outlined it keeps them in registers.
  template <class F>
  PK_NOINLINE KOKKOS_FUNCTION static void run_tile(const F& f) {
    f();
  }
};

// The rows of a team's output tile for Op on pixels of T: Policy::tile_rows<T, Op> where the
// policy names it, else Policy::TileH.
template <class Policy, class T, class Op, class = void>
struct tile_rows_of : std::integral_constant<int, Policy::TileH> {};
template <class Policy, class T, class Op>
struct tile_rows_of<Policy, T, Op, std::void_t<decltype(Policy::template tile_rows<T, Op>)>>
    : std::integral_constant<int, Policy::template tile_rows<T, Op>> {};

}  // namespace pk::detail
