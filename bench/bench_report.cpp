// The benchmark table and its JSON form.
#include "bench_row.hpp"

#include <cmath>

namespace pk_bench {

void print_table(const std::vector<row>& rows, std::FILE* to) {
  std::fprintf(to, "%-28s %-17s %9s %10s %-7s | %-22s %9s %10s | %6s %6s | %9s %s\n", "kernel", "size", "ms",
               "rate", "", "peer", "ms", "rate", "ratio", "target", "max err", "check");
  for (const row& r : rows) {
    std::fprintf(to, "%-28s %-17s %9.3f %10.1f %-7s | ", r.name.c_str(), r.size.c_str(), r.ours.median_ms, r.ours_rate,
                 r.unit.c_str());
    if (r.peer.empty())
      std::fprintf(to, "%-22s %9s %10s | %6s ", "(none)", "-", "-", "-");
    else
      std::fprintf(to, "%-22s %9.3f %10.1f | %6.3f ", r.peer.c_str(), r.theirs.median_ms, r.peer_rate, r.ratio);
    if (r.target > 0)
      std::fprintf(to, "%6.2f | ", r.target);
    else
      std::fprintf(to, "%6s | ", "-");
    std::fprintf(to, "%9.2e %s\n", r.error, r.pass() ? "PASS" : "FAIL");
  }
}

namespace {

void json_string(std::FILE* to, const std::string& s) {
  std::fputc('"', to);
  for (char c : s) {
    if (c == '"' || c == '\\') std::fputc('\\', to);
    if (static_cast<unsigned char>(c) < 0x20) {
      std::fprintf(to, "\\u%04x", c);
      continue;
    }
    std::fputc(c, to);
  }
  std::fputc('"', to);
}

void json_number(std::FILE* to, double v) {
  if (std::isfinite(v))
    std::fprintf(to, "%.6g", v);
  else
    std::fputs("null", to);
}

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
  std::fprintf(to, ",\n  \"results\": [");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    field(to, i ? ",\n    {" : "\n    {", "kernel", r.kernel);
    field(to, ", ", "name", r.name);
    field(to, ", ", "size", r.size);
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
