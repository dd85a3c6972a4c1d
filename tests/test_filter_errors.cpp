// Bad input to the filter functions: every case is a pk::error whose message names the argument
// and what was expected, and nothing is written to the output.
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/kokkos/filter.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "every_space.hpp"
#include "test_support.hpp"

using doctest::Contains;

namespace {

pk::image_ref<const float> cimg(const std::vector<float>& v, int h, int w, int c) { return {v.data(), h, w, c}; }
pk::image_ref<float> img(std::vector<float>& v, int h, int w, int c) { return {v.data(), h, w, c}; }

}  // namespace

TEST_CASE("kernel sizes other than odd 1..15 are refused") {
  for (int size : {0, -1, 2, 4, 16, 17})
    for (auto make : {+[](int s) { return pk::box_kernel(s); }, +[](int s) { return pk::gaussian_kernel(s); }}) {
      CAPTURE(size);
      CHECK_THROWS_WITH_AS(make(size), Contains("expected an odd number from 1 to 15"), pk::error);
    }
  CHECK_THROWS_WITH_AS(pk::custom_kernel(4, std::vector<float>(16, 1.f)),
                       "pk::custom_kernel: kernel size is 4, expected an odd number from 1 to 15", pk::error);
  CHECK_THROWS_WITH_AS(pk::custom_kernel(17, std::vector<float>(289, 1.f)), Contains("kernel size is 17"), pk::error);
  CHECK_THROWS_WITH_AS(pk::custom_kernel(0, {}), Contains("kernel size is 0"), pk::error);
  CHECK_THROWS_WITH_AS(pk::separable_kernel({1, 1}, {1, 1}), Contains("size is 2"), pk::error);
  CHECK_THROWS_WITH_AS(pk::gaussian_kernel(5, std::numeric_limits<double>::quiet_NaN()),
                       Contains("sigma is nan"), pk::error);
}

TEST_CASE("weight counts must match the kernel size") {
  CHECK_THROWS_WITH_AS(pk::custom_kernel(3, std::vector<float>(8, 1.f)),
                       "pk::custom_kernel: kernel has 8 weights, expected 9 (size 3 x 3)", pk::error);
  CHECK_THROWS_WITH_AS(pk::separable_kernel({1, 2, 1}, {1, 1, 1, 1, 1}),
                       "pk::separable_kernel: column has 3 taps, expected 5 (the length of row)", pk::error);
}

TEST_CASE("filter checks the kernel it is given, also one built by hand") {
  std::vector<float> in(12, 1.f), out(12, -7.f);
  const std::vector<float> untouched = out;
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    pk::filter_kernel k;
    k.size = 3;
    k.weights.assign(8, 1.f);
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 3, 4, 1), img(out, 3, 4, 1), k),
                         "pk::filter: kernel has 8 weights, expected 9 (size 3 x 3)", pk::error);
    k.size = 4;
    k.weights.assign(16, 1.f);
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 3, 4, 1), img(out, 3, 4, 1), k),
                         "pk::filter: kernel size is 4, expected an odd number from 1 to 15", pk::error);
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 3, 4, 1), img(out, 3, 4, 1), pk::filter_kernel{}),
                         Contains("kernel size is 0"), pk::error);
    // Separable: row and column of the kernel's size, and weights that are their outer product.
    k = pk::gaussian_kernel(3);
    k.row.pop_back();
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 3, 4, 1), img(out, 3, 4, 1), k),
                         Contains("kernel row has 2 taps, expected 3"), pk::error);
    k = pk::gaussian_kernel(3);
    k.column.clear();
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 3, 4, 1), img(out, 3, 4, 1), k),
                         Contains("kernel column has 0 taps, expected 3"), pk::error);
    k = pk::gaussian_kernel(3);
    k.weights[4] = 1.f;
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 3, 4, 1), img(out, 3, 4, 1), k),
                         Contains("must be the outer product of column and row"), pk::error);
    CHECK(out == untouched);
  }
}

TEST_CASE("in and out must have one shape with 1 to 4 channels") {
  std::vector<float> in(5 * 7 * 4, 1.f), out(5 * 7 * 4 + 8, -7.f);
  const std::vector<float> untouched = out;
  const auto k = pk::box_kernel(3);
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 5, 7, 3), img(out, 5, 6, 3), k),
                         "pk::filter: out is 5 x 6 x 3, expected 5 x 7 x 3 (the shape of in)", pk::error);
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 5, 7, 3), img(out, 4, 7, 3), k),
                         Contains("out is 4 x 7 x 3, expected 5 x 7 x 3"), pk::error);
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 5, 7, 3), img(out, 5, 7, 2), k),
                         Contains("out is 5 x 7 x 2, expected 5 x 7 x 3"), pk::error);
    CHECK_THROWS_WITH_AS(pk::sobel_magnitude(b, cimg(in, 5, 7, 3), img(out, 5, 7, 4)),
                         Contains("pk::sobel_magnitude: out is 5 x 7 x 4"), pk::error);
    for (int c : {0, 5, -1}) {
      CAPTURE(c);
      const std::string message = "pk::filter: in has " + std::to_string(c) + " channels, expected 1 to 4";
      CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, 5, 1, c), img(out, 5, 1, c), k), message.c_str(), pk::error);
      CHECK_THROWS_WITH_AS(pk::sobel_magnitude(b, cimg(in, 5, 1, c), img(out, 5, 1, c)),
                           Contains("channels, expected 1 to 4"), pk::error);
    }
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(in, -1, 7, 1), img(out, -1, 7, 1), k),
                         Contains("in is -1 x 7, expected a height and a width >= 0"), pk::error);
    const pk::image_ref<const float> null_in{nullptr, 5, 7, 1};
    CHECK_THROWS_WITH_AS(pk::filter(b, null_in, img(out, 5, 7, 1), k), "pk::filter: in is null with 5 x 7 pixels",
                         pk::error);
    CHECK(out == untouched);
  }
}

TEST_CASE("in and out must not share memory (not even in place)") {
  std::vector<float> buffer(2 * 6 * 6, 1.f);
  const auto k = pk::box_kernel(3);
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(buffer, 6, 6, 1), img(buffer, 6, 6, 1), k),
                         "pk::filter: out shares memory with in (a filter needs an output image separate from its input)",
                         pk::error);
    pk::image_ref<float> shifted{buffer.data() + 5, 6, 6, 1};
    CHECK_THROWS_WITH_AS(pk::filter(b, cimg(buffer, 6, 6, 1), shifted, k), Contains("out shares memory with in"),
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::sobel_magnitude(b, cimg(buffer, 6, 6, 1), shifted), Contains("shares memory"),
                         pk::error);
    // Adjacent, not overlapping: fine.
    pk::image_ref<float> next{buffer.data() + 36, 6, 6, 1};
    CHECK_NOTHROW(pk::filter(b, cimg(buffer, 6, 6, 1), next, k));
  }
}

TEST_CASE("the View interface checks its Views the same way") {
  auto run = [](auto space) {
    using Exec = decltype(space);
    pk::image_view<float, Exec> a("a", 4, 5, 2), c("c", 4, 5, 3);
    CHECK_THROWS_WITH_AS(pk::filter(space, a, c, pk::box_kernel(3)), Contains("out is 4 x 5 x 3, expected 4 x 5 x 2"),
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::filter(space, a, a, pk::box_kernel(3)), Contains("out shares memory with in"),
                         pk::error);
    CHECK_THROWS_WITH_AS(pk::sobel_magnitude(space, a, a), Contains("out shares memory with in"), pk::error);
    pk::image_view<float, Exec> five("five", 2, 2, 5), five_out("five_out", 2, 2, 5);
    CHECK_THROWS_WITH_AS(pk::filter(space, five, five_out, pk::box_kernel(3)), Contains("in has 5 channels"),
                         pk::error);
    pk::filter_kernel even;
    even.size = 2;
    even.weights.assign(4, 0.25f);
    const pk::image_view<float, Exec> b("b", 4, 5, 2);
    CHECK_THROWS_WITH_AS(pk::filter(space, a, b, even), Contains("kernel size is 2"), pk::error);
  };
  pk_test::on_every_space(run);
}

TEST_CASE("an empty image (0 rows or 0 columns) is allowed: nothing is computed or written") {
  std::vector<float> in(8, 1.f), out(8, -7.f);
  std::vector<std::uint8_t> in8(8, 1), out8(8, 9);
  for (pk::backend b : pk::available_backends()) {
    CAPTURE_BACKEND(b);
    for (auto shape : {std::pair{0, 8}, std::pair{8, 0}, std::pair{0, 0}}) {
      const int h = shape.first, w = shape.second;
      CAPTURE(h);
      CAPTURE(w);
      CHECK_NOTHROW(pk::filter(b, cimg(in, h, w, 1), img(out, h, w, 1), pk::gaussian_kernel(15)));
      CHECK_NOTHROW(pk::filter(b, cimg(in, h, w, 4), img(out, h, w, 4), pk::sharpen_kernel()));
      CHECK_NOTHROW(pk::sobel_magnitude(b, cimg(in, h, w, 2), img(out, h, w, 2)));
      const pk::image_ref<const std::uint8_t> bytes_in{in8.data(), h, w, 3};
      const pk::image_ref<std::uint8_t> bytes_out{out8.data(), h, w, 3};
      CHECK_NOTHROW(pk::filter(b, bytes_in, bytes_out, pk::box_kernel(5)));
      // Null data is fine when there are no pixels; the kernel and channels are still checked.
      const pk::image_ref<const float> null_in{nullptr, h, w, 1};
      const pk::image_ref<float> null_out{nullptr, h, w, 1};
      CHECK_NOTHROW(pk::filter(b, null_in, null_out, pk::box_kernel(3)));
      CHECK_THROWS_AS(pk::filter(b, cimg(in, h, w, 5), img(out, h, w, 5), pk::box_kernel(3)), pk::error);
      CHECK_THROWS_AS(pk::filter(b, cimg(in, h, w, 1), img(out, h, w, 1), pk::filter_kernel{}), pk::error);
    }
    CHECK(out == std::vector<float>(8, -7.f));
    CHECK(out8 == std::vector<std::uint8_t>(8, 9));
  }
}

TEST_CASE("unknown filter and border names are refused with the list of known ones") {
  for (const char* name : {"", "box", "box2", "box17", "box03", "box1", "gaussian", "gaussian4", "gauss5", "Sobel",
                           "sharpen3", "box3 "}) {
    CAPTURE(std::string(name));
    CHECK_THROWS_WITH_AS(pk::parse_filter(name), Contains("unknown filter"), pk::error);
  }
  CHECK_THROWS_WITH_AS(pk::parse_filter("median3"),
                       Contains("pk::parse_filter: unknown filter 'median3' (expected one of: box3, box5"), pk::error);
  for (const char* bad : {"gaussian5:", "gaussian5:0", "gaussian5:-1", "gaussian5:x", "gaussian5:1.5x",
                          "gaussian5:nan", "gaussian5:inf"}) {
    CAPTURE(std::string(bad));
    CHECK_THROWS_WITH_AS(pk::parse_filter(bad), Contains("is not a positive number"), pk::error);
  }
  for (const char* bad : {"", "reflect", "Clamp", "constant", "reflect_101"}) {
    CAPTURE(std::string(bad));
    CHECK_THROWS_WITH_AS(pk::parse_border(bad), Contains("(expected one of: clamp, reflect101, zero, wrap)"),
                         pk::error);
  }
}
