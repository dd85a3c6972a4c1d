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
  bool has_target;  // the 3x3 and 5x5 general convolutions: the bandwidth target
};

// A general (non-separable) kernel of random weights summing to about 1: the Conv2DTile path.
pk::filter_kernel random_kernel(int size, random_stream& rng) {
  std::vector<float> w(std::size_t(size) * size);
  for (float& x : w) x = float((2.0 * rng.unit() - 0.5) / (size * size));
  return pk::custom_kernel(size, w);
}

template <class T, class Exec>
row bench_case(const Exec& space, const plan& p, const filter_row_case& fc, random_stream& rng) {
  const int h = p.image_h, w = p.image_w, ch = fc.channels;
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
  const std::vector<filter_row_case> cases = {
      {"conv 3x3 float", {pk::filter_op::convolve, random_kernel(3, rng)}, 1, false, true},
      {"conv 5x5 float", {pk::filter_op::convolve, random_kernel(5, rng)}, 1, false, true},
      {"conv 15x15 float", {pk::filter_op::convolve, random_kernel(15, rng)}, 1, false, false},
      {"gaussian 5x5 (sep.) float", pk::parse_filter("gaussian5"), 1, false, false},
      {"gaussian 15x15 (sep.) float", pk::parse_filter("gaussian15"), 1, false, false},
      {"sobel magnitude float", pk::parse_filter("sobel"), 1, false, false},
      {"conv 3x3 uint8 RGB", {pk::filter_op::convolve, random_kernel(3, rng)}, 3, true, false},
      {"gaussian 5x5 uint8 RGB", pk::parse_filter("gaussian5"), 3, true, false},
  };
  for (const filter_row_case& fc : cases) {
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
