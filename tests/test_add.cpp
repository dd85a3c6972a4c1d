// add / axpby / scale on every backend, host arrays and Kokkos Views, against float64.
#include <pk/add.hpp>
#include <pk/error.hpp>
#include <pk/kokkos/add.hpp>

#include "add/add_functors.hpp"
#include "every_space.hpp"
#include "test_support.hpp"

using pk_test::max_relative_error;

TEST_CASE_TEMPLATE("add and axpby match float64 on every backend and length", T, float, double) {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    for (std::size_t n : pk_test::odd_lengths()) {
      CAPTURE(n);
      auto x = pk_test::random_vector<T>(n), y = pk_test::random_vector<T>(n);
      const T alpha = static_cast<T>(1.75), beta = static_cast<T>(-0.5);

      auto sum = pk_test::poisoned<T>(n);
      pk::add(b, x, y, sum);
      std::vector<double> ref(n);
      for (std::size_t i = 0; i < n; ++i) ref[i] = double(x[i]) + double(y[i]);
      const double sum_terms =
          pk_test::largest_terms(n, [&](std::size_t i) { return std::abs(double(x[i])) + std::abs(double(y[i])); });
      CHECK(max_relative_error(sum, ref, sum_terms) <= pk_test::elementwise_tolerance<T>());

      auto lin = pk_test::poisoned<T>(n);
      pk::axpby(b, alpha, x, beta, y, lin);
      for (std::size_t i = 0; i < n; ++i) ref[i] = double(alpha) * x[i] + double(beta) * y[i];
      const double lin_terms = pk_test::largest_terms(
          n, [&](std::size_t i) { return std::abs(double(alpha) * x[i]) + std::abs(double(beta) * y[i]); });
      CHECK(max_relative_error(lin, ref, lin_terms) <= 2 * pk_test::elementwise_tolerance<T>());

      auto s = x;
      pk::scale(b, alpha, s);
      for (std::size_t i = 0; i < n; ++i) ref[i] = double(alpha) * x[i];
      CHECK(max_relative_error(s, ref) <= pk_test::elementwise_tolerance<T>());
    }
  }
}

TEST_CASE("add is identical on every backend (same float32 operations)") {
  const std::size_t n = 100003;
  auto x = pk_test::random_vector<float>(n, -1e3, 1e3), y = pk_test::random_vector<float>(n);
  auto serial = pk_test::poisoned<float>(n);
  pk::axpby(pk::backend::serial, 3.f, x, -2.f, y, serial);
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    auto out = pk_test::poisoned<float>(n);
    pk::axpby(b, 3.f, x, -2.f, y, out);
    // 3*x + (-2)*y rounds the same way everywhere unless a compiler contracts it into an FMA;
    // allow that one rounding difference.
    std::vector<double> ref(serial.begin(), serial.end());
    CHECK(max_relative_error(out, ref) <= 2e-7);
  }
}

TEST_CASE("add works in place (c is a)") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    auto x = pk_test::random_vector<double>(1025), y = pk_test::random_vector<double>(1025);
    std::vector<double> ref(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) ref[i] = x[i] + y[i];
    pk::add(b, x, y, x);
    CHECK(max_relative_error(x, ref) <= 1e-15);
  }
}

TEST_CASE("add rejects bad arguments with a pk::error naming them") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<float> a(8), c(8), shorter(7);
    CHECK_THROWS_WITH_AS(pk::add(b, a, shorter, c), "pk::add: b has 7 elements, expected 8 (the length of a)",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::add(b, a, a, shorter), "pk::add: c has 7 elements, expected 8 (the length of a)",
                         pk::error);
    std::vector<float> big(16, 1.f);
    pk::span<float> shifted(big.data() + 1, 8);
    CHECK_THROWS_AS(pk::add(b, pk::span<const float>(big.data(), 8), a, shifted), pk::error);
    std::vector<float> none;
    CHECK_NOTHROW(pk::add(b, none, none, none));  // zero length: nothing to do, nothing written
  }
}

TEST_CASE("the Kokkos View interface runs on each execution space") {
  const int n = 1025;
  auto x = pk_test::random_vector<float>(n), y = pk_test::random_vector<float>(n);
  std::vector<double> ref(n);
  for (int i = 0; i < n; ++i) ref[i] = double(x[i]) + double(y[i]);
  auto run = [&](auto space) {
    using Exec = decltype(space);
    pk::vector_view<float, Exec> a("a", n), bb("b", n), c("c", n);
    auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(bb);
    for (int i = 0; i < n; ++i) ha(i) = x[i], hb(i) = y[i];
    Kokkos::deep_copy(a, ha);
    Kokkos::deep_copy(bb, hb);
    Kokkos::deep_copy(c, std::numeric_limits<float>::quiet_NaN());
    pk::add(space, a, bb, c);
    space.fence();
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    std::vector<float> out(hc.data(), hc.data() + n);
    CHECK(max_relative_error(out, ref) <= 2e-7);
  };
  pk_test::on_every_space(run);
}

// Views that start on a 16-byte boundary take the packed path (4 floats per index, the tail one
// by one); Views that start one element later take the element-by-element path. Both must give
// every element, for lengths around the pack size.
TEST_CASE_TEMPLATE("add, axpby and scale on aligned and shifted Views (packed and plain paths)", T, float, double) {
  auto run = [&](auto space) {
    using Exec = decltype(space);
    for (int n : {1, 2, 3, 5, 8, 13, 1023}) {
      for (int shift : {0, 1}) {
        CAPTURE(n);
        CAPTURE(shift);
        const auto x = pk_test::random_vector<T>(n + 1), y = pk_test::random_vector<T>(n + 1);
        pk::vector_view<T, Exec> a_all("a", n + 1), b_all("b", n + 1), c_all("c", n + 1);
        auto ha = Kokkos::create_mirror_view(a_all), hb = Kokkos::create_mirror_view(b_all);
        for (int i = 0; i <= n; ++i) ha(i) = x[i], hb(i) = y[i];
        Kokkos::deep_copy(a_all, ha);
        Kokkos::deep_copy(b_all, hb);
        const auto range = std::make_pair(shift, shift + n);
        pk::vector_view<T, Exec> a = Kokkos::subview(a_all, range), b = Kokkos::subview(b_all, range),
                                 c = Kokkos::subview(c_all, range);
        const T alpha = T(1.5), beta = T(-0.25);
        std::vector<double> ref(n);
        const auto result = [&] {
          space.fence();
          auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
          return std::vector<T>(hc.data(), hc.data() + n);
        };

        Kokkos::deep_copy(c_all, std::numeric_limits<T>::quiet_NaN());
        pk::add(space, a, b, c);
        for (int i = 0; i < n; ++i) ref[i] = double(x[i + shift]) + double(y[i + shift]);
        const double sum_terms = pk_test::largest_terms(
            n, [&](std::size_t i) { return std::abs(double(x[i + shift])) + std::abs(double(y[i + shift])); });
        CHECK(max_relative_error(result(), ref, sum_terms) <= pk_test::elementwise_tolerance<T>());

        Kokkos::deep_copy(c_all, std::numeric_limits<T>::quiet_NaN());
        pk::axpby(space, alpha, a, beta, b, c);
        for (int i = 0; i < n; ++i) ref[i] = double(alpha) * x[i + shift] + double(beta) * y[i + shift];
        const double lin_terms = pk_test::largest_terms(n, [&](std::size_t i) {
          return std::abs(double(alpha) * x[i + shift]) + std::abs(double(beta) * y[i + shift]);
        });
        CHECK(max_relative_error(result(), ref, lin_terms) <= 2 * pk_test::elementwise_tolerance<T>());

        Kokkos::deep_copy(c, a);
        pk::scale(space, alpha, c);
        for (int i = 0; i < n; ++i) ref[i] = double(alpha) * x[i + shift];
        CHECK(max_relative_error(result(), ref) <= pk_test::elementwise_tolerance<T>());
      }
    }
  };
  pk_test::on_every_space(run);
}

// The packed functor that GPU backends run (elementwise_packs), run here on the host: whole
// packs, then the last partial one element by element, for lengths around the pack size.
TEST_CASE_TEMPLATE("the packed element-wise functor computes every element (GPU path, on Serial)", T, float, double) {
  using Exec = Kokkos::Serial;
  for (std::int64_t n : {1, 2, 3, 4, 5, 7, 8, 9, 1023}) {
    CAPTURE(n);
    pk::vector_view<T, Exec> a("a", n), b("b", n), c("c", n);
    const auto x = pk_test::random_vector<T>(std::size_t(n)), y = pk_test::random_vector<T>(std::size_t(n));
    for (std::int64_t i = 0; i < n; ++i) a(i) = x[i], b(i) = y[i];
    Kokkos::deep_copy(c, std::numeric_limits<T>::quiet_NaN());
    using packed = pk::detail::Packed<T, Exec, pk::detail::linear_combination<T>>;
    REQUIRE((packed::aligned(a.data()) && packed::aligned(b.data()) && packed::aligned(c.data())));
    Kokkos::parallel_for(Kokkos::RangePolicy<Exec>(0, packed::packs(n)),
                         packed{a.data(), b.data(), c.data(), n, {T(2), T(-3)}});
    std::vector<double> ref(n);
    std::vector<T> out(c.data(), c.data() + n);
    for (std::int64_t i = 0; i < n; ++i) ref[i] = 2.0 * x[i] - 3.0 * y[i];
    const double terms = pk_test::largest_terms(
        std::size_t(n), [&](std::size_t i) { return 2.0 * std::abs(double(x[i])) + 3.0 * std::abs(double(y[i])); });
    CHECK(max_relative_error(out, ref, terms) <= 2 * pk_test::elementwise_tolerance<T>());
  }
}
