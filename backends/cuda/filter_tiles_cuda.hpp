#pragma once
// GPU tile shape of the filter kernels: the register tiles of src/filter/filter_register_tiles.hpp.
// Included by backends/cuda/cuda_filter.cpp before the kernels. Chosen on the H200 with
// bench/tune (bench/results/h200.md has the sweep).
#include <Kokkos_Core.hpp>

#include "filter/filter_tiles.hpp"

namespace pk::detail {

template <>
struct filter_tiles<Kokkos::Cuda> {
  // 256 x 32 output pixels per team of 8 warps: a warp's 32 lanes take consecutive elements of a
  // row (8 per lane across 256 pixels), each warp a group of 4 rows, so each thread holds 8 columns
  // of 4 outputs in turn. Wide tiles keep the halo small (3x3: 258 x 34 staged for 256 x 32, 35 KB);
  // measured on the H200 against 128 x 32, 256 x 16, 64 x 32 and others (bench/results/h200.md).
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
  // team reductions); at 35 KB six teams share an SM's 228 KB.
  static constexpr std::size_t ScratchLimit = 48 * 1024;
};

}  // namespace pk::detail
