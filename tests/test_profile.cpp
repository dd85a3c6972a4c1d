// pk::profiler: kernels counted by their labels through Kokkos' Tools callbacks, on every backend.
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/add.hpp>
#include <pk/kokkos/on_backend.hpp>
#include <pk/profile.hpp>

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

const pk::kernel_time* find(const std::vector<pk::kernel_time>& all, const std::string& name) {
  for (const auto& k : all)
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace

TEST_CASE("a profiler counts each kernel by its label, with its calls and time") {
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    std::vector<float> a = pk_test::random_vector<float>(4096), c(4096);
    std::vector<float> img = pk_test::random_vector<float>(64 * 48), out(64 * 48);
    pk::profiler profile;
    for (int i = 0; i < 3; ++i) pk::add(b, pk::span<const float>(a.data(), a.size()), pk::span<const float>(a.data(), a.size()),
                                        pk::span<float>(c.data(), c.size()));
    pk::filter(b, pk::image_ref<const float>{img.data(), 64, 48, 1}, pk::image_ref<float>{out.data(), 64, 48, 1},
               pk::custom_kernel(5, pk_test::random_vector<float>(25)));
    const auto kernels = profile.kernels();
    int add_calls = 0;
    for (const auto& k : kernels) {
      if (k.name.rfind("pk::add f32", 0) != 0) continue;
      add_calls += static_cast<int>(k.calls);
      CHECK(k.total_ms > 0);
    }
    CHECK(add_calls == 3);
    const pk::kernel_time* conv = find(kernels, "pk::filter conv5x5 f32");
    REQUIRE(conv != nullptr);
    CHECK(conv->calls == 1);
    for (std::size_t i = 1; i < kernels.size(); ++i) CHECK(kernels[i - 1].total_ms >= kernels[i].total_ms);
    const std::string table = profile.table();
    CHECK(table.find("pk::filter conv5x5 f32") != std::string::npos);
    CHECK(table.find("all kernels") != std::string::npos);
    CHECK_THROWS_WITH_AS(pk::profiler(), doctest::Contains("another profiler is active"), pk::error);
  }
}

TEST_CASE("without a profiler nothing is counted, and a new one starts from zero") {
  std::vector<float> a = pk_test::random_vector<float>(100), c(100);
  pk::add(pk::backend::serial, pk::span<const float>(a.data(), a.size()), pk::span<const float>(a.data(), a.size()),
          pk::span<float>(c.data(), c.size()));
  pk::profiler profile;
  CHECK(profile.kernels().empty());
}

namespace {
std::vector<std::string>& regions() {
  static std::vector<std::string> r;
  return r;
}
void push_region(const char* name) { regions().push_back(name); }
}  // namespace

TEST_CASE("each public call is a Kokkos Tools region named after it") {
  namespace tools = Kokkos::Tools::Experimental;
  const auto saved = tools::get_callbacks();
  tools::set_push_region_callback(push_region);
  regions().clear();
  std::vector<float> a = pk_test::random_vector<float>(64), c(64);
  std::vector<float> img = pk_test::random_vector<float>(16 * 16), out(16 * 16);
  pk::add(pk::backend::serial, pk::span<const float>(a.data(), a.size()), pk::span<const float>(a.data(), a.size()),
          pk::span<float>(c.data(), c.size()));
  pk::filter(pk::backend::serial, pk::image_ref<const float>{img.data(), 16, 16, 1},
             pk::image_ref<float>{out.data(), 16, 16, 1}, pk::custom_kernel(3, pk_test::random_vector<float>(9)));
  tools::set_callbacks(saved);
  // One region a call: the host-array call's, not a twin for the View call it runs inside.
  const std::vector<std::string> want{"pk::add", "pk::filter"};
  CHECK(regions() == want);
}
