// Backends and devices that do not exist: every entry point answers with a pk::error that names
// the backend (or device) and what there is, and writes nothing.
#include <pk/add.hpp>
#include <pk/backend.hpp>
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/matmul.hpp>
#include <pk/runtime.hpp>

#include <string>
#include <vector>

#include "test_support.hpp"

using doctest::Contains;

namespace {

doctest::Contains contains(const std::string& part) { return doctest::Contains(part.c_str()); }

// A value outside the enum, as a cast from a corrupt int or a newer header would give.
const pk::backend not_a_backend = static_cast<pk::backend>(42);

// The backends a call must refuse here: the invalid value, and CUDA when it is not compiled in.
std::vector<pk::backend> missing_backends() {
  std::vector<pk::backend> out{not_a_backend};
  if (!pk::is_available(pk::backend::cuda)) out.push_back(pk::backend::cuda);
  return out;
}

}  // namespace

TEST_CASE("every kernel refuses a backend that is not compiled in, writing nothing") {
  std::vector<float> a(6, 1.f), b(6, 2.f), c(6, -7.f), c4(4, -7.f);  // c4: the 2 x 2 C of a 2 x 3 times 3 x 2
  pk::image<float> in(3, 2, 1, 1.f), out(3, 2, 1, -7.f);
  for (pk::backend missing : missing_backends()) {
    const std::string name = pk::to_string(missing);
    CAPTURE(name);
    const std::string expected = "backend '" + name + "' is not compiled into this build (available: ";
    CHECK_THROWS_WITH_AS(pk::add(missing, a, b, c), contains("pk::add: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::axpby(missing, 2.f, a, 3.f, b, c), contains("pk::axpby: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::scale(missing, 2.f, c), contains("pk::scale: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::matmul(missing, 2, 2, 3, a, b, c4), contains("pk::matmul: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::gemm(missing, pk::op::none, pk::op::transpose, 2, 2, 3, 1.f, a, b, 1.f, c4),
                         contains("pk::gemm: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::filter(missing, in.cref(), out.ref(), pk::box_kernel(3)),
                         contains("pk::filter: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::sobel_magnitude(missing, in.cref(), out.ref()),
                         contains("pk::sobel_magnitude: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::current_device(missing), contains("pk::current_device: " + expected), pk::error);
    CHECK_THROWS_WITH_AS(pk::list_devices(missing), contains(expected), pk::error);
    CHECK(!pk::is_available(missing));
  }
  CHECK(c == std::vector<float>(6, -7.f));
  CHECK(c4 == std::vector<float>(4, -7.f));
  CHECK(out.pixels == std::vector<float>(6, -7.f));
  CHECK(std::string(pk::to_string(not_a_backend)) == "unknown");
}

TEST_CASE("backend names are matched exactly") {
  for (const char* name : {"", "Serial", "OPENMP", " serial", "serial ", "cuda0", "gpu", "unknown"}) {
    CAPTURE(std::string(name));
    CHECK_THROWS_WITH_AS(pk::parse_backend(name), Contains("(expected one of: "), pk::error);
  }
  if (!pk::is_available(pk::backend::cuda))
    CHECK_THROWS_WITH_AS(pk::parse_backend("cuda"),
                         Contains("pk::parse_backend: backend 'cuda' is not compiled into this build (available: "),
                         pk::error);
}

TEST_CASE("device numbers: each backend lists its devices, numbered from 0") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    const auto devices = pk::list_devices(b);
    if (b != pk::backend::cuda) REQUIRE(devices.size() == 1);  // the host is one device
    for (std::size_t i = 0; i < devices.size(); ++i) {
      CHECK(devices[i].which == b);
      CHECK(devices[i].id == int(i));
    }
    if (!devices.empty()) CHECK(pk::current_device(b).id == devices.front().id);
  }
}

TEST_CASE("pk::runtime refuses a device or thread count that does not exist, even when Kokkos already runs") {
  REQUIRE(pk::is_initialized());
  const auto make = [](int device, int threads) {
    pk::runtime_options o;
    o.device = device;
    o.threads = threads;
    pk::runtime r(o);
  };
  CHECK_THROWS_WITH_AS(make(1023, -1), Contains("pk::runtime: device 1023 does not exist"), pk::error);
  if (!pk::is_available(pk::backend::cuda)) {
    CHECK_THROWS_WITH_AS(
        make(1, -1),
        "pk::runtime: device 1 does not exist (this build has no CUDA backend; its host backends have one device, 0)",
        pk::error);
    CHECK_NOTHROW(make(0, -1));
  }
  CHECK_THROWS_WITH_AS(make(-2, -1), "pk::runtime: device is -2, expected -1 (the default) or a device number >= 0",
                       pk::error);
  for (int threads : {0, -2}) {
    CAPTURE(threads);
    CHECK_THROWS_WITH_AS(make(-1, threads), contains("pk::runtime: threads is " + std::to_string(threads) +
                                                     ", expected -1 (OMP_NUM_THREADS or all cores) or a count >= 1"),
                         pk::error);
  }
  CHECK_NOTHROW(make(-1, 2));  // valid, and Kokkos (started by the test's main) is left as it is
  CHECK(pk::is_initialized());
}
