#pragma once
// Matrix multiply on host arrays, row-major (C-style): C = alpha*op(A)*op(B) + beta*C with
// op(A) of shape m x k, op(B) of shape k x n, C of shape m x n. A is stored m x k (op none) or
// k x m (op transpose); likewise B. With beta == 0, C is only written, never read (as in BLAS:
// NaN in C does not leak into the result). For device-resident matrices use <pk/kokkos/matmul.hpp>.
#include <cstdint>

#include <pk/backend.hpp>
#include <pk/span.hpp>

namespace pk {

enum class op { none, transpose };

void gemm(backend on, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c);
void gemm(backend on, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c);

// C = A*B.
void matmul(backend on, std::int64_t m, std::int64_t n, std::int64_t k, span<const float> a, span<const float> b,
            span<float> c);
void matmul(backend on, std::int64_t m, std::int64_t n, std::int64_t k, span<const double> a,
            span<const double> b, span<double> c);

}  // namespace pk
