#pragma once
// Host-array entry point of GEMM, one instantiation per backend (defined in matmul_impl.hpp,
// compiled in backends/<name>/). The arguments are checked by the caller (matmul_api.cpp).
#include <cstdint>

#include <pk/matmul.hpp>

namespace pk::detail {

template <class Exec, class T>
void gemm_host(op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a, const T* b,
               T beta, T* c);

}  // namespace pk::detail
