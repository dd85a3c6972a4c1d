// The cuda backend: a convolutional network's layers (src/nn/) compiled for Kokkos::Cuda, their
// GEMMs on the GPU's GEMM policy (cuda_gemm_policy.hpp).
#include <Kokkos_Core.hpp>

#include "cuda/cuda_gemm_policy.hpp"
#include "cuda/cuda_streams.hpp"
#include "nn/nn_impl.hpp"

PK_INSTANTIATE_NN(Kokkos::Cuda)
