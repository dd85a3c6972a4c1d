#pragma once
// The one timer of pk's programs (`pk demo`, `pk add`, `pk matmul`, `pk bench`, `pk_tune`): work
// submitted to an execution space, timed the same way for our kernels and their peers, a few
// warm-up runs first (module load, first touch, handle creation stay out of the numbers), then
// `runs` timed runs, each on its own, reported as median, minimum and maximum.
//   host backends: a steady clock started after a fence and read after the next fence;
//   CUDA: events recorded on the space's stream around the run, so the peers (cuBLAS and
//   cudaMemcpyAsync, put on that same stream) are timed exactly as our kernels are.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

#include <pk/error.hpp>

namespace pk_harness {

struct timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
};

template <class Exec>
class stopwatch {
 public:
  explicit stopwatch(const Exec& space) : space_(space) {}
  void start() {
    space_.fence();
    t0_ = std::chrono::steady_clock::now();
  }
  double stop_ms() {
    space_.fence();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  Exec space_;
  std::chrono::steady_clock::time_point t0_;
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
class stopwatch<Kokkos::Cuda> {
 public:
  explicit stopwatch(const Kokkos::Cuda& space) : stream_(space.cuda_stream()) {
    if (cudaEventCreate(&begin_) != cudaSuccess || cudaEventCreate(&end_) != cudaSuccess)
      throw pk::error("timer: cannot create CUDA events");
  }
  ~stopwatch() {
    cudaEventDestroy(begin_);
    cudaEventDestroy(end_);
  }
  stopwatch(const stopwatch&) = delete;
  stopwatch& operator=(const stopwatch&) = delete;
  void start() { cudaEventRecord(begin_, stream_); }
  double stop_ms() {
    cudaEventRecord(end_, stream_);
    cudaEventSynchronize(end_);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) throw pk::error(std::string("timer: CUDA error: ") + cudaGetErrorString(status));
    float ms = 0;
    cudaEventElapsedTime(&ms, begin_, end_);
    return ms;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t begin_{}, end_{};
};
#endif

// runs > 0: that many timed runs. runs == 0: as many as fit, from 5 for fast work down to 1 when
// a warm-up alone took over a second (so that `pk demo` stays quick on two cores).
// Warm-up: `warmups` runs, and more until they add up to warm_ms (at most 100 runs). Seen on the
// 2-core machine with OMP_PROC_BIND unset: a process's first add of 2^20 floats ran 8 ms a time
// for about the first 100 ms, then 0.22 ms; two warm-ups had left it in the median.
template <class Exec, class Run>
timing measure(const Exec& space, Run&& run, int runs, int warmups = 2, double warm_ms = 100) {
  stopwatch<Exec> clock(space);
  double warm = 0, warm_total = 0;
  for (int w = 0; w < warmups || (warm_total < warm_ms && w < 100); ++w) {
    clock.start();
    run();
    warm = clock.stop_ms();
    warm_total += warm;
  }
  if (runs <= 0) runs = warm > 1000 ? 1 : warm > 200 ? 3 : 5;
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    clock.start();
    run();
    ms.push_back(clock.stop_ms());
  }
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  timing t;
  t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  t.runs = static_cast<int>(n);
  return t;
}

}  // namespace pk_harness
