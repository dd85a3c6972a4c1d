// The table and summary lines the commands print.
#include "report.hpp"

#ifndef PK_VERSION
#define PK_VERSION "unknown"
#endif

#include "options.hpp"

#include <json.hpp>

#include <cerrno>
#include <cstring>
#include <string>

#include <pk/error.hpp>

namespace pk_app {

void print_table(const std::vector<measurement>& rows, std::FILE* to) {
  std::fprintf(to, "%-24s %-13s %10s %12s %-8s %11s %10s  %s\n", "kernel", "size", "time ms", "throughput", "",
               "max error", "tolerance", "result");
  for (const measurement& m : rows) {
    std::fprintf(to, "%-24s %-13s %10.4g %12.1f %-8s ", m.kernel.c_str(), m.size.c_str(), m.ms, m.throughput, m.unit);
    if (m.checked)
      std::fprintf(to, "%11.2e %10.2e  %s\n", m.error, m.tolerance, m.pass() ? "PASS" : "FAIL");
    else
      std::fprintf(to, "%11s %10s  %s\n", "-", "-", "not checked");
  }
}

void print_summary(const measurement& m, pk::backend on, std::FILE* to) {
  std::fprintf(to, "%s %s on %s: %s (median of %d after a warm-up), %.1f %s", m.kernel.c_str(), m.size.c_str(),
               pk::to_string(on), pk_app::duration_text(m.ms).c_str(), m.runs, m.throughput, m.unit);
  if (m.checked)
    std::fprintf(to, ", max relative error %.2e (tolerance %.2e, %s): %s", m.error, m.tolerance, m.check_note.c_str(),
                 m.pass() ? "PASS" : "FAIL");
  std::fprintf(to, "\n");
}

using pk_harness::json_quoted;

void require_writable(const std::string& command, const std::string& path) {
  if (path == "-") return;
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw pk::error(command + ": cannot write '" + path + "': " + std::strerror(errno));
  std::fclose(f);
}

void write_json(const std::string& command, const std::vector<measurement>& rows, pk::backend on,
                const std::string& path) {
  std::FILE* to = path == "-" ? stdout : std::fopen(path.c_str(), "w");
  if (!to) throw pk::error(command + ": cannot write '" + path + "': " + std::strerror(errno));
  const pk::device_info d = pk::current_device(on);
  std::fprintf(to, "{\n  \"command\": %s,\n  \"backend\": %s,\n  \"device\": %s,\n  \"concurrency\": %d,\n",
               json_quoted(command).c_str(), json_quoted(pk::to_string(on)).c_str(), json_quoted(d.name).c_str(), d.concurrency);
  std::fprintf(to, "  \"pk_version\": %s,\n  \"date\": %s,\n  \"results\": [", json_quoted(PK_VERSION).c_str(),
               json_quoted(pk_harness::utc_now()).c_str());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const measurement& m = rows[i];
    std::fprintf(to, "%s\n    {\"kernel\": %s, \"size\": %s, \"ms\": %.6g, \"runs\": %d, \"throughput\": %.6g, "
                 "\"unit\": %s,\n     \"checked\": %s",
                 i ? "," : "", json_quoted(m.kernel).c_str(), json_quoted(m.size).c_str(), m.ms, m.runs, m.throughput,
                 json_quoted(m.unit).c_str(), m.checked ? "true" : "false");
    if (m.checked)
      std::fprintf(to, ", \"error\": %s, \"tolerance\": %s, \"check\": %s", pk_harness::json_number(m.error).c_str(),
                   pk_harness::json_number(m.tolerance).c_str(), json_quoted(m.check_note).c_str());
    std::fprintf(to, ", \"pass\": %s}", m.pass() ? "true" : "false");
  }
  std::fprintf(to, "\n  ]\n}\n");
  if (to != stdout && std::fclose(to) != 0) throw pk::error(command + ": cannot write '" + path + "'");
}

}  // namespace pk_app
