#pragma once
// One line of the benchmark table: our kernel and its peer on the same case, and the check.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <inputs.hpp>
#include <timer.hpp>

namespace pk_bench {

// The harness of pk's programs (apps/harness): the one timer and the random inputs.
using pk_harness::measure;
using pk_harness::poison;
using pk_harness::random_stream;
using pk_harness::random_view;
using pk_harness::timing;

struct row {
  std::string kernel;     // "add", "filter", "matmul"
  std::string name;       // "add float", "conv 5x5 float C1", "sgemm"
  std::string size;       // "2^28", "8192x8192", "4096^3"
  std::vector<std::int64_t> shape;  // the same as numbers: {n}, {h, w, channels}, {m, n, k}
  timing ours;
  double ours_rate = 0;   // in unit
  std::string unit;       // "GB/s" (effective: bytes the kernel must move) or "GFLOP/s"
  std::string peer;       // "cudaMemcpy D2D", "cublasSgemm", "OpenBLAS cblas_sgemm", "cv::filter2D"; empty: none
  timing theirs;
  double peer_rate = 0;   // in unit, counted the same way as ours (copy: bytes read + written)
  double ratio = 0;       // ours_rate / peer_rate: above 1 is faster than the peer
  double target = 0;      // the ratio the project aims for (0: none stated)
  double error = 0;       // max relative error of our result against float64 on sampled outputs
  double tolerance = 0;
  double peer_difference = -1;  // max relative difference between our result and the peer's (-1: not compared)
  bool pass() const { return error <= tolerance; }
};

struct context {
  std::string backend, device, kokkos_version, date, pk_version, commit;
  int concurrency = 0;
};

void print_table(const std::vector<row>& rows, std::FILE* to);
void write_json(const context& ctx, const std::vector<row>& rows, std::FILE* to);

}  // namespace pk_bench
