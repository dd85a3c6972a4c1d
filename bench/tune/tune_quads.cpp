// Float Sobel and separable filters read by quads (4 x 4 outputs a thread, windows as 16-byte
// quads, as the float convolutions are) against the CUDA policy's single-column blocks, on the same
// 8192 x 8192 image, against copy bandwidth.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <string>
#include <type_traits>

#include "../bench_row.hpp"
#include "../peers.hpp"
#include "cuda/cuda_filter_policy.hpp"
#include "filter/filter_impl.hpp"
#include "tune.hpp"

namespace pk_tune {
namespace {

namespace d = pk::detail;

// Every float operation by quads; launch bounds of Teams teams an SM up to radius 3 (0: the
// policy's).
template <int Teams>
struct float_quads : d::cuda_filter_policy {
  template <class T, class Op>
  using schedule = d::output_blocks<team, 4, 1, std::is_same_v<T, float>>;
  template <class T, class Op>
  static constexpr int teams_per_sm = Teams > 0 && d::radius_of<decltype(Op::radius)>::value <= 3
                                          ? Teams
                                          : d::cuda_filter_policy::teams_per_sm<T, Op>;
};

template <class Policy, class Op>
void time_one(const pk::image_view<const float, exec>& in, const pk::image_view<float, exec>& out, const Op& op,
              const std::string& what, const std::string& variant, double copy_rate, int runs) {
  exec space;
  const auto t = pk_bench::measure(
      space,
      [&] {
        d::run_tiles("tune", space,
                     d::FilterTile<float, exec, Policy, Op>{in, out, d::image_grid(in, int(op.radius)), pk::border::reflect101, op, {}});
      },
      runs);
  const double rate = 2.0 * double(in.span()) * sizeof(float) / (t.median_ms * 1e6);
  std::printf("quads %-24s %-28s %8.3f ms %8.1f GB/s  ratio %.3f\n", what.c_str(), variant.c_str(), t.median_ms, rate,
              rate / copy_rate);
}

template <class Op>
void sweep(const Op& op, const std::string& what, int runs) {
  const image_and_copy<float> image(8192, 8192, 1, runs);
  const auto &in = image.in, &out = image.out;
  const double copy_rate = image.copy_rate;
  time_one<d::cuda_filter_policy>(in, out, op, what, "policy (columns of 4 x 1)", copy_rate, runs);
  time_one<float_quads<0>>(in, out, op, what, "quads", copy_rate, runs);
  time_one<float_quads<4>>(in, out, op, what, "quads, >=4 teams/SM", copy_rate, runs);
}

template <int R>
d::SeparableConv<d::fixed<R>> separable(const pk::filter_kernel& k) {
  d::SeparableConv<d::fixed<R>> op{};
  for (std::size_t i = 0; i < k.row.size(); ++i) op.row.t[i] = k.row[i], op.column.t[i] = k.column[i];
  return op;
}

}  // namespace

void tune_quads(int runs) {
  sweep(d::SobelMagnitude{}, "sobel float", runs);
  sweep(separable<2>(pk::gaussian_kernel(5)), "gaussian 5 (sep.) float", runs);
  sweep(separable<7>(pk::gaussian_kernel(15)), "gaussian 15 (sep.) float", runs);
}

}  // namespace pk_tune
