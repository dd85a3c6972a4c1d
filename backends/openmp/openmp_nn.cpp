// The openmp backend: a convolutional network's layers (src/nn/) compiled for Kokkos::OpenMP, their
// GEMMs on the backend's GEMM policy.
#include <Kokkos_Core.hpp>

#include "openmp/openmp_gemm_policy.hpp"
#include "nn/nn_impl.hpp"

PK_INSTANTIATE_NN(Kokkos::OpenMP)
