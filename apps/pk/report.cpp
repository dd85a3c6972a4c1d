// The table and summary lines the commands print.
#include "report.hpp"

#include "options.hpp"

#include <string>

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

}  // namespace pk_app
