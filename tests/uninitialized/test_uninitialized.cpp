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
  CHECK_THROWS_WITH_AS(pk::axpby(pk::backend::serial, 2.f, a, 3.f, b, c), doctest::Contains("Kokkos is not initialized"),
                       pk::error);
  CHECK_THROWS_WITH_AS(pk::gemm(pk::backend::serial, pk::op::transpose, pk::op::none, 2, 2, 1, 1.f,
                                pk::span<const float>(a.data(), 2), pk::span<const float>(b.data(), 2), 1.f,
                                pk::span<float>(c.data(), 4)),
                       doctest::Contains("pk::gemm: Kokkos is not initialized"), pk::error);
  CHECK_THROWS_WITH_AS(pk::sobel_magnitude(pk::backend::serial, in.cref(), out.ref()),
                       doctest::Contains("pk::sobel_magnitude: Kokkos is not initialized"), pk::error);
  CHECK_THROWS_WITH_AS(pk::list_devices(pk::backend::serial), doctest::Contains("Kokkos is not initialized"),
                       pk::error);
  CHECK(c == std::vector<float>(4, 0.f));  // nothing was written
  CHECK(out.pixels == std::vector<float>(4, 0.f));
}

TEST_CASE("empty inputs do not hide a missing Kokkos") {
  REQUIRE(!pk::is_initialized());
  std::vector<float> none;
  CHECK_THROWS_WITH_AS(pk::add(pk::backend::serial, none, none, none), doctest::Contains("pk::add: Kokkos is not initialized"),
                       pk::error);
  CHECK_THROWS_WITH_AS(pk::scale(pk::backend::openmp, 2.f, none), doctest::Contains("pk::scale: Kokkos is not initialized"),
                       pk::error);
  CHECK_THROWS_WITH_AS(pk::matmul(pk::backend::serial, 0, 0, 3, none, none, none),
                       doctest::Contains("pk::matmul: Kokkos is not initialized"), pk::error);
  pk::image<float> empty(0, 5, 1);
  CHECK_THROWS_WITH_AS(pk::filter(pk::backend::serial, empty.cref(), empty.ref(), pk::box_kernel(3)),
                       doctest::Contains("pk::filter: Kokkos is not initialized"), pk::error);
}

TEST_CASE("a pk::runtime with a device that does not exist throws and leaves Kokkos stopped") {
  pk::runtime_options bad;
  bad.device = 1023;
  CHECK_THROWS_WITH_AS(pk::runtime{bad}, doctest::Contains("pk::runtime: device 1023 does not exist"), pk::error);
  CHECK(!pk::is_initialized());
  // The last case: start and stop Kokkos, after which every case above would pass anyway.
  {
    pk::runtime kokkos;
    CHECK(kokkos.owns_kokkos());
    CHECK(pk::is_initialized());
  }
  CHECK(!pk::is_initialized());
}
