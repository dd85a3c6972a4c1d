// The openmp backend: the element-wise kernels compiled for Kokkos::OpenMP.
// Tile sizes for host backends are the defaults in src/<kernel>/*_tiles.hpp.
#include <Kokkos_Core.hpp>

#include "add/add_impl.hpp"

PK_INSTANTIATE_ADD(Kokkos::OpenMP)
