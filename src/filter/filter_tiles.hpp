#pragma once
// Tile shapes of the filter kernels, per execution space. These are the host defaults (Serial,
// OpenMP); backends/cuda/filter_tiles_cuda.hpp specializes them for Kokkos::Cuda and is included
// by the cuda backend before the kernels.
//
// One team computes one output tile of TileH x TileW pixels (all channels). It stages the tile
// plus a halo of r = size/2 pixels on every side in team scratch memory, then computes every
// output of the tile from there. Team threads take rows; the vector lanes of a thread take
// consecutive Chunk-wide runs of one row (channels interleaved), so loads from the image and from
// scratch are contiguous.
#include <cstddef>

namespace pk::detail {

template <class Exec>
struct filter_tiles {
  // Host: one thread per team and large tiles. The staged tile plus the row-pass buffer
  // (C=4, r=7: 78 x 1080 x 4 B + 78 x 1024 x 4 B, about 650 KB) stays within a core's L2, and
  // 64 rows make the halo rows the separable row pass computes twice cost 22% at r=7, 3% at r=1.
  // Measured on 4096 x 4096 float (one core, CPU time): 256 x 64 beat 512 x 64, 1024 x 32,
  // 1024 x 64, 2048 x 16 and 4096 x 16 by 5-40% on the separable filters.
  static constexpr int TileW = 256;
  static constexpr int TileH = 64;
  static constexpr int TeamSize = 1;
  static constexpr int VectorLength = 1;
  // Outputs one lane computes per step, consecutive along a row: a fixed-length inner loop that
  // the compiler turns into SIMD registers of independent accumulators (64 floats = 8 AVX2 or
  // 4 AVX-512 registers, enough to hide the FMA latency; 32 measured the same).
  static constexpr int Chunk = 64;
  // Host team scratch is ordinary memory: Kokkos' level-0 "maximum" there is only an L1 hint,
  // so tiles are not shrunk to it. On GPUs it is shared memory, and rows are dropped until
  // the team's scratch fits.
  static constexpr bool ScratchIsSharedMemory = false;
  static constexpr std::size_t ScratchLimit = 0;  // (only with ScratchIsSharedMemory)
  // The run-based functors of filter_functors.hpp (false), or the register tiles of
  // filter_register_tiles.hpp (true: GPUs), whose threads split a tile as Lanes along a row and
  // TeamSize / Lanes groups of RowsPerThread rows down it.
  static constexpr bool RegisterTiles = false;
  static constexpr int Lanes = 1, RowsPerThread = 1;
  static constexpr bool Pipelined = false;
  // Register tiles on a GPU, staged by packs (tile_staging.hpp): whether the kernels of element
  // type T and radius R copy the packs by asynchronous copies (cp.async) instead of loads and
  // stores through registers.
  template <class T, int R>
  static constexpr bool async_staging = false;
  // Register tiles, one tile per team, on a GPU with a tensor memory accelerator (Hopper on):
  // whether the one-channel convolutions of element type T and radius R stage whole tiles by 2D
  // tensor copies (tile_tensor_copy.hpp; those kernels' launch bounds are then TensorTeamsPerSM
  // teams an SM, which only such Tiles define).
  template <class T, int R>
  static constexpr bool tensor_staging = false;
  // Register tiles only: 16-byte loads a thread has in flight when it stages a tile of element
  // type T by packs (tile_staging.hpp); 0: element by element.
  template <class T>
  static constexpr int StagePacks = 0;
  // Register tiles, one tile per team only: launch bounds of at least this many teams an SM for
  // the kernel of element type T and radius R (0: none).
  template <class T, int R>
  static constexpr int min_teams_per_sm = 0;
  // (Register tiles only: Pipelined true, StageSlots, MinTeamsPerSM, concurrent_teams and
  // SeparableFromRadius, described in backends/cuda/filter_tiles_cuda.hpp.)
};

}  // namespace pk::detail
