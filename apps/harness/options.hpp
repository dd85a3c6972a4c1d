#pragma once
// Command-line parsing for `pk`: the global options every command shares, and a small parser
// for each command's own flags, options and positional arguments. Every mistake throws pk::error
// with a message that names the command, the argument and what was expected.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <pk/backend.hpp>

namespace pk_app {

// --backend NAME, --device N, --threads N: accepted before or after the command name.
struct global_options {
  pk::backend backend = pk::default_backend();
  int device = -1;   // CUDA device; -1: Kokkos' default
  int threads = -1;  // OpenMP threads; -1: OMP_NUM_THREADS or all cores
  bool profile = false;  // --profile: a per-kernel time table on stderr after the command
};
const global_options& globals();

struct command_line {
  std::string command;             // empty: none given
  std::vector<std::string> args;   // the command's own arguments, global options removed
  bool help = false;               // -h/--help before any command name
  bool version = false;            // --version anywhere
};
// Takes out the global options (and stores them for globals()); the rest is the command's.
command_line parse_command_line(int argc, char** argv);

// One command's arguments: `flags` take no value, `valued` take the next argument (or =VALUE).
// -h/--help sets help. An argument that starts with '-' and is not a number or one of these is
// an unknown option.
struct parsed_args {
  std::vector<std::string> positional;
  std::set<std::string> flags;
  std::map<std::string, std::string> values;
  bool help = false;
  bool has(const std::string& flag) const { return flags.count(flag) != 0; }
  const std::string* value(const std::string& option) const {
    auto it = values.find(option);
    return it == values.end() ? nullptr : &it->second;
  }
};
parsed_args parse_args(const std::string& command, const std::vector<std::string>& args,
                       const std::set<std::string>& flags, const std::set<std::string>& valued);

// A whole number in [lo, hi] named `what` ("M", "--repeat"), or pk::error
// "<command>: <what> must be ...".
std::int64_t parse_count(const std::string& command, const std::string& what, const std::string& text,
                         std::int64_t lo, std::int64_t hi);

// pk::error "<command>: <message> (see 'pk <command> --help')".
[[noreturn]] void usage_fail(const std::string& command, const std::string& message);

// "1 argument", "3 arguments".
std::string count_of(std::int64_t n, const std::string& noun);

// A duration for people: "0.16 us", "12.3 us", "1.234 ms", "1234 ms".
std::string duration_text(double ms);

}  // namespace pk_app
