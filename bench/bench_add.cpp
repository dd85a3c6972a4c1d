// add and axpby against a plain copy: an element-wise kernel can at best move its bytes as fast
// as a copy does, so effective bandwidth (12 bytes per float element: read a and b, write c)
// over copy bandwidth (bytes read + written) says how close it is to the memory's limit.
#include <pk/kokkos/add.hpp>
#include <pk/kokkos/on_backend.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "bench_data.hpp"
#include "bench_plan.hpp"
#include "peers.hpp"
#include "stopwatch.hpp"

namespace pk_bench {
namespace {

std::string size_name(std::int64_t n) {
  const bool power = n > 0 && (n & (n - 1)) == 0;
  return power ? "2^" + std::to_string(int(std::log2(double(n)))) : std::to_string(n);
}

template <class Exec>
void bench_on(const Exec& space, const plan& p, std::vector<row>& out) {
  using T = float;
  using view = pk::vector_view<T, Exec>;
  const std::int64_t n = p.add_n;
  random_stream rng;
  view a("a", n), b("b", n), c("c", n), copy("copy", n);
  const auto ha = random_view(a, rng), hb = random_view(b, rng);
  const double bytes = 3.0 * double(n) * sizeof(T);

  // The peer: the same number of elements copied, a -> copy.
  const timing theirs =
      measure(space, [&] { peer_copy(space, copy.data(), a.data(), std::size_t(n) * sizeof(T)); }, p.runs);
  const double copy_rate = 2.0 * double(n) * sizeof(T) / (theirs.median_ms * 1e6);

  const T alpha = T(0.75), beta = T(-1.25);
  for (const bool plain : {true, false}) {
    poison(c);
    const timing ours = measure(
        space, [&] { plain ? pk::add(space, a, b, c) : pk::axpby(space, alpha, a, beta, b, c); }, p.runs);
    // Checked in full: one rounding of each product and of the sum, so within 2 ulp of the
    // largest |term| (NaN, an unwritten element, fails).
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    double worst = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const double x = plain ? double(ha(i)) : double(alpha) * ha(i), y = plain ? double(hb(i)) : double(beta) * hb(i);
      const double err = std::abs(double(hc(i)) - (x + y)) / std::fmax(std::fmax(std::abs(x), std::abs(y)), 1e-30);
      if (!(err <= worst)) worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
    }
    row r;
    r.kernel = "add";
    r.name = plain ? "add float" : "axpby float";
    r.size = size_name(n);
    r.ours = ours;
    r.unit = "GB/s";
    r.ours_rate = bytes / (ours.median_ms * 1e6);
    r.peer = peer_copy_name<Exec>();
    r.theirs = theirs;
    r.peer_rate = copy_rate;
    r.ratio = r.ours_rate / r.peer_rate;
    r.target = plain ? p.add_target : 0;
    r.error = worst;
    r.tolerance = (plain ? 2.5 : 4.5) * 0x1.0p-24;  // add: one rounding; axpby: three
    out.push_back(r);
  }
}

}  // namespace

void bench_add(pk::backend on, const plan& p, std::vector<row>& out) {
  pk::on_backend(on, [&](auto space) { bench_on(space, p, out); });
}

}  // namespace pk_bench
