// The distributed filters and GEMM (include/pk/mpi/) on 1 to 4 processes (ctest runs this suite
// under mpiexec -n 1..4): each process draws the same global inputs and checks its block of the
// result, filters bit-identical to pk::filter of the whole image, GEMM against a float64 sum;
// and errors that every process raises together.
#include <doctest/doctest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/mpi/filter.hpp>
#include <pk/mpi/kokkos.hpp>
#include <pk/mpi/matmul.hpp>

#include "mpi/mpi_support.hpp"
#include "test_support.hpp"

namespace {

int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// This process's block of a global height x width x channels array.
template <class T>
std::vector<T> block_of_image(const std::vector<T>& global, int width, int channels, const pk::mpi::block& b) {
  std::vector<T> out;
  for (auto y = b.rows.begin; y < b.rows.end; ++y)
    for (auto x = b.cols.begin; x < b.cols.end; ++x)
      for (int c = 0; c < channels; ++c) out.push_back(global[(y * width + x) * channels + c]);
  return out;
}

template <class T>
std::vector<T> random_image(std::size_t n) {
  if constexpr (std::is_same_v<T, std::uint8_t>)
    return pk_test::random_bytes(n);
  else
    return pk_test::random_vector<T>(n);
}

// The grids to try on this communicator: MPI_Dims_create's, all in one row, all in one column.
std::vector<std::pair<int, int>> grids() {
  const int p = world_size();
  std::vector<std::pair<int, int>> g{{0, 0}, {1, p}};
  if (p > 1) g.push_back({p, 1});
  return g;
}

template <class T>
void check_filter(int height, int width, int channels, const pk::filter_spec& f, pk::border mode) {
  const auto global = random_image<T>(static_cast<std::size_t>(height) * width * channels);
  std::vector<T> whole(global.size());
  pk::apply(pk::default_backend(), f, pk::image_ref<const T>{global.data(), height, width, channels},
            pk::image_ref<T>{whole.data(), height, width, channels}, mode);
  for (auto [rows, cols] : grids()) {
    const pk::mpi::grid g(MPI_COMM_WORLD, rows, cols);
    const auto b = pk::mpi::local_block(g, height, width);
    const auto in = block_of_image(global, width, channels, b);
    std::vector<T> out = std::is_floating_point_v<T> ? pk_test::poisoned<T>(in.size()) : std::vector<T>(in.size(), T(77));
    const int bh = static_cast<int>(b.height()), bw = static_cast<int>(b.width());
    pk::mpi::apply(pk::default_backend(), g, height, width, f, pk::image_ref<const T>{in.data(), bh, bw, channels},
                   pk::image_ref<T>{out.data(), bh, bw, channels}, mode);
    const auto expected = block_of_image(whole, width, channels, b);
    CAPTURE(g.rows());
    CAPTURE(g.cols());
    CAPTURE(g.rank());
    CHECK(std::memcmp(out.data(), expected.data(), out.size() * sizeof(T)) == 0);
  }
}

}  // namespace

TEST_CASE_TEMPLATE("pk::mpi::apply is bit-identical to pk::apply on the whole image, every border", T, float,
                   std::uint8_t) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  pk::filter_spec sobel;
  sobel.op = pk::filter_op::sobel_magnitude;
  pk::filter_spec random7;
  random7.kernel = pk::custom_kernel(7, pk_test::random_vector<float>(49, -0.2, 0.3));
  const pk::filter_spec specs[] = {pk::parse_filter("box3"), pk::parse_filter("gaussian5"), sobel, random7};
  for (const auto& f : specs)
    for (pk::border mode : {pk::border::clamp, pk::border::reflect101, pk::border::zero, pk::border::wrap})
      for (int channels : {1, 3}) {
        CAPTURE(f.kernel.size);
        CAPTURE(pk::to_string(mode));
        CAPTURE(channels);
        check_filter<T>(37, 53, channels, f, mode);
        check_filter<T>(64, 33, channels, f, mode);
        check_filter<T>(150, 29, channels, f, mode);  // column strips of more than 64 rows: pieces laid side by side
      }
}

TEST_CASE("pk::mpi::apply on Views of the default execution space is bit-identical too") {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  using Exec = Kokkos::DefaultExecutionSpace;
  const int height = 45, width = 38, channels = 3;
  const auto global = pk_test::random_vector<float>(std::size_t(height) * width * channels);
  const pk::filter_spec f = pk::parse_filter("gaussian5");
  std::vector<float> whole(global.size());
  pk::apply(pk::default_backend(), f, pk::image_ref<const float>{global.data(), height, width, channels},
            pk::image_ref<float>{whole.data(), height, width, channels}, pk::border::wrap);
  for (auto [rows, cols] : grids()) {
    const pk::mpi::grid g(MPI_COMM_WORLD, rows, cols);
    const auto b = pk::mpi::local_block(g, height, width);
    const auto block = block_of_image(global, width, channels, b);
    pk::image_view<float, Exec> in("in", b.height(), b.width(), channels), out("out", b.height(), b.width(), channels);
    auto in_host = Kokkos::create_mirror_view(in);
    std::copy(block.begin(), block.end(), in_host.data());
    Kokkos::deep_copy(in, in_host);
    Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
    pk::mpi::apply(Exec(), g, height, width, f, in, out, pk::border::wrap);
    auto out_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    const auto expected = block_of_image(whole, width, channels, b);
    CAPTURE(g.rows());
    CAPTURE(g.cols());
    CHECK(std::memcmp(out_host.data(), expected.data(), expected.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("pk::mpi filters: blocks smaller than the halo, and arguments that differ, fail on every process") {
  const int p = world_size();
  const pk::filter_spec f = pk::parse_filter("gaussian5");
  {  // width 5 over p columns: blocks of 5/p < 3 columns where p > 1
    const pk::mpi::grid g(MPI_COMM_WORLD, 1, p);
    const auto b = pk::mpi::local_block(g, 20, 5 * (p == 1 ? 0 : 1) + (p == 1 ? 5 : 0));
    std::vector<float> in(static_cast<std::size_t>(b.height() * b.width()), 1.f), out(in.size());
    const pk::image_ref<const float> i{in.data(), int(b.height()), int(b.width()), 1};
    const pk::image_ref<float> o{out.data(), int(b.height()), int(b.width()), 1};
    if (p > 1)
      CHECK_THROWS_WITH_AS(pk::mpi::apply(pk::default_backend(), g, 20, 5, f, i, o),
                           doctest::Contains("fewer than the filter radius + 1 = 3"), pk::error);
    else
      CHECK_NOTHROW(pk::mpi::apply(pk::default_backend(), g, 20, 5, f, i, o));
  }
  const pk::mpi::grid g(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto b = pk::mpi::local_block(g, 40, 40);
  std::vector<float> in(static_cast<std::size_t>(b.height() * b.width()), 1.f), out(in.size());
  const pk::image_ref<const float> i{in.data(), int(b.height()), int(b.width()), 1};
  const pk::image_ref<float> o{out.data(), int(b.height()), int(b.width()), 1};
  if (p > 1)  // the last process says the image is taller
    CHECK_THROWS_WITH_AS(pk::mpi::apply(pk::default_backend(), g, rank == p - 1 ? 41 : 40, 40, f, i, o),
                         doctest::Contains("the image height differs between processes"), pk::error);
  // Process 0 passes a block of the wrong size: every process raises its message.
  const pk::image_ref<const float> wrong{in.data(), rank == 0 ? int(b.height()) + 1 : int(b.height()), int(b.width()), 1};
  CHECK_THROWS_WITH_AS(pk::mpi::apply(pk::default_backend(), g, 40, 40, f, wrong, o),
                       doctest::Contains("expected this process's block of"), pk::error);
  // Nothing is left pending: a good call still works.
  CHECK_NOTHROW(pk::mpi::apply(pk::default_backend(), g, 40, 40, f, i, o));
}

namespace {

// C's block against alpha * sum_k A(i,k) B(k,j) + beta * C0(i,j) in float64, within a bound on the
// rounding of a float sum of k products: k * eps * sum |terms| (times 4).
template <class T>
void check_gemm(const pk::mpi::grid& g, std::int64_t m, std::int64_t n, std::int64_t k, double alpha, double beta,
                pk::op op_a = pk::op::none, pk::op op_b = pk::op::none) {
  const bool ta = op_a == pk::op::transpose, tb = op_b == pk::op::transpose;
  // The stored matrices: A m x k (k x m transposed), B k x n (n x k).
  const auto A = pk_test::random_vector<T>(static_cast<std::size_t>(m * k));
  const auto B = pk_test::random_vector<T>(static_cast<std::size_t>(k * n));
  const auto C0 = pk_test::random_vector<T>(static_cast<std::size_t>(m * n));
  const auto op_a_at = [&](std::int64_t i, std::int64_t kk) { return ta ? A[kk * m + i] : A[i * k + kk]; };
  const auto op_b_at = [&](std::int64_t kk, std::int64_t j) { return tb ? B[j * k + kk] : B[kk * n + j]; };
  // This process's block of a stored R x C matrix X.
  const auto block = [&](const std::vector<T>& X, std::int64_t R, std::int64_t C) {
    const auto br = pk::mpi::block_of(R, g.rows(), g.row()), bc = pk::mpi::block_of(C, g.cols(), g.col());
    std::vector<T> out;
    for (auto i = br.begin; i < br.end; ++i)
      for (auto j = bc.begin; j < bc.end; ++j) out.push_back(X[i * C + j]);
    return out;
  };
  const auto rows = pk::mpi::block_of(m, g.rows(), g.row()), cols = pk::mpi::block_of(n, g.cols(), g.col());
  const auto a = ta ? block(A, k, m) : block(A, m, k);
  const auto b = tb ? block(B, n, k) : block(B, k, n);
  std::vector<T> c = block(C0, m, n);
  if (beta == 0) std::fill(c.begin(), c.end(), std::numeric_limits<T>::quiet_NaN());
  pk::mpi::gemm(pk::default_backend(), g, op_a, op_b, m, n, k, static_cast<T>(alpha), a, b, static_cast<T>(beta), c);
  std::size_t e = 0;
  int bad = 0;
  for (auto i = rows.begin; i < rows.end; ++i)
    for (auto j = cols.begin; j < cols.end; ++j, ++e) {
      double sum = 0, terms = 0;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        sum += double(op_a_at(i, kk)) * double(op_b_at(kk, j));
        terms += std::fabs(double(op_a_at(i, kk)) * double(op_b_at(kk, j)));
      }
      const double c0 = beta == 0 ? 0.0 : double(C0[i * n + j]);
      const double ref = alpha * sum + beta * c0;
      const double bound = 4 * (k + 2) * std::numeric_limits<T>::epsilon() * (std::fabs(alpha) * terms + std::fabs(beta * c0)) + 1e-30;
      if (!(std::fabs(double(c[e]) - ref) <= bound)) ++bad;
    }
  CHECK(bad == 0);
}

}  // namespace

TEST_CASE_TEMPLATE("pk::mpi::gemm matches a float64 sum on every block, any shape and grid", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  const std::int64_t shapes[][3] = {{1, 1, 1}, {13, 9, 17}, {40, 33, 300}, {3, 70, 5}, {64, 64, 600}, {7, 5, 0}};
  for (auto [rows, cols] : grids()) {
    const pk::mpi::grid g(MPI_COMM_WORLD, rows, cols);
    for (const auto& s : shapes)
      for (double alpha : {1.0, -0.5, 0.0})
        for (double beta : {0.0, 1.0, 2.5}) {
          CAPTURE(g.rows());
          CAPTURE(g.cols());
          CAPTURE(s[0]);
          CAPTURE(s[1]);
          CAPTURE(s[2]);
          CAPTURE(alpha);
          CAPTURE(beta);
          check_gemm<T>(g, s[0], s[1], s[2], alpha, beta);
        }
  }
}

TEST_CASE_TEMPLATE("pk::mpi::gemm with transposed operands, as stored, on every grid", T, float, double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  const std::int64_t shapes[][3] = {{13, 9, 17}, {40, 33, 700}, {3, 70, 5}, {6, 6, 0}};
  for (auto [rows, cols] : grids()) {
    const pk::mpi::grid g(MPI_COMM_WORLD, rows, cols);
    for (const auto& s : shapes)
      for (pk::op op_a : {pk::op::none, pk::op::transpose})
        for (pk::op op_b : {pk::op::none, pk::op::transpose}) {
          CAPTURE(g.rows());
          CAPTURE(g.cols());
          CAPTURE(s[0]);
          CAPTURE(s[1]);
          CAPTURE(s[2]);
          CAPTURE(static_cast<int>(op_a));
          CAPTURE(static_cast<int>(op_b));
          check_gemm<T>(g, s[0], s[1], s[2], 1.5, 0.5, op_a, op_b);
        }
  }
}

TEST_CASE_TEMPLATE("pk::mpi::gemm on Views of the default execution space matches the host-array call", T, float,
                   double) {
  const auto seed = pk_test::seed();
  CAPTURE(seed);
  using Exec = Kokkos::DefaultExecutionSpace;
  const pk::mpi::grid g(MPI_COMM_WORLD);
  for (const auto& s : {std::array<std::int64_t, 3>{37, 29, 700}, std::array<std::int64_t, 3>{8, 3, 5}}) {
    const std::int64_t m = s[0], n = s[1], k = s[2];
    const auto rows = pk::mpi::block_of(m, g.rows(), g.row()), cols = pk::mpi::block_of(n, g.cols(), g.col());
    const auto ak = pk::mpi::block_of(k, g.cols(), g.col()), bk = pk::mpi::block_of(k, g.rows(), g.row());
    const auto a = pk_test::random_vector<T>(std::size_t(rows.size() * ak.size()));
    const auto b = pk_test::random_vector<T>(std::size_t(bk.size() * cols.size()));
    const auto c0 = pk_test::random_vector<T>(std::size_t(rows.size() * cols.size()));
    auto c_arrays = c0;
    pk::mpi::gemm(pk::default_backend(), g, m, n, k, T(-0.5), a, b, T(2), c_arrays);
    pk::matrix_view<T, Exec> av("a", rows.size(), ak.size()), bv("b", bk.size(), cols.size()),
        cv("c", rows.size(), cols.size());
    const auto fill = [](auto view, const std::vector<T>& values) {
      auto h = Kokkos::create_mirror_view(view);
      std::copy(values.begin(), values.end(), h.data());
      Kokkos::deep_copy(view, h);
    };
    fill(av, a);
    fill(bv, b);
    fill(cv, c0);
    pk::mpi::gemm(Exec(), g, m, n, k, T(-0.5), av, bv, T(2), cv);
    const auto c_views = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), cv);
    CAPTURE(m);
    CAPTURE(k);
    CHECK(std::memcmp(c_views.data(), c_arrays.data(), c_arrays.size() * sizeof(T)) == 0);
  }
}

TEST_CASE("pk::mpi::gemm: a wrong block or differing sizes fail on every process") {
  const pk::mpi::grid g(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::int64_t m = 20, n = 12, k = 9;
  const auto rows = pk::mpi::block_of(m, g.rows(), g.row()), cols = pk::mpi::block_of(n, g.cols(), g.col());
  const auto ak = pk::mpi::block_of(k, g.cols(), g.col()), bk = pk::mpi::block_of(k, g.rows(), g.row());
  std::vector<float> a(static_cast<std::size_t>(rows.size() * ak.size())), b(static_cast<std::size_t>(bk.size() * cols.size())),
      c(static_cast<std::size_t>(rows.size() * cols.size()));
  std::vector<float> short_c(c.size() + (rank == 0 ? 1 : 0));
  CHECK_THROWS_WITH_AS(pk::mpi::gemm(pk::default_backend(), g, m, n, k, 1.f, a, b, 0.f, short_c),
                       doctest::Contains("c has"), pk::error);
  if (g.size() > 1)
    CHECK_THROWS_WITH_AS(pk::mpi::gemm(pk::default_backend(), g, m, n, rank == 1 ? k + 1 : k, 1.f, a, b, 0.f, c),
                         doctest::Contains("differs between processes"), pk::error);
  CHECK_NOTHROW(pk::mpi::gemm(pk::default_backend(), g, m, n, k, 1.f, a, b, 0.f, c));
}

TEST_CASE("pk::mpi::grid: dimensions that do not fit the communicator fail on every process") {
  const int p = world_size();
  CHECK_THROWS_WITH_AS(pk::mpi::grid(MPI_COMM_WORLD, p + 1, 0), doctest::Contains("does not fit the communicator"),
                       pk::error);
  CHECK_THROWS_WITH_AS(pk::mpi::grid(MPI_COMM_WORLD, 1, p + 1), doctest::Contains("does not fit the communicator"),
                       pk::error);
  CHECK_THROWS_WITH_AS(pk::mpi::grid(MPI_COMM_WORLD, -1, 1), doctest::Contains("must be >= 0"), pk::error);
  const pk::mpi::grid g(MPI_COMM_WORLD, p, 0);
  CHECK(g.rows() == p);
  CHECK(g.cols() == 1);
  CHECK(g.size() == p);
  const auto b = pk::mpi::block_of(10, 4, 3);  // 10 over 4: 3, 3, 2, 2
  CHECK(b.begin == 8);
  CHECK(b.end == 10);
}

TEST_CASE("a process short of memory makes every process raise pk::memory_error, before allocating") {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double bytes = rank == 0 ? 1e18 : 1.0;  // (an exabyte: more than any host has)
  CHECK_THROWS_AS(pk::mpi::detail::require_memory_everywhere(MPI_COMM_WORLD, pk::backend::serial, bytes, "the test"),
                  pk::memory_error);
  CHECK_NOTHROW(pk::mpi::detail::require_memory_everywhere(MPI_COMM_WORLD, pk::backend::serial, 1.0, "the test"));
}

TEST_CASE("pk::mpi::local_rank: the processes of one machine, ranked as in the communicator") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // (ctest starts every process on this one machine)
  CHECK(pk::mpi::local_size(MPI_COMM_WORLD) == size);
  CHECK(pk::mpi::local_rank(MPI_COMM_WORLD) == rank);
}
