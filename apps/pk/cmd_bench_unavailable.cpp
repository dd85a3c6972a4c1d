// `pk bench` in builds without the benchmark suite (bench/, PK_BUILD_BENCH=OFF).
#include <cstdio>

#include "commands.hpp"

namespace pk_app {

int cmd_bench(const std::vector<std::string>&) {
  std::fprintf(stderr, "pk: error: this build has no benchmarks (configure with -DPK_BUILD_BENCH=ON)\n");
  return 1;
}

}  // namespace pk_app
