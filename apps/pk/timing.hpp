#pragma once
// Timing as the commands report it: one warm-up run (first-touch, caches, CUDA module load),
// then the median of several runs, each ending in a fence so that the kernel has finished.
#include <algorithm>
#include <chrono>
#include <vector>

namespace pk_app {

struct timing {
  double median_ms = 0;
  int runs = 0;
};

// repeat > 0: that many timed runs. repeat == 0: as many as fit, from 5 for fast kernels down to
// 1 when the warm-up alone took over a second (so that `pk demo` stays quick on two cores).
template <class RunFenced>
timing time_median(RunFenced&& run, int repeat = 0) {
  using clock = std::chrono::steady_clock;
  auto once = [&] {
    const auto start = clock::now();
    run();
    return std::chrono::duration<double, std::milli>(clock::now() - start).count();
  };
  const double warm = once();
  if (repeat <= 0) repeat = warm > 1000 ? 1 : warm > 200 ? 3 : 5;
  std::vector<double> ms;
  for (int r = 0; r < repeat; ++r) ms.push_back(once());
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  return {n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]), static_cast<int>(n)};
}

}  // namespace pk_app
