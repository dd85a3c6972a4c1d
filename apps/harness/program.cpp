// The main loop of pk's programs (program.hpp).
#include "program.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include <pk/error.hpp>
#include <pk/profile.hpp>
#include <pk/runtime.hpp>

#include "options.hpp"

#ifndef PK_VERSION
#define PK_VERSION "unknown"
#endif

namespace pk_app {
namespace {

int run(int argc, char** argv, const std::vector<command>& commands, void (*usage)()) {
  const command_line line = parse_command_line(argc, argv);
  if (line.version) {
    std::printf("pk %s\n", PK_VERSION);
    return 0;
  }
  if (line.help || line.command.empty()) {
    usage();
    return 0;
  }
  for (const command& c : commands) {
    if (line.command != c.name) continue;
    // (pk::runtime keeps Kokkos' start-up warnings off stdout and quiet about OMP_PROC_BIND.)
    pk::runtime_options options;  // pk::runtime refuses a --device that does not exist
    options.device = globals().device;
    options.threads = globals().threads;
    pk::runtime kokkos(options);
    if (!globals().profile) return c.run(line.args);
    pk::profiler profile;  // kernel times by label, from Kokkos' Tools callbacks
    const int status = c.run(line.args);
    std::fprintf(stderr, "\npk --profile: kernels of '%s' on %s (each fenced, launch to end)\n%s", line.command.c_str(),
                 pk::to_string(globals().backend), profile.table().c_str());
    return status;
  }
  usage_fail("", "unknown command '" + line.command + "'");
}

// One line, whatever the message: Kokkos' own errors (a failed allocation...) span several.
// The library's messages begin with the C++ function that refused ("pk::parse_filter: unknown
// filter..."): the command line names no C++, so that prefix goes.
void print_error(const std::string& what) {
  std::string line = what;
  if (line.rfind("pk::", 0) == 0) {
    const auto colon = line.find(": ");
    if (colon != std::string::npos && line.find(' ') > colon) line.erase(0, colon + 2);
  }
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::fprintf(stderr, "pk: error: %s\n", line.c_str());
}

}  // namespace

int run_program(int argc, char** argv, const std::vector<command>& commands, void (*usage)()) {
  try {
    return run(argc, argv, commands, usage);
  } catch (const std::bad_alloc&) {
    print_error("out of memory");
  } catch (const std::exception& e) {
    print_error(e.what());
  }
  return 1;
}

}  // namespace pk_app
