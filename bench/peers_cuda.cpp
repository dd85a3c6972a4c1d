// CUDA peers: cudaMemcpyAsync device-to-device (copy bandwidth) and cuBLAS GEMM, on the stream of
// the Kokkos::Cuda instance our kernels run on. Built only when Kokkos has CUDA.
#include "peers.hpp"

#include <cublas_v2.h>
#include <string>

#include <pk/error.hpp>

namespace pk_bench {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw pk::error(std::string("bench: ") + what + ": " + cudaGetErrorString(status));
}
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw pk::error(std::string("bench: ") + what + " failed (cuBLAS status " + std::to_string(int(status)) + ")");
}

}  // namespace

void cuda_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync");
}

cuda_blas::cuda_blas(cudaStream_t stream) {
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  handle_ = h;
  check(cublasSetStream(h, stream), "cublasSetStream");
  check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

cuda_blas::~cuda_blas() { cublasDestroy(static_cast<cublasHandle_t>(handle_)); }

// Row-major C = A*B is column-major C^T = B^T * A^T: the same memory, operands swapped.
void cuda_blas::gemm(const gemm_args<float>& g) {
  const float one = 1.0f, zero = 0.0f;
  check(cublasSgemm(static_cast<cublasHandle_t>(handle_), CUBLAS_OP_N, CUBLAS_OP_N, int(g.n), int(g.m), int(g.k), &one,
                    g.b, int(g.n), g.a, int(g.k), &zero, g.c, int(g.n)),
        "cublasSgemm");
}

void cuda_blas::gemm(const gemm_args<double>& g) {
  const double one = 1.0, zero = 0.0;
  check(cublasDgemm(static_cast<cublasHandle_t>(handle_), CUBLAS_OP_N, CUBLAS_OP_N, int(g.n), int(g.m), int(g.k), &one,
                    g.b, int(g.n), g.a, int(g.k), &zero, g.c, int(g.n)),
        "cublasDgemm");
}

}  // namespace pk_bench
