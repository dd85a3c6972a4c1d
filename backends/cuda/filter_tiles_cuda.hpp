#pragma once
// GPU tile shape of the filter kernels: the register tiles of src/filter/filter_register_tiles.hpp,
// one tile per team (the pipelined tile loop of src/filter/tile_pipeline.hpp is off: Pipelined).
// Included by backends/cuda/cuda_filter.cpp before the kernels. Chosen on the H200 with
// bench/tune (bench/results/h200.md has the sweep).
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "filter/filter_tiles.hpp"

namespace pk::detail {

template <>
struct filter_tiles<Kokkos::Cuda> {
  // 256 x 32 output pixels per team of 8 warps: a warp's 32 lanes take consecutive elements of a
  // row (8 per lane across 256 pixels), each warp a group of 4 rows, so each thread holds 8 columns
  // of 4 outputs in turn (one-channel float: 2 quads of 4 x 4). Wide tiles keep the halo small
  // (3x3: 264 x 34 staged for 256 x 32, 36 KB); measured on the H200 against 128 x 32, 256 x 16,
  // 64 x 32 and others (bench/results/h200.md).
  static constexpr int TileW = 256;
  static constexpr int TileH = 32;
  static constexpr int TeamSize = 256;
  static constexpr int VectorLength = 1;  // the functors split the team themselves (Lanes, warps)
  static constexpr int Lanes = 32;
  static constexpr int RowsPerThread = TileH / (TeamSize / Lanes);  // 4
  static constexpr bool RegisterTiles = true;
  static constexpr int Chunk = 1;
  static constexpr bool ScratchIsSharedMemory = true;
  // 48 KB: the shared memory a block gets without opting in (Kokkos keeps 8 KB of it for its own
  // team reductions); at 36 KB six teams fit an SM's 228 KB (five run: the launch bounds below).
  static constexpr std::size_t ScratchLimit = 48 * 1024;
  // One tile per team (src/filter/tile_pipeline.hpp): the pipelined variant measured slower on the
  // H200 (3x3 0.51 of copy bandwidth against 0.60, 5x5 0.41 against 0.49; bench/results/h200.md).
  static constexpr bool Pipelined = false;
  // Float tiles are staged by 16-byte packs (LDG.128 and STS.128, 4 floats a load), each thread
  // with 10 loads in flight before it stores them: a 3x3 or 5x5 tile (34 or 36 rows of 66 packs)
  // in one round trip. uint8 is staged element by element: 16-byte packs of 16 pixels, converted
  // to 16 floats each, took its kernels past 100 registers and measured slower (RGB 3x3: 0.16 of
  // copy bandwidth against 0.22; bench/results/h200.md, step 9).
  template <class T>
  static constexpr int StagePacks = std::is_same_v<T, float> ? 10 : 0;
  // From radius 2 the packs go by cp.async.cg (global to shared memory, bypassing L1, no
  // registers): measured on the H200, 5x5 0.68 -> 0.74 of copy bandwidth and the separable 5x5
  // pass 0.62 -> 0.67 (ncu: L2 hit rate 60% -> 73%, same instructions), while the 3x3 and Sobel
  // lost 0.04-0.06 that way (bench/results/h200.md, step 14). With the copies' L2 prefetch hint
  // (tile_staging.hpp, step 22) the 5x5 measures 0.82 and a 3x3 staged that way still loses (0.84
  // against 0.87).
  template <class T, int R>
  static constexpr bool async_staging = std::is_same_v<T, float> && R >= 2;
  // The 3x3's and 5x5's whole tiles go by the tensor memory accelerator instead
  // (tile_tensor_copy.hpp): two 2D boxes (5x5: 36 x 136 floats) copied by one thread, no staging
  // instructions in the others, the border of edge tiles filled in scratch. Measured on the H200:
  // 5x5 0.82 -> 0.85 with the tiles inside the image, 0.88-0.89 with the edge tiles too (step
  // 24); the 3x3 0.87 by packs -> 0.90 (step 26; bench/results/h200.md). Sobel and the separable
  // passes are other functors and keep their packs.
  template <class T, int R>
  static constexpr bool tensor_staging = std::is_same_v<T, float> && (R == 1 || R == 2);
  // With Pipelined: each thread prefetches its share of the next tile's staged area into this many registers
  // (tile_pipeline.hpp): 40 x 256 floats hold a 3x3 or 5x5 tile (34 x 258, 36 x 260) whole. (Only
  // tiles staged without a lead are prefetched: with StagePacks, float tiles go by packs instead.)
  static constexpr int StageSlots = 40;
  // At most 85 registers a thread (LaunchBounds), so three teams of 256 always fit an SM (and
  // their scratch, at most 48 KB each, does too): the persistent league is three teams an SM.
  static constexpr int MinTeamsPerSM = 3;
  // One tile per team: launch bounds of five teams an SM (at most 51 registers a thread) for the
  // float kernels up to radius 3. Without them ptxas hoists every window row's 16-byte scratch
  // reads of a quad (-Xptxas -v: 92 registers for 3x3, two teams an SM); with them 48 registers,
  // no spills up to radius 2, and 20 bytes of spill stores a thread for the 7x7 (radius 3; still
  // 16 at four teams' 64 registers), which measured faster with them than without: 0.68 of copy
  // bandwidth at five teams, 0.66 at four, 0.57 unbounded (96 registers; bench/results/h200.md,
  // step 25). Larger radii and uint8 would spill at 48 (68-716 bytes): no bounds there.
  template <class T, int R>
  static constexpr int min_teams_per_sm = std::is_same_v<T, float> && R <= 3 ? 5 : 0;
  // Four (64 registers) for the kernels staged by tensor copies: at 48 their wait loops made
  // ptxas spill (20-150 bytes), and four measured 0.875-0.890 for the 5x5 against 0.850-0.868 at
  // five (step 24), the 3x3 0.904 against 0.898 (step 26; bench/results/h200.md).
  static constexpr int TensorTeamsPerSM = 4;
  static int concurrent_teams(const Kokkos::Cuda& space) {
    return MinTeamsPerSM * space.cuda_device_prop().multiProcessorCount;
  }
  // Separable kernels take the separable path at every radius (gaussian 5x5: 0.50 of copy as
  // separable, 0.49 as the 5x5 stencil, one tile per team).
  static constexpr int SeparableFromRadius = 0;
};

}  // namespace pk::detail
