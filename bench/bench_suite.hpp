#pragma once
// The benchmark suite behind `pk bench`: each kernel of the library timed against a peer library
// measured in the same run, on the same data, in the same memory, and reported as ratios.
//
//   add     vs a plain copy of the same bytes (cudaMemcpy device-to-device; parallel memcpy on the host)
//   filter  vs OpenCV (cv::filter2D, cv::sepFilter2D, cv::Sobel) on the host; vs copy bandwidth on a GPU
//   matmul  vs cuBLAS (cublasSgemm/cublasDgemm, TF32 off) on a GPU; vs OpenBLAS (cblas_sgemm/dgemm) on the host
//
// Every timed result is also checked (float64 reference on sampled outputs, and the peer's result),
// so a fast wrong kernel never makes the table.
#include <set>
#include <string>

#include <pk/backend.hpp>

namespace pk_bench {

struct options {
  pk::backend on = pk::default_backend();
  bool quick = false;            // small sizes: a smoke run (CI, two cores)
  std::set<std::string> only;    // "add", "filter", "matmul"; empty: all
  int runs = 0;                  // timed runs per case; 0: 20 on a GPU, 5..20 on the host
  std::string json_path;         // write the results as JSON there ("-": standard output)
};

// Runs the suite, prints the table (to standard output, or standard error when the JSON goes
// there). Returns the number of failed checks (0: every result was right).
int run(const options& o);

}  // namespace pk_bench
