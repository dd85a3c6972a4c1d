// Determinism: the same inputs give bit-identical outputs run after run on one backend (OpenMP
// with several threads included: ctest runs this suite with OMP_NUM_THREADS=4), and the host
// backends give each other's bits. No kernel has a reduction across threads: every output
// element is computed by one thread, in a fixed order, whatever the schedule.
#include <pk/add.hpp>
#include <pk/filter.hpp>
#include <pk/matmul.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "test_support.hpp"

namespace {

constexpr int runs = 5;

// Runs `kernel` into fresh outputs `runs` times on every backend: each run must repeat the first
// one's bits, and every host backend the serial backend's bits. `out` is poisoned differently in
// each run (so an unwritten element shows), with the NaN pattern for floats.
template <class T>
void check_repeatable(std::size_t n, const std::function<void(pk::backend, std::vector<T>&)>& kernel) {
  std::vector<T> serial;
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<T> first;
    for (int run = 0; run < runs; ++run) {
      CAPTURE(run);
      std::vector<T> out(n);
      std::memset(out.data(), run % 2 ? 0xff : 0x7f, n * sizeof(T));
      kernel(b, out);
      if (run == 0) {
        first = out;
      } else {
        CHECK(std::memcmp(out.data(), first.data(), n * sizeof(T)) == 0);
      }
    }
    if (b == pk::backend::serial) serial = first;
    if (b == pk::backend::openmp) {
      const int threads = pk::current_device(b).concurrency;
      CAPTURE(threads);
      CHECK(threads >= 2);  // several threads really ran (ctest sets OMP_NUM_THREADS=4)
    }
  }
  // Host backends run the same functors with the same per-element order of operations.
  for (pk::backend b : pk::available_backends()) {
    if (b == pk::backend::cuda || b == pk::backend::serial) continue;
    CAPTURE_BACKEND(b);
    std::vector<T> out(n);
    kernel(b, out);
    CHECK(std::memcmp(out.data(), serial.data(), n * sizeof(T)) == 0);
  }
}

}  // namespace

TEST_CASE_TEMPLATE("add, axpby and scale repeat their bits", T, float, double) {
  const std::size_t n = 1 << 20;  // many chunks per OpenMP thread
  const auto x = pk_test::random_vector<T>(n), y = pk_test::random_vector<T>(n);
  check_repeatable<T>(n, [&](pk::backend b, std::vector<T>& out) { pk::add(b, x, y, out); });
  check_repeatable<T>(n, [&](pk::backend b, std::vector<T>& out) { pk::axpby(b, T(0.7), x, T(-1.3), y, out); });
  check_repeatable<T>(n, [&](pk::backend b, std::vector<T>& out) {
    out = x;
    pk::scale(b, T(1.1), out);
  });
}

TEST_CASE("filters repeat their bits: float and uint8, general and separable, Sobel") {
  const int h = 301, w = 517, c = 3;  // several tiles in each direction, partial edge tiles
  const std::size_t n = std::size_t(h) * w * c;
  const auto in = pk_test::random_vector<float>(n, -1.0, 1.0);
  const auto bytes = pk_test::random_bytes(n);
  const auto general = pk::custom_kernel(7, pk_test::random_vector<float>(49, -0.1, 0.2));
  const auto separable = pk::separable_kernel(pk_test::random_vector<float>(9, -0.1, 0.3), pk_test::random_vector<float>(9, -0.1, 0.3));
  for (const pk::filter_kernel* k : {&general, &separable}) {
    CAPTURE(k->separable());
    check_repeatable<float>(n, [&](pk::backend b, std::vector<float>& out) {
      pk::filter(b, pk::image_ref<const float>{in.data(), h, w, c}, pk::image_ref<float>{out.data(), h, w, c}, *k,
                 pk::border::reflect101);
    });
    check_repeatable<std::uint8_t>(n, [&](pk::backend b, std::vector<std::uint8_t>& out) {
      pk::filter(b, pk::image_ref<const std::uint8_t>{bytes.data(), h, w, c},
                 pk::image_ref<std::uint8_t>{out.data(), h, w, c}, *k, pk::border::wrap);
    });
  }
  check_repeatable<float>(n, [&](pk::backend b, std::vector<float>& out) {
    pk::sobel_magnitude(b, pk::image_ref<const float>{in.data(), h, w, c}, pk::image_ref<float>{out.data(), h, w, c});
  });
}

TEST_CASE_TEMPLATE("gemm repeats its bits", T, float, double) {
  // Several block tiles and K steps, ragged edges; and a C of one large block tile, which OpenMP
  // with more threads than that computes on smaller tiles (gemm_policy.hpp): Serial's bits still.
  for (const auto& shape : {std::array<std::int64_t, 3>{300, 257, 513}, {100, 90, 300}}) {
    const std::int64_t m = shape[0], n = shape[1], k = shape[2];
    CAPTURE(m);
    const auto a = pk_test::random_vector<T>(m * k), b = pk_test::random_vector<T>(k * n), c0 = pk_test::random_vector<T>(m * n);
    check_repeatable<T>(m * n, [&](pk::backend on, std::vector<T>& out) {
      pk::gemm(on, pk::op::none, pk::op::none, m, n, k, T(1), a, b, T(0), out);
    });
    check_repeatable<T>(m * n, [&](pk::backend on, std::vector<T>& out) {
      out = c0;  // beta != 0: C is read
      pk::gemm(on, pk::op::transpose, pk::op::transpose, m, n, k, T(-0.5), a, b, T(2), out);
    });
  }
}
