// The GEMM policies, shrunk and run on the host: the CPUs' packed panels with an odd thread tile
// (scalar fragments) and with several thread tiles of SIMD vectors (C accumulated over K steps),
// the GPU's two stages through registers and fragments loaded a k ahead with one thread tile per
// thread (accumulators kept over all K steps), two threads along N, and several tiles a thread;
// each policy cuts K into parts where C has 4 block tiles or fewer (split-K: partial Cs, then their
// sum). The CUDA policy (backends/cuda/cuda_gemm_policy.hpp) takes these paths with its own numbers.
#include <pk/matmul.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/primitives.hpp"
#include "matmul/matmul_impl.hpp"
#include "matmul/copy_prefetch.hpp"
#include "matmul/gemm_fragments.hpp"
#include "matmul_reference.hpp"
#include "test_support.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "cuda/cuda_gemm_policy.hpp"
#endif

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
// The same with K cut for 200 teams: more parts than one pass of split-K's sum adds (64), so
// that they are added in groups first.
template <class T>
struct many_parts : one_thread_odd<T> {
  using split_k = d::split_k_teams<200, 1>;
};
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

// A rows x cols copy of host data in Exec's memory.
template <class Exec, class T>
pk::matrix_view<T, Exec> on(const T* data, std::int64_t rows, std::int64_t cols) {
  pk::matrix_view<T, Exec> v("operand", rows, cols);
  Kokkos::deep_copy(v, Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace>(data, rows, cols));
  return v;
}

// Shapes around the tiles, and multiples of 4 (rows of whole 16-byte packs: the vector loads).
constexpr std::pair<std::int64_t, std::int64_t> edge_shapes[] = {{1, 1}, {8, 8}, {13, 9}, {17, 23}, {32, 24}};
constexpr std::int64_t edge_ks[] = {1, 4, 5, 19, 40};

template <class Policy, class Exec, class T, std::size_t Shapes = 5, std::size_t Ks = 5>
void check_policy(Exec space, const std::pair<std::int64_t, std::int64_t> (&mn)[Shapes] = edge_shapes,
                  const std::int64_t (&ks)[Ks] = edge_ks) {
  for (const auto& shape : mn)
    for (std::int64_t k : ks)
      for (pk::op op_a : {pk::op::none, pk::op::transpose})
        for (pk::op op_b : {pk::op::none, pk::op::transpose})
          for (double alpha : {1.0, 2.5, -0.5})
          for (double beta : {0.0, 1.0, -0.5}) {
            const std::int64_t m = shape.first, n = shape.second;
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            CAPTURE(alpha);
            CAPTURE(beta);
            const pk_test::gemm_case<T> g(op_a, op_b, m, n, k);
            const auto c_before = beta == 0 ? pk_test::poisoned<T>(m * n) : pk_test::random_vector<T>(m * n);
            auto c = c_before;
            const bool ta = op_a == pk::op::transpose, tb = op_b == pk::op::transpose;
            const auto a = on<Exec>(g.a.data(), ta ? k : m, ta ? m : k), b = on<Exec>(g.b.data(), tb ? n : k, tb ? k : n);
            const auto cv = on<Exec>(c.data(), m, n);
            pk::detail::launch_gemm<Exec, T, Policy>(space, op_a, op_b, static_cast<T>(alpha), a, b, static_cast<T>(beta), cv, k);
            space.fence();
            Kokkos::deep_copy(Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace>(c.data(), m, n), cv);
            CHECK(pk_test::gemm_errors(g, alpha, beta, c_before, c) == 0);
          }
}

// The warp's matrix multiply-accumulate of doubles (Mma: a primitives set's warp_mma<K>), D (16 x 8)
// = C + A (16 x K) * B (K x 8) as the lanes of a warp hold it, by step(lane, a, b, d): a lane's
// fragments loaded from A staged transposed (rows of 16 + 4) and B (rows of 8 + 4), its four
// values of D started from C and multiplied (on a GPU step runs in a kernel of one warp). Checked:
// each value of D held by exactly one lane, each within the float64 bound.
template <int K, class Step>
void check_warp_mma(Step&& step) {
  constexpr int LdA = 16 + 4, LdB = 8 + 4;
  const auto a = pk_test::random_vector<double>(K * LdA), b = pk_test::random_vector<double>(K * LdB);
  const auto c = pk_test::random_vector<double>(16 * 8);
  std::vector<double> d(16 * 8, std::numeric_limits<double>::quiet_NaN());
  std::vector<int> held(16 * 8, 0);
  step(a, b, c, d, held);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      double ref = c[i * 8 + j], magnitude = std::abs(ref);
      for (int k = 0; k < K; ++k) {
        ref += a[k * LdA + i] * b[k * LdB + j];
        magnitude += std::abs(a[k * LdA + i] * b[k * LdB + j]);
      }
      CHECK(held[i * 8 + j] == 1);
      CHECK(std::abs(d[i * 8 + j] - ref) <= 8.0 * (K + 1) * std::numeric_limits<double>::epsilon() * magnitude);
    }
}

// The lanes one after another on the host: the portable definition.
template <class Mma>
void check_portable_warp_mma() {
  check_warp_mma<Mma::K>([](const auto& a, const auto& b, const auto& c, auto& d, auto& held) {
    for (int lane = 0; lane < 32; ++lane) {
      typename Mma::a_fragment fa;
      typename Mma::b_fragment fb;
      Mma::load_a(fa, a.data(), 16 + 4, lane);
      Mma::load_b(fb, b.data(), 8 + 4, lane);
      double v[4];
      for (int e = 0; e < 4; ++e) v[e] = c[Mma::row(lane, e) * 8 + Mma::col(lane, e)];
      Mma::mma(v, fa, fb);
      for (int e = 0; e < 4; ++e) {
        d[Mma::row(lane, e) * 8 + Mma::col(lane, e)] = v[e];
        ++held[Mma::row(lane, e) * 8 + Mma::col(lane, e)];
      }
    }
  });
}

}  // namespace

TEST_CASE("the warp's matrix multiply-accumulate of doubles, lane by lane (portable primitives)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_portable_warp_mma<d::portable_primitives::warp_mma<4>>();
  check_portable_warp_mma<d::portable_primitives::warp_mma<8>>();
  check_portable_warp_mma<d::portable_primitives::warp_mma<16>>();
}

TEST_CASE_TEMPLATE("GEMM by packed panels: an odd thread tile, several tiles a thread (Serial)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<one_thread_odd<T>, Kokkos::Serial, T>(Kokkos::Serial());
  check_policy<one_thread_six_tiles<T>, Kokkos::Serial, T>(Kokkos::Serial());
}

TEST_CASE_TEMPLATE("GEMM with K in 72 to 143 parts, summed by groups of parts (Serial)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  const std::pair<std::int64_t, std::int64_t> shapes[] = {{1, 1}, {13, 9}};
  const std::int64_t ks[] = {500, 1000};  // 72 and 143 K steps of 7, a part each
  check_policy<many_parts<T>, Kokkos::Serial, T>(Kokkos::Serial(), shapes, ks);
}

TEST_CASE_TEMPLATE("GEMM by the host's policy: one block tile and several (Serial)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  const std::pair<std::int64_t, std::int64_t> tiles[] = {{400, 530}, {101, 60}};
  const std::int64_t ks[] = {3, 40};
  check_policy<typename d::host_gemm_policy<T>::large, Kokkos::Serial, T>(Kokkos::Serial(), tiles, ks);
  check_policy<typename d::host_gemm_policy<T>::small, Kokkos::Serial, T>(Kokkos::Serial(), tiles, ks);
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

#if defined(KOKKOS_ENABLE_CUDA)
namespace {

// One warp on the GPU: the CUDA primitives' warp_mma<K> (the tensor cores on sm_90), one step of
// check_warp_mma (a named function: nvcc allows no device lambda inside a generic lambda).
template <int K>
void cuda_warp_mma_step(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c,
                        std::vector<double>& d_host, std::vector<int>& held) {
  using Mma = d::cuda_primitives::warp_mma<K>;
  using view = Kokkos::View<double*, Kokkos::CudaSpace>;
  const auto copy = [](const std::vector<double>& x) {
    view v("warp mma operand", x.size());
    Kokkos::deep_copy(v, Kokkos::View<const double*, Kokkos::HostSpace>(x.data(), x.size()));
    return v;
  };
  const view da = copy(a), db = copy(b), dc = copy(c), dd = copy(d_host);
  Kokkos::View<int*, Kokkos::CudaSpace> dh("held", held.size());
  Kokkos::parallel_for(
      "warp mma", Kokkos::TeamPolicy<Kokkos::Cuda>(1, 32), KOKKOS_LAMBDA(const Kokkos::TeamPolicy<Kokkos::Cuda>::member_type& t) {
        const int lane = t.team_rank();
        typename Mma::a_fragment fa;
        typename Mma::b_fragment fb;
        Mma::load_a(fa, da.data(), 16 + 4, lane);
        Mma::load_b(fb, db.data(), 8 + 4, lane);
        double v[4];
        for (int e = 0; e < 4; ++e) v[e] = dc(Mma::row(lane, e) * 8 + Mma::col(lane, e));
        Mma::mma(v, fa, fb);
        for (int e = 0; e < 4; ++e) {
          dd(Mma::row(lane, e) * 8 + Mma::col(lane, e)) = v[e];
          Kokkos::atomic_add(&dh(Mma::row(lane, e) * 8 + Mma::col(lane, e)), 1);
        }
      });
  Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace>(d_host.data(), d_host.size()), dd);
  Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace>(held.data(), held.size()), dh);
}

template <int K>
void check_cuda_warp_mma() {
  check_warp_mma<K>(cuda_warp_mma_step<K>);
}

// The GPU's GEMM policy for doubles with small numbers: BM x BN block tiles of WM x WN warp tiles,
// K steps of TK, mma.sync of K, so that the test shapes cover several tiles and their edges.
template <int BM, int BN, int TK, int WM, int WN, int K>
using small_mma_tiles = d::cuda_mma_gemm_policy<BM, BN, TK, WM, WN, K, 1>;

}  // namespace

TEST_CASE("the warp's matrix multiply-accumulate of doubles on the GPU (CUDA primitives)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_cuda_warp_mma<4>();
  check_cuda_warp_mma<8>();
  check_cuda_warp_mma<16>();
}

TEST_CASE("GEMM of doubles by warp tiles on the GPU: small tiles, every edge (Cuda)") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  check_policy<small_mma_tiles<16, 8, 4, 16, 8, 4>, Kokkos::Cuda, double>(Kokkos::Cuda());
  check_policy<small_mma_tiles<32, 16, 8, 16, 8, 8>, Kokkos::Cuda, double>(Kokkos::Cuda());
  check_policy<small_mma_tiles<32, 16, 16, 32, 8, 16>, Kokkos::Cuda, double>(Kokkos::Cuda());
  check_policy<d::gemm_policy<Kokkos::Cuda, double>, Kokkos::Cuda, double>(Kokkos::Cuda());
}

// The GPU's policy (gemm_policy<Cuda, T>) over the edge shapes and over several of its block
// tiles with K in parts (split-K).
TEST_CASE_TEMPLATE("GEMM by the GPU's policy: edges, several tiles, split-K (Cuda)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  const std::pair<std::int64_t, std::int64_t> tiles[] = {{150, 140}, {33, 300}};
  const std::int64_t ks[] = {70, 1100};
  check_policy<d::gemm_policy<Kokkos::Cuda, T>, Kokkos::Cuda, T>(Kokkos::Cuda());
  check_policy<d::gemm_policy<Kokkos::Cuda, T>, Kokkos::Cuda, T>(Kokkos::Cuda(), tiles, ks);
}

// Each policy the GPU chooses by shape (gemm_policy<Cuda, T>::for_shape), over the edge shapes and
// over several of its block tiles with K in parts; and pk::gemm on shapes that choose each.
TEST_CASE_TEMPLATE("GEMM by each of the GPU's policies by shape (Cuda)", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  const std::pair<std::int64_t, std::int64_t> tiles[] = {{150, 140}, {33, 300}};
  const std::int64_t ks[] = {70, 1100};
  const Kokkos::Cuda space;
  for (const auto& shape : {std::array<std::int64_t, 3>{1, 4096, 4096}, {20, 4096, 4096}, {256, 256, 256}, {200, 300, 170},
                            {4096, 64, 4096}, {4096, 4096, 64}, {16384, 64, 256}, {16, 16, 80000}}) {
    CAPTURE(shape[0]);
    CAPTURE(shape[1]);
    d::with_shape_policy<d::gemm_policy<Kokkos::Cuda, T>>(space, shape[0], shape[1], shape[2], [&](auto chosen) {
      using policy = typename decltype(chosen)::type;
      CAPTURE(policy::TileM);
      CAPTURE(policy::TileN);
      check_policy<policy, Kokkos::Cuda, T>(space);
      check_policy<policy, Kokkos::Cuda, T>(space, tiles, ks);
    });
    const std::int64_t m = shape[0], n = shape[1], k = shape[2] / 8;  // K shortened: the host reference's time
    const pk_test::gemm_case<T> g(pk::op::none, pk::op::transpose, m, n, k);
    const auto c_before = pk_test::random_vector<T>(m * n);
    auto c = c_before;
    const auto a = on<Kokkos::Cuda>(g.a.data(), m, k), b = on<Kokkos::Cuda>(g.b.data(), n, k);
    const auto cv = on<Kokkos::Cuda>(c.data(), m, n);
    pk::gemm(space, pk::op::none, pk::op::transpose, T(1.5), pk::matrix_view<const T, Kokkos::Cuda>(a),
             pk::matrix_view<const T, Kokkos::Cuda>(b), T(-0.5), cv);
    space.fence();
    Kokkos::deep_copy(Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace>(c.data(), m, n), cv);
    CHECK(pk_test::gemm_errors(g, 1.5, -0.5, c_before, c) == 0);
  }
}
#endif
