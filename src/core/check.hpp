#pragma once
// Argument checks shared by every kernel: each throws pk::error with a message that names the
// function, the argument and the value that was expected.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include <pk/error.hpp>

namespace pk::detail {

// The element type in kernel labels ("pk::gemm f32"): what profilers and Kokkos Tools show.
template <class T>
constexpr const char* type_tag() {
  if constexpr (sizeof(T) == 1) return "u8";
  if constexpr (sizeof(T) == 4) return "f32";
  return "f64";
}

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

// count * factor, or false when it does not fit in 64 bits (count, factor >= 0). Sizes the caller
// states (a GEMM's m*k, an image's height*width*channels) are multiplied here, never with a
// plain *, so that a huge or lying size is refused instead of wrapping around to a small one.
inline bool checked_product(std::int64_t count, std::int64_t factor, std::int64_t& product) {
  return !__builtin_mul_overflow(count, factor, &product);
}

// "a has 4611686018427387904 elements of 8 bytes, more than any array can hold": no array has
// more bytes than PTRDIFF_MAX, so a larger length is a lie that byte arithmetic must not see.
inline void require_addressable(const char* who, const char* name, std::size_t count, std::size_t element_bytes) {
  if (count > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / element_bytes)
    fail(who, name, " has ", count, " elements of ", element_bytes, " bytes, more than any array can hold");
}

// Whether the byte ranges [p, p + p_bytes) and [q, q + q_bytes) share a byte: the one overlap
// check. GEMM and the filters refuse any overlap (they read inputs after writing outputs); the
// element-wise kernels allow an output that is an input exactly (each element is read before it
// is written), so they refuse partial_overlap.
inline bool ranges_overlap(const void* p, std::int64_t p_bytes, const void* q, std::int64_t q_bytes) {
  if (p_bytes <= 0 || q_bytes <= 0) return false;
  const auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(q);
  return a < b + static_cast<std::uintptr_t>(q_bytes) && b < a + static_cast<std::uintptr_t>(p_bytes);
}
inline bool partially_overlap(const void* p, std::int64_t p_bytes, const void* q, std::int64_t q_bytes) {
  return p != q && ranges_overlap(p, p_bytes, q, q_bytes);
}

}  // namespace pk::detail
