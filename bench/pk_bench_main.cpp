// pk-bench: `pk bench`, the benchmarks against peer libraries (cmd_bench.cpp), as a program of
// its own: pk runs it with the same command line, so that pk itself links no peer library.
#include <cstdio>
#include <string>
#include <vector>

#include <program.hpp>

namespace pk_app {
int cmd_bench(const std::vector<std::string>& args);
}

namespace {

void print_usage() {
  std::printf(
      "usage: pk bench [global options] [--quick] [--only add,filter,matmul] [--runs N] [--json FILE]\n"
      "(pk-bench bench ...: the same; `pk bench --help` describes it)\n");
}

}  // namespace

int main(int argc, char** argv) { return pk_app::run_program(argc, argv, {{"bench", pk_app::cmd_bench, ""}}, print_usage); }
