// pk: the portable-kernels command-line program. Runs the library's kernels (add, 2-D filters,
// matrix multiply) on any compiled-in backend, checks them, times them, filters image files.
// Every failure is one line "pk: error: <what is wrong>" on stderr and exit status 1.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include <pk/error.hpp>
#include <pk/runtime.hpp>

#include "commands.hpp"
#include "options.hpp"

#ifndef PK_VERSION
#define PK_VERSION "unknown"
#endif

namespace {

struct command {
  const char* name;
  int (*run)(const std::vector<std::string>&);
  const char* summary;
};

const command commands[] = {
    {"demo", pk_app::cmd_demo, "run every kernel on generated data, check it against float64, time it"},
    {"info", pk_app::cmd_info, "versions, compiled backends and their devices"},
    {"add", pk_app::cmd_add, "c = a + b on N elements: time and bandwidth"},
    {"matmul", pk_app::cmd_matmul, "C = A*B with M x K and K x N matrices: time and GFLOP/s"},
    {"filter", pk_app::cmd_filter, "filter a PNG or JPEG image (blur, sharpen, Sobel edges...) into another"},
    {"bench", pk_app::cmd_bench, "benchmarks against peer libraries"},
};

void print_usage() {
  std::printf(
      "pk %s: portable-kernels, Kokkos kernels on CUDA, OpenMP and Serial\n\n"
      "usage: pk [global options] <command> [arguments]\n\ncommands:\n",
      PK_VERSION);
  for (const command& c : commands) std::printf("  %-8s %s\n", c.name, c.summary);
  std::printf(
      "\nglobal options (before or after the command):\n"
      "  --backend NAME  cuda, openmp or serial (default: the fastest compiled in, here %s)\n"
      "  --device N      CUDA device number (default 0)\n"
      "  --threads N     OpenMP threads (default: OMP_NUM_THREADS or all cores)\n"
      "  -h, --help      this text; `pk <command> --help` describes one command\n"
      "  --version       the version of pk\n",
      pk::to_string(pk::default_backend()));
}

int run(int argc, char** argv) {
  const pk_app::command_line line = pk_app::parse_command_line(argc, argv);
  if (line.version) {
    std::printf("pk %s\n", PK_VERSION);
    return 0;
  }
  if (line.help || line.command.empty()) {
    print_usage();
    return 0;
  }
  for (const command& c : commands) {
    if (line.command != c.name) continue;
    // Kokkos 3.x/4.x warn on stderr at start-up when OMP_PROC_BIND is unset; "false" is what the
    // OpenMP runtime does when it is unset, so saying so changes nothing but the warning (which
    // would break pk's promise of one stderr line per error). A user's own setting is kept.
    setenv("OMP_PROC_BIND", "false", 0);
    pk::runtime_options options;  // pk::runtime refuses a --device that does not exist
    options.device = pk_app::globals().device;
    options.threads = pk_app::globals().threads;
    pk::runtime kokkos(options);
    return c.run(line.args);
  }
  pk_app::usage_fail("", "unknown command '" + line.command + "'");
}

// One line, whatever the message: Kokkos' own errors (a failed allocation...) span several.
void print_error(const std::string& what) {
  std::string line = what;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::fprintf(stderr, "pk: error: %s\n", line.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    print_error("out of memory");
  } catch (const std::exception& e) {
    print_error(e.what());
  }
  return 1;
}
