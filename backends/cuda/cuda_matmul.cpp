// The cuda backend: GEMM compiled for Kokkos::Cuda with the GPU's policy (cuda_gemm_policy.hpp).
// Built only when Kokkos has CUDA.
#include <Kokkos_Core.hpp>

#include "cuda/cuda_gemm_policy.hpp"
#include "matmul/matmul_impl.hpp"

PK_INSTANTIATE_MATMUL(Kokkos::Cuda)
