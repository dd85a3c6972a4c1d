#pragma once
// The run-and-check harness of pk's programs: each kernel on random data already in the backend's
// memory (inputs.hpp), run and timed (timer.hpp) and checked against the project's float64
// reference (src/reference/float64_reference.hpp). `pk demo`, `pk add` and `pk matmul` report
// what a case measures; `pk bench` also times a peer library on the same case's data.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <pk/filter.hpp>
#include <pk/kokkos/add.hpp>
#include <pk/kokkos/filter.hpp>
#include <pk/kokkos/matmul.hpp>

#include "inputs.hpp"
#include "reference/float64_reference.hpp"

namespace pk_harness {

// What a case's check found: error against tolerance as each case defines them; an unwritten
// element or a NaN where the reference has none is an infinite error.
struct check {
  bool checked = false;
  double error = 0, tolerance = 0;
  std::string note;  // what was checked: "every element", "1000 random entries", ...
  bool pass() const { return !checked || error <= tolerance; }
};

// The unit roundoff of T.
template <class T>
constexpr double roundoff() {
  return std::is_same_v<T, double> ? 0x1.0p-53 : 0x1.0p-24;
}

inline double worse(double worst, double err) { return std::isnan(err) ? std::numeric_limits<double>::infinity() : std::fmax(worst, err); }

// c = a + b (plain), or c = alpha*a + beta*b, on n elements.
template <class T>
std::string type_name() {
  return std::is_same_v<T, double> ? "double" : std::is_same_v<T, float> ? "float" : "uint8";
}

template <class T, class Exec>
struct axpby_case : fits_in_memory<Exec> {
  using view = pk::vector_view<T, Exec>;
  std::int64_t n;
  bool plain;
  T alpha = T(0.75), beta = T(-1.25);
  view a, b, c;
  typename view::HostMirror ha, hb;

  axpby_case(std::int64_t n_, bool plain_, random_stream& rng)
      : fits_in_memory<Exec>(3.0 * double(n_) * sizeof(T), "add of " + std::to_string(n_) + " " + type_name<T>() + "s (a, b and c)"),
        n(n_), plain(plain_), a("a", n_), b("b", n_), c("c", n_), ha(random_view(a, rng)), hb(random_view(b, rng)) {
    poison(c);
  }
  void run(const Exec& space) const { plain ? pk::add(space, a, b, c) : pk::axpby(space, alpha, a, beta, b, c); }
  double bytes() const { return 3.0 * double(n) * sizeof(T); }  // read a and b, write c
  // Every element, relative to its larger |term|: add rounds once, axpby three times.
  check verify() const {
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    check r{true, 0, (plain ? 2.5 : 4.5) * roundoff<T>(), "every element"};
    for (std::int64_t i = 0; i < n; ++i) {
      double scale = 0;
      const double ref = pk::reference::axpby_element(plain ? 1.0 : double(alpha), ha.data(), plain ? 1.0 : double(beta),
                                                      hb.data(), i, &scale);
      r.error = worse(r.error, std::abs(double(hc(i)) - ref) / std::fmax(scale, 1e-300));
    }
    return r;
  }
};

// out = a filter_spec applied to an h x w x c image, border b.
template <class T, class Exec>
struct filter_case : fits_in_memory<Exec> {
  using view = pk::image_view<T, Exec>;
  pk::filter_spec spec;
  pk::border border;
  int h, w, c;
  view in, out;
  typename view::HostMirror hin;

  filter_case(const pk::filter_spec& s, pk::border b, int h_, int w_, int c_, random_stream& rng)
      : fits_in_memory<Exec>(2.0 * double(h_) * w_ * c_ * sizeof(T),
                             "filter of a " + std::to_string(h_) + "x" + std::to_string(w_) + "x" + std::to_string(c_) + " " +
                                 type_name<T>() + " image (in and out)"),
        spec(s), border(b), h(h_), w(w_), c(c_), in("in", h_, w_, c_), out("out", h_, w_, c_), hin(random_view(in, rng)) {
    poison(out, 0x00);
  }
  void run(const Exec& space) const { pk::apply(space, spec, in, out, border); }
  double bytes() const { return 2.0 * double(h) * w * c * sizeof(T); }  // read in, write out once
  int taps() const { return spec.op == pk::filter_op::sobel_magnitude ? 18 : spec.kernel.size * spec.kernel.size; }

  // Every output (samples 0) or that many random ones. float: the largest |out - ref| relative to
  // the largest sum |w||in| of the outputs checked, within (2 taps + 4) roundings; uint8: levels
  // off the reference rounded and saturated, at most 1 (float accumulation can land on the other
  // side of a .5). uint8 has no NaN poison: the kernel runs again over 0xFF, and any output that
  // differs was never written.
  check verify(const Exec& space, int samples, random_stream& rng) const {
    auto result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    bool unwritten = false;
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      poison(out, 0xFF);
      run(space);
      space.fence();
      auto again = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      unwritten = !std::equal(result.data(), result.data() + result.span(), again.data());
    }
    const std::int64_t outputs = std::int64_t(h) * w * c;
    const bool all = samples <= 0 || samples >= outputs;
    const std::int64_t count = all ? outputs : samples;
    std::vector<std::int64_t> at(count);
    for (std::int64_t s = 0; s < count; ++s) at[s] = all ? s : rng.below(outputs);
    double worst = 0, scale = 1e-300;
#pragma omp parallel for reduction(max : worst, scale)
    for (std::int64_t s = 0; s < count; ++s) {
      const std::int64_t e = at[s], x = (e / c) % w, y = e / c / w;
      const int ch = static_cast<int>(e % c);
      double magnitude = 0;
      const double ref = pk::reference::filter_pixel(hin.data(), h, w, c, y, x, ch, spec, border, &magnitude);
      const double want = std::is_same_v<T, std::uint8_t> ? pk::reference::to_uint8(ref) : ref;
      const double err = std::abs(double(result.data()[e]) - want);
      worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : std::fmax(worst, err);
      scale = std::fmax(scale, magnitude);
    }
    check r{true, 0, 0, all ? "every pixel" : std::to_string(count) + " random pixels"};
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      r.error = unwritten ? std::numeric_limits<double>::infinity() : worst;
      r.tolerance = 1;
    } else {
      r.error = worst / scale;
      r.tolerance = (2.0 * taps() + 4) * roundoff<float>();
    }
    return r;
  }
};

// C = op(A) op(B), C m x n (alpha 1, beta 0: C is only written).
template <class T, class Exec>
struct gemm_case : fits_in_memory<Exec> {
  using view = pk::matrix_view<T, Exec>;
  std::int64_t m, n, k;
  pk::op op_a, op_b;
  view a, b, c;
  typename view::HostMirror ha, hb;

  gemm_case(std::int64_t m_, std::int64_t n_, std::int64_t k_, bool ta, bool tb, random_stream& rng)
      : fits_in_memory<Exec>((double(m_) * k_ + double(k_) * n_ + double(m_) * n_) * sizeof(T),
                             "GEMM of " + std::to_string(m_) + "x" + std::to_string(n_) + "x" + std::to_string(k_) + " " +
                                 type_name<T>() + "s (A, B and C)"),
        m(m_), n(n_), k(k_), op_a(ta ? pk::op::transpose : pk::op::none), op_b(tb ? pk::op::transpose : pk::op::none),
        a("A", ta ? k_ : m_, ta ? m_ : k_), b("B", tb ? n_ : k_, tb ? k_ : n_), c("C", m_, n_),
        ha(random_view(a, rng)), hb(random_view(b, rng)) {
    poison(c);
  }
  void run(const Exec& space) const { pk::gemm(space, op_a, op_b, T(1), a, b, T(0), c); }
  double flop() const { return 2.0 * double(m) * double(n) * double(k); }
  // `entries` random entries of C (all where C has fewer), each against its float64 dot product
  // relative to its sum |a||b|: a float sum of k products lies within k roundings of that.
  check verify(int entries, random_stream& rng, std::vector<std::int64_t>* checked_at = nullptr) const {
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    const int count = int(std::min<std::int64_t>(entries, m * n));
    check r{true, 0, double(k) * roundoff<T>(), std::to_string(count) + (count == m * n ? " entries (all)" : " random entries")};
    for (int s = 0; s < count; ++s) {
      const std::int64_t e = count == m * n ? s : rng.below(m * n), i = e / n, j = e % n;
      if (checked_at) checked_at->push_back(e);
      double magnitude = 0;
      const double ref = pk::reference::gemm_entry(op_a, op_b, m, n, k, ha.data(), hb.data(), i, j, &magnitude);
      r.error = worse(r.error, std::abs(double(hc(i, j)) - ref) / std::fmax(magnitude, 1e-300));
    }
    return r;
  }
};

}  // namespace pk_harness
