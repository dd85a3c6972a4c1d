// Bad input to add / axpby / scale, on host arrays and on Views of every backend: each case is a
// pk::error naming the argument (nothing written), or the documented result (in place, empty).
#include <pk/add.hpp>
#include <pk/error.hpp>
#include <pk/kokkos/add.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "every_space.hpp"
#include "test_support.hpp"

using doctest::Contains;
using pk_test::max_relative_error;

TEST_CASE("axpby and scale check their arrays like add does") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<double> a(5, 1.0), c(5, -7.0), longer(6, 1.0);
    CHECK_THROWS_WITH_AS(pk::axpby(b, 2.0, a, 3.0, longer, c), "pk::axpby: b has 6 elements, expected 5 (the length of a)",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::axpby(b, 2.0, a, 3.0, a, longer), "pk::axpby: c has 6 elements, expected 5 (the length of a)",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::axpby(b, 2.0, pk::span<const double>(nullptr, 5), 3.0, a, c),
                         "pk::axpby: a null array was given with a non-zero length", pk::error);
    CHECK_THROWS_WITH_AS(pk::scale(b, 2.0, pk::span<double>(nullptr, 3)), "pk::scale: x is null with a non-zero length",
                         pk::error);
    CHECK(c == std::vector<double>(5, -7.0));
  }
}

TEST_CASE("partial overlap of c with a or b is refused; c being a or b exactly is in place") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    auto buffer = pk_test::random_vector<float>(40);
    const auto before = buffer;
    const pk::span<const float> a(buffer.data(), 32), y(buffer.data() + 8, 32);
    // c starts 3 elements into a (would read what it already wrote), or ends inside b.
    CHECK_THROWS_WITH_AS(pk::add(b, a, y, pk::span<float>(buffer.data() + 3, 32)),
                         "pk::add: c partially overlaps an input (c may be a or b exactly, or separate memory)", pk::error);
    CHECK_THROWS_WITH_AS(pk::axpby(b, 1.f, a, 1.f, y, pk::span<float>(buffer.data() + 7, 32)),
                         Contains("pk::axpby: c partially overlaps an input"), pk::error);
    CHECK(buffer == before);
    // a and b overlapping each other is fine: they are only read.
    auto sum = pk_test::poisoned<float>(32);
    pk::add(b, a, y, sum);
    for (int i = 0; i < 32; ++i) CHECK(sum[i] == before[i] + before[i + 8]);
    // c == b: in place, every element read before it is written.
    auto x = pk_test::random_vector<float>(1031), z = pk_test::random_vector<float>(1031);
    std::vector<double> ref(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) ref[i] = 2.0 * x[i] - 0.5 * z[i];
    pk::axpby(b, 2.f, x, -0.5f, z, z);
    CHECK(max_relative_error(z, ref, 2.5) <= 2 * pk_test::elementwise_tolerance<float>());
  }
}

TEST_CASE("zero and one element") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<double> none;
    CHECK_NOTHROW(pk::axpby(b, 2.0, none, 3.0, none, none));
    CHECK_NOTHROW(pk::scale(b, 2.0, none));
    CHECK_NOTHROW(pk::add(b, pk::span<const double>(nullptr, 0), pk::span<const double>(nullptr, 0),
                          pk::span<double>(nullptr, 0)));  // no data, no length: nothing to do
    const auto x = pk_test::random_vector<double>(1), y = pk_test::random_vector<double>(1);
    std::vector<double> c{std::numeric_limits<double>::quiet_NaN()};
    pk::axpby(b, 1.5, x, -2.0, y, c);
    // A GPU computes it as one fused multiply-add: within a rounding of each term.
    CHECK(std::abs(c[0] - (1.5 * x[0] - 2.0 * y[0])) <=
          2 * std::numeric_limits<double>::epsilon() * (std::abs(1.5 * x[0]) + std::abs(2.0 * y[0])));
    auto s = x;
    pk::scale(b, -3.0, s);
    CHECK(s[0] == -3.0 * x[0]);
  }
}

TEST_CASE("a length beyond what memory can hold is refused, never truncated or wrapped") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<float> small(4, 1.f);
    // Lengths past 2^32: an int would have made them 1 and passed the check.
    const std::size_t past_32_bits = (std::size_t(1) << 32) + 1;
    CHECK_THROWS_WITH_AS(pk::add(b, pk::span<const float>(small.data(), past_32_bits), pk::span<const float>(small.data(), 1),
                                 pk::span<float>(small.data(), 1)),
                         "pk::add: b has 1 elements, expected 4294967297 (the length of a)", pk::error);
    // A length whose byte count passes 2^63: refused before any byte arithmetic.
    const std::size_t absurd = std::size_t(1) << 62;
    CHECK_THROWS_WITH_AS(pk::scale(b, 2.f, pk::span<float>(small.data(), absurd)),
                         "pk::scale: x has 4611686018427387904 elements of 4 bytes, more than any array can hold",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::add(b, pk::span<const float>(small.data(), absurd), pk::span<const float>(small.data(), absurd),
                                 pk::span<float>(small.data(), absurd)),
                         Contains("pk::add: a has 4611686018427387904 elements of 4 bytes"), pk::error);
    CHECK(small == std::vector<float>(4, 1.f));
  }
}

TEST_CASE("the View interface checks extents and overlap on every backend") {
  auto run = [](auto space) {
    using Exec = decltype(space);
    const int n = 40;
    pk::vector_view<double, Exec> all("all", n), a("a", 16), b("b", 16), shorter("short", 15);
    CHECK_THROWS_WITH_AS(pk::add(space, a, shorter, b), "pk::add: b has 15 elements, expected 16 (the length of a)",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::axpby(space, 1.0, a, 2.0, b, shorter),
                         "pk::axpby: c has 15 elements, expected 16 (the length of a)", pk::error);
    const auto first = Kokkos::subview(all, std::make_pair(0, 16)), shifted = Kokkos::subview(all, std::make_pair(5, 21));
    CHECK_THROWS_WITH_AS(pk::add(space, first, b, shifted), Contains("c partially overlaps an input"), pk::error);
    CHECK_THROWS_WITH_AS(pk::axpby(space, 1.0, a, 1.0, shifted, first), Contains("c partially overlaps an input"),
                         pk::error);
    // In place on Views: c is b.
    const auto x = pk_test::random_vector<double>(16), y = pk_test::random_vector<double>(16);
    auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
    for (int i = 0; i < 16; ++i) ha(i) = x[i], hb(i) = y[i];
    Kokkos::deep_copy(a, ha);
    Kokkos::deep_copy(b, hb);
    pk::add(space, a, b, b);
    space.fence();
    Kokkos::deep_copy(hb, b);
    for (int i = 0; i < 16; ++i) CHECK(hb(i) == x[i] + y[i]);
    // Empty Views: nothing to do.
    pk::vector_view<double, Exec> empty("empty", 0);
    CHECK_NOTHROW(pk::add(space, empty, empty, empty));
    CHECK_NOTHROW(pk::scale(space, 2.0, empty));
  };
  pk_test::on_every_space(run);
}
