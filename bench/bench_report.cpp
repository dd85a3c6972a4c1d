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

}  // namespace

void write_json(const context& ctx, const std::vector<row>& rows, std::FILE* to) {
  std::fprintf(to, "{\n  \"backend\": ");
  json_string(to, ctx.backend);
  std::fprintf(to, ",\n  \"device\": ");
  json_string(to, ctx.device);
  std::fprintf(to, ",\n  \"concurrency\": %d,\n  \"kokkos\": ", ctx.concurrency);
  json_string(to, ctx.kokkos_version);
  std::fprintf(to, ",\n  \"date\": ");
  json_string(to, ctx.date);
  std::fprintf(to, ",\n  \"results\": [");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const row& r = rows[i];
    std::fprintf(to, "%s\n    {\"kernel\": ", i ? "," : "");
    json_string(to, r.kernel);
    std::fprintf(to, ", \"name\": ");
    json_string(to, r.name);
    std::fprintf(to, ", \"size\": ");
    json_string(to, r.size);
    std::fprintf(to, ", \"unit\": ");
    json_string(to, r.unit);
    std::fprintf(to, ",\n     \"ours\": ");
    json_timing(to, r.ours);
    std::fprintf(to, ", \"ours_rate\": ");
    json_number(to, r.ours_rate);
    std::fprintf(to, ",\n     \"peer\": ");
    if (r.peer.empty()) {
      std::fprintf(to, "null");
    } else {
      json_string(to, r.peer);
      std::fprintf(to, ", \"theirs\": ");
      json_timing(to, r.theirs);
      std::fprintf(to, ", \"peer_rate\": ");
      json_number(to, r.peer_rate);
      std::fprintf(to, ", \"ratio\": ");
      json_number(to, r.ratio);
    }
    std::fprintf(to, ",\n     \"target\": ");
    r.target > 0 ? json_number(to, r.target) : (void)std::fputs("null", to);
    std::fprintf(to, ", \"max_error\": ");
    json_number(to, r.error);
    std::fprintf(to, ", \"tolerance\": ");
    json_number(to, r.tolerance);
    std::fprintf(to, ", \"peer_difference\": ");
    r.peer_difference >= 0 ? json_number(to, r.peer_difference) : (void)std::fputs("null", to);
    std::fprintf(to, ", \"pass\": %s}", r.pass() ? "true" : "false");
  }
  std::fprintf(to, "\n  ]\n}\n");
}

}  // namespace pk_bench
