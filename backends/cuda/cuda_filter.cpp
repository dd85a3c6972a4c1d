// The cuda backend: the filter kernels compiled for Kokkos::Cuda (built only when Kokkos has CUDA).
// The GPU tile shape is specialized in filter_tiles_cuda.hpp, which must come before the kernels.
#include <Kokkos_Core.hpp>

#include "cuda/filter_tiles_cuda.hpp"
#include "filter/filter_impl.hpp"

PK_INSTANTIATE_FILTER(Kokkos::Cuda)
