// The benchmark table and its JSON form.
#include "bench_row.hpp"

#include <json.hpp>

#include <cmath>

namespace pk_bench {

// At most 100 columns: the peers' names and times, the errors and tolerances are in the JSON;
// the table names each peer once below. "+-" is our runs' spread, (max - min) / median.
void print_table(const std::vector<row>& rows, std::FILE* to) {
  bool targets = false;
  for (const row& r : rows) targets = targets || r.target > 0;
  std::fprintf(to, "%-27s %-14s %8s %13s %5s %8s %6s", "kernel", "size", "ms", "rate", "+-%", "peer ms", "ratio");
  std::fprintf(to, targets ? " %6s %s\n" : " %s\n", targets ? "target" : "check", "check");
  std::vector<std::string> peers;
  for (const row& r : rows) {
    char rate[32];
    std::snprintf(rate, sizeof rate, r.ours_rate >= 100 ? "%.0f %s" : "%.1f %s", r.ours_rate, r.unit.c_str());
    const double spread = r.ours.median_ms > 0 ? 100.0 * (r.ours.max_ms - r.ours.min_ms) / r.ours.median_ms : 0;
    std::fprintf(to, "%-27s %-14s %8.3f %13s %5.1f ", r.name.c_str(), r.size.c_str(), r.ours.median_ms, rate, spread);
    if (r.peer.empty())
      std::fprintf(to, "%8s %6s", "-", "-");
    else
      std::fprintf(to, "%8.3f %6.3f", r.theirs.median_ms, r.ratio);
    if (targets) r.target > 0 ? std::fprintf(to, " %6.2f", r.target) : std::fprintf(to, " %6s", "-");
    std::fprintf(to, " %s\n", r.pass() ? "PASS" : "FAIL");
    const std::string peer = r.peer.empty() ? "(none)" : r.peer;
    bool seen = false;
    for (const std::string& q : peers) seen = seen || q == peer;
    if (!seen) peers.push_back(peer);
  }
  std::string line = "peers:";  // wrapped at 100 columns
  for (const std::string& q : peers) {
    if (line.size() + 1 + q.size() + 1 > 100) {
      std::fprintf(to, "%s\n", line.c_str());
      line = "      ";
    }
    line += " " + q + (&q == &peers.back() ? "" : ",");
  }
  std::fprintf(to, "%s\n", line.c_str());
}

namespace {

void json_string(std::FILE* to, const std::string& s) { std::fputs(pk_harness::json_quoted(s).c_str(), to); }

void json_number(std::FILE* to, double v) { std::fputs(pk_harness::json_number(v).c_str(), to); }

void json_timing(std::FILE* to, const timing& t) {
  std::fprintf(to, "{\"median_ms\": ");
  json_number(to, t.median_ms);
  std::fprintf(to, ", \"min_ms\": ");
  json_number(to, t.min_ms);
  std::fprintf(to, ", \"max_ms\": ");
  json_number(to, t.max_ms);
  std::fprintf(to, ", \"runs\": %d}", t.runs);
}

// `sep` then "name": and the value (null for an optional one that is absent).
void field(std::FILE* to, const char* sep, const char* name) { std::fprintf(to, "%s\"%s\": ", sep, name); }
void field(std::FILE* to, const char* sep, const char* name, const std::string& v) {
  field(to, sep, name);
  json_string(to, v);
}
void field(std::FILE* to, const char* sep, const char* name, double v, bool present = true) {
  field(to, sep, name);
  present ? json_number(to, v) : (void)std::fputs("null", to);
}
void field(std::FILE* to, const char* sep, const char* name, const timing& t) {
  field(to, sep, name);
  json_timing(to, t);
}

}  // namespace

void write_json(const context& ctx, const std::vector<row>& rows, std::FILE* to) {
  field(to, "{\n  ", "backend", ctx.backend);
  field(to, ",\n  ", "device", ctx.device);
  std::fprintf(to, ",\n  \"concurrency\": %d", ctx.concurrency);
  field(to, ",\n  ", "kokkos", ctx.kokkos_version);
  field(to, ",\n  ", "date", ctx.date);
  field(to, ",\n  ", "pk_version", ctx.pk_version);
  field(to, ",\n  ", "commit", ctx.commit);
  std::fprintf(to, ",\n  \"results\": [");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    field(to, i ? ",\n    {" : "\n    {", "kernel", r.kernel);
    field(to, ", ", "name", r.name);
    field(to, ", ", "size", r.size);
    std::fprintf(to, ", \"shape\": [");
    for (std::size_t d = 0; d < r.shape.size(); ++d) std::fprintf(to, d ? ", %lld" : "%lld", static_cast<long long>(r.shape[d]));
    std::fprintf(to, "]");
    field(to, ", ", "unit", r.unit);
    field(to, ",\n     ", "ours", r.ours);
    field(to, ", ", "ours_rate", r.ours_rate);
    if (r.peer.empty()) {
      field(to, ",\n     ", "peer", 0, false);
    } else {
      field(to, ",\n     ", "peer", r.peer);
      field(to, ", ", "theirs", r.theirs);
      field(to, ", ", "peer_rate", r.peer_rate);
      field(to, ", ", "ratio", r.ratio);
    }
    field(to, ",\n     ", "target", r.target, r.target > 0);
    field(to, ", ", "max_error", r.error);
    field(to, ", ", "tolerance", r.tolerance);
    field(to, ", ", "peer_difference", r.peer_difference, r.peer_difference >= 0);
    std::fprintf(to, ", \"pass\": %s}", r.pass() ? "true" : "false");
  }
  std::fprintf(to, "\n  ]\n}\n");
}

}  // namespace pk_bench
