// pk_tune [filter] [gemm] [launch] [small] [quads] [--runs N] [--only TEXT]: sweeps GPU tile shapes, times launches (see tune.hpp).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <pk/runtime.hpp>

#include "tune.hpp"

int main(int argc, char** argv) {
  bool filter = false, gemm = false, launch = false, small = false, quads = false;
  int runs = 10;
  std::string only;  // sweeps whose name contains it
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "filter") filter = true;
    else if (arg == "gemm") gemm = true;
    else if (arg == "launch") launch = true;
    else if (arg == "small") small = true;
    else if (arg == "quads") quads = true;
    else if (arg == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (arg == "--only" && i + 1 < argc) only = argv[++i];
    else {
      std::fprintf(stderr, "usage: pk_tune [filter] [gemm] [launch] [small] [quads] [--runs N] [--only TEXT]\n");
      return 1;
    }
  }
  if (!filter && !gemm && !launch && !small && !quads) filter = gemm = true;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line as it is measured, also into a pipe
  pk::runtime kokkos;
  if (gemm) pk_tune::tune_gemm(runs, only);
  if (filter) pk_tune::tune_filter(runs, only);
  if (launch) pk_tune::tune_launch(runs);
  if (small) pk_tune::tune_small(runs);
  if (quads) pk_tune::tune_quads(runs);
  return 0;
}
