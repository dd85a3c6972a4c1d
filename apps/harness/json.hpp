#pragma once
// JSON values for the --json outputs of pk and pk-bench: one quoting rule, one number rule, one
// date.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>

namespace pk_harness {

// "text" with quotes, backslashes and control characters escaped.
inline std::string json_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Now, as the results' "date": 2026-12-05T20:11:21Z.
inline std::string utc_now() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

// A number, or null where JSON has none (NaN, infinity).
inline std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

}  // namespace pk_harness
