// The cuda backend: GEMM compiled for Kokkos::Cuda (built only when Kokkos has CUDA).
// The GPU tile shape (gemm_tiles<Kokkos::Cuda, T>) must be seen before the kernel is instantiated.
#include <Kokkos_Core.hpp>

#include "cuda/gemm_tiles_cuda.hpp"
#include "matmul/matmul_impl.hpp"

PK_INSTANTIATE_MATMUL(Kokkos::Cuda)
