#pragma once
// The GEMM policy for Kokkos::Cuda (what src/matmul/gemm_policy.hpp asks a backend to choose),
// chosen for Hopper (H200, sm_90); bench/results/h200.md has the measurements.
//
// float: the classic 128 x 128 block tile of 256 threads, each accumulating 8 x 8 (2 x 2 sub-tiles
// of 4 x 4) in registers: 64 FMAs per 4 shared-memory pack loads per K element. TileK = 16 halves
// the barriers per FMA against 8; two stages of (16 x 132) x 2 floats are 33 KB of shared memory,
// and at <= 128 registers (launch bounds of two teams an SM: the kernel uses 128, no spills, per
// -Xptxas -v) two teams share an SM, each hiding the other's barrier and load latency.
// double: registers hold half as many, so 64 x 64 blocks of 4 x 4 thread tiles.
// The padding of each staged row (16 bytes) shifts consecutive K rows by 4 banks, which keeps the
// transposing stores of A conflict-free while rows stay 16-byte aligned for pack loads.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "core/pack.hpp"
#include "matmul/copy_prefetch.hpp"
#include "matmul/gemm_fragments.hpp"
#include "matmul/gemm_functor.hpp"
#include "matmul/gemm_policy.hpp"
#include "matmul/gemm_staging.hpp"
#include "matmul/split_k.hpp"
#include "cuda/cuda_multiprocessors.hpp"
#include "cuda/cuda_primitives.hpp"
#include "cuda/cuda_streams.hpp"

namespace pk::detail {

// TileM x TileN block tiles of ThreadM x ThreadN thread tiles, K steps of TileK, MinTeams teams an
// SM (launch bounds), split-K until those fill the GPU.
template <class T, int TileM_, int TileN_, int ThreadM_, int ThreadN_, int MinTeams, int TileK_ = 16>
struct cuda_gemm_policy {
  static constexpr int Vec = pack<T>::size, Pad = Vec;
  static constexpr int ThreadM = ThreadM_, ThreadN = ThreadN_, TileM = TileM_, TileN = TileN_, TileK = TileK_;
  static constexpr int TeamSize = (TileM / ThreadM) * (TileN / ThreadN);
  using thread_tiles = thread_tile_layout<TileM, TileN, ThreadM, ThreadN, Vec, Vec, true>;
  template <class Gemm>
  using staging = staged_steps<Gemm, staged_tile_layout<TileM, TileK, TileM, Pad>, staged_tile_layout<TileN, TileK, TileN, Pad>,
                               2, 16, copy_prefetch>;
  using fragments = tile_fragments<T, thread_tiles, T, TileM + Pad, TileN + Pad, TileK, 1>;
  using launch = Kokkos::LaunchBounds<TeamSize, MinTeams>;
  // MinTeams teams an SM (2048 threads): C with at most half as many block tiles as that cuts K
  // into parts of 8 steps or more until the SMs are full.
  using split_k = split_k_occupancy<2048 / MinTeams, 8>;
};

// double on the FP64 tensor cores: TileM x TileN block tiles of warp tiles of WarpM x WarpN, each
// warp multiplying by mma.sync.m16n8kK (cuda_primitives::warp_mma), two stages through registers
// as above. Rows padded by 4 doubles (TileM + 4 = 4 mod 16): the 4 k's of a fragment load land on
// different banks. MinTeams teams an SM.
template <int TileM_, int TileN_, int TileK_, int WarpM, int WarpN, int MmaK, int MinTeams>
struct cuda_mma_gemm_policy {
  static constexpr int Pad = 4;
  static constexpr int TileM = TileM_, TileN = TileN_, TileK = TileK_;
  using thread_tiles = warp_tile_layout<TileM, TileN, WarpM, WarpN, cuda_primitives::warp_mma<MmaK>>;
  static constexpr int ThreadM = thread_tiles::ThreadM, ThreadN = thread_tiles::ThreadN, TeamSize = thread_tiles::Count;
  template <class Gemm>
  using staging = staged_steps<Gemm, staged_tile_layout<TileM, TileK, TileM, Pad>, staged_tile_layout<TileN, TileK, TileN, Pad>,
                               2, 16, copy_prefetch>;
  using fragments = warp_fragments<double, thread_tiles, TileM + Pad, TileN + Pad, TileK, 1>;
  using launch = Kokkos::LaunchBounds<TeamSize, MinTeams>;
  using split_k = split_k_occupancy<2048 / MinTeams, 8>;
};

// float: 128 x 128 blocks of 8 x 8 thread tiles, two teams an SM, where C has a block tile for
// every multiprocessor; 128 x 64 blocks of them, three teams an SM, where C has at most 64 columns
// and a 128 x 64 block for every multiprocessor (a convolution's forward GEMM: 30976 x 64 x 288
// 0.98 of cublasSgemm against 0.57 on 128 x 128, H100, 2026-12-07; four teams an SM spill 168
// bytes a thread); else smaller blocks of 4 x 4 thread tiles, four teams an SM: 32 x 128 for a
// C of at most 32 rows, 64 x 64 otherwise (pk_tune gemm, H100, 2026-12-06, ratio to cublasSgemm,
// 128 x 128 against the chosen: 256^3 0.58 against 0.80, 200x300x170 0.58 against 0.98,
// 4096x64x4096 0.43 against 0.67, 1x4096x4096 0.21 against 0.51). For a C of at most 4 rows
// (GEMV-like) 4 x 128 blocks of one warp, K cut for 16 of them an SM, measured 0.63 against 0.48
// for 32 x 128 (1x4096x4096, one run, launch bounds of 8 teams an SM); not chosen: with launch
// bounds of 16 teams an SM, Kokkos refused the launch ("requested too large team size": 16 teams'
// 18 KB of scratch exceed an SM's), which test_matmul_tiles caught on the GPU. A C of at most
// 32 x 32 (the first CNN layer's weight gradient: 32 x 9 over K = 173056 window pixels) on 32 x 32
// blocks of 64 threads, sixteen teams an SM, K in more parts: that pass took 0.061 ms against
// 0.152 on 32 x 128 blocks, 119 of whose 128 columns lay outside C (H100, 2026-12-07, one
// `pk bench --only conv2d` of each in one session: 0.47 -> 1.16 of cuDNN; `pk_tune gemm` on the
// same GEMM: 32 x 64 0.092 ms; 32 x 16 at 32 teams an SM was refused the launch).
template <>
struct gemm_policy<Kokkos::Cuda, float> : cuda_gemm_policy<float, 128, 128, 8, 8, 2> {
  using large = cuda_gemm_policy<float, 128, 128, 8, 8, 2>;
  using few_rows = cuda_gemm_policy<float, 32, 128, 4, 4, 4>;
  using few_columns = cuda_gemm_policy<float, 32, 32, 4, 4, 16>;
  using few_tiles = cuda_gemm_policy<float, 64, 64, 4, 4, 4>;
  using narrow = cuda_gemm_policy<float, 128, 64, 8, 8, 3>;
  template <class Run>
  static void for_shape(const Kokkos::Cuda& space, std::int64_t m, std::int64_t n, std::int64_t, Run&& run) {
    if (m <= few_columns::TileM && n <= few_columns::TileN)
      run(policy_tag<few_columns>{});
    else if (m <= few_rows::TileM)
      run(policy_tag<few_rows>{});
    else if (n <= narrow::TileN && block_tiles<narrow>(m, n) >= cuda_multiprocessors(space))
      run(policy_tag<narrow>{});
    else if (block_tiles<large>(m, n) < cuda_multiprocessors(space))
      run(policy_tag<few_tiles>{});
    else
      run(policy_tag<large>{});
  }
};
// Doubles: on Hopper (the f64 mma.sync shapes need sm_90) 128 x 64 x 8 blocks of 64 x 32 warp
// tiles by m16n8k8, two teams an SM (H100, 2026-12-06: 0.67 / 0.66 / 0.81 of cublasDgemm at 4096^3,
// 8192^3, 5000x3000x7001; 128 x 128 blocks at one team an SM 0.64 / 0.65 / 0.72, m16n8k4 0.01-0.02
// below m16n8k8). C with fewer than 16 of those blocks: 32 x 64 blocks of 16 x 32 warp tiles, four
// teams an SM (256^3: 0.71 against 0.61; at 4096x64x4096 the large blocks were best). Other GPUs
// the FP64 FMAs' 64 x 64 x 16 of 4 x 4 thread tiles.
#if defined(KOKKOS_ARCH_HOPPER90)
template <>
struct gemm_policy<Kokkos::Cuda, double> : cuda_mma_gemm_policy<128, 64, 8, 64, 32, 8, 2> {
  using large = cuda_mma_gemm_policy<128, 64, 8, 64, 32, 8, 2>;
  using few_tiles = cuda_mma_gemm_policy<32, 64, 8, 16, 32, 8, 4>;
  template <class Run>
  static void for_shape(const Kokkos::Cuda&, std::int64_t m, std::int64_t n, std::int64_t, Run&& run) {
    if (block_tiles<large>(m, n) < 16)
      run(policy_tag<few_tiles>{});
    else
      run(policy_tag<large>{});
  }
};
#else
template <>
struct gemm_policy<Kokkos::Cuda, double> : cuda_gemm_policy<double, 64, 64, 4, 4, 2> {};
#endif

}  // namespace pk::detail
