// The serial backend: GEMM compiled for Kokkos::Serial with the CPUs' policy (serial_gemm_policy.hpp).
#include <Kokkos_Core.hpp>

#include "serial/serial_gemm_policy.hpp"
#include "matmul/matmul_impl.hpp"

PK_INSTANTIATE_MATMUL(Kokkos::Serial)
