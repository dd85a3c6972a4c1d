// Filter tile shapes swept on the GPU: every shape below against copy bandwidth on the same
// 8192 x 8192 image, so that the choice in backends/cuda/filter_tiles_cuda.hpp is a measurement.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "../bench_data.hpp"
#include "../peers.hpp"
#include "../stopwatch.hpp"
#include "filter/filter_impl.hpp"
#include "tune.hpp"

namespace pk_tune {
namespace {

// Register tiles (src/filter/filter_register_tiles.hpp): W x H pixels per team of Team threads in
// warps of 32, each thread a column of H / (Team / 32) rows; Slots prefetch registers a thread;
// Teams persistent teams an SM (tile_pipeline.hpp).
template <int W, int H, int Team, int Slots = 0, int Teams = 3>
struct tiles {
  static constexpr bool Pipelined = Slots > 0;  // Slots 0: one tile per team
  static constexpr int TileW = W, TileH = H, TeamSize = Team, VectorLength = 1, Lanes = 32, Chunk = 1;
  static constexpr int RowsPerThread = H / (Team / 32);
  static constexpr bool RegisterTiles = true, ScratchIsSharedMemory = true;
  static constexpr std::size_t ScratchLimit = 48 * 1024;
  static constexpr int StageSlots = Slots, MinTeamsPerSM = Teams, SeparableFromRadius = 0;
  static int concurrent_teams(const exec& space) {
    return Teams * space.cuda_device_prop().multiProcessorCount;
  }
  static std::string name() {
    return std::to_string(W) + "x" + std::to_string(H) + " team " + std::to_string(Team) + " rows " +
           std::to_string(RowsPerThread) +
           (Pipelined ? " slots " + std::to_string(Slots) + " x" + std::to_string(Teams) : std::string(" one tile a team"));
  }
};

template <class T, class Tiles>
void time_shape(const pk::image_view<T, exec>& in, const pk::image_view<T, exec>& out, const pk::filter_spec& f,
                const std::string& what, double copy_rate, int runs) {
  exec space;
  pk_bench::timing t;
  try {
    t = pk_bench::measure(
        space,
        [&] {
          if (f.op == pk::filter_op::sobel_magnitude)
            pk::detail::sobel_magnitude_tiled<exec, T, Tiles>(space, in, out, pk::border::reflect101);
          else
            pk::detail::filter_tiled<exec, T, Tiles>(space, in, out, f.kernel, pk::border::reflect101);
        },
        runs);
  } catch (const std::exception& e) {
    std::printf("filter %-26s %-22s failed: %s\n", what.c_str(), Tiles::name().c_str(), e.what());
    return;
  }
  const double rate = 2.0 * double(in.span()) * sizeof(T) / (t.median_ms * 1e6);
  std::printf("filter %-26s %-22s %8.3f ms %8.1f GB/s  ratio %.3f\n", what.c_str(), Tiles::name().c_str(), t.median_ms,
              rate, rate / copy_rate);
}

template <class T, class... Shapes>
void sweep(int h, int w, int c, const pk::filter_spec& f, const std::string& what, int runs) {
  exec space;
  pk_bench::random_stream rng;
  pk::image_view<T, exec> in("in", h, w, c), out("out", h, w, c), copy("copy", h, w, c);
  pk_bench::random_view(in, rng);
  const auto t = pk_bench::measure(
      space, [&] { pk_bench::peer_copy(space, copy.data(), in.data(), in.span() * sizeof(T)); }, runs);
  const double copy_rate = 2.0 * double(in.span()) * sizeof(T) / (t.median_ms * 1e6);
  std::printf("filter %-26s copy %.1f GB/s\n", what.c_str(), copy_rate);
  (time_shape<T, Shapes>(in, out, f, what, copy_rate, runs), ...);
}

}  // namespace

void tune_filter(int runs) {
  pk_bench::random_stream rng;
  std::vector<float> w3(9), w5(25);
  for (float& x : w3) x = float(rng.unit() / 9);
  for (float& x : w5) x = float(rng.unit() / 25);
  const pk::filter_spec conv3{pk::filter_op::convolve, pk::custom_kernel(3, w3)};
  const pk::filter_spec conv5{pk::filter_op::convolve, pk::custom_kernel(5, w5)};
#define PK_TUNE_FILTER_SHAPES                                                                              \
  tiles<256, 32, 256>, tiles<128, 32, 256>, tiles<256, 32, 256, 40, 3>, tiles<128, 32, 128, 40, 6>
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, conv3, "conv 3x3 float", runs);
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, conv5, "conv 5x5 float", runs);
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, pk::parse_filter("gaussian15"), "gaussian 15 (sep.) float", runs);
  sweep<float, PK_TUNE_FILTER_SHAPES>(8192, 8192, 1, pk::parse_filter("sobel"), "sobel float", runs);
  sweep<std::uint8_t, PK_TUNE_FILTER_SHAPES>(8192, 8192, 3, conv3, "conv 3x3 uint8 RGB", runs);
#undef PK_TUNE_FILTER_SHAPES
}

}  // namespace pk_tune
