// The cuda backend: the element-wise kernels compiled for Kokkos::Cuda (built only when Kokkos has CUDA).
// elementwise_packs_cuda.hpp turns on the 16-byte packed functors, and must come before the kernels.
#include <Kokkos_Core.hpp>

#include "cuda/elementwise_packs_cuda.hpp"
#include "add/add_impl.hpp"

PK_INSTANTIATE_ADD(Kokkos::Cuda)
