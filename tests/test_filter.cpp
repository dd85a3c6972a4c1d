// pk::filter and pk::sobel_magnitude on every backend against a plain float64 reference:
// image shapes from 1x1 up, kernel sizes 1..15, 1..4 channels, every border mode, random
// non-separable and separable kernels, float32 and uint8.
#include <pk/error.hpp>
#include <pk/filter.hpp>

#include <random>
#include <string>
#include <vector>

#include "filter_reference.hpp"
#include "test_support.hpp"

using filter_ref::image_shape;
using filter_ref::random_kernel;
using filter_ref::random_separable_kernel;
using filter_ref::weights_of;

namespace {

// Shapes smaller than the radius (1x1, 1x17, 17x1, 100x3), odd ones, and one spanning several
// tiles in each direction on every backend (host tiles are 256 x 64).
const std::vector<image_shape> small_shapes{{1, 1, 1}, {1, 17, 1}, {17, 1, 1}, {7, 31, 1}, {100, 3, 1}, {64, 97, 1}};
const std::vector<int> kernel_sizes{1, 3, 5, 7, 9, 15};

// The same weights, without row and column: runs the general path.
pk::filter_kernel general_form(const pk::filter_kernel& k) { return pk::custom_kernel(k.size, k.weights); }

std::vector<std::uint8_t> to_bytes(const std::vector<float>& v) {
  std::vector<std::uint8_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = std::uint8_t(v[i]);
  return out;
}

// One shape, kernel size, channel count and border: float general and separable paths, and
// uint8 with kernels scaled so that results spread over 0..255 (some saturating), on every backend.
void check_all_paths(image_shape s, int size, pk::border b) {
  CAPTURE(s.h);
  CAPTURE(s.w);
  CAPTURE(s.c);
  CAPTURE(size);
  const std::string border_name = pk::to_string(b);
  CAPTURE(border_name);
  const auto in = pk_test::random_vector<float>(s.size(), -1.0, 1.0);
  const auto bytes = pk_test::random_bytes(s.size());
  const auto general = random_kernel(size, -1.0, 1.0);
  const auto separable = random_separable_kernel(size, -1.0, 1.0);
  const auto separable_as_general = general_form(separable);
  // uint8: positive-leaning weights summing to about 1, so most results stay inside 0..255.
  const auto smoothing = random_kernel(size, -0.3 / (size * size), 2.0 / (size * size));
  const auto smoothing_separable = random_separable_kernel(size, -0.3 / size, 2.0 / size);

  const auto ref_general = filter_ref::convolve(in, s, size, weights_of(general), b);
  const auto ref_separable = filter_ref::convolve(in, s, size, weights_of(separable), b);
  const auto ref_bytes = filter_ref::convolve(bytes, s, size, weights_of(smoothing), b);
  const auto ref_bytes_separable = filter_ref::convolve(bytes, s, size, weights_of(smoothing_separable), b);
  const double scale_general = filter_ref::error_scale(in, weights_of(general));
  const double scale_separable = filter_ref::error_scale(in, weights_of(separable));

  for (pk::backend on : pk::available_backends()) {
    CAPTURE_BACKEND(on);
    auto out = filter_ref::run_filter(on, in, s, general, b);
    CHECK(filter_ref::worst_float_error(out, ref_general, scale_general) <= filter_ref::float_tolerance);

    auto two_pass = filter_ref::run_filter(on, in, s, separable, b);
    auto one_pass = filter_ref::run_filter(on, in, s, separable_as_general, b);
    CHECK(filter_ref::worst_float_error(two_pass, ref_separable, scale_separable) <= filter_ref::float_tolerance);
    CHECK(filter_ref::worst_float_error(one_pass, ref_separable, scale_separable) <= filter_ref::float_tolerance);
    // The separable path computes the same filter as the general one, to float rounding.
    CHECK(filter_ref::worst_float_error(two_pass, filter_ref::as_double(one_pass), scale_separable) <=
          filter_ref::float_tolerance);

    CHECK(filter_ref::worst_uint8_error(filter_ref::run_filter(on, bytes, s, smoothing, b), ref_bytes) <= 1);
    CHECK(filter_ref::worst_uint8_error(filter_ref::run_filter(on, bytes, s, smoothing_separable, b),
                                        ref_bytes_separable) <= 1);
  }
}

}  // namespace

TEST_CASE("filter matches float64 for every small shape, kernel size, channel count and border") {
  for (image_shape shape : small_shapes)
    for (int channels = 1; channels <= 4; ++channels)
      for (int size : kernel_sizes)
        for (pk::border b : filter_ref::all_borders()) check_all_paths({shape.h, shape.w, channels}, size, b);
}

TEST_CASE("filter matches float64 on a 257 x 251 image (many tiles, partial ones at the edges)") {
  std::uniform_int_distribution<int> channels(1, 4);
  for (int size : {3, 15})
    for (pk::border b : filter_ref::all_borders()) check_all_paths({257, 251, channels(pk_test::rng())}, size, b);
}

TEST_CASE("filter matches float64 on a 100 x 530 image (GPU tiles wholly inside it, staged by whole rows)") {
  for (int size : {3, 5})
    for (int channels : {1, 3}) check_all_paths({100, 530, channels}, size, pk::border::reflect101);
}

TEST_CASE("filter matches float64 on a 100 x 528 image (GPU tiles staged by 16-byte packs, rows remapped at the edges)") {
  // Rows of 528 elements are whole 16-byte packs of float and of uint8 (also x3, x4 channels), so on a
  // GPU the tiles of the middle column are staged by packs, those at the top and bottom with
  // their outside rows read from where each border mode says. (The Sobel test below runs this
  // shape too.)
  for (int channels : {1, 3, 4})
    for (pk::border b : filter_ref::all_borders())
      for (int size : {3, 5}) check_all_paths({100, 528, channels}, size, b);
}

TEST_CASE("filter matches float64 on 136 x 1032 and 128 x 768 images (GPU 3x3 and 5x5 tiles staged by tensor copies)") {
  // On a GPU with a tensor memory accelerator, the 3x3's and 5x5's whole one-channel float tiles
  // (256 x 32) are copied as two 2D boxes each (tile_tensor_copy.hpp), those at the image's edge
  // with their border filled in scratch afterwards; partial tiles, and wrap's edge tiles, go by
  // packs. The first image has partial tiles at its right and bottom, the second none (every edge
  // and corner tile is a whole one).
  for (image_shape s : {image_shape{136, 1032, 1}, image_shape{128, 768, 1}})
    for (int size : {3, 5})
      for (pk::border b : filter_ref::all_borders()) check_all_paths(s, size, b);
}

TEST_CASE("named kernels filter like their weights say") {
  const image_shape s{37, 45, 3};
  const auto in = pk_test::random_vector<float>(s.size(), 0.0, 1.0);
  for (const std::string& name : pk::filter_names()) {
    CAPTURE(name);
    const auto spec = pk::parse_filter(name);
    if (spec.op != pk::filter_op::convolve) continue;
    const auto ref = filter_ref::convolve(in, s, spec.kernel.size, weights_of(spec.kernel), pk::border::reflect101);
    const double scale = filter_ref::error_scale(in, weights_of(spec.kernel));
    for (pk::backend on : pk::available_backends()) {
      CAPTURE_BACKEND(on);
      auto out = filter_ref::run_poisoned(s.size(), 0.f, [&](std::vector<float>& o) {
        pk::apply(on, spec, pk::image_ref<const float>{in.data(), s.h, s.w, s.c},
                  pk::image_ref<float>{o.data(), s.h, s.w, s.c});  // default border: reflect101
      });
      CHECK(filter_ref::worst_float_error(out, ref, scale) <= filter_ref::float_tolerance);
    }
  }
}

TEST_CASE("sobel_magnitude matches float64 for every shape, channel count and border") {
  std::vector<image_shape> shapes = small_shapes;
  shapes.push_back({257, 251, 1});
  shapes.push_back({100, 528, 1});  // staged by 16-byte packs on a GPU (see the 100 x 528 filter test)
  for (image_shape shape : shapes)
    for (int channels = 1; channels <= 4; ++channels)
      for (pk::border b : filter_ref::all_borders()) {
        const image_shape s{shape.h, shape.w, channels};
        if (s.h == 257 && channels != 3) continue;  // one large case is enough
        if (s.w == 528 && channels != 1 && channels != 3) continue;  // one channel and RGB
        CAPTURE(s.h);
        CAPTURE(s.w);
        CAPTURE(s.c);
        const std::string border_name = pk::to_string(b);
        CAPTURE(border_name);
        const auto in = pk_test::random_vector<float>(s.size(), -1.0, 1.0);
        const auto bytes = pk_test::random_bytes(s.size());
        const auto ref = filter_ref::sobel_magnitude(in, s, b);
        const auto ref_bytes = filter_ref::sobel_magnitude(bytes, s, b);
        const double scale = filter_ref::error_scale(in, std::vector<double>(8, 1.0));  // |gx| + |gy| <= 8 max|in|
        for (pk::backend on : pk::available_backends()) {
          CAPTURE_BACKEND(on);
          CHECK(filter_ref::worst_float_error(filter_ref::run_sobel(on, in, s, b), ref, scale) <=
                filter_ref::float_tolerance);
          CHECK(filter_ref::worst_uint8_error(filter_ref::run_sobel(on, bytes, s, b), ref_bytes) <= 1);
        }
      }
}

TEST_CASE("uint8 results saturate at 0 and 255: a sharpen across a step edge") {
  // Left half 0, right half 255: the sharpen overshoots to -255 left of the edge and 1020 right of it.
  const image_shape s{9, 20, 3};
  std::vector<float> step(s.size());
  for (int y = 0; y < s.h; ++y)
    for (int x = 0; x < s.w; ++x)
      for (int c = 0; c < s.c; ++c) step[(std::size_t(y) * s.w + x) * s.c + c] = x < s.w / 2 ? 0.f : 255.f;
  const auto k = pk::sharpen_kernel();
  const auto ref = filter_ref::convolve(step, s, 3, weights_of(k), pk::border::clamp);
  int below = 0, above = 0;
  for (double v : ref) below += v < 0, above += v > 255;
  REQUIRE(below > 0);
  REQUIRE(above > 0);
  for (pk::backend on : pk::available_backends()) {
    CAPTURE_BACKEND(on);
    const auto bytes = filter_ref::run_filter(on, to_bytes(step), s, k, pk::border::clamp);
    for (std::size_t i = 0; i < ref.size(); ++i) {
      CAPTURE(i);
      REQUIRE(int(bytes[i]) == int(filter_ref::saturate(ref[i])));  // integer inputs and weights: exact
    }
    // float keeps the overshoot.
    const auto floats = filter_ref::run_filter(on, step, s, k, pk::border::clamp);
    CHECK(filter_ref::worst_float_error(floats, ref, 1.0) == 0.0);
  }
}

TEST_CASE("uint8 rounds to nearest, halves to even (as cvRound): means of neighbours") {
  const image_shape s{1, 4, 1};
  const std::vector<std::uint8_t> in{3, 4, 5, 6};
  // w = [0 0 0; 0.5 0.5 0; 0 0 0]: out(x) = (in(x-1) + in(x)) / 2 with clamp.
  const auto k = pk::custom_kernel(3, {0, 0, 0, 0.5f, 0.5f, 0, 0, 0, 0});
  for (pk::backend on : pk::available_backends()) {
    CAPTURE_BACKEND(on);
    const auto out = filter_ref::run_filter(on, in, s, k, pk::border::clamp);
    // 3, 3.5, 4.5, 5.5 rounded half to even (cvRound): 3, 4, 4, 6.
    CHECK(out == std::vector<std::uint8_t>{3, 4, 4, 6});
  }
}
