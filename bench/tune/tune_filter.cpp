// Filter tile shapes swept on the GPU: every shape below against copy bandwidth on the same
// 8192 x 8192 image, so that the choices in backends/cuda/cuda_filter_policy.hpp are measurements.
// Only the kernels of the targets are compiled per shape (3x3 and 5x5 stencils, Sobel, the 5x5
// separable pass), not every radius: that keeps the sweep's build short.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../bench_row.hpp"
#include "../peers.hpp"
#include "cuda/cuda_filter_policy.hpp"
#include "filter/filter_impl.hpp"
#include "tune.hpp"
#include "tune_direct.hpp"

namespace pk_tune {
namespace {

namespace d = pk::detail;

// Variants of the CUDA filter policy (backends/cuda/cuda_filter_policy.hpp): 256 x 32 tiles of 8
// warps, 4 rows a thread, with launch bounds of at least Teams teams an SM (0: none), Packs
// 16-byte loads a thread in flight when staging by packs through registers, the packs by cp.async
// from radius Async on (0: never), and one-channel float convolutions by tensor copies from radius
// Tensor on (0: never).
template <int Teams, int Packs, int Async, int Tensor>
struct tiles : d::cuda_filter_policy {
  template <class T, class Op>
  static constexpr int R = d::radius_of<decltype(Op::radius)>::value;
  template <class T, class Op>
  using packs = d::staged_by_packs<team, 2, 4,
                                   std::conditional_t<(Async > 0 && R<T, Op> >= Async), d::copy_asynchronously<primitives>,
                                                      d::copy_through_registers<Packs>>>;
  template <class T, class Op>
  static constexpr bool tensor_copies = std::is_same_v<T, float> && d::is_conv2d<Op> && Tensor > 0 && R<T, Op> >= Tensor;
  template <class T, class Op>
  using staging = std::conditional_t<
      std::is_same_v<T, float>,
      std::conditional_t<tensor_copies<T, Op>, d::staged_by_tensor_copies<primitives, team, R<T, Op>, packs<T, Op>>,
                         packs<T, Op>>,
      d::staged_by_elements<team, 2, 4>>;
  template <class T, class Op>
  static constexpr int teams_per_sm = Teams;
  static std::string name() {
    return std::string("256x32 team 256 rows 4") + (Teams > 0 ? " >=" + std::to_string(Teams) + " teams/SM" : std::string()) +
           " packs " + std::to_string(Packs) + (Async > 0 ? " cp.async from r " + std::to_string(Async) : std::string()) +
           (Tensor > 0 ? " TMA from r " + std::to_string(Tensor) : std::string());
  }
};

// Variants of the CUDA policy's uint8 kernels (pixels in scratch, quads of Rows x 4 outputs):
// TileW x TileH tiles, launch bounds of at least Teams teams an SM (0: none).
// RowPassInRegisters: the separable row pass in each block's registers, no row-pass buffer.
template <int TileW_, int TileH_, int Rows, int Teams, bool RowPassInRegisters = false>
struct pixel_tiles : d::cuda_filter_policy {
  static constexpr int TileW = TileW_;
  template <class T, class Op>
  static constexpr int tile_rows = TileH_;
  template <class T, class Op>
  using schedule = d::output_blocks<team, Rows, 4, true, 4, RowPassInRegisters>;
  template <class T, class Op>
  static constexpr int teams_per_sm = Teams;
  static std::string name() {
    return "uint8 " + std::to_string(TileW) + "x" + std::to_string(TileH_) + " rows " + std::to_string(Rows) +
           (Teams > 0 ? " >=" + std::to_string(Teams) + " teams/SM" : std::string()) +
           (RowPassInRegisters ? " row pass in registers" : "");
  }
};

// The CUDA primitives with uint8 results narrowed on the FP32 lanes (clamped by two FMNMX, rounded
// by adding 1.5 x 2^23: three instructions an output, what cuda_primitives did before) instead of
// one cvt.rni.sat.u8.f32 on the conversion unit: timed against the policy in the same run.
struct fp32_narrowing : d::cuda_primitives {
  KOKKOS_INLINE_FUNCTION static pk::detail::pack<std::uint8_t, 4> narrow_to_bytes(const float (&v)[4]) {
#if defined(__CUDA_ARCH__)
    unsigned b[4];
    for (int k = 0; k < 4; ++k) b[k] = __float_as_uint(fminf(fmaxf(v[k], 0.f), 255.f) + 12582912.f);
    return low_bytes(b);
#else
    return d::cuda_primitives::narrow_to_bytes(v);
#endif
  }
};
template <class Tiles>
struct with_fp32_narrowing : Tiles {
  using primitives = fp32_narrowing;
  static std::string name() { return Tiles::name() + " FP32 narrowing"; }
};

enum class kernel { conv3, conv5, gaussian5_separable, sobel, conv7 };

// Shapes swept for the 7x7 alone (radius 3, not a target: which launch bounds it gets), so that
// the other kernels are not compiled for them too.
template <class Tiles>
struct only_7x7 : Tiles {};
template <class Tiles>
constexpr bool is_only_7x7 = false;
template <class Tiles>
constexpr bool is_only_7x7<only_7x7<Tiles>> = true;

template <int R>
d::Conv2D<d::fixed<R>> conv2d(const pk::filter_kernel& k) {
  d::Conv2D<d::fixed<R>> op{};
  for (int i = 0; i < k.size * k.size; ++i) op.weights.w[i] = k.weights[i];
  return op;
}

// One kernel with one policy, launched as pk::filter would (run_tiles shrinks the tile to the
// scratch limit), with a fixed radius: no other radius is compiled.
template <class T, class Tiles>
void launch(kernel which, const pk::image_view<const T, exec>& in, const pk::image_view<T, exec>& out,
            const pk::filter_kernel& k, std::int64_t min_tiles = -1) {
  const auto b = pk::border::reflect101;
  exec space;
  const auto run = [&](auto op) {
    using Op = decltype(op);
    d::run_tiles("tune", space, d::FilterTile<T, exec, Tiles, Op>{in, out, d::image_grid(in, int(op.radius)), b, op, {}},
                 min_tiles);
  };
  if constexpr (is_only_7x7<Tiles>) {
    if (which != kernel::conv7) throw std::invalid_argument("7x7 shapes time the 7x7 only");
    return run(conv2d<3>(k));
  } else {
    switch (which) {
      case kernel::conv3:
        return run(conv2d<1>(k));
      case kernel::conv5:
        return run(conv2d<2>(k));
      case kernel::gaussian5_separable: {
        d::SeparableConv<d::fixed<2>> op{};
        for (std::size_t i = 0; i < k.row.size(); ++i) op.row.t[i] = k.row[i], op.column.t[i] = k.column[i];
        return run(op);
      }
      case kernel::sobel:
        return run(d::SobelMagnitude{});
      case kernel::conv7:
        throw std::invalid_argument("the 7x7 is timed with only_7x7 shapes");
    }
  }
}

template <class T, class Tiles>
void time_shape(kernel which, const pk::image_view<T, exec>& in, const pk::image_view<T, exec>& out,
                const pk::filter_kernel& k, const std::string& what, double copy_rate, int runs) {
  exec space;
  pk_bench::timing t;
  try {
    t = pk_bench::measure(space, [&] { launch<T, Tiles>(which, in, out, k); }, runs);
  } catch (const std::exception& e) {
    std::printf("filter %-24s %-42s failed: %s\n", what.c_str(), Tiles::name().c_str(), e.what());
    return;
  }
  const double rate = 2.0 * double(in.span()) * sizeof(T) / (t.median_ms * 1e6);
  std::printf("filter %-24s %-42s %8.3f ms %8.1f GB/s  ratio %.3f\n", what.c_str(), Tiles::name().c_str(), t.median_ms,
              rate, rate / copy_rate);
}

// The unstaged experiment (tune_direct.hpp) on a one-channel float image, checked against the
// staged kernels' result `staged` (the largest difference printed).
template <int R, int Rows>
void time_direct(const pk::image_view<float, exec>& in, const pk::image_view<float, exec>& staged,
                 const pk::filter_kernel& k, const std::string& what, double copy_rate, int runs) {
  exec space;
  pk::image_view<float, exec> out("direct", in.extent(0), in.extent(1), 1);
  Conv2DDirect<exec, R, Rows> f{in.data(), out.data(), std::int64_t(in.extent(0)), std::int64_t(in.extent(1)),
                                pk::border::reflect101, {}};
  for (int i = 0; i < k.size * k.size; ++i) f.weights.w[i] = k.weights[i];
  const auto run = [&] {
    Kokkos::parallel_for("tune direct", Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>(space, 0, f.work_items()), f);
  };
  const auto t = pk_bench::measure(space, run, runs);
  float worst = 0;
  const float* a = out.data();
  const float* b = staged.data();
  Kokkos::parallel_reduce(
      "tune direct check", Kokkos::RangePolicy<exec, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(in.span())),
      KOKKOS_LAMBDA(std::int64_t i, float& m) {
        const float d = Kokkos::fabs(a[i] - b[i]);
        m = d > m || d != d ? d : m;
      },
      Kokkos::Max<float>(worst));
  const double rate = 2.0 * double(in.span()) * sizeof(float) / (t.median_ms * 1e6);
  std::printf("filter %-24s direct (L1, no scratch) rows %d quads      %8.3f ms %8.1f GB/s  ratio %.3f  max diff %.2e\n",
              what.c_str(), Rows, t.median_ms, rate, rate / copy_rate, double(worst));
}

template <class T, class... Shapes>
void sweep(int h, int w, int c, kernel which, const pk::filter_kernel& k, const std::string& what, int runs,
           const std::string& only) {
  if (what.find(only) == std::string::npos) return;
  const image_and_copy<T> image(h, w, c, runs);
  const auto &in = image.in, &out = image.out;
  const double copy_rate = image.copy_rate;
  std::printf("filter %-24s copy %.1f GB/s\n", what.c_str(), copy_rate);
  (time_shape<T, Shapes>(which, in, out, k, what, copy_rate, runs), ...);
  if constexpr (std::is_same_v<T, float>) {
    if (c == 1 && which == kernel::conv3)
      time_direct<1, 2>(in, out, k, what, copy_rate, runs), time_direct<1, 4>(in, out, k, what, copy_rate, runs);
    if (c == 1 && which == kernel::conv5)
      time_direct<2, 2>(in, out, k, what, copy_rate, runs), time_direct<2, 4>(in, out, k, what, copy_rate, runs);
  }
}

// Small images with the CUDA policy's kernels, their tiles shrunk until the image has at least
// min_tiles = K x the multiprocessors (0: the policy's tiles), against copy bandwidth.
template <class T>
void sweep_small(int h, int w, int c, kernel which, const pk::filter_kernel& k, const std::string& what, int runs) {
  exec space;
  const image_and_copy<T> image(h, w, c, runs);
  const std::int64_t sms = space.concurrency() / 2048;
  for (int per_sm : {0, 1, 2, 3, 4, 6, 8}) {
    const auto ours = pk_bench::measure(
        space, [&] { launch<T, d::cuda_filter_policy>(which, image.in, image.out, k, per_sm * sms); }, runs);
    std::printf("small %-26s %4dx%-4d min tiles %d/SM %8.4f ms (copy %8.4f ms)  ratio %.3f\n", what.c_str(), h, w, per_sm,
                ours.median_ms, image.copy_ms, image.rate(ours.median_ms) / image.copy_rate);
  }
}

}  // namespace

void tune_small(int runs) {
  pk_bench::random_stream rng;
  std::vector<float> w3(9), w5(25);
  for (float& x : w3) x = float(rng.unit() / 9);
  for (float& x : w5) x = float(rng.unit() / 25);
  const auto conv3 = pk::custom_kernel(3, w3), conv5 = pk::custom_kernel(5, w5);
  for (const auto& hw : {std::pair<int, int>{512, 768}, {1080, 1920}}) {
    const int h = hw.first, w = hw.second;
    sweep_small<float>(h, w, 1, kernel::conv3, conv3, "conv 3x3 float", runs);
    sweep_small<float>(h, w, 1, kernel::conv5, conv5, "conv 5x5 float", runs);
    sweep_small<float>(h, w, 1, kernel::gaussian5_separable, pk::gaussian_kernel(5), "gaussian 5 (sep.) float", runs);
    sweep_small<float>(h, w, 1, kernel::sobel, conv3, "sobel float", runs);
    for (int c : {1, 3, 4}) {
      const std::string what = c == 1 ? " uint8 gray" : c == 3 ? " uint8 RGB" : " uint8 RGBA";
      sweep_small<std::uint8_t>(h, w, c, kernel::conv3, conv3, "conv 3x3" + what, runs);
      sweep_small<std::uint8_t>(h, w, c, kernel::gaussian5_separable, pk::gaussian_kernel(5), "gaussian 5" + what, runs);
    }
  }
}

void tune_filter(int runs, const std::string& only) {
  pk_bench::random_stream rng;
  // A k x k kernel of random weights in [0, 1 / k^2).
  const auto random_kernel = [&rng](int k) {
    std::vector<float> w(std::size_t(k) * k);
    for (float& x : w) x = float(rng.unit() / (k * k));
    return pk::custom_kernel(k, w);
  };
  const auto conv3 = random_kernel(3), conv5 = random_kernel(5), conv7 = random_kernel(7);
  // The CUDA policy's 3x3 and 5x5 (whole tiles by TMA boxes, four teams an SM), the same at five
  // teams an SM, by cp.async packs without TMA, TMA for every radius at five and at four teams an
  // SM, and cp.async at four.
#define PK_TUNE_FILTER_SHAPES \
  tiles<4, 10, 2, 1>, tiles<5, 10, 2, 1>, tiles<5, 10, 2, 0>, tiles<5, 10, 2, 2>, tiles<4, 10, 2, 2>, tiles<4, 10, 2, 0>
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, kernel::conv3, conv3, "conv 3x3 float", runs, only);
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, kernel::conv5, conv5, "conv 5x5 float", runs, only);
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, kernel::sobel, conv3, "sobel float", runs, only);
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, kernel::gaussian5_separable, pk::gaussian_kernel(5),
                                      "gaussian 5 (sep.) float", runs, only);
  // Whole rounds of teams: the default runs 5 teams an SM, 660 at once on the H200's 132 SMs. With
  // 8192 columns (32 tiles a tile row) 5280 rows are 5280 tiles, 8 whole rounds; 5940 rows 5952
  // tiles, just over 9 rounds; 8192 rows 8192 tiles, 12.41 rounds.
  for (int h : {5280, 5940, 8192}) {
    sweep<float, PK_TUNE_FILTER_SHAPES>(h, 8192, 1, kernel::conv3, conv3, "conv 3x3 rows " + std::to_string(h), runs, only);
    sweep<float, PK_TUNE_FILTER_SHAPES>(h, 8192, 1, kernel::conv5, conv5, "conv 5x5 rows " + std::to_string(h), runs, only);
  }
#undef PK_TUNE_FILTER_SHAPES
  // uint8 (gray, RGB) as the policy stages it: its tiles first (256 x 64, 8 rows a thread, the
  // separable row pass in registers), with FP32 narrowing (above), the tiles before (256 x 32, 4
  // rows a thread) and 512 x 64. Measured and dropped from the sweep (h100-uint8-2026-12-07.txt): 1024
  // x 32, 256 x 128, and without the row pass in registers 256 x 32, 512 x 32, 256 x 64.
#define PK_TUNE_PIXEL_SHAPES \
  pixel_tiles<256, 64, 8, 0, true>, with_fp32_narrowing<pixel_tiles<256, 64, 8, 0, true>>, \
      pixel_tiles<256, 32, 4, 0, true>, pixel_tiles<512, 64, 8, 0, true>
  for (int c : {1, 3}) {
    const std::string what = c == 1 ? " uint8 gray" : " uint8 RGB";
    sweep<std::uint8_t, PK_TUNE_PIXEL_SHAPES>(8192, 8192, c, kernel::conv3, conv3, "conv 3x3" + what, runs, only);
    sweep<std::uint8_t, PK_TUNE_PIXEL_SHAPES>(8192, 8192, c, kernel::gaussian5_separable, pk::gaussian_kernel(5),
                                              "gaussian 5 (sep.)" + what, runs, only);
    sweep<std::uint8_t, PK_TUNE_PIXEL_SHAPES>(8192, 8192, c, kernel::sobel, conv3, "sobel" + what, runs, only);
  }
#undef PK_TUNE_PIXEL_SHAPES
  // The 7x7 (cp.async packs as in the CUDA default) at five teams an SM (the default: 48 registers,
  // where ptxas spills 20 bytes a thread), four (64 registers, 16 bytes of spills) and without
  // launch bounds (96 registers, no spills, two teams an SM).
  sweep<float, only_7x7<tiles<5, 10, 2, 0>>, only_7x7<tiles<4, 10, 2, 0>>, only_7x7<tiles<0, 10, 2, 0>>>(8192, 8192, 1, kernel::conv7, conv7, "conv 7x7 float", runs,
                                                   only);
}

}  // namespace pk_tune
