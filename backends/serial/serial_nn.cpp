// The serial backend: a convolutional network's layers (src/nn/) compiled for Kokkos::Serial, their
// GEMMs on the backend's GEMM policy.
#include <Kokkos_Core.hpp>

#include "serial/serial_gemm_policy.hpp"
#include "nn/nn_impl.hpp"

PK_INSTANTIATE_NN(Kokkos::Serial)
