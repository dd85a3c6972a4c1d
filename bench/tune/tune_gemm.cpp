// GEMM policies (backends/cuda/cuda_gemm_policy.hpp with other tile numbers) swept on the GPU
// against cuBLAS on the same matrices.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstdio>
#include <exception>
#include <string>

#include "../bench_row.hpp"
#include "../peers.hpp"
#include "matmul/matmul_impl.hpp"
#include "matmul/copy_prefetch.hpp"
#include "matmul/gemm_staging.hpp"
#include "cuda/cuda_gemm_policy.hpp"
#include "cuda/cuda_streams.hpp"
#include "nn/conv_windows.hpp"
#include "tune.hpp"

namespace pk_tune {
namespace {

// Block tiles TM x TN x TK, thread tiles ThM x ThN (sub-tiles of one 16-byte pack each way, rows
// padded by a pack), launch bounds of MinTeams teams an SM.
template <class T, int TM, int TN, int TK, int ThM, int ThN, int MinTeams>
struct tiles {
  static constexpr int Vec = pk::detail::pack<T>::size;
  static constexpr int ThreadM = ThM, ThreadN = ThN, TileM = TM, TileN = TN, TileK = TK;
  static constexpr int TeamSize = (TM / ThM) * (TN / ThN);
  using thread_tiles = pk::detail::thread_tile_layout<TM, TN, ThM, ThN, Vec, Vec, true>;
  template <class Gemm>
  using staging = pk::detail::staged_steps<Gemm, pk::detail::staged_tile_layout<TM, TK, TM, Vec>,
                                           pk::detail::staged_tile_layout<TN, TK, TN, Vec>, 2, 16, pk::detail::copy_prefetch>;
  using fragments = pk::detail::tile_fragments<T, thread_tiles, T, TM + Vec, TN + Vec, TK, 1>;
  using launch = Kokkos::LaunchBounds<TeamSize, MinTeams>;
  using split_k = pk::detail::split_k_never;  // the tile shapes alone
  static std::string name() {
    return std::to_string(TM) + "x" + std::to_string(TN) + "x" + std::to_string(TK) + " thread " +
           std::to_string(ThM) + "x" + std::to_string(ThN) + " min " + std::to_string(MinTeams);
  }
};

// Doubles on the tensor cores (cuda_mma_gemm_policy): block TM x TN x TK, warp tiles WM x WN,
// mma.sync of K, MinTeams teams an SM.
template <int TM, int TN, int TK, int WM, int WN, int K, int MinTeams>
struct mma_tiles : pk::detail::cuda_mma_gemm_policy<TM, TN, TK, WM, WN, K, MinTeams> {
  using split_k = pk::detail::split_k_never;
  static std::string name() {
    return "mma " + std::to_string(TM) + "x" + std::to_string(TN) + "x" + std::to_string(TK) + " warp " +
           std::to_string(WM) + "x" + std::to_string(WN) + " k" + std::to_string(K) + " min " + std::to_string(MinTeams);
  }
};

// A policy above with split-K where C has few block tiles (Slots thread slots a resident team:
// 2048 / its teams an SM), as the library's policies do: for the small and skinny shapes.
template <class Tiles, int Slots>
struct split : Tiles {
  using split_k = pk::detail::split_k_occupancy<Slots, 8>;
  static std::string name() { return Tiles::name() + " split-K"; }
};

// only: the sweeps whose name ("gemm float 1x4096x4096") contains it ("" for all).
std::string only_gemm;

// t = run()'s median time over runs; false, with `label name failed: why` printed, where the shape
// cannot run (a launch Kokkos refuses, a tile that does not fit a team's scratch).
template <class Run>
bool measure_shape(const char* label, const std::string& name, const exec& space, Run&& run, int runs,
                   pk_bench::timing& t) {
  try {
    t = pk_bench::measure(space, run, runs);
  } catch (const std::exception& e) {
    std::printf("%s %-40s failed: %s\n", label, name.c_str(), e.what());
    return false;
  }
  return true;
}

template <class T, class... Shapes>
void sweep(std::int64_t m, std::int64_t n, std::int64_t k, int runs) {
  const std::string what = std::string("gemm ") + (sizeof(T) == 4 ? "float " : "double ") + std::to_string(m) + "x" +
                           std::to_string(n) + "x" + std::to_string(k);
  if (what.find(only_gemm) == std::string::npos) return;
  exec space;
  pk_bench::random_stream rng;
  pk::matrix_view<T, exec> a("a", m, k), b("b", k, n), c("c", m, n);
  pk_bench::random_view(a, rng);
  pk_bench::random_view(b, rng);
  const double flop = 2.0 * double(m) * double(n) * double(k);
  pk_bench::cuda_blas blas(space.cuda_stream());
  const pk_bench::gemm_args<T> g{m, n, k, a.data(), b.data(), c.data()};
  const auto theirs = pk_bench::measure(space, [&] { blas.gemm(g); }, runs);
  const double peer = flop / (theirs.median_ms * 1e9);
  std::printf("gemm %s %lldx%lldx%lld cuBLAS %.2f TFLOP/s\n", sizeof(T) == 4 ? "float" : "double", (long long)m,
              (long long)n, (long long)k, peer);
  const auto one = [&](auto shape) {
    using S = decltype(shape);
    pk_bench::timing t;
    if (!measure_shape("gemm", S::name(), space, [&] {
          pk::detail::launch_gemm<exec, T, S>(space, pk::op::none, pk::op::none, T(1), a, b, T(0), c, k);
        }, runs, t))
      return;
    const double rate = flop / (t.median_ms * 1e9);
    std::printf("gemm %-40s %8.3f ms %7.2f TFLOP/s  ratio %.3f\n", S::name().c_str(), t.median_ms, rate, rate / peer);
  };
  (one(Shapes{}), ...);
}

// The 28x28x1 -> 32 layer's weight gradient at batch 256 as conv2d_backward_weights runs it: dw
// (32 x 9) = dy^T (32 x 173056) times the windows of x (173056 x 9, read from x by conv_windows),
// on the given policies. The time includes split-K's sums. H100, 2026-12-07: 32 x 128 0.150 ms,
// 32 x 64 0.092, 32 x 32 0.061 (the library's choice since), 32 x 16 refused the launch (32 teams an SM).
template <class... Shapes>
void sweep_conv_weights(int runs) {
  const std::string what = "gemm conv weights 28x28x1->32 batch 256";
  if (what.find(only_gemm) == std::string::npos) return;
  exec space;
  pk_bench::random_stream rng;
  pk::detail::conv_geometry g{256, 28, 28, 1, 3, 3, 0, 0, 26, 26};
  pk::matrix_view<float, exec> x("x", g.batch * g.height * g.width, 1), dy("dy", g.rows(), 32), dw("dw", 32, 9);
  pk_bench::random_view(x, rng);
  pk_bench::random_view(dy, rng);
  const pk::detail::conv_windows<float> windows(x.data(), g);
  using A = pk::matrix_view<const float, exec>;
  using B = pk::detail::conv_windows<float>;
  std::printf("%s\n", what.c_str());
  const auto one = [&](auto shape) {
    using S = decltype(shape);
    pk_bench::timing t;
    if (!measure_shape("conv weights", S::name(), space, [&] {
          pk::detail::launch_gemm<exec, float, S, A, B>(space, pk::op::transpose, pk::op::none, 1.0f, dy, windows, 0.0f,
                                                        dw, g.rows());
        }, runs, t))
      return;
    std::printf("conv weights %-40s %8.4f ms\n", S::name().c_str(), t.median_ms);
  };
  (one(Shapes{}), ...);
}

}  // namespace

void tune_gemm(int runs, const std::string& only) {
  only_gemm = only;
  sweep<float, tiles<float, 128, 128, 8, 8, 8, 2>, tiles<float, 128, 128, 16, 8, 8, 2>,
        tiles<float, 128, 64, 16, 8, 8, 2>, tiles<float, 64, 64, 16, 4, 4, 4>>(8192, 8192, 8192, runs);
  sweep<float, tiles<float, 128, 128, 16, 8, 8, 2>, tiles<float, 128, 64, 16, 8, 8, 2>>(5000, 3000, 7001, runs);
  sweep<double, tiles<double, 64, 64, 16, 4, 4, 2>, mma_tiles<128, 128, 8, 64, 32, 8, 1>,
        mma_tiles<128, 128, 8, 32, 64, 8, 1>, mma_tiles<128, 64, 8, 64, 32, 8, 2>, mma_tiles<64, 128, 8, 32, 64, 8, 2>,
        mma_tiles<128, 64, 8, 64, 32, 4, 2>, mma_tiles<64, 128, 8, 32, 32, 4, 2>>(8192, 8192, 8192, runs);
  sweep<double, mma_tiles<128, 128, 8, 64, 32, 8, 1>, mma_tiles<128, 64, 8, 64, 32, 8, 2>,
        mma_tiles<64, 128, 8, 32, 32, 4, 2>>(4096, 4096, 4096, runs);
  sweep<double, mma_tiles<128, 128, 8, 64, 32, 8, 1>, mma_tiles<128, 64, 8, 64, 32, 8, 2>,
        mma_tiles<64, 128, 8, 32, 32, 8, 2>>(5000, 3000, 7001, runs);
  // Small and skinny shapes (issue 25): the large shapes' tiles against smaller ones, all with split-K.
  using f_large = split<tiles<float, 128, 128, 16, 8, 8, 2>, 1024>;
  using f_64 = split<tiles<float, 64, 64, 16, 4, 4, 4>, 512>;
  using f_32x128 = split<tiles<float, 32, 128, 16, 4, 4, 4>, 512>;
  using f_64x32 = split<tiles<float, 64, 32, 16, 4, 4, 8>, 256>;
  using f_128x64 = split<tiles<float, 128, 64, 16, 8, 8, 2>, 1024>;
  using f_128x64_3 = split<tiles<float, 128, 64, 16, 8, 8, 3>, 682>;  // (4 teams an SM spill 168 bytes)
  for (const auto& s : {std::array<std::int64_t, 3>{256, 256, 256}, {200, 300, 170}, {4096, 64, 4096}})
    sweep<float, f_large, f_64, f_32x128, f_64x32, f_128x64, f_128x64_3>(s[0], s[1], s[2], runs);
  // The CNN's GEMMs at batch 256 (bench_conv2d): the 13x13x32 -> 64 layer's forward (C of 64 columns)
  // and its weight gradient (C of 64 x 288, K of 30976), the 28x28x1 -> 32 layer's forward.
  sweep<float, f_large, f_64, f_128x64, f_128x64_3>(30976, 64, 288, runs);
  sweep<float, f_large, f_64, f_128x64, f_128x64_3, f_64x32>(173056, 32, 9, runs);
  sweep<float, f_64, f_32x128, f_64x32>(64, 288, 30976, runs);
  // The 28x28x1 -> 32 layer's weight gradient: C of 32 x 9 over K = 173056 (B's rows of 9 floats,
  // read element by element as the implicit GEMM's one-channel windows are): blocks of fewer columns.
  using f_32x32 = split<tiles<float, 32, 32, 16, 4, 4, 16>, 128>;
  using f_32x16 = split<tiles<float, 32, 16, 16, 4, 4, 32>, 64>;
  sweep<float, f_32x128, f_64x32, f_32x32, f_32x16>(32, 9, 173056, runs);
  using f_32x64 = split<tiles<float, 32, 64, 16, 4, 4, 8>, 256>;
  sweep_conv_weights<f_32x128, f_32x64, f_32x32, f_32x16>(runs);
  // GEMV-like (C of one row): blocks of 4 or 8 rows, B's columns wide, K cut into many parts.
  using f_4x256 = split<tiles<float, 4, 256, 16, 4, 4, 4>, 256>;
  using f_4x512 = split<tiles<float, 4, 512, 8, 4, 4, 4>, 256>;
  using f_8x256 = split<tiles<float, 8, 256, 16, 4, 4, 4>, 256>;
  using f_4x128 = split<tiles<float, 4, 128, 16, 4, 4, 8>, 128>;
  using f_4x128_256 = split<tiles<float, 4, 128, 16, 4, 4, 8>, 256>;  // K cut for the 8 teams an SM of its bounds
  for (const auto& s : {std::array<std::int64_t, 3>{1, 4096, 4096}, {16, 4096, 4096}})
    sweep<float, f_32x128, f_4x256, f_4x512, f_8x256, f_4x128, f_4x128_256>(s[0], s[1], s[2], runs);
  using d_large = split<mma_tiles<128, 64, 8, 64, 32, 8, 2>, 1024>;
  using d_64 = split<mma_tiles<64, 64, 8, 32, 32, 8, 4>, 512>;
  using d_32x64 = split<mma_tiles<32, 64, 8, 16, 32, 8, 4>, 512>;
  for (const auto& s : {std::array<std::int64_t, 3>{256, 256, 256}, {4096, 64, 4096}})
    sweep<double, d_large, d_64, d_32x64>(s[0], s[1], s[2], runs);
}

}  // namespace pk_tune
