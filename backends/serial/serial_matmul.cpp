// The serial backend: GEMM compiled for Kokkos::Serial, with the CPUs' policy (src/matmul/gemm_policy.hpp:
// one thread a team, GotoBLAS panels, SIMD register tiles).
#include <Kokkos_Core.hpp>

#include "matmul/matmul_impl.hpp"

namespace pk::detail {
template <class T>
struct gemm_policy<Kokkos::Serial, T> : host_gemm_policy<T> {};
}  // namespace pk::detail

PK_INSTANTIATE_MATMUL(Kokkos::Serial)
