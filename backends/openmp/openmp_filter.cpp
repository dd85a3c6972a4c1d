// The openmp backend: the filter kernels compiled for Kokkos::OpenMP.
// Tile sizes for host backends are the defaults in src/filter/filter_tiles.hpp.
#include <Kokkos_Core.hpp>

#include "filter/filter_impl.hpp"

PK_INSTANTIATE_FILTER(Kokkos::OpenMP)
