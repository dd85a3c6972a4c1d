// The GEMM policies, shrunk and run on the host: the CPUs' packed panels with an odd thread tile
// (scalar fragments) and with several thread tiles of SIMD vectors (C accumulated over K steps),
// the GPU's two stages through registers and fragments loaded a k ahead with one thread tile per
// thread (accumulators kept over all K steps), two threads along N, and several tiles a thread;
// each policy cuts K into parts where C has 4 block tiles or fewer (split-K: partial Cs, then their
// sum). The CUDA policy (backends/cuda/cuda_gemm_policy.hpp) takes these paths with its own numbers.
#include <pk/matmul.hpp>

#include "matmul/matmul_impl.hpp"
#include "matmul/copy_prefetch.hpp"
#include "matmul_reference.hpp"
#include "test_support.hpp"

namespace {

namespace d = pk::detail;

// Packed panels (one thread), thread tiles of TM x TN, block tiles of BM x BN thread tiles, K steps
// of TK; B's rows held as Values.
template <class T, int TM, int TN, int BM, int BN, int TK, class Value = T>
struct panels {
  static constexpr int ThreadM = TM, ThreadN = TN, TileM = BM * TM, TileN = BN * TN, TileK = TK, TeamSize = 1;
  using thread_tiles = d::thread_tile_layout<TileM, TileN, ThreadM, ThreadN, ThreadM, ThreadN, false>;
  template <class Gemm>
  using staging = d::staged_steps<Gemm, d::staged_tile_layout<TileM, TileK, ThreadM, 0>,
                                  d::staged_tile_layout<TileN, TileK, ThreadN, 0>, 1, 64, d::copy_panels>;
  using fragments = d::tile_fragments<T, thread_tiles, Value, ThreadM, ThreadN, 0, 0>;
  using launch = Kokkos::Schedule<Kokkos::Static>;
  using split_k = d::split_k_teams<8, 1>;  // C of 4 block tiles or fewer: K in parts
};
// An odd thread tile, one per block, scalars.
template <class T>
using one_thread_odd = panels<T, 3, 5, 1, 1, 7>;
// 2 x 3 thread tiles of two 16-byte vectors' width a block.
template <class T>
using one_thread_six_tiles = panels<T, 2, 32 / int(sizeof(T)), 2, 3, 5, typename d::simd_vector<T, 16>::type>;

// The register prefetch into two stages and pack fragments loaded a k ahead: thread tiles of 2 x 2 packs
// (SubM x SubN), Threads teams' threads along N, Tiles thread tiles a thread.
template <class T, int ThreadsN, int Tiles>
struct prefetch {
  static constexpr int Vec = d::pack<T>::size;
  static constexpr int ThreadM = 2 * Vec, ThreadN = 2 * Vec, TileM = ThreadM * Tiles, TileN = ThreadsN * ThreadN;
  static constexpr int TileK = 2 * Vec, TeamSize = ThreadsN;
  using thread_tiles = d::thread_tile_layout<TileM, TileN, ThreadM, ThreadN, Vec, Vec, true>;
  template <class Gemm>
  using staging = d::staged_steps<Gemm, d::staged_tile_layout<TileM, TileK, TileM, Vec>,
                                  d::staged_tile_layout<TileN, TileK, TileN, 0>, 2, 16, d::copy_prefetch>;
  using fragments = d::tile_fragments<T, thread_tiles, T, TileM + Vec, TileN, TileK, 1>;
  using launch = Kokkos::Schedule<Kokkos::Static>;
  using split_k = d::split_k_teams<8, 1>;
};

template <class Policy, class Exec, class T>
void check_policy(Exec space) {
  // Shapes around the tiles, and multiples of 4 (rows of whole 16-byte packs: the vector loads).
  const std::pair<std::int64_t, std::int64_t> mn[] = {{1, 1}, {8, 8}, {13, 9}, {17, 23}, {32, 24}};
  for (auto [m, n] : mn)
    for (std::int64_t k : {1, 4, 5, 19, 40})
      for (pk::op op_a : {pk::op::none, pk::op::transpose})
        for (pk::op op_b : {pk::op::none, pk::op::transpose})
          for (double alpha : {1.0, 2.5, -0.5})
          for (double beta : {0.0, 1.0, -0.5}) {
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            CAPTURE(alpha);
            CAPTURE(beta);
            const pk_test::gemm_case<T> g(op_a, op_b, m, n, k);
            const auto c_before = beta == 0 ? pk_test::poisoned<T>(m * n) : pk_test::random_vector<T>(m * n);
            auto c = c_before;
            const bool ta = op_a == pk::op::transpose, tb = op_b == pk::op::transpose;
            pk::matrix_view<const T, Exec> a(g.a.data(), ta ? k : m, ta ? m : k), b(g.b.data(), tb ? n : k, tb ? k : n);
            pk::matrix_view<T, Exec> cv(c.data(), m, n);
            pk::detail::launch_gemm<Exec, T, Policy>(space, op_a, op_b, static_cast<T>(alpha), a, b, static_cast<T>(beta), cv, k);
            space.fence();
            CHECK(pk_test::gemm_errors(g, alpha, beta, c_before, c) == 0);
          }
}

}  // namespace

TEST_CASE_TEMPLATE("GEMM by packed panels: an odd thread tile, several tiles a thread (Serial)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<one_thread_odd<T>, Kokkos::Serial, T>(Kokkos::Serial());
  check_policy<one_thread_six_tiles<T>, Kokkos::Serial, T>(Kokkos::Serial());
}

TEST_CASE_TEMPLATE("GEMM by register prefetch and packs, one thread: one and two tiles (Serial)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<prefetch<T, 1, 1>, Kokkos::Serial, T>(Kokkos::Serial());
  check_policy<prefetch<T, 1, 2>, Kokkos::Serial, T>(Kokkos::Serial());
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE_TEMPLATE("GEMM by register prefetch and packs, teams of two threads (OpenMP)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  if (Kokkos::OpenMP::concurrency() < 2) {
    MESSAGE("OpenMP runs one thread: teams of two cannot be formed, skipped");
    return;
  }
  check_policy<prefetch<T, 2, 1>, Kokkos::OpenMP, T>(Kokkos::OpenMP());
}
#endif
