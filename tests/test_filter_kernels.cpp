// The named kernels and names of <pk/filter.hpp>, the border modes on hand-worked rows, and the
// Kokkos View interface of <pk/kokkos/filter.hpp> run directly on each execution space.
#include <pk/error.hpp>
#include <pk/filter.hpp>
#include <pk/kokkos/filter.hpp>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "every_space.hpp"
#include "filter_reference.hpp"
#include "test_support.hpp"

using filter_ref::image_shape;

TEST_CASE("box, gaussian, sharpen and sobel kernels have the documented weights") {
  const auto box = pk::box_kernel(5);
  CHECK(box.size == 5);
  CHECK(box.separable());
  for (float w : box.weights) CHECK(w == doctest::Approx(1.0 / 25).epsilon(1e-7));

  // sigma <= 0 and size <= 7: OpenCV's fixed tables; from 9 on, sigma = 0.3*((size-1)/2 - 1) + 0.8.
  CHECK(pk::gaussian_kernel(3).row == std::vector<float>{0.25f, 0.5f, 0.25f});
  CHECK(pk::gaussian_kernel(5).column == std::vector<float>{0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f});
  CHECK(pk::gaussian_kernel(7).row[3] == 0.28125f);
  for (int size : {9, 15}) {
    const double sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8;
    const auto g = pk::gaussian_kernel(size);
    std::vector<double> ref(size);
    for (int i = 0; i < size; ++i) ref[i] = std::exp(-(i - size / 2) * (i - size / 2) / (2 * sigma * sigma));
    const double sum = std::accumulate(ref.begin(), ref.end(), 0.0);
    for (int i = 0; i < size; ++i) CHECK(g.row[i] == doctest::Approx(ref[i] / sum).epsilon(1e-6));
  }
  const auto g = pk::gaussian_kernel(5, 1.5);
  CHECK(g.row[0] / g.row[2] == doctest::Approx(std::exp(-4 / (2 * 1.5 * 1.5))).epsilon(1e-6));
  CHECK(std::accumulate(g.weights.begin(), g.weights.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-6));

  CHECK(pk::sharpen_kernel().weights == std::vector<float>{0, -1, 0, -1, 5, -1, 0, -1, 0});
  CHECK(!pk::sharpen_kernel().separable());
  CHECK(pk::sobel_x_kernel().weights == std::vector<float>{-1, 0, 1, -2, 0, 2, -1, 0, 1});
  CHECK(pk::sobel_y_kernel().weights == std::vector<float>{-1, -2, -1, 0, 0, 0, 1, 2, 1});
}

TEST_CASE("parse_filter knows every name filter_names lists, and gaussian sigmas") {
  const auto names = pk::filter_names();
  CHECK(names.size() == 7 + 7 + 4);
  for (const auto& name : names) {
    CAPTURE(name);
    const auto spec = pk::parse_filter(name);
    CHECK((spec.op == pk::filter_op::sobel_magnitude) == (name == "sobel"));
  }
  CHECK(pk::parse_filter("box7").kernel.weights == pk::box_kernel(7).weights);
  CHECK(pk::parse_filter("gaussian15").kernel.row == pk::gaussian_kernel(15).row);
  CHECK(pk::parse_filter("gaussian7:1.5").kernel.row == pk::gaussian_kernel(7, 1.5).row);
  CHECK(pk::parse_filter("sobel-y").kernel.weights == pk::sobel_y_kernel().weights);
  CHECK(pk::parse_filter("sharpen").kernel.weights == pk::sharpen_kernel().weights);
  for (pk::border b : filter_ref::all_borders()) CHECK(pk::parse_border(pk::to_string(b)) == b);
  CHECK(pk::parse_border("reflect-101") == pk::border::reflect101);
}

TEST_CASE("border modes on a worked row: abcdefgh read 3 pixels left and right") {
  // A 1x7 kernel with a single 1 at column j reads in(x + j - 3): OpenCV's pictures of the borders.
  const image_shape s{1, 8, 1};
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8};
  auto delta = [](int j) {
    std::vector<float> w(49, 0.f);
    w[3 * 7 + j] = 1.f;
    return pk::custom_kernel(7, w);
  };
  struct expected {
    pk::border b;
    std::vector<float> left, right;
  };
  const std::vector<expected> cases{
      {pk::border::clamp, {1, 1, 1, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 8, 8, 8}},       // aaa|abcdefgh|hhh
      {pk::border::reflect101, {4, 3, 2, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 7, 6, 5}},  // dcb|abcdefgh|gfe
      {pk::border::zero, {0, 0, 0, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 0, 0, 0}},        // 000|abcdefgh|000
      {pk::border::wrap, {6, 7, 8, 1, 2, 3, 4, 5}, {4, 5, 6, 7, 8, 1, 2, 3}},        // fgh|abcdefgh|abc
  };
  for (pk::backend on : pk::available_backends()) {
    CAPTURE_BACKEND(on);
    for (const auto& c : cases) {
      const std::string border_name = pk::to_string(c.b);
      CAPTURE(border_name);
      CHECK(filter_ref::run_filter(on, in, s, delta(0), c.b) == c.left);
      CHECK(filter_ref::run_filter(on, in, s, delta(6), c.b) == c.right);
    }
    // Far outside a tiny image: a 1x1 image under a 15x15 box reads its one pixel 225 times,
    // except with zero borders; a 2x3 image wraps and reflects many times over.
    const std::vector<float> one{2.f};
    const auto box = pk::custom_kernel(15, std::vector<float>(225, 1.f));
    for (pk::border b : {pk::border::clamp, pk::border::reflect101, pk::border::wrap})
      CHECK(filter_ref::run_filter(on, one, {1, 1, 1}, box, b) == std::vector<float>{450.f});
    CHECK(filter_ref::run_filter(on, one, {1, 1, 1}, box, pk::border::zero) == std::vector<float>{2.f});
    const std::vector<float> six{1, 2, 3, 4, 5, 6};
    // Small integers: the float result is exact, so it must equal the reference exactly.
    const auto wrapped = filter_ref::run_filter(on, six, {2, 3, 1}, box, pk::border::wrap);
    const auto ref = filter_ref::convolve(six, {2, 3, 1}, 15, std::vector<double>(225, 1.0), pk::border::wrap);
    CHECK(filter_ref::worst_float_error(wrapped, ref, 1.0) == 0.0);
  }
}

namespace {

// The View interface on one execution space: filter (general and separable), sobel_magnitude and
// apply, float and uint8, against the reference.
template <class Exec, class T>
void check_views(Exec space, image_shape s, pk::border b) {
  CAPTURE(s.h);
  CAPTURE(s.w);
  CAPTURE(s.c);
  const std::string space_name = Exec::name();
  CAPTURE(space_name);
  std::vector<T> host(s.size());
  if constexpr (std::is_same_v<T, float>)
    host = pk_test::random_vector<float>(s.size());
  else
    host = pk_test::random_bytes(s.size());
  pk::image_view<T, Exec> in("in", s.h, s.w, s.c), out("out", s.h, s.w, s.c);
  auto h_in = Kokkos::create_mirror_view(in);
  std::copy(host.begin(), host.end(), h_in.data());
  Kokkos::deep_copy(in, h_in);

  const std::vector<pk::filter_kernel> kernels{pk::gaussian_kernel(7), pk::custom_kernel(3, {1, 2, 0, -1, 0.5f, 0, 0, 1, -2})};
  for (const auto& k : kernels) {
    std::vector<T> first;
    for (int poison : {0x00, 0xFF}) {
      if constexpr (std::is_same_v<T, float>) {
        if (poison) continue;
        Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
      } else {
        Kokkos::deep_copy(out, T(poison));
      }
      pk::filter(space, in, out, k, b);
      space.fence();
      auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      const std::vector<T> got(h_out.data(), h_out.data() + s.size());
      const auto ref = filter_ref::convolve(host, s, k.size, std::vector<double>(k.weights.begin(), k.weights.end()), b);
      if constexpr (std::is_same_v<T, float>)
        CHECK(filter_ref::worst_float_error(got, ref, filter_ref::error_scale(host, {k.weights.begin(), k.weights.end()})) <=
              filter_ref::float_tolerance);
      else
        CHECK(filter_ref::worst_uint8_error(got, ref) <= 1);
      if (!first.empty()) CHECK(got == first);  // the same with either poison: every pixel written
      first = got;
    }
  }
  // sobel_magnitude through apply(parse_filter("sobel")), poisoned.
  if constexpr (std::is_same_v<T, float>)
    Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
  else
    Kokkos::deep_copy(out, T(0xFF));
  pk::apply(space, pk::parse_filter("sobel"), in, out, b);
  space.fence();
  auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const std::vector<T> got(h_out.data(), h_out.data() + s.size());
  const auto ref = filter_ref::sobel_magnitude(host, s, b);
  if constexpr (std::is_same_v<T, float>)
    CHECK(filter_ref::worst_float_error(got, ref, filter_ref::error_scale(host, std::vector<double>(8, 1.0))) <=
          filter_ref::float_tolerance);
  else
    CHECK(filter_ref::worst_uint8_error(got, ref) <= 1);
}

template <class Exec>
void check_views_on(Exec space) {
  for (pk::border b : filter_ref::all_borders()) {
    check_views<Exec, float>(space, {45, 70, 3}, b);
    check_views<Exec, std::uint8_t>(space, {33, 300, 1}, b);
    check_views<Exec, float>(space, {2, 3, 4}, b);
  }
}

}  // namespace

TEST_CASE("the Kokkos View interface runs on each execution space") {
  pk_test::on_every_space([](auto space) { check_views_on(space); });
}
