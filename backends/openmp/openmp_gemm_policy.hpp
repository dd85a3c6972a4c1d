#pragma once
// The openmp backend's GEMM policy (what src/matmul/gemm_policy.hpp asks a backend to choose): the
// CPUs' host_gemm_policy (one thread a team, GotoBLAS panels, SIMD register tiles), for pk::gemm
// and the convolutions' implicit GEMMs alike.
#include <Kokkos_Core.hpp>

#include "matmul/gemm_policy.hpp"

namespace pk::detail {
template <class T>
struct gemm_policy<Kokkos::OpenMP, T> : host_gemm_policy<T> {};
}  // namespace pk::detail
