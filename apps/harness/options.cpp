// Parsing of the global options and of each command's arguments.
#include "options.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include <pk/error.hpp>

namespace pk_app {
namespace {

global_options& mutable_globals() {
  static global_options options;
  return options;
}

bool looks_like_number(const std::string& a) {
  return a.size() > 1 && a[0] == '-' && ((a[1] >= '0' && a[1] <= '9') || a[1] == '.');
}

// "--name=value" or "--name value": the value, consuming the next argument when needed.
bool take_value(const std::vector<std::string>& all, std::size_t& i, const std::string& name, std::string& value,
                const std::string& command) {
  const std::string& a = all[i];
  if (a == name) {
    if (i + 1 >= all.size()) usage_fail(command, "option " + name + " needs a value");
    value = all[++i];
    return true;
  }
  if (a.rfind(name + "=", 0) == 0) {
    value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

}  // namespace

const global_options& globals() { return mutable_globals(); }

std::string count_of(std::int64_t n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string duration_text(double ms) {
  char text[32];
  if (ms < 0.01)
    std::snprintf(text, sizeof text, "%.2f us", ms * 1e3);
  else if (ms < 1)
    std::snprintf(text, sizeof text, "%.1f us", ms * 1e3);
  else if (ms < 1000)
    std::snprintf(text, sizeof text, "%.3f ms", ms);
  else
    std::snprintf(text, sizeof text, "%.0f ms", ms);
  return text;
}

void usage_fail(const std::string& command, const std::string& message) {
  const std::string see = command.empty() ? "pk --help" : "pk " + command + " --help";
  throw pk::error((command.empty() ? "" : command + ": ") + message + " (see '" + see + "')");
}

std::int64_t parse_count(const std::string& command, const std::string& what, const std::string& text,
                         std::int64_t lo, std::int64_t hi) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || text.find_first_of(" \t") != std::string::npos)
    usage_fail(command, what + " must be a whole number, got '" + text + "'");
  if (errno == ERANGE)  // a whole number, past 64 bits
    usage_fail(command, what + " must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + text);
  if (v < lo || v > hi)
    usage_fail(command, what + " must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " + text);
  return v;
}

command_line parse_command_line(int argc, char** argv) {
  std::vector<std::string> all(argv + 1, argv + argc);
  command_line out;
  global_options& g = mutable_globals();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& a = all[i];
    std::string value;
    const std::string& who = out.command;  // errors name the command when there is one
    if (take_value(all, i, "--backend", value, who)) {
      g.backend = pk::parse_backend(value);
    } else if (take_value(all, i, "--device", value, who)) {
      g.device = static_cast<int>(parse_count(who, "--device", value, 0, 1023));
    } else if (take_value(all, i, "--threads", value, who)) {
      g.threads = static_cast<int>(parse_count(who, "--threads", value, 1, 4096));
    } else if (a == "--profile") {
      g.profile = true;
    } else if (a == "--version") {
      out.version = true;
    } else if (out.command.empty() && (a == "-h" || a == "--help")) {
      out.help = true;
    } else if (out.command.empty() && !a.empty() && a[0] == '-') {
      usage_fail("", "unknown option '" + a + "'");
    } else if (out.command.empty()) {
      out.command = a;
    } else {
      out.args.push_back(a);
    }
  }
  return out;
}

parsed_args parse_args(const std::string& command, const std::vector<std::string>& args,
                       const std::set<std::string>& flags, const std::set<std::string>& valued) {
  parsed_args out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      out.help = true;
      continue;
    }
    if (a.empty() || a[0] != '-' || a == "-" || looks_like_number(a)) {
      out.positional.push_back(a);
      continue;
    }
    if (flags.count(a)) {
      out.flags.insert(a);
      continue;
    }
    bool matched = false;
    for (const std::string& name : valued) {
      std::string value;
      if (take_value(args, i, name, value, command)) {
        out.values[name] = value;
        matched = true;
        break;
      }
    }
    if (!matched) usage_fail(command, "unknown option '" + a + "'");
  }
  return out;
}

}  // namespace pk_app
