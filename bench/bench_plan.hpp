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
  // Filters: also at these sizes (rows, columns: small images and a video frame on a GPU), the
  // 3x3 and 5x5 cases; and whether the cases carry their targets (the GPU's against copy, the
  // threaded host backend's against OpenCV).
  std::vector<std::array<int, 2>> small_images;
  bool filter_targets = false;
  struct gemm_shape {
    std::int64_t m, n, k;
    double target = 0;  // the ratio to the peer aimed for (0: none)
  };
  std::vector<gemm_shape> sgemm, dgemm;
  double add_target = 0;  // the ratio aimed for (0: none)
  std::int64_t conv_batch = 32;        // the CNN layers' batch
};

}  // namespace pk_bench
