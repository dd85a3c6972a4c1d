#pragma once
// The filter policy for Kokkos::Cuda (what src/filter/filter_policy.hpp asks a backend to choose),
// chosen on the H200 with bench/tune (bench/results/h200.md has the measurements).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "cuda/cuda_multiprocessors.hpp"
#include "cuda/cuda_primitives.hpp"
#include "filter/filter_policy.hpp"
#include "filter/stage_boxes.hpp"
#include "filter/stage_packs.hpp"
#include "filter/stencils.hpp"

namespace pk::detail {

template <class Op>
inline constexpr bool is_conv2d = false;
template <class Radius>
inline constexpr bool is_conv2d<Conv2D<Radius>> = true;

struct cuda_filter_policy {
  using primitives = cuda_primitives;
  // 256 x 32 output pixels per team of 8 warps: a warp's 32 lanes take consecutive elements of a
  // row, each warp a group of 4 rows (schedule below; uint8 tiles: 256 x 64, groups of 8 rows:
  // tile_rows, one row group a warp). Wide tiles keep the halo small (3x3: 264 x 34 staged for
  // 256 x 32, 36 KB); measured on the H200 against 128 x 32, 256 x 16, 64 x 32 and others.
  using team = team_shape<256, 32>;
  static constexpr int TileW = 256;
  // 48 KB: the shared memory a block gets without opting in (Kokkos keeps 8 KB of it for its own
  // team reductions); at 36 KB six teams fit an SM's 228 KB.
  static constexpr std::size_t ScratchLimit = 48 * 1024;
  static constexpr bool FixedRadius = true;

  // Register columns: each thread a block of 4 rows x 1 element, sliding down its window, so a
  // K x K stencil costs (4 + 2R) x K scratch reads per 4 outputs. One-channel float tiles go by
  // quads of 4 x 4 outputs read as 16-byte quads, every operation: on the H200 that halved the
  // convolutions' instructions a pixel (3x3: 0.71 -> 0.81 of copy bandwidth); on the H100
  // (`pk_tune quads`, one run) the separable 15x15 went 0.39 -> 0.58, Sobel 0.91 -> 0.91, the
  // separable 5x5 0.88 -> 0.88.
  template <class T, class Op>
  static constexpr int R = radius_of<decltype(Op::radius)>::value;
  // uint8 tiles up to radius 3 stay uint8 in scratch (staged_as_pixels below) and go by quads of
  // 8 x 4 outputs for every operation and 1-4 channels: a window row is read as 32-bit words,
  // each byte widened once per row, and each result row leaves as one 32-bit store. H100, one
  // run: RGB 3x3 0.29 -> 0.55 of copy bandwidth, Gaussian 5x5 0.18 -> 0.30 (blocks of 4 x 4),
  // against floats in scratch staged element by element, blocks of 4 x 1. Larger radii stay so.
  // Their separable filters keep the row pass in registers (each block's window rows passed as
  // the column pass reads them): no float row-pass buffer, which had shrunk the tiles to 128 x 32
  // (gray) and 64 x 32 (RGB) to fit a team's scratch: Gaussian 5x5 at 8192^2 gray 0.32 -> 0.41,
  // RGB 0.30 -> 0.39, RGBA 0.29 -> 0.38 (H100, 2026-12-07). Blocks of 8 rows (a window row feeds
  // 8 output rows, not 4: (8 + 2r) / 8 row reads an output row) on tiles of 64 rows, one block
  // row a group: `pk_tune filter` (H100, 8192^2, against 4 rows on 256 x 32) Gaussian gray 0.40
  // -> 0.46, RGB 0.40 -> 0.46, 3x3 gray 0.48 -> 0.53, RGB 0.55 -> 0.58, Sobel gray 0.43 -> 0.47.
  // Those tiles would leave small images few (512x768 RGB: 24 tiles for 132 multiprocessors):
  // min_tiles below shrinks them.
  template <class T, class Op>
  static constexpr bool pixel_quads = std::is_same_v<T, std::uint8_t> && R<T, Op> <= 3;
  template <class T, class Op>
  using schedule = std::conditional_t<pixel_quads<T, Op>, output_blocks<team, 8, 4, true, 4, true>,
                                      output_blocks<team, 4, 1, std::is_same_v<T, float>>>;
  template <class T, class Op>
  static constexpr int tile_rows = team::Groups * schedule<T, Op>::Rows;

  // Float tiles go by 16-byte packs, each thread with 10 loads in flight before it stores them: a
  // 3x3 or 5x5 tile (34 or 36 rows of 66 packs) in one round trip. From radius 2 the packs go by
  // cp.async instead (no registers, L1 bypassed): 5x5 0.68 -> 0.74 of copy bandwidth and the
  // separable 5x5 0.62 -> 0.67 on the H200 (ncu: L2 hit rate 60% -> 73%), while the 3x3 and Sobel
  // lost 0.04-0.06 that way.
  template <class T, class Op>
  using packs = staged_by_packs<team, 2, 4,
                                std::conditional_t<(R<T, Op> >= 2), copy_asynchronously<primitives>,
                                                   copy_through_registers<10>>>;
  // The 3x3's and 5x5's whole one-channel float tiles go by tensor copies (stage_boxes.hpp): two
  // 2-D boxes (5x5: 36 x 136 floats) copied by one thread, no staging instructions in the others,
  // the border of edge tiles filled in scratch. Measured on the H200: 5x5 0.82 -> 0.88-0.89, 3x3
  // 0.87 -> 0.90.
  template <class T, class Op>
  static constexpr bool tensor_copies = std::is_same_v<T, float> && is_conv2d<Op> && (R<T, Op> == 1 || R<T, Op> == 2);
  template <class T, class Op>
  using staging = std::conditional_t<
      std::is_same_v<T, float>,
      std::conditional_t<tensor_copies<T, Op>, staged_by_tensor_copies<primitives, team, R<T, Op>, packs<T, Op>>,
                         packs<T, Op>>,
      std::conditional_t<pixel_quads<T, Op>,
                         staged_by_packs<team, 2, 4, copy_asynchronously<primitives>, staged_as_pixels>,
                         staged_by_elements<team, 2, 4>>>;

  // Launch bounds. Five teams an SM (at most 51 registers a thread) for the float kernels up to
  // radius 3: without them ptxas hoists every window row's 16-byte scratch reads of a quad (92
  // registers for the 3x3, two teams an SM); with them 48, no spills up to radius 2, and 20 bytes
  // of spill stores a thread for the 7x7, which measured faster than without (0.68 of copy
  // bandwidth at five teams, 0.66 at four, 0.57 unbounded). Four (64 registers) for the kernels
  // staged by tensor copies: at 48 their wait loops made ptxas spill, and four measured 0.875-0.890
  // for the 5x5 against 0.850-0.868 at five, the 3x3 0.904 against 0.898. Larger radii and uint8
  // would spill at 48 (68-716 bytes): no bounds there.
  template <class T, class Op>
  static constexpr int teams_per_sm = tensor_copies<T, Op> ? 4 : std::is_same_v<T, float> && R<T, Op> <= 3 ? 5 : 0;
  // Small images: the uint8 kernels' tiles shrink until there are two for every multiprocessor
  // (512x768 RGB: 24 tiles of 256 x 64 -> 384 of 32 x 32). `pk_tune small` (H100, 2026-12-07,
  // 3x3 and Gaussian 5x5, gray / RGB / RGBA) at 512x768, the tiles kept -> one a multiprocessor
  // -> two: 0.25-0.45 -> 0.36-0.65 -> 0.39-0.65 of copy bandwidth (three or more: mostly less); at
  // 1920x1080, 0.27-0.45 -> 0.27-0.47 -> 0.28-0.49. The float kernels keep theirs (512x768 gray:
  // 48 tiles of 256 x 32): shrinking them measured at most +0.06 (`pk_tune small`, 2026-12-06).
  template <class T, class Op>
  static std::int64_t min_tiles(const Kokkos::Cuda& space) {
    return pixel_quads<T, Op> ? 2 * cuda_multiprocessors(space) : 0;
  }
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION static void run_tile(const F& f) {
    f();
  }
};

template <>
struct filter_policy<Kokkos::Cuda> : cuda_filter_policy {};

}  // namespace pk::detail
