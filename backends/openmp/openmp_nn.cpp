// The openmp backend: a convolutional network's layers (src/nn/) compiled for Kokkos::OpenMP.
#include <Kokkos_Core.hpp>

#include "nn/nn_impl.hpp"

PK_INSTANTIATE_NN(Kokkos::OpenMP)
