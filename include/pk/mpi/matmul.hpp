#pragma once
// GEMM of matrices distributed over a process grid (<pk/mpi/grid.hpp>): C = alpha * A * B + beta * C
// with A m x k, B k x n, C m x n, each cut by the grid's block rule: process (r, c) holds
//   A rows block_of(m, rows, r) x columns block_of(k, cols, c),
//   B rows block_of(k, rows, r) x columns block_of(n, cols, c),
//   C rows block_of(m, rows, r) x columns block_of(n, cols, c),
// each dense and row-major. SUMMA: for each panel of K, the process column holding A's panel
// broadcasts it along the grid rows and the process row holding B's panel along the grid columns,
// the next panel's broadcasts in flight while pk::gemm multiplies this one into the local C.
// Collective over the grid; every process passes the same m, n, k, alpha and beta. Results agree
// with the one-process pk::gemm within its tolerance (the sums over K go panel by panel).
#include <cstdint>

#include <pk/matmul.hpp>
#include <pk/mpi/grid.hpp>

namespace pk::mpi {

void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, float alpha,
          span<const float> a, span<const float> b, float beta, span<float> c);
void gemm(backend on, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k, double alpha,
          span<const double> a, span<const double> b, double beta, span<double> c);

}  // namespace pk::mpi
