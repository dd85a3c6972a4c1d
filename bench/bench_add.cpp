// add and axpby against a plain copy: an element-wise kernel can at best move its bytes as fast
// as a copy does, so effective bandwidth (12 bytes per float element: read a and b, write c)
// over copy bandwidth (bytes read + written) says how close it is to the memory's limit.
#include <pk/kokkos/on_backend.hpp>

#include <cmath>
#include <string>

#include <cases.hpp>

#include "bench_plan.hpp"
#include "bench_row.hpp"
#include "peers.hpp"

namespace pk_bench {
namespace {

std::string size_name(std::int64_t n) {
  const bool power = n > 0 && (n & (n - 1)) == 0;
  return power ? "2^" + std::to_string(int(std::log2(double(n)))) : std::to_string(n);
}

template <class Exec>
void bench_on(const Exec& space, const plan& p, std::vector<row>& out) {
  using T = float;
  const std::int64_t n = p.add_n;
  random_stream rng;
  for (const bool plain : {true, false}) {
    const pk_harness::axpby_case<T, Exec> c(n, plain, rng);
    pk::vector_view<T, Exec> copy("copy", n);
    const timing ours = measure(space, [&] { c.run(space); }, p.runs);
    const pk_harness::check checked = c.verify();
    // The peer: the same number of elements copied, a -> copy.
    const timing theirs =
        measure(space, [&] { peer_copy(space, copy.data(), c.a.data(), std::size_t(n) * sizeof(T)); }, p.runs);
    row r;
    r.kernel = "add";
    r.name = plain ? "add float" : "axpby float";
    r.size = size_name(n);
    r.shape = {n};
    r.ours = ours;
    r.unit = "GB/s";
    r.ours_rate = c.bytes() / (ours.median_ms * 1e6);
    r.peer = peer_copy_name<Exec>();
    r.theirs = theirs;
    r.peer_rate = 2.0 * double(n) * sizeof(T) / (theirs.median_ms * 1e6);
    r.ratio = r.ours_rate / r.peer_rate;
    r.target = plain ? p.add_target : 0;
    r.error = checked.error;
    r.tolerance = checked.tolerance;
    out.push_back(r);
  }
}

}  // namespace

void bench_add(pk::backend on, const plan& p, std::vector<row>& out) {
  pk::on_backend(on, [&](auto space) { bench_on(space, p, out); });
}

}  // namespace pk_bench
