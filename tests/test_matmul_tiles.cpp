// The GPU-shaped code paths of GemmTile, run on the host: several threads per team staging
// cooperatively, accumulators kept in registers across K steps, padded single-panel scratch and the
// portable scalar thread-tile loops. The CUDA tiles (backends/cuda/gemm_tiles_cuda.hpp) take these
// paths; running small shapes of them here means a GPU build only changes the numbers.
#include <pk/matmul.hpp>

#include "matmul/matmul_impl.hpp"
#include "matmul_reference.hpp"
#include "test_support.hpp"

namespace {

// GPU-like: a team of 2 threads, one 4x8 thread tile each, K steps of 4, one padded panel per tile.
struct two_threads_registers {
  static constexpr int ThreadM = 4, ThreadN = 8, TileM = 8, TileN = 8, TileK = 4, TeamSize = 2;
  static constexpr int PanelA = TileM, PadA = 3, PanelB = TileN, PadB = 1;
  static constexpr bool Pipelined = false;
};
// A team of 2 threads with 3 thread tiles each: C accumulates across K steps, cooperative staging.
struct two_threads_three_tiles {
  static constexpr int ThreadM = 2, ThreadN = 3, TileM = 6, TileN = 6, TileK = 5, TeamSize = 2;
  static constexpr int PanelA = TileM, PadA = 1, PanelB = TileN, PadB = 2;
  static constexpr bool Pipelined = false;
};
// One thread, one odd-shaped thread tile (not a whole number of vectors: the scalar loops),
// padded panels.
struct one_thread_odd {
  static constexpr int ThreadM = 3, ThreadN = 5, TileM = 3, TileN = 5, TileK = 7, TeamSize = 1;
  static constexpr int PanelA = 3, PadA = 1, PanelB = 5, PadB = 2;
  static constexpr bool Pipelined = false;
};
// GemmPipelined (the CUDA kernel) shrunk to one thread: 16-byte packs, two sub-tiles each way,
// both stages, the transposing and the direct staging. T is float or double, so the thread tile
// is 2 x 2 packs either way.
template <class T>
struct pipelined_one_thread {
  static constexpr bool Pipelined = true;
  static constexpr int ThreadM = 32 / int(sizeof(T)), ThreadN = 32 / int(sizeof(T));
  static constexpr int TileM = ThreadM, TileN = ThreadN, TileK = 16 / int(sizeof(T));
  static constexpr int TeamSize = 1, MinTeamsPerSM = 1;
  static constexpr int PadA = 16 / int(sizeof(T)), PadB = 0;
};
// Teams of two threads along N, and more packs to load than threads (several loads each).
template <class T>
struct pipelined_two_threads {
  static constexpr bool Pipelined = true;
  static constexpr int ThreadM = 32 / int(sizeof(T)), ThreadN = 16 / int(sizeof(T));
  static constexpr int TileM = ThreadM, TileN = 2 * ThreadN, TileK = 32 / int(sizeof(T));
  static constexpr int TeamSize = 2, MinTeamsPerSM = 1;
  static constexpr int PadA = 0, PadB = 16 / int(sizeof(T));
};

template <class Tiles, class Exec, class T>
void check_tiles(Exec space) {
  // Shapes around the tiles, and multiples of 4 (rows of whole 16-byte packs: the vector loads).
  const std::pair<std::int64_t, std::int64_t> mn[] = {{1, 1}, {8, 8}, {13, 9}, {17, 23}, {32, 24}};
  for (auto [m, n] : mn)
    for (std::int64_t k : {1, 4, 5, 19, 40})
      for (pk::op op_a : {pk::op::none, pk::op::transpose})
        for (pk::op op_b : {pk::op::none, pk::op::transpose})
          for (double beta : {0.0, -0.5}) {
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            CAPTURE(beta);
            const pk_test::gemm_case<T> g(op_a, op_b, m, n, k);
            const auto c_before = beta == 0 ? pk_test::poisoned<T>(m * n) : pk_test::random_vector<T>(m * n);
            auto c = c_before;
            const bool ta = op_a == pk::op::transpose, tb = op_b == pk::op::transpose;
            pk::matrix_view<const T, Exec> a(g.a.data(), ta ? k : m, ta ? m : k), b(g.b.data(), tb ? n : k, tb ? k : n);
            pk::matrix_view<T, Exec> cv(c.data(), m, n);
            pk::detail::launch_gemm<Exec, T, Tiles>(space, op_a, op_b, T(1.5), a, b, static_cast<T>(beta), cv, k);
            space.fence();
            CHECK(pk_test::gemm_errors(g, 1.5, beta, c_before, c) == 0);
          }
}

}  // namespace

TEST_CASE_TEMPLATE("GemmTile with one thread and a padded odd thread tile (Serial)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_tiles<one_thread_odd, Kokkos::Serial, T>(Kokkos::Serial());
}

TEST_CASE_TEMPLATE("GemmPipelined with one thread (Serial)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_tiles<pipelined_one_thread<T>, Kokkos::Serial, T>(Kokkos::Serial());
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE_TEMPLATE("GemmPipelined with teams of two threads (OpenMP)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  if (Kokkos::OpenMP::concurrency() < 2) {
    MESSAGE("OpenMP runs one thread: teams of two cannot be formed, skipped");
    return;
  }
  check_tiles<pipelined_two_threads<T>, Kokkos::OpenMP, T>(Kokkos::OpenMP());
}

TEST_CASE_TEMPLATE("GemmTile with teams of two threads (OpenMP)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  if (Kokkos::OpenMP::concurrency() < 2) {
    MESSAGE("OpenMP runs one thread: teams of two cannot be formed, skipped");
    return;
  }
  check_tiles<two_threads_registers, Kokkos::OpenMP, T>(Kokkos::OpenMP());
  check_tiles<two_threads_three_tiles, Kokkos::OpenMP, T>(Kokkos::OpenMP());
}
#endif
