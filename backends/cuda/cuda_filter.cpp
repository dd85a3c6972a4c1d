// The cuda backend: the filter kernels compiled for Kokkos::Cuda with the GPU's policy
// (cuda_filter_policy.hpp). Built only when Kokkos has CUDA.
#include <Kokkos_Core.hpp>

#include "cuda/cuda_filter_policy.hpp"
#include "filter/filter_impl.hpp"

PK_INSTANTIATE_FILTER(Kokkos::Cuda)
