// conv2d and its two gradients (the tutorial CNN's three layer shapes) against a plain im2col +
// OpenBLAS GEMM on the host and cuDNN on the GPU (FP32 without TF32, its fastest measured
// algorithm; where the build found cuDNN), on the same data. Checked against float64 sums at
// sampled outputs, and against the peer's whole output.
#include <pk/kokkos/nn.hpp>
#include <pk/kokkos/on_backend.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "bench_plan.hpp"
#include "bench_row.hpp"
#include "peers.hpp"

namespace pk_bench {
namespace {

struct layer {
  std::int64_t n, h, w, c, f;  // N x H x W x C in, F x 3 x 3 x C weights, padding valid
  std::int64_t ho() const { return h - 2; }
  std::int64_t wo() const { return w - 2; }
  std::int64_t rows() const { return n * ho() * wo(); }
  std::int64_t k() const { return 9 * c; }
  double flop() const { return 2.0 * double(rows()) * double(k()) * double(f); }
};

// The peer: a plain im2col, col2im and OpenBLAS (row-major, transposes as BLAS flags).
struct peer_conv {
  int threads;
  std::vector<float> col;
  void im2col(const layer& l, const float* x) {
    col.resize(std::size_t(l.rows() * l.k()));
#pragma omp parallel for num_threads(threads)
    for (std::int64_t m = 0; m < l.rows(); ++m) {
      const std::int64_t ox = m % l.wo(), oy = (m / l.wo()) % l.ho(), n = m / (l.wo() * l.ho());
      for (std::int64_t ky = 0; ky < 3; ++ky)
        for (std::int64_t kx = 0; kx < 3; ++kx)
          std::memcpy(&col[std::size_t(m * l.k() + (ky * 3 + kx) * l.c)],
                      x + ((n * l.h + oy + ky) * l.w + ox + kx) * l.c, std::size_t(l.c) * sizeof(float));
    }
  }
  void forward(const layer& l, const float* x, const float* w, float* y) {
    im2col(l, x);
    host_gemm_flags(false, true, {l.rows(), l.f, l.k(), col.data(), w, y}, threads);
  }
  void backward_input(const layer& l, const float* dy, const float* w, float* dx) {
    col.resize(std::size_t(l.rows() * l.k()));
    host_gemm_flags(false, false, {l.rows(), l.k(), l.f, dy, w, col.data()}, threads);
#pragma omp parallel for num_threads(threads)
    for (std::int64_t p = 0; p < l.n * l.h * l.w; ++p) {
      const std::int64_t ix = p % l.w, iy = (p / l.w) % l.h, n = p / (l.w * l.h);
      float* out = dx + p * l.c;
      for (std::int64_t c = 0; c < l.c; ++c) out[c] = 0;
      for (std::int64_t ky = 0; ky < 3; ++ky)
        for (std::int64_t kx = 0; kx < 3; ++kx) {
          const std::int64_t oy = iy - ky, ox = ix - kx;
          if (oy < 0 || oy >= l.ho() || ox < 0 || ox >= l.wo()) continue;
          const float* from = &col[std::size_t(((n * l.ho() + oy) * l.wo() + ox) * l.k() + (ky * 3 + kx) * l.c)];
          for (std::int64_t c = 0; c < l.c; ++c) out[c] += from[c];
        }
    }
  }
  void backward_weights(const layer& l, const float* x, const float* dy, float* dw) {
    im2col(l, x);
    host_gemm_flags(true, false, {l.f, l.k(), l.rows(), dy, col.data(), dw}, threads);
  }
};

using pass = conv_pass;

template <class Exec>
row bench_layer(const Exec& space, const plan& p, const layer& l, pass which, random_stream& rng) {
  using T = float;
  pk::tensor4_view<T, Exec> x("x", l.n, l.h, l.w, l.c), w("w", l.f, 3, 3, l.c), y("y", l.n, l.ho(), l.wo(), l.f);
  pk::tensor4_view<T, Exec> dx("dx", l.n, l.h, l.w, l.c), dw("dw", l.f, 3, 3, l.c);
  // y holds random values: the gradients' dy; the forward writes a separate output.
  const auto hx = random_view(x, rng), hw = random_view(w, rng), hdy = random_view(y, rng);
  const pk::vector_view<const T, Exec> none;
  const pk::vector_view<T, Exec> no_db;
  // The pass's output: the forward's its own array (y holds the gradients' dy), the others dx or dw.
  pk::tensor4_view<T, Exec> out = which == pass::forward ? pk::tensor4_view<T, Exec>("y out", l.n, l.ho(), l.wo(), l.f)
                                  : which == pass::input_gradient ? dx
                                                                  : dw;
  const auto run = [&] {
    if (which == pass::forward)
      pk::conv2d(space, x, w, none, out, pk::padding::valid, false);
    else if (which == pass::input_gradient)
      pk::conv2d_backward_input(space, y, w, dx, pk::padding::valid);
    else
      pk::conv2d_backward_weights(space, x, y, dw, no_db, pk::padding::valid);
  };
  const timing ours = measure(space, run, p.runs);
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);

  // float64 sums at sampled outputs
  const auto X = [&](std::int64_t n, std::int64_t i, std::int64_t j, std::int64_t c) { return double(hx(n, i, j, c)); };
  const auto W = [&](std::int64_t f, std::int64_t i, std::int64_t j, std::int64_t c) { return double(hw(f, i, j, c)); };
  const auto DY = [&](std::int64_t n, std::int64_t i, std::int64_t j, std::int64_t f) { return double(hdy(n, i, j, f)); };
  double worst = 0, scale = 1e-30;
  for (int s = 0; s < 300; ++s) {
    const std::size_t e = std::size_t(rng.next() % std::uint64_t(hout.size()));
    double want = 0;
    if (which == pass::forward) {
      const std::int64_t f = std::int64_t(e) % l.f, ox = std::int64_t(e) / l.f % l.wo();
      const std::int64_t oy = std::int64_t(e) / (l.f * l.wo()) % l.ho(), n = std::int64_t(e) / (l.f * l.wo() * l.ho());
      for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx)
          for (std::int64_t c = 0; c < l.c; ++c) want += X(n, oy + ky, ox + kx, c) * W(f, ky, kx, c);
    } else if (which == pass::input_gradient) {
      const std::int64_t c = std::int64_t(e) % l.c, ix = std::int64_t(e) / l.c % l.w;
      const std::int64_t iy = std::int64_t(e) / (l.c * l.w) % l.h, n = std::int64_t(e) / (l.c * l.w * l.h);
      for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx) {
          const std::int64_t oy = iy - ky, ox = ix - kx;
          if (oy < 0 || oy >= l.ho() || ox < 0 || ox >= l.wo()) continue;
          for (std::int64_t f = 0; f < l.f; ++f) want += DY(n, oy, ox, f) * W(f, ky, kx, c);
        }
    } else {
      const std::int64_t c = std::int64_t(e) % l.c, kx = std::int64_t(e) / l.c % 3, ky = std::int64_t(e) / (3 * l.c) % 3;
      const std::int64_t f = std::int64_t(e) / (9 * l.c);
      for (std::int64_t n = 0; n < l.n; ++n)
        for (std::int64_t oy = 0; oy < l.ho(); ++oy)
          for (std::int64_t ox = 0; ox < l.wo(); ++ox) want += DY(n, oy, ox, f) * X(n, oy + ky, ox + kx, c);
    }
    worst = std::fmax(worst, std::abs(double(hout.data()[e]) - want));
    scale = std::fmax(scale, std::abs(want));
  }

  row r;
  r.kernel = "conv2d";
  r.name = std::string("conv2d 3x3 ") +
           (which == pass::forward ? "forward" : which == pass::input_gradient ? "input gradient" : "weight gradient");
  r.size = std::to_string(l.n) + "x" + std::to_string(l.h) + "x" + std::to_string(l.w) + "x" + std::to_string(l.c) +
           "->" + std::to_string(l.f);
  r.shape = {l.n, l.h, l.w, l.c, l.f};
  r.ours = ours;
  r.unit = "GFLOP/s";
  r.ours_rate = l.flop() / (ours.median_ms * 1e6);
  r.error = std::isfinite(worst) ? worst / scale : INFINITY;
  // A float sum of `terms` products of values in [-1, 1], against the largest sampled |sum|.
  const double terms = which == pass::forward ? double(l.k()) : which == pass::input_gradient ? 9.0 * double(l.f)
                                                                                                : double(l.rows());
  r.tolerance = terms * 1.2e-7;
  const auto compare_all = [&](const auto& theirs) {
    double diff = 0, largest = 1e-30;
    for (std::size_t e = 0; e < theirs.size(); ++e) {
      diff = std::fmax(diff, std::abs(double(hout.data()[e]) - theirs.data()[e]));
      largest = std::fmax(largest, std::abs(double(theirs.data()[e])));
    }
    r.peer_difference = diff / largest;
  };
  if constexpr (is_cuda<Exec>()) {
#if defined(PK_BENCH_HAVE_CUDNN)
    pk::tensor4_view<T, Exec> theirs("cudnn out", out.extent(0), out.extent(1), out.extent(2), out.extent(3));
    const conv_shape cs{l.n, l.h, l.w, l.c, l.f, 3, 3};
    // The pass's output is cuDNN's own buffer; its inputs are pk's.
    T* px = which == pass::input_gradient ? theirs.data() : x.data();
    T* pw = which == pass::weight_gradient ? theirs.data() : w.data();
    T* py = which == pass::forward ? theirs.data() : y.data();
    cuda_conv peer(space.cuda_stream(), cs, which);
    r.peer = peer.name();
    peer.stage(px, pw, py);
    r.theirs = measure(space, [&] { peer.run(px, pw, py); }, p.runs);
    peer.unstage(px, pw, py);
    r.peer_rate = l.flop() / (r.theirs.median_ms * 1e6);
    r.ratio = r.ours_rate / r.peer_rate;
    compare_all(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), theirs));
#endif
  } else {
    if (host_has_blas()) {
      peer_conv peer{space.concurrency(), {}};
      std::vector<float> theirs(hout.size());
      r.peer = "im2col + " + host_blas_name(false);
      r.theirs = measure(space, [&] {
        if (which == pass::forward)
          peer.forward(l, hx.data(), hw.data(), theirs.data());
        else if (which == pass::input_gradient)
          peer.backward_input(l, hdy.data(), hw.data(), theirs.data());
        else
          peer.backward_weights(l, hx.data(), hdy.data(), theirs.data());
      }, p.runs);
      r.peer_rate = l.flop() / (r.theirs.median_ms * 1e6);
      r.ratio = r.ours_rate / r.peer_rate;
      compare_all(theirs);
    }
  }
  return r;
}

template <class Exec>
void bench_on(const Exec& space, const plan& p, std::vector<row>& out) {
  random_stream rng;
  const std::int64_t n = p.conv_batch;
  for (const layer& l : {layer{n, 28, 28, 1, 32}, layer{n, 13, 13, 32, 64}, layer{n, 5, 5, 64, 64}})
    for (pass which : {pass::forward, pass::input_gradient, pass::weight_gradient}) {
      std::fprintf(stderr, "pk bench: conv2d %lldx%lldx%lldx%lld -> %lld...\n", (long long)l.n, (long long)l.h,
                   (long long)l.w, (long long)l.c, (long long)l.f);
      out.push_back(bench_layer(space, p, l, which, rng));
    }
}

}  // namespace

void bench_conv2d(pk::backend on, const plan& p, std::vector<row>& out) {
  pk::on_backend(on, [&](auto space) { bench_on(space, p, out); });
}

}  // namespace pk_bench
