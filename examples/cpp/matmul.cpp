// Example 3: matrix multiplication, C = A * B.
//
// The Numba CUDA and TensorFlow tutorials build this up in two steps. First the naive kernel:
// one thread per entry of C, each reading a whole row of A and column of B from global memory
// -- 2K loads for 2K flops, so memory bandwidth, not arithmetic, limits it. Then the tiled kernel:
// a block of threads copies a TILE x TILE piece of A and of B into fast shared memory, every
// thread reuses it TILE times, and the loads per flop drop by that factor. portable-kernels' GEMM
// is the tiled kind (threadblock tiles in team scratch memory, each thread computing a small
// tile of C in registers), written once in Kokkos for GPUs and CPUs.
//
// This program multiplies rectangular matrices of awkward sizes (not multiples of any tile, so
// the edge tiles are exercised), checks EVERY entry against a float64 triple loop, and times a
// square product.
//
//   build/host/examples/cpp/example_matmul
#include <pk/matmul.hpp>
#include <pk/runtime.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

namespace {

// Row-major storage, as in C and NumPy: entry (i, j) of an m x n matrix is at [i*n + j].
std::vector<float> random_matrix(int rows, int cols, std::mt19937& g) {
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> m(std::size_t(rows) * cols);
  for (float& v : m) v = d(g);
  return m;
}

}  // namespace

int main() {
  pk::runtime kokkos;
  const pk::backend on = pk::default_backend();
  std::mt19937 g(std::random_device{}());

  // Step 1: awkward sizes. A is m x k, B is k x n, C is m x n.
  const int m = 187, n = 203, k = 149;
  const auto a = random_matrix(m, k, g), b = random_matrix(k, n, g);
  std::vector<float> c(std::size_t(m) * n, std::numeric_limits<float>::quiet_NaN());  // unwritten -> NaN
  std::printf("matmul: C (%d x %d) = A (%d x %d) * B (%d x %d) on %s\n", m, n, m, k, k, n, pk::to_string(on));

  // Step 2: multiply. The host-array call copies A and B to the GPU and C back when the backend
  // is CUDA; on the CPU backends it works on these vectors directly.
  pk::matmul(on, m, n, k, a, b, c);

  // Step 3: check every entry with the naive triple loop in double precision. A float sum of k
  // products is within k*eps of sum_l |a_il b_lj| whatever order the kernel adds them in.
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0, magnitude = 0;
      for (int l = 0; l < k; ++l) {
        const double term = double(a[i * k + l]) * double(b[l * n + j]);
        ref += term, magnitude += std::abs(term);
      }
      const double err = std::abs(double(c[i * n + j]) - ref) / magnitude;
      worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : std::fmax(worst, err);
    }
  const double tolerance = k * double(std::numeric_limits<float>::epsilon());
  std::printf("matmul: max error %.2e of sum |a||b| (tolerance k*eps = %.2e), all %d entries checked\n", worst,
              tolerance, m * n);

  // Step 4: speed. 2*s^3 flops (a multiply and an add per term); the first call also pays for
  // setting up (GPU module load, thread start), so time the second.
  const int s = 512;
  const auto x = random_matrix(s, s, g), y = random_matrix(s, s, g);
  std::vector<float> z(std::size_t(s) * s);
  pk::matmul(on, s, s, s, x, y, z);
  const auto start = std::chrono::steady_clock::now();
  pk::matmul(on, s, s, s, x, y, z);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("matmul: %d^3 in %.2f ms, %.1f GFLOP/s\n", s, seconds * 1e3, 2.0 * s * s * s / seconds * 1e-9);

  const bool pass = worst <= tolerance;
  std::printf("matmul: %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
