#pragma once
// GPU tile shape of the filter kernels (a starting point; to be tuned on the H200).
// Included by backends/cuda/cuda_filter.cpp before the kernels.
#include <Kokkos_Core.hpp>

#include "filter/filter_tiles.hpp"

namespace pk::detail {

template <>
struct filter_tiles<Kokkos::Cuda> {
  // 32 x 32 output pixels per block of 8 warps (TeamSize 8 x VectorLength 32 = 256 threads):
  // a warp takes whole rows, its 32 lanes consecutive elements, so image loads, scratch reads and
  // stores are contiguous (conflict-free in shared memory); each thread computes 4 or more
  // outputs (32 rows / 8 warps, times channels). Staged tile plus row-pass buffer: 14 KB for one
  // channel at r=7; 4-channel, wide-halo cases drop rows until they fit in shared memory.
  static constexpr int TileW = 32;
  static constexpr int TileH = 32;
  static constexpr int TeamSize = 8;
  static constexpr int VectorLength = 32;
  static constexpr int Chunk = 1;  // one output per lane per step: lanes, not registers, run along a row
  static constexpr bool ScratchIsSharedMemory = true;
};

}  // namespace pk::detail
