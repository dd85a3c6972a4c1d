// 2-D filters on images already in the backend's memory (Kokkos Views), timed, and checked in
// full against a float64 convolution written plainly here, with the same border rule.
#include <pk/filter.hpp>
#include <pk/kokkos/filter.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "measurement.hpp"
#include <pk/kokkos/on_backend.hpp>
#include "timing.hpp"

namespace pk_app {
namespace {

// Where index i (possibly outside 0..n-1) reads from under border rule b; -1: a zero.
int border_source(int i, int n, pk::border b) {
  if (i >= 0 && i < n) return i;
  switch (b) {
    case pk::border::clamp: return i < 0 ? 0 : n - 1;
    case pk::border::zero: return -1;
    case pk::border::wrap: return ((i % n) + n) % n;
    case pk::border::reflect101:
      if (n == 1) return 0;
      while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
      return i;
  }
  return -1;
}

struct reference {
  std::vector<double> value;      // the float64 result
  std::vector<double> magnitude;  // sum |w||x| of each output: the scale of its rounding error
};

// out(y,x,c) = sum_{i,j} w(i,j) in(y+i-r, x+j-r, c) for each kernel, in float64. With two kernels
// (Sobel) the value is sqrt(gx^2 + gy^2).
template <class T>
reference correlate(const std::vector<T>& in, int h, int w, int ch, const std::vector<const pk::filter_kernel*>& ks,
                    pk::border b) {
  const int size = ks[0]->size, r = size / 2;
  std::vector<int> rows(std::size_t(h) + 2 * r), cols(std::size_t(w) + 2 * r);
  for (int i = -r; i < h + r; ++i) rows[i + r] = border_source(i, h, b);
  for (int j = -r; j < w + r; ++j) cols[j + r] = border_source(j, w, b);
  reference out{std::vector<double>(in.size()), std::vector<double>(in.size())};
#pragma omp parallel for
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < ch; ++c) {
        double sq = 0, mag = 0, single = 0;
        for (const pk::filter_kernel* k : ks) {
          double sum = 0, abs_sum = 0;
          for (int i = 0; i < size; ++i) {
            const int sy = rows[y + i];
            if (sy < 0) continue;
            for (int j = 0; j < size; ++j) {
              const int sx = cols[x + j];
              if (sx < 0) continue;
              const double term = double(k->weights[i * size + j]) * double(in[(std::size_t(sy) * w + sx) * ch + c]);
              sum += term, abs_sum += std::abs(term);
            }
          }
          sq += sum * sum, single = sum, mag = std::fmax(mag, abs_sum);
        }
        const std::size_t at = (std::size_t(y) * w + x) * ch + c;
        out.value[at] = ks.size() == 1 ? single : std::sqrt(sq);
        out.magnitude[at] = mag;
      }
  return out;
}

template <class T>
double max_error(const std::vector<T>& out, const reference& ref, double& scale) {
  double worst = 0;
  scale = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    double want = ref.value[i];
    if (std::is_same_v<T, std::uint8_t>) want = std::fmin(255.0, std::fmax(0.0, want));  // saturated
    const double err = std::abs(double(out[i]) - want);
    if (std::isnan(err)) return std::numeric_limits<double>::infinity();
    worst = std::fmax(worst, err);
    scale = std::fmax(scale, ref.magnitude[i]);
  }
  scale = std::fmax(scale, 1e-300);
  return worst / scale;
}

template <class T, class Exec>
measurement filter_on(const Exec& space, const std::string& name, int h, int w, int ch, int repeat, bool check) {
  const pk::filter_spec spec = pk::parse_filter(name);
  const pk::border b = pk::border::reflect101;
  pk::image_view<T, Exec> in("in", h, w, ch), out("out", h, w, ch);
  auto hin = Kokkos::create_mirror_view(in);
  std::vector<T> host_in(hin.size());
  if constexpr (std::is_same_v<T, std::uint8_t>)
    fill_uniform(host_in.data(), host_in.size());
  else
    fill_uniform(host_in.data(), host_in.size(), 0, 255);
  std::copy(host_in.begin(), host_in.end(), hin.data());
  Kokkos::deep_copy(in, hin);
  // Poison: NaN for float; for uint8 two runs, over 0x00 and 0xFF, must agree (below).
  Kokkos::deep_copy(out, std::is_same_v<T, float> ? std::numeric_limits<T>::quiet_NaN() : T(0));

  auto run = [&] {
    pk::apply(space, spec, in, out, b);
    space.fence();
  };
  const timing t = time_median(run, repeat);

  measurement m;
  m.kernel = "filter " + name + (std::is_same_v<T, float> ? " float" : " uint8");
  m.size = std::to_string(h) + "x" + std::to_string(w) + (ch > 1 ? "x" + std::to_string(ch) : "");
  m.ms = t.median_ms;
  m.runs = t.runs;
  m.throughput = 2.0 * double(hin.size()) * sizeof(T) / (t.median_ms * 1e6);  // read in, write out once
  m.unit = "GB/s";
  if (!check) return m;

  auto copy_out = [&] {
    auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    return std::vector<T>(h_out.data(), h_out.data() + h_out.size());
  };
  std::vector<T> result = copy_out();
  bool unwritten = false;
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    Kokkos::deep_copy(out, T(0xFF));
    run();
    unwritten = copy_out() != result;
  }
  const pk::filter_kernel sx = pk::sobel_x_kernel(), sy = pk::sobel_y_kernel();
  std::vector<const pk::filter_kernel*> kernels{&spec.kernel};
  if (spec.op == pk::filter_op::sobel_magnitude) kernels = {&sx, &sy};
  const reference ref = correlate(host_in, h, w, ch, kernels, b);
  double scale = 0;
  m.checked = true;
  m.error = unwritten ? std::numeric_limits<double>::infinity() : max_error(result, ref, scale);
  // A float sum of n products lies within n*eps of sum |w||x| (Sobel: two such sums, then a
  // square root); uint8 results are also rounded to the nearest level: half a level more, and a
  // tenth of one for room (an off-by-one level still fails).
  const int taps = kernels[0]->size * kernels[0]->size * int(kernels.size()) + (kernels.size() > 1 ? 2 : 0);
  m.tolerance = taps * double(std::numeric_limits<float>::epsilon()) +
                (std::is_same_v<T, std::uint8_t> ? 0.6 / scale : 0.0);
  m.check_note = "full";
  return m;
}

}  // namespace

measurement run_filter(pk::backend on, const std::string& filter_name, int height, int width, int channels,
                       bool use_u8, int repeat, bool check) {
  return pk::on_backend(on, [&](auto space) {
    return use_u8 ? filter_on<std::uint8_t>(space, filter_name, height, width, channels, repeat, check)
                  : filter_on<float>(space, filter_name, height, width, channels, repeat, check);
  });
}

}  // namespace pk_app
