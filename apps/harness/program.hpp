#pragma once
// The main of pk's programs (`pk`, and `pk-bench`, which `pk bench` runs): the global options
// (options.hpp), Kokkos started by pk::runtime, the named command run; every failure is one line
// "pk: error: <what is wrong>" on stderr and exit status 1.
#include <string>
#include <vector>

namespace pk_app {

struct command {
  const char* name;
  int (*run)(const std::vector<std::string>&);
  const char* summary;
};

// usage: prints the program's help (no command, or -h/--help before one).
int run_program(int argc, char** argv, const std::vector<command>& commands, void (*usage)());

}  // namespace pk_app
