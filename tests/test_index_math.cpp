// Sizes past 2^31 elements: the index arithmetic of the kernels is 64-bit. Tested on the formulas
// themselves and on the argument checks (which must see sizes whole, never truncated to int or
// wrapped around), not on 16 GiB arrays.
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/kokkos/filter.hpp>
#include <pk/matmul.hpp>

#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/check.hpp"
#include "every_space.hpp"
#include "filter/border_index.hpp"
#include "filter/filter_tile.hpp"
#include "filter_reference.hpp"
#include "matmul/matmul_checks.hpp"
#include "test_support.hpp"

using doctest::Contains;

namespace {
constexpr std::int64_t two_31 = std::int64_t(1) << 31;
}

TEST_CASE("border_index is exact on lines longer than 2^31 pixels") {
  // The rules by their defining properties (OpenCV's borderInterpolate): inside, a pixel reads
  // itself; reflect101 mirrors about the first and the last pixel; wrap repeats with period n;
  // clamp reads the nearer end; zero reads nothing. Together they fix every position.
  const std::int64_t n = 3 * two_31 + 5;
  using pk::detail::border_index;
  for (std::int64_t p : {std::int64_t(-1), std::int64_t(-7), std::int64_t(0), n - 1, n, n + 6, -n + 3, 2 * n - 5,
                         two_31, two_31 - 1, -two_31 - 1, std::int64_t(1) << 40, -(std::int64_t(1) << 40)}) {
    CAPTURE(p);
    const bool inside = p >= 0 && p < n;
    for (pk::border b : filter_ref::all_borders()) {
      const std::int64_t i = border_index(p, n, b);
      CHECK((b == pk::border::zero && !inside ? i == -1 : (i >= 0 && i < n)));
      if (inside) CHECK(i == p);
    }
    CHECK(border_index(p, n, pk::border::reflect101) == border_index(-p, n, pk::border::reflect101));
    CHECK(border_index(p, n, pk::border::reflect101) == border_index(2 * (n - 1) - p, n, pk::border::reflect101));
    CHECK(border_index(p, n, pk::border::wrap) == border_index(p + n, n, pk::border::wrap));
    CHECK(border_index(p, n, pk::border::wrap) == ((p % n) + n) % n);
    CHECK(border_index(p, n, pk::border::clamp) == (p < 0 ? 0 : p >= n ? n - 1 : p));
  }
  CHECK(pk::detail::border_index(-1, n, pk::border::reflect101) == 1);
  CHECK(pk::detail::border_index(n, n, pk::border::reflect101) == n - 2);
  CHECK(pk::detail::border_index(n + 1, n, pk::border::wrap) == 1);
  CHECK(pk::detail::border_index(-1, n, pk::border::wrap) == n - 1);
  CHECK(pk::detail::border_index(n + 3, n, pk::border::clamp) == n - 1);
  CHECK(pk::detail::border_index(n, n, pk::border::zero) == -1);
}

TEST_CASE("filter tiles address an image of more than 2^32 elements in 64 bits") {
  // 70000 x 70000 x 4 (19.6e9 elements), host tiles of 64 x 256, radius 7.
  const std::int64_t side = 70000;
  const auto g = pk::detail::make_tile_grid(side, side, 4, 7, 64, 256, 1, 64, 1);
  CHECK(g.tiles_y == (side + 63) / 64);
  CHECK(g.tiles_x == (side + 255) / 256);
  const auto last = g.tile(g.tile_count() - 1);
  CHECK(last.y0 == std::int64_t(g.tiles_y - 1) * 64);
  CHECK(last.x0 == std::int64_t(g.tiles_x - 1) * 256);
  CHECK(last.y0 + last.h == side);
  CHECK(last.x0 + last.w == side);
  // The last element of the image, and a halo pixel above and left of the first (signed).
  CHECK(g.offset(last.y0 + last.h - 1, last.x0 + last.w - 1) + 3 == side * side * 4 - 1);
  CHECK(g.offset(side - 1, 0) == (side - 1) * side * 4);
  CHECK(g.offset(-7, -7) == (-7 * side - 7) * 4);
  // One row longer than 2^31 pixels (a View's extents are not limited to int).
  const auto row = pk::detail::make_tile_grid(1, two_31 + 100, 1, 1, 64, 256, 1, 64, 1);
  const auto end = row.tile(row.tile_count() - 1);
  CHECK(end.x0 == two_31);
  CHECK(end.w == 100);
  CHECK(row.offset(0, end.x0 + end.w - 1) == two_31 + 99);
}

TEST_CASE("GEMM counts its block tiles in 64 bits and refuses more than one launch can take") {
  using pk::detail::block_tile_league;
  CHECK(block_tile_league("pk::gemm", 1000, 1000, 128, 128) == 64);
  CHECK(block_tile_league("pk::gemm", two_31 + 1, 1, 128, 128) == (two_31 + 128) / 128);
  // 2^24 x 2^24 in 128 x 128 tiles: 2^34 teams, which an int league would wrap to 0.
  CHECK_THROWS_WITH_AS(block_tile_league("pk::gemm", std::int64_t(1) << 24, std::int64_t(1) << 24, 128, 128),
                       "pk::gemm: c is 16777216 x 16777216: 131072 x 131072 block tiles of 128 x 128, more than one "
                       "launch can take (2147483647)",
                       pk::error);
  // 2^62 x 2^62: the tile count itself passes 2^63.
  CHECK_THROWS_AS(block_tile_league("pk::gemm", std::int64_t(1) << 62, std::int64_t(1) << 62, 1, 1), pk::error);
}

TEST_CASE("checked products refuse what does not fit in 64 bits") {
  std::int64_t p = 0;
  CHECK(pk::detail::checked_product(two_31, two_31, p));
  CHECK(p == std::int64_t(1) << 62);
  CHECK(!pk::detail::checked_product(std::int64_t(1) << 32, std::int64_t(1) << 32, p));
  CHECK(!pk::detail::checked_product(INT64_MAX, 2, p));
  CHECK_NOTHROW(pk::detail::require_addressable("f", "x", std::size_t(1) << 40, 8));
  CHECK_THROWS_WITH_AS(pk::detail::require_addressable("f", "x", std::size_t(1) << 61, 8),
                       "f: x has 2305843009213693952 elements of 8 bytes, more than any array can hold", pk::error);
}

TEST_CASE("gemm sees its int64 sizes whole: no truncation to int, no wrap-around") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<float> a(3, 1.f), bb(1, 1.f), c(3, -7.f), none;
    // m = 2^32 + 3 truncated to int would be 3, and these spans would pass.
    const std::int64_t m = (std::int64_t(1) << 32) + 3;
    CHECK_THROWS_WITH_AS(pk::gemm(b, pk::op::none, pk::op::none, m, 1, 1, 1.f, a, bb, 0.f, c),
                         "pk::gemm: a has 3 elements, expected 4294967299 (m*k = 4294967299*1, a stored 4294967299 x "
                         "1 for op_a none)",
                         pk::error);
    // m*k = 2^32 * 2^32 wraps to 0 in 64 bits, which empty spans would match.
    const std::int64_t big = std::int64_t(1) << 32;
    CHECK_THROWS_WITH_AS(pk::matmul(b, big, big, big, none, none, none),
                         "pk::matmul: a would have m*k = 4294967296*4294967296 elements, more than any array can hold",
                         pk::error);
    CHECK(c == std::vector<float>(3, -7.f));
  }
}

TEST_CASE("filter checks see image sizes whole: extents past 2^31, byte counts past 2^63") {
  std::vector<float> small(16, 1.f), other(16, -7.f);
  const auto k = pk::box_kernel(3);
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    // INT_MAX x INT_MAX x 4 floats is 2^66 bytes: refused, not wrapped to a small count.
    const pk::image_ref<const float> in{small.data(), INT_MAX, INT_MAX, 4};
    const pk::image_ref<float> out{other.data(), INT_MAX, INT_MAX, 4};
    CHECK_THROWS_WITH_AS(pk::filter(b, in, out, k),
                         "pk::filter: in is 2147483647 x 2147483647 x 4, more bytes than any image can hold", pk::error);
    CHECK_THROWS_WITH_AS(pk::sobel_magnitude(b, in, out), Contains("more bytes than any image can hold"), pk::error);
  }
  CHECK(other == std::vector<float>(16, -7.f));
  // Views with a row longer than 2^31 pixels (unmanaged: nothing is allocated or read).
  auto run = [&](auto space) {
    using Exec = decltype(space);
    if constexpr (std::is_same_v<typename Exec::memory_space, Kokkos::HostSpace>) {
      using unmanaged = Kokkos::View<float***, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
      const unmanaged in(small.data(), 1, std::size_t(two_31) + 8, 1), out(other.data(), 1, std::size_t(two_31) + 9, 1);
      CHECK_THROWS_WITH_AS(pk::filter(space, in, out, k),
                           "pk::filter: out is 1 x 2147483657 x 1, expected 1 x 2147483656 x 1 (the shape of in)",
                           pk::error);
    }
  };
  pk_test::on_every_space(run);
}
