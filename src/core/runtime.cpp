// Kokkos start-up and shut-down on behalf of applications that do not manage Kokkos themselves.
#include <pk/runtime.hpp>

#include <pk/backend.hpp>

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include "core/check.hpp"
#include "core/devices.hpp"

namespace pk {
namespace {

// Checked whoever starts Kokkos: Kokkos itself aborts the process on a CUDA device number that
// does not exist, and silently ignores one on host-only builds.
void check_options(const runtime_options& options) {
  const char* who = "pk::runtime";
  if (options.device < -1)
    detail::fail(who, "device is ", options.device, ", expected -1 (the default) or a device number >= 0");
  if (options.device >= 0) {
    const int gpus = is_available(backend::cuda) ? detail::with_space_type(backend::cuda, [](auto space) {
      return detail::device_count_on<typename decltype(space)::type>();
    }) : 0;
    if (is_available(backend::cuda) && options.device >= gpus)
      detail::fail(who, "device ", options.device, " does not exist (this machine has ", gpus, " CUDA device(s))");
    if (!is_available(backend::cuda) && options.device > 0)
      detail::fail(who, "device ", options.device,
                   " does not exist (this build has no CUDA backend; its host backends have one device, 0)");
  }
  if (options.threads == 0 || options.threads < -1)
    detail::fail(who, "threads is ", options.threads, ", expected -1 (OMP_NUM_THREADS or all cores) or a count >= 1");
}

// While it lives, what the process writes to stdout goes to stderr.
class stdout_to_stderr {
 public:
  stdout_to_stderr() {
    flush();
    saved_ = dup(STDOUT_FILENO);
    if (saved_ >= 0) dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  ~stdout_to_stderr() {
    flush();
    if (saved_ < 0) return;
    dup2(saved_, STDOUT_FILENO);
    close(saved_);
  }
  stdout_to_stderr(const stdout_to_stderr&) = delete;
  stdout_to_stderr& operator=(const stdout_to_stderr&) = delete;

 private:
  static void flush() {
    std::cout.flush();
    std::fflush(stdout);
  }
  int saved_ = -1;
};

}  // namespace

runtime::runtime(const runtime_options& options) {
  check_options(options);
  if (Kokkos::is_initialized()) return;  // the application owns Kokkos
  // Command-line style arguments are the one initialization interface that Kokkos 3.4
  // through 5.x all accept.
  std::vector<std::string> args{"portable_kernels"};
  if (options.device >= 0) args.push_back("--kokkos-device-id=" + std::to_string(options.device));
#if KOKKOS_VERSION >= 30700
  const char* threads_flag = "--kokkos-num-threads=";
#else
  const char* threads_flag = "--kokkos-threads=";
#endif
  if (options.threads > 0) args.push_back(threads_flag + std::to_string(options.threads));
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  // Kokkos 3.x/4.x warn at start-up when OMP_PROC_BIND is unset (4 lines, in every program and
  // Python session); "false" is what the OpenMP runtime does when it is unset, so saying so
  // changes nothing but the warning. A user's own setting is kept.
  setenv("OMP_PROC_BIND", "false", 0);
  // Kokkos' other start-up warnings (e.g. more threads than cores) go to stdout, where a
  // program's results are: they go to stderr instead while Kokkos starts.
  {
    const stdout_to_stderr redirect;  // undone when Kokkos has started, or has thrown
    Kokkos::initialize(argc, argv.data());
  }
  owns_ = true;
}

runtime::~runtime() {
  if (owns_ && Kokkos::is_initialized()) Kokkos::finalize();
}

bool is_initialized() noexcept { return Kokkos::is_initialized(); }

void require_initialized(const char* who) {
  if (!Kokkos::is_initialized())
    detail::fail(who, "Kokkos is not initialized (create a pk::runtime, or call Kokkos::initialize, first)");
}

}  // namespace pk
