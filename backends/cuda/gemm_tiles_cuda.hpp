#pragma once
// GEMM tiles for Kokkos::Cuda: GemmPipelined (src/matmul/gemm_pipelined.hpp), whose comment
// draws the layout. Chosen for Hopper (H200, sm_90); bench/results/h200.md has the measurements.
//
// float: the classic 128 x 128 block tile of 256 threads, each accumulating 8 x 8 (2 x 2 sub-tiles
// of 4 x 4) in registers: 64 FMAs per 4 shared-memory pack loads per K element. TileK = 16 halves
// the barriers per FMA against 8; two stages of (16 x 132) x 2 floats are 33 KB of shared memory,
// and at <= 128 registers (LaunchBounds<256, 2>: the kernel uses 128, no spills, per -Xptxas -v)
// two teams share an SM, each hiding the other's barrier and load latency.
// double: registers hold half as many, so 64 x 64 blocks of 4 x 4 thread tiles.
// The 4-element (16-byte) padding of each staged row shifts consecutive K rows by 4 banks, which
// keeps the transposing stores of A conflict-free while rows stay 16-byte aligned for pack loads.
#include <Kokkos_Core.hpp>

#include "matmul/gemm_tiles.hpp"

namespace pk::detail {

template <>
struct gemm_tiles<Kokkos::Cuda, float> {
  static constexpr bool Pipelined = true;
  static constexpr int ThreadM = 8, ThreadN = 8;
  static constexpr int TileM = 128, TileN = 128, TileK = 16;
  static constexpr int TeamSize = (TileM / ThreadM) * (TileN / ThreadN);  // 256
  static constexpr int MinTeamsPerSM = 2;
  static constexpr int PadA = 4, PadB = 4;
};

template <>
struct gemm_tiles<Kokkos::Cuda, double> {
  static constexpr bool Pipelined = true;
  static constexpr int ThreadM = 4, ThreadN = 4;
  static constexpr int TileM = 64, TileN = 64, TileK = 16;
  static constexpr int TeamSize = (TileM / ThreadM) * (TileN / ThreadN);  // 256
  static constexpr int MinTeamsPerSM = 2;
  static constexpr int PadA = 2, PadB = 2;
};

}  // namespace pk::detail
