// The CNN layers (<pk/kokkos/nn.hpp>) on every backend against float64 references written out here:
// conv2d forward (valid and same, odd shapes), its input and weight gradients (the adjoint sums
// written directly), max pooling and its gradient, softmax cross-entropy, Adam; outputs poisoned.
// The suite the sanitizers run on the layers (ASan on the host, compute-sanitizer on a GPU).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <pk/error.hpp>
#include <pk/kokkos/nn.hpp>

#include "every_space.hpp"
#include "test_support.hpp"

namespace {

struct shape4 {
  std::int64_t n, h, w, c;
  std::size_t size() const { return std::size_t(n * h * w * c); }
};

// A host vector in Exec's memory as an N x H x W x C View, and back.
template <class T, class Exec>
pk::tensor4_view<T, Exec> to_space(const std::vector<T>& v, shape4 s) {
  pk::tensor4_view<T, Exec> out("t", s.n, s.h, s.w, s.c);
  Kokkos::deep_copy(out, Kokkos::View<const T****, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), s.n, s.h,
                                                                                               s.w, s.c));
  return out;
}
template <class T, class V>
std::vector<T> to_host(const V& v) {
  std::vector<T> out(v.size());
  Kokkos::deep_copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.data(), out.size()),
                    Kokkos::View<const T*, typename V::memory_space, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return out;
}
template <class T, class Exec>
pk::tensor4_view<T, Exec> poisoned_space(shape4 s) {
  return to_space<T, Exec>(pk_test::poisoned<T>(s.size()), s);
}

struct conv_case {
  shape4 x;
  std::int64_t f, kh, kw;
  pk::padding pad;
};

// The references, in float64: y(n,oy,ox,f) = sum x(n, oy+ky-ph, ox+kx-pw, c) w(f,ky,kx,c) + b(f).
struct conv_ref {
  conv_case k;
  std::int64_t ph, pw, ho, wo;
  explicit conv_ref(conv_case c) : k(c) {
    ph = c.pad == pk::padding::same ? c.kh / 2 : 0;
    pw = c.pad == pk::padding::same ? c.kw / 2 : 0;
    ho = c.pad == pk::padding::same ? c.x.h : c.x.h - c.kh + 1;
    wo = c.pad == pk::padding::same ? c.x.w : c.x.w - c.kw + 1;
  }
  shape4 y() const { return {k.x.n, ho, wo, k.f}; }
  shape4 w() const { return {k.f, k.kh, k.kw, k.x.c}; }
  // Calls g(index into x, index into w, index into y) for every product of the convolution.
  template <class G>
  void each(G g) const {
    for (std::int64_t n = 0; n < k.x.n; ++n)
      for (std::int64_t oy = 0; oy < ho; ++oy)
        for (std::int64_t ox = 0; ox < wo; ++ox)
          for (std::int64_t f = 0; f < k.f; ++f)
            for (std::int64_t ky = 0; ky < k.kh; ++ky)
              for (std::int64_t kx = 0; kx < k.kw; ++kx) {
                const std::int64_t iy = oy + ky - ph, ix = ox + kx - pw;
                if (iy < 0 || iy >= k.x.h || ix < 0 || ix >= k.x.w) continue;
                for (std::int64_t c = 0; c < k.x.c; ++c)
                  g(((n * k.x.h + iy) * k.x.w + ix) * k.x.c + c, ((f * k.kh + ky) * k.kw + kx) * k.x.c + c,
                    ((n * ho + oy) * wo + ox) * k.f + f);
              }
  }
};

const std::vector<conv_case>& cases() {
  static const std::vector<conv_case> c{
      {{1, 5, 5, 1}, 1, 3, 3, pk::padding::valid}, {{2, 9, 7, 3}, 5, 3, 3, pk::padding::valid},
      {{3, 8, 11, 2}, 7, 3, 5, pk::padding::same}, {{1, 2, 3, 4}, 3, 3, 5, pk::padding::same},
      {{2, 6, 6, 1}, 33, 1, 1, pk::padding::valid}, {{2, 13, 13, 32}, 17, 3, 3, pk::padding::valid},
      // The GEMMs' larger tiles and split-K (the weights' gradient sums over M = 1568 pixels) on
      // windows of whole packs of channels, and a K that is not whole packs or steps (C = 5).
      {{8, 14, 14, 8}, 64, 3, 3, pk::padding::same}, {{3, 17, 19, 5}, 130, 3, 3, pk::padding::valid}};
  return c;
}

template <class T>
double tol() {
  return sizeof(T) == 4 ? 5e-6 : 1e-13;
}

}  // namespace

TEST_CASE_TEMPLATE("conv2d and its gradients against float64 sums, every backend", T, float, double) {
  for (const conv_case& k : cases()) {
    const conv_ref ref(k);
    CAPTURE(k.x.n);
    CAPTURE(k.x.h);
    CAPTURE(k.x.w);
    CAPTURE(k.x.c);
    CAPTURE(k.f);
    const auto x = pk_test::random_vector<T>(k.x.size());
    const auto w = pk_test::random_vector<T>(ref.w().size());
    const auto b = pk_test::random_vector<T>(std::size_t(k.f));
    const auto dy = pk_test::random_vector<T>(ref.y().size());
    std::vector<double> y_ref(ref.y().size()), dx_ref(x.size(), 0.0), dw_ref(w.size(), 0.0), db_ref(b.size(), 0.0);
    std::vector<double> y_terms(y_ref.size(), 0.0), dx_terms(x.size(), 0.0), dw_terms(w.size(), 0.0);
    for (std::size_t i = 0; i < y_ref.size(); ++i) y_ref[i] = b[i % b.size()];
    ref.each([&](std::int64_t xi, std::int64_t wi, std::int64_t yi) {
      y_ref[std::size_t(yi)] += double(x[std::size_t(xi)]) * w[std::size_t(wi)];
      dx_ref[std::size_t(xi)] += double(dy[std::size_t(yi)]) * w[std::size_t(wi)];
      dw_ref[std::size_t(wi)] += double(dy[std::size_t(yi)]) * x[std::size_t(xi)];
    });
    for (std::size_t i = 0; i < dy.size(); ++i) db_ref[i % b.size()] += dy[i];
    pk_test::on_every_space([&](auto space) {
      using Exec = decltype(space);
      const auto dx_v = to_space<T, Exec>(x, k.x), dw_v = to_space<T, Exec>(w, ref.w());
      const auto dy_v = to_space<T, Exec>(dy, ref.y());
      pk::vector_view<T, Exec> dbias("b", b.size());
      Kokkos::deep_copy(dbias, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(b.data(), b.size()));
      auto y = poisoned_space<T, Exec>(ref.y());
      pk::conv2d(space, dx_v, dw_v, dbias, y, k.pad, false);
      auto dx = poisoned_space<T, Exec>(k.x);
      pk::conv2d_backward_input(space, dy_v, dw_v, dx, k.pad);
      auto dw = poisoned_space<T, Exec>(ref.w());
      pk::vector_view<T, Exec> db("db", b.size());
      Kokkos::deep_copy(db, std::numeric_limits<T>::quiet_NaN());
      pk::conv2d_backward_weights(space, dx_v, dy_v, dw, db, k.pad);
      space.fence();
      // Relative to the largest |sum|, scaled by the sums' length (products of values in [-1, 1]).
      const double len = double(k.kh * k.kw * k.x.c + 1);
      CHECK(pk_test::max_relative_error(to_host<T>(y), y_ref, len) <= tol<T>());
      CHECK(pk_test::max_relative_error(to_host<T>(dx), dx_ref, len * double(k.f)) <= tol<T>());
      CHECK(pk_test::max_relative_error(to_host<T>(dw), dw_ref, double(ref.y().size())) <= tol<T>());
      CHECK(pk_test::max_relative_error(to_host<T>(db), db_ref, double(ref.y().size())) <= tol<T>());
    });
  }
}

TEST_CASE("max pooling, its gradient, softmax cross-entropy and Adam, every backend") {
  const shape4 s{2, 7, 9, 3};
  const auto x = pk_test::random_vector<float>(s.size());
  const shape4 ps{2, 3, 4, 3};
  const auto dy = pk_test::random_vector<float>(ps.size());
  std::vector<double> y_ref(ps.size()), dx_ref(s.size(), 0.0);
  for (std::int64_t n = 0; n < 2; ++n)
    for (std::int64_t i = 0; i < 3; ++i)
      for (std::int64_t j = 0; j < 4; ++j)
        for (std::int64_t c = 0; c < 3; ++c) {
          std::size_t best = 0;
          for (int d = 0; d < 4; ++d) {
            const auto at = std::size_t(((n * 7 + 2 * i + d / 2) * 9 + 2 * j + d % 2) * 3 + c);
            if (d == 0 || x[at] > x[best]) best = at;
          }
          const auto o = std::size_t(((n * 3 + i) * 4 + j) * 3 + c);
          y_ref[o] = x[best];
          dx_ref[best] = dy[o];
        }
  const std::int64_t B = 5, classes = 4;
  const auto logits = pk_test::random_vector<double>(std::size_t(B * classes), -3, 3);
  std::vector<std::int32_t> labels{0, 3, 1, 2, 3};
  std::vector<double> loss_ref(B), grad_ref(logits.size());
  for (std::int64_t r = 0; r < B; ++r) {
    double top = logits[std::size_t(r * classes)], sum = 0;
    for (std::int64_t j = 0; j < classes; ++j) top = std::max(top, logits[std::size_t(r * classes + j)]);
    for (std::int64_t j = 0; j < classes; ++j) sum += std::exp(logits[std::size_t(r * classes + j)] - top);
    loss_ref[std::size_t(r)] = std::log(sum) + top - logits[std::size_t(r * classes + labels[std::size_t(r)])];
    for (std::int64_t j = 0; j < classes; ++j)
      grad_ref[std::size_t(r * classes + j)] =
          (std::exp(logits[std::size_t(r * classes + j)] - top) / sum - (j == labels[std::size_t(r)])) / B;
  }
  pk_test::on_every_space([&](auto space) {
    using Exec = decltype(space);
    const auto xv = to_space<float, Exec>(x, s);
    auto y = poisoned_space<float, Exec>(ps);
    pk::max_pool2x2(space, xv, y);
    auto dx = poisoned_space<float, Exec>(s);
    pk::max_pool2x2_backward(space, xv, to_space<float, Exec>(dy, ps), dx);
    space.fence();
    CHECK(pk_test::max_relative_error(to_host<float>(y), y_ref) == 0.0);
    CHECK(pk_test::max_relative_error(to_host<float>(dx), dx_ref) == 0.0);

    pk::matrix_view<double, Exec> lv("logits", B, classes), grad("grad", B, classes);
    Kokkos::deep_copy(lv, Kokkos::View<const double**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                              logits.data(), B, classes));
    Kokkos::View<std::int32_t*, typename Exec::memory_space> lab("labels", B);
    Kokkos::deep_copy(lab, Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(labels.data(), B));
    pk::vector_view<double, Exec> loss("loss", B);
    Kokkos::deep_copy(loss, std::nan(""));
    Kokkos::deep_copy(grad, std::nan(""));
    pk::softmax_cross_entropy(space, lv, lab, loss, grad, 1.0 / B);
    space.fence();
    CHECK(pk_test::max_relative_error(to_host<double>(loss), loss_ref) <= 1e-14);
    CHECK(pk_test::max_relative_error(to_host<double>(grad), grad_ref) <= 1e-14);
    labels[1] = 4;  // out of range
    Kokkos::deep_copy(lab, Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(labels.data(), B));
    const auto bad_labels = [&] { pk::softmax_cross_entropy(space, lv, lab, loss, grad, 1.0); };
    const std::string message = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible
                                    ? "pk::softmax_cross_entropy: labels[1] is 4, expected 0..3"
                                    : "pk::softmax_cross_entropy: labels[1] is outside 0..3";
    CHECK_THROWS_WITH_AS(bad_labels(), message.c_str(), pk::error);
    labels[1] = 3;

    // Adam, two steps, against its formula
    const std::size_t n = 37;
    const auto g = pk_test::random_vector<double>(n);
    const auto p0 = pk_test::random_vector<double>(n);
    pk::vector_view<double, Exec> p("p", n), gv("g", n), m("m", n), v("v", n);
    Kokkos::deep_copy(p, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(p0.data(), n));
    Kokkos::deep_copy(gv, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(g.data(), n));
    std::vector<double> pr(p0), mr(n, 0.0), vr(n, 0.0);
    for (int t = 1; t <= 2; ++t) {
      pk::adam_update(space, p, gv, m, v, pk::adam_step<double>{0.01, 0.9, 0.999, 1e-7, t});
      for (std::size_t i = 0; i < n; ++i) {
        mr[i] = 0.9 * mr[i] + 0.1 * g[i];
        vr[i] = 0.999 * vr[i] + 0.001 * g[i] * g[i];
        pr[i] -= 0.01 * std::sqrt(1 - std::pow(0.999, t)) / (1 - std::pow(0.9, t)) * mr[i] / (std::sqrt(vr[i]) + 1e-7);
      }
    }
    space.fence();
    CHECK(pk_test::max_relative_error(to_host<double>(p), pr) <= 1e-14);
  });
}

TEST_CASE("conv2d refuses shapes that do not fit, naming them") {
  pk_test::on_every_space([&](auto space) {
    using Exec = decltype(space);
    pk::tensor4_view<float, Exec> x("x", 1, 2, 2, 1), w("w", 4, 3, 3, 1), y("y", 1, 1, 1, 4);
    const auto too_small = [&] { pk::conv2d(space, x, w, pk::vector_view<const float, Exec>(), y, pk::padding::valid, false); };
    CHECK_THROWS_WITH_AS(too_small(),
                         "pk::conv2d: the input is 2 x 2, smaller than the 3 x 3 kernel: padding 'valid' leaves no "
                         "output (padding 'same' keeps the size)",
                         pk::error);
    pk::tensor4_view<float, Exec> y2("y", 1, 2, 2, 3);
    const auto wrong_y = [&] { pk::conv2d(space, x, w, pk::vector_view<const float, Exec>(), y2, pk::padding::same, false); };
    CHECK_THROWS_WITH_AS(wrong_y(),
                         "pk::conv2d: y has shape (1, 2, 2, 3), expected (1, 2, 2, 4) (N x Ho x Wo x F)", pk::error);
    // Past the implicit GEMM's 32-bit indices: refused from the extents, before anything is read.
    const pk::tensor4_view<float, Exec> huge(static_cast<float*>(nullptr), 40000, 256, 256, 1);
    const pk::tensor4_view<float, Exec> w1(static_cast<float*>(nullptr), 1, 3, 3, 1);
    const pk::tensor4_view<float, Exec> y_huge(static_cast<float*>(nullptr), 40000, 256, 256, 1);
    const auto too_many = [&] { pk::conv2d(space, huge, w1, pk::vector_view<const float, Exec>(), y_huge, pk::padding::same, false); };
    CHECK_THROWS_WITH_AS(too_many(),
                         "pk::conv2d: N x Ho x Wo = 40000 x 256 x 256 output pixels, expected fewer than 2^31 - 2^16",
                         pk::error);
  });
}
