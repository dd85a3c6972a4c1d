// Backend names, run-time choice and device descriptions.
#include <pk/backend.hpp>
#include <pk/error.hpp>
#include <pk/runtime.hpp>

#include "test_support.hpp"

TEST_CASE("every build has serial, listed last, and names round-trip") {
  auto all = pk::available_backends();
  REQUIRE(!all.empty());
  CHECK(all.back() == pk::backend::serial);
  for (pk::backend b : all) CHECK(pk::parse_backend(pk::to_string(b)) == b);
  CHECK(pk::default_backend() == all.front());
}

TEST_CASE("unknown backends are refused with the list of known ones") {
  CHECK_THROWS_AS(pk::parse_backend("opencl"), pk::error);
  try {
    pk::parse_backend("opencl");
  } catch (const pk::error& e) {
    CHECK(std::string(e.what()).find("unknown backend 'opencl'") != std::string::npos);
    CHECK(std::string(e.what()).find("serial") != std::string::npos);
  }
  if (!pk::is_available(pk::backend::cuda))
    CHECK_THROWS_WITH_AS(pk::current_device(pk::backend::cuda),
                         doctest::Contains("backend 'cuda' is not compiled into this build"), pk::error);
}

TEST_CASE("each backend describes its device") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    auto d = pk::current_device(b);
    CHECK(d.which == b);
    CHECK(!d.name.empty());
    CHECK(d.concurrency >= 1);
    if (b == pk::backend::serial) CHECK(d.concurrency == 1);
    if (b == pk::backend::cuda) {
      CHECK(d.multiprocessors > 0);
      CHECK(d.memory_bytes > 0);
      CHECK(d.compute_major >= 3);
    }
    CHECK(!pk::list_devices(b).empty());
  }
}

TEST_CASE("a second pk::runtime leaves Kokkos to its first owner") {
  pk::runtime inner;
  CHECK(!inner.owns_kokkos());
  CHECK(pk::is_initialized());
}

TEST_CASE("sizes past the free memory are refused before allocating, naming the size and the memory") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    const auto d = pk::current_device(b);
    CHECK(d.free_bytes > 0);
    if (b != pk::backend::cuda) CHECK(d.free_bytes <= d.memory_bytes);
    CHECK_NOTHROW(pk::require_memory(b, 1024.0, "a small array"));
    CHECK_THROWS_WITH_AS(pk::require_memory(b, 1e18, "a huge array"),
                         doctest::Contains("a huge array: needs 1000000000.0 GB, more than the"), pk::memory_error);
    try {
      pk::require_memory(b, 2.0 * double(d.free_bytes) + 1e9, "twice the free memory");
      FAIL("not refused");
    } catch (const pk::memory_error& e) {
      const std::string what = e.what();
      CHECK(what.find(b == pk::backend::cuda ? "free on " + d.name : "free on the host") != std::string::npos);
    }
  }
}
