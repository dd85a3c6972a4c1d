// GEMM rejects bad arguments with a pk::error naming the argument and the expected value.
#include <pk/error.hpp>
#include <pk/kokkos/matmul.hpp>
#include <pk/matmul.hpp>

#include <utility>

#include "every_space.hpp"
#include "test_support.hpp"

using doctest::Contains;

TEST_CASE("gemm checks the spans against m, n, k and the ops") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<float> a(3 * 4), bb(4 * 5), c(3 * 5), short_a(11);
    CHECK_NOTHROW(pk::gemm(b, pk::op::none, pk::op::none, 3, 5, 4, 1.f, a, bb, 0.f, c));
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, 3, 5, 4, 1.f, short_a, bb, 0.f, c),
                         "pk::gemm: a has 11 elements, expected 12 (m*k = 3*4, a stored 3 x 4 for op_a none)",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::transpose, pk::op::none, 3, 5, 4, 1.f, short_a, bb, 0.f, c),
                         "pk::gemm: a has 11 elements, expected 12 (k*m = 4*3, a stored 4 x 3 for op_a transpose)",
                         pk::error);
    std::vector<float> b_wrong(4 * 6);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::transpose, 3, 5, 4, 1.f, a, b_wrong, 0.f, c),
                         "pk::gemm: b has 24 elements, expected 20 (n*k = 5*4, b stored 5 x 4 for op_b transpose)",
                         pk::error);
    std::vector<float> c_wrong(16);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, 3, 5, 4, 1.f, a, bb, 0.f, c_wrong),
                         "pk::gemm: c has 16 elements, expected 15 (m*n = 3*5, c stored 3 x 5)", pk::error);
    CHECK_THROWS_WITH_AS(pk::matmul(b, 3, 5, 4, a, bb, c_wrong),
                         "pk::matmul: c has 16 elements, expected 15 (m*n = 3*5, c stored 3 x 5)", pk::error);
  }
}

TEST_CASE("gemm rejects negative dimensions, null data and C sharing memory with A or B") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<float> a(12), bb(20), c(15);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, -3, 5, 4, 1.f, a, bb, 0.f, c),
                         "pk::gemm: m is -3, expected a dimension >= 0", pk::error);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, 3, -5, 4, 1.f, a, bb, 0.f, c),
                         "pk::gemm: n is -5, expected a dimension >= 0", pk::error);
    CHECK_THROWS_WITH_AS(pk::matmul(b, 3, 5, -1, a, bb, c), "pk::matmul: k is -1, expected a dimension >= 0",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, 3, 5, 4, 1.f, pk::span<const float>(nullptr, 12), bb,
                                  0.f, c),
                         "pk::gemm: a is null with 12 elements", pk::error);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, 3, 5, 4, 1.f, a, bb, 0.f, pk::span<float>(nullptr, 15)),
                         "pk::gemm: c is null with 15 elements", pk::error);
    // C inside A's array, C overlapping B's, C being B.
    std::vector<float> big(64);
    const pk::span<const float> a_in_big(big.data(), 12);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, 3, 5, 4, 1.f, a_in_big, bb, 0.f,
                                  pk::span<float>(big.data() + 11, 15)),
                         "pk::gemm: c shares memory with a (expected separate arrays)", pk::error);
    std::vector<double> square(16), other(16);
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, 4, 4, 4, 1.0, other, square, 1.0, square),
                         "pk::gemm: c shares memory with b (expected separate arrays)", pk::error);
    CHECK_THROWS_AS(pk::matmul(b, 4, 4, 4, square, other, square), pk::error);
  }
}

TEST_CASE("the View interface checks extents and overlap on every backend") {
  pk_test::on_every_space([](auto space) {
    using Exec = decltype(space);
    pk::matrix_view<float, Exec> a("a", 3, 4), b("b", 4, 5), c("c", 3, 5), b_short("b", 3, 5), c_wrong("c", 5, 3);
    CHECK_NOTHROW(pk::gemm(space, pk::op::none, pk::op::none, 1.f, a, b, 0.f, c));
    CHECK_THROWS_WITH_AS(pk::gemm(space, pk::op::none, pk::op::none, 1.f, a, b_short, 0.f, c),
                         "pk::gemm: op(b) has 3 rows (b is 3 x 5, op_b none), expected 4 (the columns of op(a))",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::gemm(space, pk::op::transpose, pk::op::none, 1.f, a, b, 0.f, c),
                         "pk::gemm: op(b) has 4 rows (b is 4 x 5, op_b none), expected 3 (the columns of op(a))",
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::matmul(space, a, b, c_wrong),
                         "pk::gemm: c is 5 x 3, expected 3 x 5 (rows of op(a) x columns of op(b))", pk::error);
    pk::matrix_view<float, Exec> square("s", 4, 4), other("o", 4, 4);
    CHECK_THROWS_WITH_AS(pk::matmul(space, square, other, square),
                         "pk::gemm: c shares memory with a (expected separate arrays)", pk::error);
    CHECK_THROWS_WITH_AS(pk::gemm(space, pk::op::none, pk::op::none, 1.f, other, square, 0.f, square),
                         "pk::gemm: c shares memory with b (expected separate arrays)", pk::error);
    // C a block of A's allocation: partial overlap.
    pk::matrix_view<float, Exec> big("big", 8, 4);
    const auto top = Kokkos::subview(big, std::make_pair(0, 4), Kokkos::ALL);
    const auto bottom = Kokkos::subview(big, std::make_pair(2, 6), Kokkos::ALL);
    CHECK_THROWS_WITH_AS(pk::matmul(space, top, other, bottom), Contains("c shares memory with a"), pk::error);
    // Zero and one element.
    pk::matrix_view<float, Exec> one_a("1a", 1, 1), one_b("1b", 1, 1), one_c("1c", 1, 1), empty("e", 0, 4);
    Kokkos::deep_copy(one_a, 3.f);
    Kokkos::deep_copy(one_b, -2.f);
    pk::matmul(space, one_a, one_b, one_c);
    space.fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), one_c);
    CHECK(h(0, 0) == -6.f);
    pk::matrix_view<float, Exec> empty_c("ec", 0, 4);
    CHECK_NOTHROW(pk::matmul(space, empty, square, empty_c));
  });
}
