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

#include <cases.hpp>

#include "bench_plan.hpp"
#include "bench_row.hpp"
#include "peers.hpp"

namespace pk_bench {
namespace {

struct filter_row_case {
  std::string name;
  pk::filter_spec spec;
  int channels;
  bool u8;
  double gpu_target;  // against copy bandwidth, at the plan's image size (0: none)
  bool small;         // a 3x3 or 5x5 case: also at the plan's small sizes (target 0.8 of copy)
};

// What a case aims for: on a GPU its fraction of copy bandwidth (0.8 at the small sizes, where
// a call's fixed cost counts), on the threaded host backend OpenCV's speed.
double target_of(const plan& p, const filter_row_case& fc, bool small_size) {
  if (!p.filter_targets) return 0;
  if (!p.gpu) return 1.0;
  return small_size ? 0.8 : fc.gpu_target;
}

// A general (non-separable) kernel of random weights summing to about 1: the Conv2DTile path.
pk::filter_kernel random_kernel(int size, random_stream& rng) {
  std::vector<float> w(std::size_t(size) * size);
  for (float& x : w) x = float((2.0 * rng.unit() - 0.5) / (size * size));
  return pk::custom_kernel(size, w);
}

template <class T, class Exec>
row bench_case(const Exec& space, const plan& p, const filter_row_case& fc, int h, int w, double target,
               random_stream& rng) {
  const int ch = fc.channels;
  const pk_harness::filter_case<T, Exec> c(fc.spec, pk::border::reflect101, h, w, ch, rng);
  pk::image_view<T, Exec> copy("copy", h, w, ch);
  const timing ours = measure(space, [&] { c.run(space); }, p.runs);
  const pk_harness::check checked = c.verify(space, 4000, rng);
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c.out);
  const auto& in = c.in;

  row r;
  r.kernel = "filter";
  r.name = fc.name;
  r.size = std::to_string(h) + "x" + std::to_string(w) + "x" + std::to_string(ch);
  r.shape = {h, w, ch};
  r.ours = ours;
  r.unit = "GB/s";
  const double bytes = c.bytes();
  r.ours_rate = bytes / (ours.median_ms * 1e6);
  r.error = checked.error;
  r.tolerance = checked.tolerance;

  if constexpr (is_cuda<Exec>()) {
    r.peer = peer_copy_name<Exec>();
    r.theirs = measure(space, [&] { peer_copy(space, copy.data(), in.data(), in.span() * sizeof(T)); }, p.runs);
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
  if (!r.peer.empty()) {  // (a target only where there is a ratio to meet it)
    r.peer_rate = bytes / (r.theirs.median_ms * 1e6);
    r.ratio = r.ours_rate / r.peer_rate;
    r.target = target;
  }
  return r;
}

template <class Exec>
void bench_on(const Exec& space, const plan& p, std::vector<row>& out) {
  random_stream rng;
  // Targets on the GPU (issue 24): copy speed for the 3x3/5x5 float and uint8 (gray, RGB, RGBA
  // as decoded from photographs) cases and the separable 5x5, 0.88 Sobel, 0.6 separable 15x15.
  const std::vector<filter_row_case> cases = {
      {"conv 3x3 float", {pk::filter_op::convolve, random_kernel(3, rng)}, 1, false, 0.85, true},
      {"conv 5x5 float", {pk::filter_op::convolve, random_kernel(5, rng)}, 1, false, 0.85, true},
      {"conv 15x15 float", {pk::filter_op::convolve, random_kernel(15, rng)}, 1, false, 0, false},
      {"gaussian 5x5 (sep.) float", pk::parse_filter("gaussian5"), 1, false, 0.85, true},
      {"gaussian 15x15 (sep.) float", pk::parse_filter("gaussian15"), 1, false, 0.6, false},
      {"sobel magnitude float", pk::parse_filter("sobel"), 1, false, 0.88, true},
      {"conv 3x3 uint8 gray", {pk::filter_op::convolve, random_kernel(3, rng)}, 1, true, 0.85, true},
      {"conv 3x3 uint8 RGB", {pk::filter_op::convolve, random_kernel(3, rng)}, 3, true, 0.85, true},
      {"conv 3x3 uint8 RGBA", {pk::filter_op::convolve, random_kernel(3, rng)}, 4, true, 0.85, true},
      {"gaussian 5x5 uint8 gray", pk::parse_filter("gaussian5"), 1, true, 0.85, true},
      {"gaussian 5x5 uint8 RGB", pk::parse_filter("gaussian5"), 3, true, 0.85, true},
      {"gaussian 5x5 uint8 RGBA", pk::parse_filter("gaussian5"), 4, true, 0.85, true},
  };
  const auto one = [&](const filter_row_case& fc, int h, int w, bool small_size) {
    std::fprintf(stderr, "pk bench: filter %s %dx%d...\n", fc.name.c_str(), h, w);
    const double target = target_of(p, fc, small_size);
    out.push_back(fc.u8 ? bench_case<std::uint8_t>(space, p, fc, h, w, target, rng)
                        : bench_case<float>(space, p, fc, h, w, target, rng));
  };
  for (const filter_row_case& fc : cases) one(fc, p.image_h, p.image_w, false);
  for (const auto& size : p.small_images)
    for (const filter_row_case& fc : cases)
      if (fc.small) one(fc, size[0], size[1], true);
}

}  // namespace

void bench_filter(pk::backend on, const plan& p, std::vector<row>& out) {
  pk::on_backend(on, [&](auto space) { bench_on(space, p, out); });
}

}  // namespace pk_bench
