#pragma once
// Checks shared by the View interface (matmul_impl.hpp) and the host-array one (matmul_api.cpp).
#include <cstdint>

#include <pk/matmul.hpp>

namespace pk::detail {

inline const char* op_name(op o) noexcept { return o == op::none ? "none" : "transpose"; }

// GEMM reads A and B while it writes C: any shared byte, even the same array, would be read after
// being overwritten (unlike the element-wise kernels, in-place is not allowed).
inline bool ranges_overlap(const void* p, std::int64_t p_bytes, const void* q, std::int64_t q_bytes) {
  if (p_bytes <= 0 || q_bytes <= 0) return false;
  auto a = reinterpret_cast<std::uintptr_t>(p), b = reinterpret_cast<std::uintptr_t>(q);
  return a < b + static_cast<std::uintptr_t>(q_bytes) && b < a + static_cast<std::uintptr_t>(p_bytes);
}

}  // namespace pk::detail
