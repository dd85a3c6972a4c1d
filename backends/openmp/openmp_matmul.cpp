// The openmp backend: GEMM compiled for Kokkos::OpenMP with the CPUs' policy (openmp_gemm_policy.hpp).
#include <Kokkos_Core.hpp>

#include "openmp/openmp_gemm_policy.hpp"
#include "matmul/matmul_impl.hpp"

PK_INSTANTIATE_MATMUL(Kokkos::OpenMP)
