#pragma once
// What one `pk bench` run measures: sizes and repetitions per backend (bench_suite.cpp chooses).
#include <array>
#include <cstdint>
#include <vector>

namespace pk_bench {

struct plan {
  bool gpu = false;
  int runs = 20;                 // timed runs per case (median reported)
  std::int64_t add_n = 0;        // elements per vector
  int image_h = 0, image_w = 0;  // filter images
  std::vector<std::array<std::int64_t, 3>> sgemm, dgemm;  // M, N, K
  double add_target = 0, filter_target = 0, sgemm_target = 0;  // ratios aimed for (0: none)
  std::int64_t sgemm_target_size = 0;  // the square size the sgemm target applies to
  std::int64_t conv_batch = 32;        // the CNN layers' batch
};

}  // namespace pk_bench
