#pragma once
// GEMM of matrices distributed over a process grid (<pk/mpi/grid.hpp>):
// C = alpha * op(A) * op(B) + beta * C with op(A) m x k, op(B) k x n, C m x n, each matrix as
// stored cut by the grid's block rule: process (r, c) holds
//   A rows block_of(m, rows, r) x columns block_of(k, cols, c)  (transposed: A is k x m, rows
//     block_of(k, rows, r) x columns block_of(m, cols, c), as ScaLAPACK's p?gemm takes it),
//   B rows block_of(k, rows, r) x columns block_of(n, cols, c)  (transposed: n x k likewise),
//   C rows block_of(m, rows, r) x columns block_of(n, cols, c),
// each dense and row-major. A transposed operand is first redistributed as op(A) (one
// all-to-all). Then SUMMA: for each panel of K, the process column holding A's panel broadcasts it
// along the grid rows and the process row holding B's panel along the grid columns, the next
// panel's broadcasts in flight while pk::gemm multiplies this one into the local C.
// Collective over the grid; every process passes the same ops, m, n, k, alpha and beta. Results
// agree with the one-process pk::gemm within its tolerance (the sums over K go panel by panel).
#include <cstdint>

#include <pk/matmul.hpp>
#include <pk/mpi/grid.hpp>

namespace pk::mpi {

void gemm(backend on, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c);
void gemm(backend on, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c);
// op_a = op_b = op::none.
void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c);
void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c);

}  // namespace pk::mpi
