// pk: the portable-kernels command-line program. Runs the library's kernels (add, 2-D filters,
// matrix multiply) on any compiled-in backend, checks them, times them, filters image files.
// `pk bench` runs the benchmark program pk-bench installed beside it (it links the peer libraries,
// OpenBLAS, OpenCV, cuBLAS; pk itself needs none of them). Every failure is one line
// "pk: error: <what is wrong>" on stderr and exit status 1.
#include <sched.h>
#include <unistd.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <pk/backend.hpp>
#include <pk/error.hpp>

#include <options.hpp>
#include <program.hpp>

#include "commands.hpp"

#ifndef PK_VERSION
#define PK_VERSION "unknown"
#endif

namespace {

const std::vector<pk_app::command> commands = {
    {"demo", pk_app::cmd_demo, "run every kernel on generated data, check it against float64, time it"},
    {"info", pk_app::cmd_info, "versions, compiled backends and their devices"},
    {"add", pk_app::cmd_add, "c = a + b on N elements: time and bandwidth"},
    {"matmul", pk_app::cmd_matmul, "C = A*B with M x K and K x N matrices: time and GFLOP/s"},
    {"filter", pk_app::cmd_filter, "filter a PNG or JPEG image (blur, sharpen, Sobel edges...) into another"},
};

void print_usage() {
  std::printf(
      "pk %s: portable-kernels, Kokkos kernels on CUDA, OpenMP and Serial\n\n"
      "usage: pk [global options] <command> [arguments]\n\ncommands:\n",
      PK_VERSION);
  for (const pk_app::command& c : commands) std::printf("  %-8s %s\n", c.name, c.summary);
  std::printf("  %-8s %s\n", "bench", "benchmarks against peer libraries (the program pk-bench)");
  std::printf(
      "\nglobal options (before or after the command):\n"
      "  --backend NAME  cuda, openmp or serial (default: the fastest compiled in, here %s)\n"
      "  --device N      CUDA device number (default 0)\n"
      "  --threads N     OpenMP threads (default: OMP_NUM_THREADS or all cores)\n"
      "  --profile       after the command, each kernel's calls and time (stderr)\n"
      "  -h, --help      this text; `pk <command> --help` describes one command\n"
      "  --version       the version of pk\n",
      pk::to_string(pk::default_backend()));
}

// pk bench ...: the same command line, run by pk-bench from pk's own folder.
int run_bench(char** argv) {
  char self[PATH_MAX];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string path = len > 0 ? std::string(self, std::size_t(len)) : std::string(argv[0]);
  path = path.substr(0, path.find_last_of('/') + 1) + "pk-bench";
  if (access(path.c_str(), X_OK) != 0) {
    std::fprintf(stderr, "pk: error: bench: this build has no benchmarks (no program pk-bench beside pk: %s)\n",
                 path.c_str());
    return 1;
  }
#if defined(_OPENMP)
  // With OMP_PROC_BIND set, the OpenMP runtime bound this thread to its first place at start-up,
  // and a program run by exec keeps that one CPU: give it back the CPUs of every place (what pk
  // started with), so pk-bench's threads have them too.
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  int count = 0;
  for (int place = 0; place < omp_get_num_places(); ++place) {
    std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(place)));
    omp_get_place_proc_ids(place, ids.data());
    for (int id : ids) CPU_SET(id, &cpus), ++count;
  }
  if (count > 0) sched_setaffinity(0, sizeof cpus, &cpus);
#endif
  argv[0] = path.data();
  execv(path.c_str(), argv);
  std::fprintf(stderr, "pk: error: bench: cannot run %s: %s\n", path.c_str(), std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (pk_app::parse_command_line(argc, argv).command == "bench") return run_bench(argv);
  } catch (const std::exception&) {
    // (a bad global option: run_program reports it as every other command does)
  }
  return pk_app::run_program(argc, argv, commands, print_usage);
}
