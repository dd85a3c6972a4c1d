#pragma once
// GPU tile shape of the filter kernels: the register tiles of src/filter/filter_register_tiles.hpp.
// Included by backends/cuda/cuda_filter.cpp before the kernels. Chosen on the H200 with
// bench/tune (bench/results/h200.md has the sweep).
#include <Kokkos_Core.hpp>

#include "filter/filter_tiles.hpp"

namespace pk::detail {

template <>
struct filter_tiles<Kokkos::Cuda> {
  // 128 x 32 output pixels per team of 8 warps: a warp's 32 lanes take consecutive elements of a
  // row (4 per lane across 128 pixels), each warp a group of 4 rows, so each thread holds 4 x 4
  // outputs in registers. Wide tiles keep the halo small (3x3: 130 x 34 staged for 128 x 32).
  static constexpr int TileW = 128;
  static constexpr int TileH = 32;
  static constexpr int TeamSize = 256;
  static constexpr int VectorLength = 1;  // the functors split the team themselves (Lanes, warps)
  static constexpr int Lanes = 32;
  static constexpr int RowsPerThread = TileH / (TeamSize / Lanes);  // 4
  static constexpr bool RegisterTiles = true;
  static constexpr int Chunk = 1;
  static constexpr bool ScratchIsSharedMemory = true;
  // 48 KB: the static shared-memory limit; more needs opting in per kernel, and at this size up
  // to 4 teams (1024 threads) share an SM's 228 KB.
  static constexpr std::size_t ScratchLimit = 48 * 1024;
};

}  // namespace pk::detail
