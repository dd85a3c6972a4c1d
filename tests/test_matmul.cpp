// GEMM on every backend against a float64 reference, all op combinations, odd shapes,
// alpha/beta cases; the View interface on each execution space; backends agree.
#include <pk/error.hpp>
#include <pk/kokkos/matmul.hpp>
#include <pk/matmul.hpp>

#include <utility>

#include "matmul_reference.hpp"
#include "every_space.hpp"
#include "test_support.hpp"

namespace {

struct shape {
  std::int64_t m, n, k;
};
// Four classes of shape: smaller than a thread tile or a block tile (every tile an edge tile:
// tiny, thin, odd, prime), whole tiles (whole GPU block tiles and K steps, rows of whole 16-byte
// packs; on the host whole thread tiles and, at 768 x 1024, whole block tiles of AVX-512 and AVX2
// floats), both (around the tile sizes, tall-skinny and short-wide), and few block tiles over a
// long K, which every backend cuts into parts (split-K: a weight gradient's 32 x 9, a row times a
// matrix).
const std::vector<shape>& shapes() {
  static const std::vector<shape> s{// edge tiles only
                                    {1, 1, 1}, {1, 37, 1}, {7, 31, 5}, {31, 7, 97},
                                    // whole tiles
                                    {64, 64, 64}, {256, 384, 160}, {768, 1024, 8},
                                    // both
                                    {97, 101, 103}, {129, 65, 257}, {1000, 3, 17}, {3, 1000, 1025}, {260, 132, 36},
                                    // split-K
                                    {32, 9, 4099}, {1, 600, 4097}};
  return s;
}
const pk::op ops[] = {pk::op::none, pk::op::transpose};
// Every alpha with every beta: alpha 0 does not read A and B, beta 0 does not read C, and each
// other alpha and beta must scale what it scales on every kind of tile (interior thread tiles and
// packs of C included).
const double alphas[] = {1.0, 2.5, -0.5, 0.0}, betas[] = {0.0, 1.0, -0.5};

const char* op_name(pk::op o) { return o == pk::op::none ? "N" : "T"; }

}  // namespace

TEST_CASE_TEMPLATE("gemm matches float64 for every shape, op and alpha/beta on every backend", T, float, double) {
  for (const shape& s : shapes())
    for (pk::op op_a : ops)
      for (pk::op op_b : ops) {
        const pk_test::gemm_case<T> g(op_a, op_b, s.m, s.n, s.k);
        for (double alpha : alphas)
          for (double beta : betas)
          for (pk::backend b : pk::available_backends()) {
            CAPTURE_BACKEND(b);
            CAPTURE(s.m);
            CAPTURE(s.n);
            CAPTURE(s.k);
            const std::string ops_ab = std::string(op_name(op_a)) + op_name(op_b);
            CAPTURE(ops_ab);
            CAPTURE(alpha);
            CAPTURE(beta);
            // beta == 0: C is poisoned, it must be written without being read.
            const auto c_before = beta == 0 ? pk_test::poisoned<T>(s.m * s.n) : pk_test::random_vector<T>(s.m * s.n);
            auto c = c_before;
            pk::gemm(b, op_a, op_b, s.m, s.n, s.k, static_cast<T>(alpha), g.a, g.b, static_cast<T>(beta), c);
            CHECK(pk_test::gemm_errors(g, alpha, beta, c_before, c) == 0);
          }
      }
}

TEST_CASE_TEMPLATE("matmul is gemm with alpha 1, beta 0", T, float, double) {
  const pk_test::gemm_case<T> g(pk::op::none, pk::op::none, 45, 77, 131);
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    auto c = pk_test::poisoned<T>(45 * 77);
    pk::matmul(b, 45, 77, 131, g.a, g.b, c);
    CHECK(pk_test::gemm_errors(g, 1.0, 0.0, c, c) == 0);
  }
}

TEST_CASE("k == 0 gives C = beta*C; m or n == 0 writes nothing") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<float> none;
    auto c = pk_test::random_vector<float>(6 * 5);
    const auto before = c;
    pk::gemm(b, pk::op::none, pk::op::none, 6, 5, 0, 2.f, none, none, -3.f, c);
    for (std::size_t e = 0; e < c.size(); ++e) CHECK(c[e] == -3.f * before[e]);
    auto zeroed = pk_test::poisoned<float>(6 * 5);
    pk::gemm(b, pk::op::transpose, pk::op::none, 6, 5, 0, 2.f, none, none, 0.f, zeroed);
    for (float x : zeroed) CHECK(x == 0.f);  // beta == 0: NaN not propagated
    auto a = pk_test::random_vector<float>(4 * 3);
    CHECK_NOTHROW(pk::gemm(b, pk::op::none, pk::op::none, 0, 5, 3, 1.f, none, pk_test::random_vector<float>(15), 0.f,
                           none));
    CHECK_NOTHROW(pk::gemm(b, pk::op::none, pk::op::none, 4, 0, 3, 1.f, a, none, 0.f, none));
  }
}

TEST_CASE("alpha == 0 does not read A or B (BLAS semantics)") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    auto a = pk_test::poisoned<float>(9 * 4), bb = pk_test::poisoned<float>(4 * 11);
    auto c = pk_test::random_vector<float>(9 * 11);
    const auto before = c;
    pk::gemm(b, pk::op::none, pk::op::none, 9, 11, 4, 0.f, a, bb, 0.5f, c);
    for (std::size_t e = 0; e < c.size(); ++e) CHECK(c[e] == 0.5f * before[e]);
  }
}

TEST_CASE("every backend gives the serial result") {
  // Host backends run the same tiles in the same order: bitwise equal. Others (CUDA) sum in another
  // order: within the float bound.
  const std::int64_t m = 300, n = 257, k = 513;
  const pk_test::gemm_case<float> g(pk::op::transpose, pk::op::none, m, n, k);
  auto serial = pk_test::poisoned<float>(m * n);
  pk::gemm(pk::backend::serial, g.op_a, g.op_b, m, n, k, 1.5f, g.a, g.b, 0.f, serial);
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    auto out = pk_test::poisoned<float>(m * n);
    pk::gemm(b, g.op_a, g.op_b, m, n, k, 1.5f, g.a, g.b, 0.f, out);
    if (b == pk::backend::cuda) {
      CHECK(pk_test::gemm_errors(g, 1.5, 0.0, out, out) == 0);
    } else {
      std::int64_t different = 0;
      for (std::int64_t e = 0; e < m * n; ++e) different += !(out[e] == serial[e]);
      CHECK(different == 0);
    }
  }
}

namespace {

template <class T, class Exec>
pk::matrix_view<T, Exec> to_view(const std::vector<T>& host, std::int64_t rows, std::int64_t cols) {
  pk::matrix_view<T, Exec> v("m", rows, cols);
  auto h = Kokkos::create_mirror_view(v);
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) h(i, j) = host[i * cols + j];
  Kokkos::deep_copy(v, h);
  return v;
}

template <class T, class View>
std::vector<T> from_view(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<T> out;
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t j = 0; j < h.extent(1); ++j) out.push_back(h(i, j));
  return out;
}

}  // namespace

TEST_CASE_TEMPLATE("the Kokkos View interface runs on each execution space", T, float, double) {
  const std::int64_t m = 70, n = 45, k = 33;
  const pk_test::gemm_case<T> g(pk::op::transpose, pk::op::transpose, m, n, k);
  const pk_test::gemm_case<T> plain(pk::op::none, pk::op::none, m, n, k);
  auto run = [&](auto space) {
    using Exec = decltype(space);
    CAPTURE(Exec::name());
    auto a = to_view<T, Exec>(g.a, k, m), b = to_view<T, Exec>(g.b, n, k);
    const auto c_before = pk_test::random_vector<T>(m * n);
    auto c = to_view<T, Exec>(c_before, m, n);
    pk::gemm(space, pk::op::transpose, pk::op::transpose, T(2.5), a, b, T(-0.5), c);
    space.fence();
    CHECK(pk_test::gemm_errors(g, 2.5, -0.5, c_before, from_view<T>(c)) == 0);

    auto pa = to_view<T, Exec>(plain.a, m, k), pb = to_view<T, Exec>(plain.b, k, n);
    auto pc = to_view<T, Exec>(pk_test::poisoned<T>(m * n), m, n);
    pk::matmul(space, pa, pb, pc);
    space.fence();
    const auto out = from_view<T>(pc);
    CHECK(pk_test::gemm_errors(plain, 1.0, 0.0, out, out) == 0);
  };
  pk_test::on_every_space(run);
}
