#pragma once
// Argument checks shared by every kernel: each throws pk::error with a message that names the
// function, the argument and the value that was expected.
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

#include <pk/error.hpp>

namespace pk::detail {

template <class... Parts>
[[noreturn]] void fail(const char* who, Parts&&... parts) {
  std::ostringstream msg;
  msg << who << ": ";
  (msg << ... << std::forward<Parts>(parts));
  throw error(msg.str());
}

inline void require(bool ok, const char* who, const std::string& what) {
  if (!ok) fail(who, what);
}

// "b has 7 elements, expected 8 (the length of a)".
inline void require_length(const char* who, const char* name, std::int64_t got, std::int64_t want,
                           const char* reference) {
  if (got != want)
    fail(who, name, " has ", got, " elements, expected ", want, " (", reference, ")");
}

// Two ranges [p, p+n) overlap without being the same range: an in-place call is fine,
// a shifted one would read what it already wrote.
inline bool partially_overlap(const void* p, std::int64_t p_bytes, const void* q, std::int64_t q_bytes) {
  auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(q);
  if (a == b) return false;
  return a < b + static_cast<std::uintptr_t>(q_bytes) && b < a + static_cast<std::uintptr_t>(p_bytes);
}

}  // namespace pk::detail
