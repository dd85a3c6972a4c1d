// The serial backend: GEMM compiled for Kokkos::Serial.
// Tile sizes for host backends are the defaults in src/matmul/gemm_tiles.hpp.
#include <Kokkos_Core.hpp>

#include "matmul/matmul_impl.hpp"

PK_INSTANTIATE_MATMUL(Kokkos::Serial)
