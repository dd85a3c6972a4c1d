// What a call costs before its kernel does any work, timed as pk bench times everything (CUDA
// events on the Kokkos stream around the call): the peer's cudaMemcpyAsync of 16 bytes, a bare
// CUDA launch of one empty block, the same empty block through a Kokkos TeamPolicy with the
// filters' launch (functor of about 1 KB as a kernel parameter, team scratch, launch bounds) and
// through Kokkos' constant-memory launch, and pk::filter on a one-tile image. The differences are
// the part of the filters' ratios that is launch, not kernel (bench/results/h200.md).
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include <pk/kokkos/filter.hpp>

#include "../bench_row.hpp"
#include "../peers.hpp"
#include "filter/filter_tile.hpp"
#include "tune.hpp"

namespace pk_tune {
namespace {

__global__ void empty_kernel(int* sink) {
  if (sink != nullptr && threadIdx.x == 0) *sink = 1;  // (never taken: sink is null)
}

// An empty team functor as large as the convolutions' (their weights travel inside them).
struct empty_team {
  pk::detail::kernel_weights weights;
  int* sink;
  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    if (sink != nullptr && team.team_rank() == 0) *sink = static_cast<int>(weights.w[0]);
  }
};

void report(const char* what, const pk_bench::timing& t) {
  std::printf("launch %-58s median %7.2f us  min %7.2f us\n", what, 1e3 * t.median_ms, 1e3 * t.min_ms);
}

}  // namespace

void tune_launch(int runs) {
  exec space;
  constexpr int scratch = 36 * 1024;  // a 3x3 tile's staged area
  Kokkos::View<float*, exec::memory_space> a("a", 4), b("b", 4);
  report("cudaMemcpyAsync D2D, 16 bytes (the peer's call)",
         pk_bench::measure(space, [&] { pk_bench::peer_copy(space, b.data(), a.data(), 16); }, runs));
  cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, scratch);
  report("<<<1, 256, 36 KB>>> empty kernel",
         pk_bench::measure(space, [&] { empty_kernel<<<1, 256, scratch, space.cuda_stream()>>>(nullptr); }, runs));
  using policy = Kokkos::TeamPolicy<exec, Kokkos::LaunchBounds<256, 5>>;
  const empty_team f{{}, nullptr};
  const auto team_policy = [&] { return policy(space, 1, 256).set_scratch_size(0, Kokkos::PerTeam(scratch)); };
  report("Kokkos TeamPolicy, 1 team, functor as a kernel parameter", pk_bench::measure(space, [&] {
           Kokkos::parallel_for(
               "launch", Kokkos::Experimental::require(team_policy(), Kokkos::Experimental::WorkItemProperty::HintLightWeight), f);
         }, runs));
  report("Kokkos TeamPolicy, 1 team, functor through constant memory", pk_bench::measure(space, [&] {
           Kokkos::parallel_for(
               "launch", Kokkos::Experimental::require(team_policy(), Kokkos::Experimental::WorkItemProperty::HintHeavyWeight), f);
         }, runs));
  Kokkos::View<float***, Kokkos::LayoutRight, exec::memory_space> in("in", 32, 256, 1), out("out", 32, 256, 1);
  pk_bench::random_stream rng;
  pk_bench::random_view(in, rng);
  std::vector<float> w(9, 1.f / 9);
  const auto k = pk::custom_kernel(3, w);
  report("pk::filter 3x3 on a 32 x 256 image (one tile)",
         pk_bench::measure(space, [&] { pk::filter(space, in, out, k); }, runs));
}

}  // namespace pk_tune
