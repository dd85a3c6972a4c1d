// pk::profiler: per-label kernel times from Kokkos' Tools callbacks (begin/end of parallel_for,
// parallel_reduce and parallel_scan), each kernel fenced at its end.
#include <pk/profile.hpp>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <pk/error.hpp>
#include <pk/runtime.hpp>

namespace pk {
namespace {

namespace tools = Kokkos::Tools::Experimental;
using clock = std::chrono::steady_clock;

struct running_kernel {
  std::string name;
  clock::time_point start;
};

// The one active profiler's counts (Kokkos' callbacks are plain function pointers).
struct profile_state {
  std::mutex mutex;
  bool active = false;
  std::uint64_t next_id = 0;
  std::map<std::uint64_t, running_kernel> running;
  std::map<std::string, kernel_time> totals;
  tools::EventSet saved{};
};

profile_state& state() {
  static profile_state s;
  return s;
}

void begin_kernel(const char* name, const std::uint32_t, std::uint64_t* id) {
  profile_state& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  *id = s.next_id++;
  s.running[*id] = running_kernel{name ? name : "(unnamed)", clock::now()};
}

void end_kernel(std::uint64_t id) {
  Kokkos::fence();  // the kernel's own time, not its launch's
  const auto end = clock::now();
  profile_state& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.running.find(id);
  if (it == s.running.end()) return;
  kernel_time& t = s.totals[it->second.name];
  t.name = it->second.name;
  t.calls += 1;
  t.total_ms += std::chrono::duration<double, std::milli>(end - it->second.start).count();
  s.running.erase(it);
}

}  // namespace

profiler::profiler() {
  require_initialized("pk::profiler");
  profile_state& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.active) throw error("pk::profiler: another profiler is active (one at a time)");
  s.active = true;
  s.totals.clear();
  s.running.clear();
  s.saved = tools::get_callbacks();
  tools::set_begin_parallel_for_callback(begin_kernel);
  tools::set_end_parallel_for_callback(end_kernel);
  tools::set_begin_parallel_reduce_callback(begin_kernel);
  tools::set_end_parallel_reduce_callback(end_kernel);
  tools::set_begin_parallel_scan_callback(begin_kernel);
  tools::set_end_parallel_scan_callback(end_kernel);
}

profiler::~profiler() {
  profile_state& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  tools::set_callbacks(s.saved);
  s.active = false;
}

std::vector<kernel_time> profiler::kernels() const {
  profile_state& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<kernel_time> out;
  for (const auto& entry : s.totals) out.push_back(entry.second);
  std::sort(out.begin(), out.end(), [](const kernel_time& a, const kernel_time& b) { return a.total_ms > b.total_ms; });
  return out;
}

std::string profiler::table() const {
  const std::vector<kernel_time> rows = kernels();
  double all = 0;
  std::size_t width = 6;
  for (const kernel_time& k : rows) all += k.total_ms, width = std::max(width, k.name.size());
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s %8s %12s %12s %7s\n", int(width), "kernel", "calls", "total ms", "mean ms",
                "share");
  out += line;
  for (const kernel_time& k : rows) {
    std::snprintf(line, sizeof line, "%-*s %8lld %12.3f %12.4f %6.1f%%\n", int(width), k.name.c_str(),
                  static_cast<long long>(k.calls), k.total_ms, k.total_ms / double(k.calls),
                  all > 0 ? 100.0 * k.total_ms / all : 0.0);
    out += line;
  }
  std::snprintf(line, sizeof line, "%-*s %8s %12.3f\n", int(width), "all kernels", "", all);
  out += line;
  return out;
}

}  // namespace pk
