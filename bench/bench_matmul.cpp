// GEMM against the vendor/peer BLAS on the same matrices: cuBLAS on a GPU (TF32 off, so both do
// IEEE FP32/FP64 multiply-adds), OpenBLAS on the host with the backend's thread count.
#include <pk/kokkos/matmul.hpp>
#include <pk/kokkos/on_backend.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <cases.hpp>

#include "bench_plan.hpp"
#include "bench_row.hpp"
#include "peers.hpp"

namespace pk_bench {
namespace {

// The peer BLAS of an execution space, on that space's stream or threads.
template <class Exec>
struct peer_blas {
  explicit peer_blas(const Exec& space) : threads(space.concurrency()) {}
  bool available() const { return host_has_blas(); }
  template <class T>
  std::string name() const {
    return host_blas_name(sizeof(T) == 8);
  }
  template <class T>
  void gemm(const gemm_args<T>& g) {
    host_gemm(g, threads);
  }
  int threads;
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct peer_blas<Kokkos::Cuda> {
  explicit peer_blas(const Kokkos::Cuda& space) : blas(space.cuda_stream()) {}
  bool available() const { return true; }
  template <class T>
  std::string name() const {
    return sizeof(T) == 8 ? "cublasDgemm" : "cublasSgemm";
  }
  template <class T>
  void gemm(const gemm_args<T>& g) {
    blas.gemm(g);
  }
  cuda_blas blas;
};
#endif

std::string shape_name(std::int64_t m, std::int64_t n, std::int64_t k) {
  if (m == n && n == k) return std::to_string(m) + "^3";
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

template <class T, class Exec>
row bench_shape(const Exec& space, peer_blas<Exec>& peer, const plan& p, const plan::gemm_shape& s,
                random_stream& rng) {
  const std::int64_t m = s.m, n = s.n, k = s.k;
  const pk_harness::gemm_case<T, Exec> c(m, n, k, false, false, rng);
  pk::matrix_view<T, Exec> c_peer("c_peer", m, n);
  const timing ours = measure(space, [&] { c.run(space); }, p.runs);
  std::vector<std::int64_t> checked_at;
  const pk_harness::check checked = c.verify(1000, rng, &checked_at);
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.c);

  row r;
  r.kernel = "matmul";
  r.name = sizeof(T) == 8 ? "matmul double" : "matmul float";
  r.size = shape_name(m, n, k);
  r.shape = {m, n, k};
  r.ours = ours;
  r.unit = "GFLOP/s";
  const double flop = c.flop();
  r.ours_rate = flop / (ours.median_ms * 1e6);
  r.error = checked.error;
  r.tolerance = checked.tolerance;

  if (peer.available()) {
    r.peer = peer.template name<T>();
    const gemm_args<T> g{m, n, k, c.a.data(), c.b.data(), c_peer.data()};
    r.theirs = measure(space, [&] { peer.gemm(g); }, p.runs);
    r.peer_rate = flop / (r.theirs.median_ms * 1e6);
    r.ratio = r.ours_rate / r.peer_rate;
    r.target = s.target;  // (a target only where there is a ratio to meet it)
    auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_peer);
    double diff = 0, largest = 1e-300;
    for (const std::int64_t e : checked_at) {
      diff = std::fmax(diff, std::abs(double(hc.data()[e]) - double(hp.data()[e])));
      largest = std::fmax(largest, std::abs(double(hp.data()[e])));
    }
    r.peer_difference = diff / largest;
  }
  return r;
}

template <class Exec>
void bench_on(const Exec& space, const plan& p, std::vector<row>& out) {
  random_stream rng;
  peer_blas<Exec> peer(space);
  for (const auto& s : p.sgemm) {
    std::fprintf(stderr, "pk bench: matmul float %s...\n", shape_name(s.m, s.n, s.k).c_str());
    out.push_back(bench_shape<float>(space, peer, p, s, rng));
  }
  for (const auto& s : p.dgemm) {
    std::fprintf(stderr, "pk bench: matmul double %s...\n", shape_name(s.m, s.n, s.k).c_str());
    out.push_back(bench_shape<double>(space, peer, p, s, rng));
  }
}

}  // namespace

void bench_matmul(pk::backend on, const plan& p, std::vector<row>& out) {
  pk::on_backend(on, [&](auto space) { bench_on(space, p, out); });
}

}  // namespace pk_bench
