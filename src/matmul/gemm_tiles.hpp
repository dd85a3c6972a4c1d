#pragma once
// GEMM tile shapes, per execution space and value type. GemmTile (matmul_functors.hpp) reads the
// whole tiling from here, so tuning a backend means changing numbers in one place:
//
//   C (m x n) is cut into block tiles of TileM x TileN, one per team;
//   each block tile is cut into thread tiles of ThreadM x ThreadN, the register block of one thread;
//   K is walked in steps of TileK: the team stages an op(A) tile (TileM x TileK) and an op(B) tile
//   (TileK x TileN) in team scratch memory, and every thread multiplies its thread tile out of them.
//
// How the staged tiles lie in scratch: op(A) is stored transposed (k-major, rows of m) and op(B)
// k-major (rows of n), so that for each k a thread reads ThreadM contiguous values of A and ThreadN
// contiguous values of B. Each tile is cut into panels PanelA (PanelB) wide, each panel TileK rows of
// PanelA + PadA elements: a GPU uses one panel per tile with padding against shared-memory bank
// conflicts; a CPU uses one panel per thread tile (no padding), so that a thread tile's operands are
// one contiguous stream (the packed panels of GotoBLAS/BLIS).
//
// Backends specialize gemm_tiles for their execution space (backends/cuda/gemm_tiles_cuda.hpp);
// everything else gets these host defaults.
#include <cstddef>

namespace pk::detail {

// The host vector register width the compiler targets: the thread tile's rows are ThreadN values,
// two vector registers wide, so that ThreadM x 2 accumulator registers plus the operands fit in the
// register file (32 registers with AVX-512, 16 with AVX2/SSE).
#if defined(__AVX512F__)
inline constexpr int host_vector_bytes = 64;
inline constexpr int host_thread_m = 12;  // 12 x 2 accumulators + 2 B registers + 1 broadcast of 32
#elif defined(__AVX__)
inline constexpr int host_vector_bytes = 32;
inline constexpr int host_thread_m = 6;  // 6 x 2 accumulators + 2 + 1 of 16 (the classic 6x16 kernel)
#else
inline constexpr int host_vector_bytes = 16;
inline constexpr int host_thread_m = 6;
#endif

// Host defaults (Serial, OpenMP): a team is one thread, which walks all thread tiles of its block
// tile. The block tile is the GotoBLAS macro-tile: op(A) TileM x TileK and op(B) TileK x TileN are
// packed once per K step (TileK = kc) and reused by TileN/ThreadN (resp. TileM/ThreadM) thread
// tiles; together they stay in the per-core L2 cache (2 MiB here), while one thread tile's B panel
// (TileK x ThreadN) stays in L1 as the thread walks down the A panels.
template <class Exec, class T>
struct gemm_tiles {
  // Thread tile (register block).
  static constexpr int ThreadM = host_thread_m;
  static constexpr int ThreadN = 2 * host_vector_bytes / static_cast<int>(sizeof(T));
  // Block tile.
  static constexpr int TileM = 32 * ThreadM;
  static constexpr int TileN = 16 * ThreadN;
  static constexpr int TileK = 256;
  // Threads per team.
  static constexpr int TeamSize = 1;
  // GemmTile (false) or GemmPipelined (true, src/matmul/gemm_pipelined.hpp: for GPUs).
  static constexpr bool Pipelined = false;
  // Scratch layout (see above).
  static constexpr int PanelA = ThreadM, PadA = 0;
  static constexpr int PanelB = ThreadN, PadB = 0;
};

}  // namespace pk::detail
