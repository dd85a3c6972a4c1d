// c = a + b on data already in the backend's memory (Kokkos Views), timed and checked in full
// against float64 sums.
#include <pk/kokkos/add.hpp>

#include <cmath>
#include <limits>

#include "measurement.hpp"
#include <pk/kokkos/on_backend.hpp>
#include "timing.hpp"

namespace pk_app {
namespace {

template <class T, class Exec>
measurement add_on(const Exec& space, std::int64_t n, int repeat, bool check) {
  pk::vector_view<T, Exec> a("a", n), b("b", n), c("c", n);
  auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
  fill_uniform(ha.data(), std::size_t(n), -1, 1);
  fill_uniform(hb.data(), std::size_t(n), -1, 1);
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);
  Kokkos::deep_copy(c, std::numeric_limits<T>::quiet_NaN());  // an element never written fails the check

  const timing t = time_median(
      [&] {
        pk::add(space, a, b, c);
        space.fence();
      },
      repeat);

  measurement m;
  m.kernel = sizeof(T) == 4 ? "add float" : "add double";
  m.ms = t.median_ms;
  m.runs = t.runs;
  m.throughput = 3.0 * double(n) * sizeof(T) / (t.median_ms * 1e6);  // read a, b; write c
  m.unit = "GB/s";
  if (check) {
    // |c - (a+b)| / max|a+b| in float64: one float rounding, at most 2^-24 of |a+b|.
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    double worst = 0, scale = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double ref = double(ha(i)) + double(hb(i));
      const double err = std::abs(double(hc(i)) - ref);
      scale = std::fmax(scale, std::abs(ref));
      worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : std::fmax(worst, err);
    }
    m.checked = true;
    m.error = worst / std::fmax(scale, 1e-300);
    m.tolerance = sizeof(T) == 4 ? 6e-8 : 1.2e-16;  // 2^-24, 2^-53 with a little room
    m.check_note = "full";
  }
  return m;
}

}  // namespace

measurement run_add(pk::backend on, std::int64_t n, bool use_double, int repeat, bool check) {
  measurement m = pk::on_backend(on, [&](auto space) {
    return use_double ? add_on<double>(space, n, repeat, check) : add_on<float>(space, n, repeat, check);
  });
  const bool power = n > 0 && (n & (n - 1)) == 0;
  m.size = power ? "2^" + std::to_string(int(std::log2(double(n)))) : std::to_string(n);
  return m;
}

}  // namespace pk_app
