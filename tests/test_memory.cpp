// <pk/memory.hpp> on every backend: allocations aligned and usable, copies and zeroing between
// host and the backend's memory, the memory check before allocating, device_of, streams (on host
// backends their calls do nothing and must not fail).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <pk/error.hpp>
#include <pk/memory.hpp>

#include "test_support.hpp"

TEST_CASE("allocate, copy, zero and deallocate on every backend") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    const pk::stream_handle s = pk::default_stream(b);
    for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(1) << 20}) {
      CAPTURE(bytes);
      void* p = pk::allocate(b, bytes, "test buffer", s);
      REQUIRE(p != nullptr);
      CHECK(reinterpret_cast<std::uintptr_t>(p) % 256 == 0);
      CHECK(pk::device_of(b, p) == (b == pk::backend::cuda ? pk::current_device(b).id : -1));
      const auto in = pk_test::random_bytes(bytes);
      std::vector<std::uint8_t> out(bytes, 0xAB);
      pk::copy(b, p, in.data(), bytes, s);
      pk::copy(b, out.data(), p, bytes, s);
      CHECK(out == in);
      pk::zero(b, p, bytes, s);
      pk::copy(b, out.data(), p, bytes, s);
      CHECK(out == std::vector<std::uint8_t>(bytes, 0));
      pk::stream_wait(b, s, s);
      pk::synchronize(b, s);
      pk::synchronize_device(b);
      pk::deallocate(b, p, s);
    }
    CHECK(pk::device_of(b, &b) == -1);  // host memory
    CHECK_THROWS_AS(pk::allocate(b, std::size_t(1) << 62, "a huge buffer", s), pk::memory_error);
    pk::deallocate(b, nullptr, s);  // nothing
  }
}

TEST_CASE("host buffers for a backend's copies: aligned, usable both ways, checked before allocating") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    for (std::size_t bytes : {std::size_t(0), std::size_t(1000), std::size_t(1) << 20}) {
      CAPTURE(bytes);
      auto* host = static_cast<std::uint8_t*>(pk::allocate_host(b, bytes, "test host buffer"));
      REQUIRE(host != nullptr);
      CHECK(reinterpret_cast<std::uintptr_t>(host) % 256 == 0);
      CHECK(pk::device_of(b, host) == -1);  // host memory, page-locked or not
      const auto in = pk_test::random_bytes(bytes);
      if (bytes > 0) std::memcpy(host, in.data(), bytes);
      void* p = pk::allocate(b, bytes, "test buffer");
      pk::copy(b, p, host, bytes);
      if (bytes > 0) std::memset(host, 0xAB, bytes);
      pk::copy(b, host, p, bytes);
      CHECK(std::vector<std::uint8_t>(host, host + bytes) == in);
      pk::deallocate(b, p);
      pk::deallocate_host(b, host);
    }
    CHECK_THROWS_AS(pk::allocate_host(b, std::size_t(1) << 62, "a huge host buffer"), pk::memory_error);
    pk::deallocate_host(b, nullptr);  // nothing
  }
}

TEST_CASE("the memory check names what was asked for") {
  const pk::backend b = pk::available_backends().back();
  try {
    pk::allocate(b, std::size_t(1) << 62, "portable_kernels.empty: the array (2^60,)");
    FAIL("no memory_error");
  } catch (const pk::memory_error& e) {
    const std::string m = e.what();
    CHECK(m.rfind("portable_kernels.empty: the array (2^60,): needs 4611686018.4 GB, more than the ", 0) == 0);
  }
}
