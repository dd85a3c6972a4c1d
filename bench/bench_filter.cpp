// 2-D filters against OpenCV (host) or copy bandwidth (GPU). A filter reads each pixel and writes
// each pixel once at best (8 bytes per float pixel), so on a GPU effective bandwidth over copy
// bandwidth says how close the tiled kernel comes to the memory's limit; on the host OpenCV's
// filter2D/sepFilter2D/Sobel on the same image is the peer.
#include <pk/filter.hpp>
#include <pk/kokkos/filter.hpp>
#include <pk/kokkos/on_backend.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bench_data.hpp"
#include "bench_plan.hpp"
#include "peers.hpp"
#include "stopwatch.hpp"

namespace pk_bench {
namespace {

struct filter_case {
  std::string name;
  pk::filter_spec spec;
  int channels;
  bool u8;
  bool has_target;  // the 3x3 and 5x5 general convolutions: the bandwidth target
};

// A general (non-separable) kernel of random weights summing to about 1: the Conv2DTile path.
pk::filter_kernel random_kernel(int size, random_stream& rng) {
  std::vector<float> w(std::size_t(size) * size);
  for (float& x : w) x = float((2.0 * rng.unit() - 0.5) / (size * size));
  return pk::custom_kernel(size, w);
}

// Border reflect-101 ("dcb|abcd|cba"), the one the benchmarks use.
std::int64_t reflect101(std::int64_t i, std::int64_t n) {
  if (n == 1) return 0;
  while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
  return i;
}

// The float64 value of one output and the sum of |terms| (the scale of its rounding error).
template <class T>
void reference_pixel(const T* in, std::int64_t h, std::int64_t w, int ch, std::int64_t y, std::int64_t x, int c,
                     const pk::filter_spec& f, double& value, double& scale) {
  const bool sobel = f.op == pk::filter_op::sobel_magnitude;
  const pk::filter_kernel kx = sobel ? pk::sobel_x_kernel() : f.kernel;
  const pk::filter_kernel ky = sobel ? pk::sobel_y_kernel() : f.kernel;
  const int size = kx.size, r = size / 2;
  double gx = 0, gy = 0;
  scale = 0;
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j) {
      const double p = double(in[(reflect101(y + i - r, h) * w + reflect101(x + j - r, w)) * ch + c]);
      gx += double(kx.weights[i * size + j]) * p;
      gy += double(ky.weights[i * size + j]) * p;
      scale += (std::abs(double(kx.weights[i * size + j])) + (sobel ? std::abs(double(ky.weights[i * size + j])) : 0)) *
               std::abs(p);
    }
  value = sobel ? std::sqrt(gx * gx + gy * gy) : gx;
}

// Our output against float64 at `samples` random pixels: float, relative to the largest sum of
// |terms| (size^2 roundings of 2^-24 at most); uint8, in grey levels over 255 (rounding to
// nearest: half a level, plus float rounding of values near .5).
template <class T>
double sampled_error(const T* in, const T* out, std::int64_t h, std::int64_t w, int ch, const pk::filter_spec& f,
                     random_stream& rng, int samples, double& tolerance) {
  double worst = 0, scale = 1e-30;
  for (int s = 0; s < samples; ++s) {
    const auto y = std::int64_t(rng.next() % std::uint64_t(h)), x = std::int64_t(rng.next() % std::uint64_t(w));
    const int c = int(rng.next() % std::uint64_t(ch));
    double want, mag;
    reference_pixel(in, h, w, ch, y, x, c, f, want, mag);
    const double got = double(out[(y * w + x) * ch + c]);
    if constexpr (std::is_same_v<T, std::uint8_t>) want = std::fmin(255.0, std::fmax(0.0, want));
    const double err = std::abs(got - want);
    if (std::isnan(err)) return std::numeric_limits<double>::infinity();
    worst = std::fmax(worst, err);
    scale = std::fmax(scale, mag);
  }
  const int size = f.op == pk::filter_op::sobel_magnitude ? 3 : f.kernel.size;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    tolerance = 0.5 / 255 + 1e-4;
    return worst / 255;
  } else {
    tolerance = (2.0 * size * size + 4) * 0x1.0p-24;
    return worst / scale;
  }
}

template <class T, class Exec>
row bench_case(const Exec& space, const plan& p, const filter_case& fc, random_stream& rng) {
  using view = pk::image_view<T, Exec>;
  const int h = p.image_h, w = p.image_w, ch = fc.channels;
  view in("in", h, w, ch), out("out", h, w, ch), copy("copy", h, w, ch);
  const auto hin = random_view(in, rng);
  poison(out);
  const timing ours = measure(space, [&] { pk::apply(space, fc.spec, in, out, pk::border::reflect101); }, p.runs);
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);

  row r;
  r.kernel = "filter";
  r.name = fc.name;
  r.size = std::to_string(h) + "x" + std::to_string(w) + "x" + std::to_string(ch);
  r.ours = ours;
  r.unit = "GB/s";
  const double bytes = 2.0 * double(h) * w * ch * sizeof(T);
  r.ours_rate = bytes / (ours.median_ms * 1e6);
  r.error = sampled_error(hin.data(), hout.data(), h, w, ch, fc.spec, rng, 4000, r.tolerance);

  if constexpr (is_cuda<Exec>()) {
    r.peer = peer_copy_name<Exec>();
    r.theirs = measure(space, [&] { peer_copy(space, copy.data(), in.data(), in.span() * sizeof(T)); }, p.runs);
    r.target = fc.has_target ? p.filter_target : 0;
  } else if (host_has_opencv()) {
    const pk::filter_kernel& k = fc.spec.kernel;
    const bool sobel = fc.spec.op == pk::filter_op::sobel_magnitude;
    r.peer = sobel ? "cv::Sobel+magnitude" : k.separable() ? "cv::sepFilter2D" : "cv::filter2D";
    const int threads = space.concurrency();
    // Host memory: OpenCV reads our input and writes `copy`.
    const host_image hin_img{const_cast<T*>(in.data()), h, w, ch, std::is_same_v<T, std::uint8_t>};
    const host_image hout_img{copy.data(), h, w, ch, std::is_same_v<T, std::uint8_t>};
    r.theirs = measure(
        space,
        [&] {
          if (sobel)
            host_sobel_magnitude(hin_img, hout_img, threads);
          else
            host_filter(hin_img, hout_img, k.size, k.weights.data(), k.separable() ? k.row.data() : nullptr,
                        k.separable() ? k.column.data() : nullptr, threads);
        },
        p.runs);
    // Our image against OpenCV's, element by element (float: relative to the largest value).
    double worst = 0, largest = 1e-30;
    for (std::size_t i = 0; i < copy.span(); ++i) {
      worst = std::fmax(worst, std::abs(double(hout.data()[i]) - double(copy.data()[i])));
      largest = std::fmax(largest, std::abs(double(copy.data()[i])));
    }
    r.peer_difference = std::is_same_v<T, std::uint8_t> ? worst / 255 : worst / largest;
  }
  if (!r.peer.empty()) {
    r.peer_rate = bytes / (r.theirs.median_ms * 1e6);
    r.ratio = r.ours_rate / r.peer_rate;
  }
  return r;
}

template <class Exec>
void bench_on(const Exec& space, const plan& p, std::vector<row>& out) {
  random_stream rng;
  const std::vector<filter_case> cases = {
      {"conv 3x3 float", {pk::filter_op::convolve, random_kernel(3, rng)}, 1, false, true},
      {"conv 5x5 float", {pk::filter_op::convolve, random_kernel(5, rng)}, 1, false, true},
      {"conv 15x15 float", {pk::filter_op::convolve, random_kernel(15, rng)}, 1, false, false},
      {"gaussian 5x5 (sep.) float", pk::parse_filter("gaussian5"), 1, false, false},
      {"gaussian 15x15 (sep.) float", pk::parse_filter("gaussian15"), 1, false, false},
      {"sobel magnitude float", pk::parse_filter("sobel"), 1, false, false},
      {"conv 3x3 uint8 RGB", {pk::filter_op::convolve, random_kernel(3, rng)}, 3, true, false},
      {"gaussian 5x5 uint8 RGB", pk::parse_filter("gaussian5"), 3, true, false},
  };
  for (const filter_case& fc : cases) {
    if (fc.u8 && fc.spec.op == pk::filter_op::sobel_magnitude) continue;
    std::fprintf(stderr, "pk bench: filter %s %dx%d...\n", fc.name.c_str(), p.image_h, p.image_w);
    out.push_back(fc.u8 ? bench_case<std::uint8_t>(space, p, fc, rng) : bench_case<float>(space, p, fc, rng));
  }
}

}  // namespace

void bench_filter(pk::backend on, const plan& p, std::vector<row>& out) {
  pk::on_backend(on, [&](auto space) { bench_on(space, p, out); });
}

}  // namespace pk_bench
