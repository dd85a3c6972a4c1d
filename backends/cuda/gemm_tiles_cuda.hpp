#pragma once
// GEMM tiles for Kokkos::Cuda (the layering is described in src/matmul/gemm_tiles.hpp).
// A starting point for Hopper, to be tuned on the H200: the classic 128x128 block tile of 256
// threads, each accumulating an 8x8 thread tile in registers (64 accumulators, one thread tile per
// thread so they persist across all K steps). TileK = 8 keeps the staged tiles at 2 x 8 x 132
// floats (~8.4 KB of shared memory per block), so several blocks fit per SM.
// Scratch layout: one panel per tile (A^T and B both k-major rows of 128 + 4), so for each k a
// thread reads 8 contiguous values of A and of B; the 4-element padding shifts consecutive k rows
// by 4 banks against bank conflicts while keeping 16-byte alignment for vector loads.
#include <Kokkos_Core.hpp>

#include "matmul/gemm_tiles.hpp"

namespace pk::detail {

template <class T>
struct gemm_tiles<Kokkos::Cuda, T> {
  // Thread tile (register block).
  static constexpr int ThreadM = 8, ThreadN = 8;
  // Block tile.
  static constexpr int TileM = 128, TileN = 128, TileK = 8;
  // Threads per team: one thread tile each.
  static constexpr int TeamSize = (TileM / ThreadM) * (TileN / ThreadN);  // 256
  // Scratch layout.
  static constexpr int PanelA = TileM, PadA = 4;
  static constexpr int PanelB = TileN, PadB = 4;
};

}  // namespace pk::detail
