// Calling pk before Kokkos is started: every entry point answers with pk::error, never a crash.
// This suite has its own main, without pk::runtime.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <vector>

#include <pk/add.hpp>
#include <pk/backend.hpp>
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/matmul.hpp>
#include <pk/runtime.hpp>

TEST_CASE("kernels refuse to run before Kokkos is initialized") {
  REQUIRE(!pk::is_initialized());
  std::vector<float> a(4, 1.f), b(4, 2.f), c(4, 0.f);
  CHECK_THROWS_WITH_AS(pk::add(pk::backend::serial, a, b, c), doctest::Contains("Kokkos is not initialized"),
                       pk::error);
  CHECK_THROWS_WITH_AS(pk::scale(pk::backend::serial, 2.f, c), doctest::Contains("Kokkos is not initialized"),
                       pk::error);
  CHECK_THROWS_WITH_AS(pk::current_device(pk::backend::serial), doctest::Contains("Kokkos is not initialized"),
                       pk::error);
  pk::image<float> in(2, 2, 1, 1.f), out(2, 2, 1, 0.f);
  CHECK_THROWS_WITH_AS(pk::filter(pk::backend::serial, in.cref(), out.ref(), pk::box_kernel(3)),
                       doctest::Contains("Kokkos is not initialized"), pk::error);
  CHECK_THROWS_WITH_AS(pk::matmul(pk::backend::serial, 2, 2, 1, pk::span<const float>(a.data(), 2),
                                  pk::span<const float>(b.data(), 2), pk::span<float>(c.data(), 4)),
                       doctest::Contains("Kokkos is not initialized"), pk::error);
  CHECK(c == std::vector<float>(4, 0.f));  // nothing was written
  CHECK(out.pixels == std::vector<float>(4, 0.f));
}
