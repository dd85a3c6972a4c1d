// The cuda backend: the element-wise kernels compiled for Kokkos::Cuda (built only when Kokkos has CUDA).
// GPU tile shapes are specialized in backends/cuda/*_tiles_cuda.hpp, included before the kernels.
#include <Kokkos_Core.hpp>

#include "add/add_impl.hpp"

PK_INSTANTIATE_ADD(Kokkos::Cuda)
