// The cuda backend: a convolutional network's layers (src/nn/) compiled for Kokkos::Cuda.
#include <Kokkos_Core.hpp>

#include "cuda/cuda_streams.hpp"
#include "nn/nn_impl.hpp"

PK_INSTANTIATE_NN(Kokkos::Cuda)
