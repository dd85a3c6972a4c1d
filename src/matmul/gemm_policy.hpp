#pragma once
// What a backend chooses for its GEMM: gemm_policy<Exec, T>, defined by each backend in
// backends/<name>/ (there is no default: a backend that forgets it does not compile). A policy
// names the tile numbers (TileM x TileN block tiles, one per team; K steps of TileK; ThreadM x
// ThreadN thread tiles; TeamSize threads), thread_tiles (where a thread tile lies in its block:
// thread_tile_layout), staging<Gemm> (how a K step reaches team scratch), fragments (how a thread
// reads its operands from there), launch (Kokkos' TeamPolicy traits: schedule, launch bounds) and
// split_k (when K is cut into parts for more teams: split_k.hpp). host_gemm_policy is the CPUs' choice, backends/cuda/cuda_gemm_policy.hpp the GPU's.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/host_vector.hpp"
#include "matmul/copy_panels.hpp"
#include "matmul/gemm_fragments.hpp"
#include "matmul/gemm_functor.hpp"
#include "matmul/gemm_staging.hpp"
#include "matmul/split_k.hpp"

namespace pk::detail {

template <class Exec, class T>
struct gemm_policy;

// Which policy runs a shape. A backend whose best tiles depend on the shape (the GPU's: C with few
// large block tiles leaves multiprocessors idle) gives its gemm_policy a static
// for_shape(space, m, n, k, run) that calls run(policy_tag<P>{}) with the policy P to run; for
// others gemm_policy itself runs every shape.
template <class Policy>
struct policy_tag {
  using type = Policy;
};

struct any_policy_run {
  template <class Tag>
  void operator()(Tag) const {}
};

template <class Policy, class Exec, class = void>
struct chooses_by_shape : std::false_type {};
template <class Policy, class Exec>
struct chooses_by_shape<Policy, Exec,
                        std::void_t<decltype(Policy::for_shape(std::declval<const Exec&>(), std::int64_t(), std::int64_t(),
                                                               std::int64_t(), any_policy_run()))>> : std::true_type {};

// C's block tiles under Policy's TileM x TileN (what shape choices compare).
template <class Policy>
constexpr std::int64_t block_tiles(std::int64_t m, std::int64_t n) {
  return ((m + Policy::TileM - 1) / Policy::TileM) * ((n + Policy::TileN - 1) / Policy::TileN);
}

template <class Policy, class Exec, class Run>
void with_shape_policy(const Exec& space, std::int64_t m, std::int64_t n, std::int64_t k, Run&& run) {
  if constexpr (chooses_by_shape<Policy, Exec>::value)
    Policy::for_shape(space, m, n, k, run);
  else
    run(policy_tag<Policy>{});
}

// The thread tile's rows are ThreadN values, two host vector registers wide (core/host_vector.hpp),
// so that ThreadM x 2 accumulator registers plus the operands fit in the register file (32
// registers with AVX-512, 16 with AVX2/SSE).
inline constexpr int host_thread_m = host_vector_bytes == 64 ? 12  // 12 x 2 accumulators + 2 B registers + 1 broadcast of 32
                                                             : 6;  // 6 x 2 accumulators + 2 + 1 of 16 (the classic 6x16 kernel)

// A SIMD vector of Bytes where the compiler has GCC's vector types (the host fragments' Value);
// T otherwise.
template <class T, int Bytes>
struct simd_vector {
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
  typedef T type __attribute__((vector_size(Bytes)));
#else
  using type = T;
#endif
};

// CPUs (Serial, OpenMP): a team is one thread, which walks all thread tiles of its block tile. The
// block tile is the GotoBLAS macro-tile: op(A) TileM x TileK and op(B) TileK x TileN are packed
// once per K step (TileK = kc) and reused by TileN/ThreadN (resp. TileM/ThreadM) thread tiles;
// together they stay in the per-core L2 cache (2 MiB here), while one thread tile's B panel
// (TileK x ThreadN) stays in L1 as the thread walks down the A panels. Teams go to threads
// dynamically (block tiles at C's edges are cheaper). BlocksM x BlocksN thread tiles a block.
template <class T, int BlocksM, int BlocksN>
struct host_gemm_tiles {
  static constexpr int ThreadM = host_thread_m;
  static constexpr int ThreadN = 2 * host_vector_bytes / static_cast<int>(sizeof(T));
  static constexpr int TileM = BlocksM * ThreadM, TileN = BlocksN * ThreadN, TileK = 256, TeamSize = 1;
  using thread_tiles = thread_tile_layout<TileM, TileN, ThreadM, ThreadN, ThreadM, ThreadN, false>;
  template <class Gemm>
  using staging = staged_steps<Gemm, staged_tile_layout<TileM, TileK, ThreadM, 0>, staged_tile_layout<TileN, TileK, ThreadN, 0>,
                               1, 64, copy_panels>;
  using fragments = tile_fragments<T, thread_tiles, typename simd_vector<T, host_vector_bytes>::type, ThreadM, ThreadN, 0, 0>;
  using launch = Kokkos::Schedule<Kokkos::Dynamic>;
  // C with 16 block tiles or fewer and a K of 16 steps (4096) or more (a convolution's weight
  // gradient over a batch) cuts K into parts of at least 8 steps for 32 teams: a fixed count, so
  // that Serial and OpenMP cut alike (the same bits). Shorter parts cost more than they bring here:
  // their partial Cs leave the cache (1000x700x1500 in 3 parts took 2.5x as long on 2 cores).
  using split_k = split_k_teams<32, 8>;
};

// Blocks of 32 x 16 thread tiles (AVX-512 floats: 384 x 512), or of 8 x 8 where C has fewer of
// those than the backend has threads (1000 x 700 is 6 large blocks, which left 10 of 16 cores idle:
// sgemm 0.48 of OpenBLAS there), and K is too short for split-K (under 2 x 8 steps). Either way a
// value of C sums the same K steps in the same order, and split-K (the one thing that changes
// that order) is not in play: Serial and OpenMP give the same bits whatever their thread count.
// On 2 cores the small blocks cost 10-20% (AVX2 doubles: 48 x 64, packing that no longer pays
// for itself), so they are taken only where threads would otherwise idle.
template <class T>
struct host_gemm_policy : host_gemm_tiles<T, 32, 16> {
  using large = host_gemm_tiles<T, 32, 16>;
  using small = host_gemm_tiles<T, 8, 8>;
  template <class Exec, class Run>
  static void for_shape(const Exec& space, std::int64_t m, std::int64_t n, std::int64_t k, Run&& run) {
    const std::int64_t steps = (k + large::TileK - 1) / large::TileK;
    if (block_tiles<large>(m, n) < static_cast<std::int64_t>(space.concurrency()) && steps < 2 * large::split_k::min_steps)
      run(policy_tag<small>{});
    else
      run(policy_tag<large>{});
  }
};

}  // namespace pk::detail
