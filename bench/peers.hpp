#pragma once
// The peer libraries the benchmarks compare against, called on the same data in the same memory
// as our kernels. peers_host.cpp: OpenBLAS, OpenCV (for Serial and OpenMP, with
// the backend's thread count). peers_cuda.cpp: cudaMemcpyAsync and cuBLAS, on the Kokkos stream.
// The dispatch templates at the bottom pick one by execution space.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace pk_bench {

// Row-major C (m x n) = A (m x k) * B (k x n), alpha = 1, beta = 0.
template <class T>
struct gemm_args {
  std::int64_t m, n, k;
  const T* a;
  const T* b;
  T* c;
};

// ---- host ----
bool host_has_blas();
std::string host_blas_name(bool dbl);  // "OpenBLAS cblas_sgemm"
void host_gemm(const gemm_args<float>& g, int threads);
void host_gemm(const gemm_args<double>& g, int threads);
// The same with BLAS's transpose flags: a is m x k (stored k x m when trans_a), b is k x n (n x k).
void host_gemm_flags(bool trans_a, bool trans_b, const gemm_args<float>& g, int threads);

// An image as OpenCV sees it: rows x cols pixels of `channels` interleaved floats or bytes.
struct host_image {
  void* data;
  int rows, cols, channels;
  bool u8;
};
bool host_has_opencv();
// cv::filter2D (weights size x size) or, with row/column taps, cv::sepFilter2D; BORDER_REFLECT_101.
void host_filter(const host_image& in, const host_image& out, int size, const float* weights, const float* row,
                 const float* column, int threads);
// cv::Sobel in x and y (CV_32F), then cv::magnitude: what a user of OpenCV writes for edge strength.
void host_sobel_magnitude(const host_image& in, const host_image& out, int threads);

// A convolution layer (NHWC input, F x KH x KW x C weights, padding valid, stride 1) and its passes.
struct conv_shape {
  std::int64_t n, h, w, c, f, kh, kw;
};
enum class conv_pass { forward, input_gradient, weight_gradient };

// ---- CUDA ----
#if defined(KOKKOS_ENABLE_CUDA)
void cuda_copy(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
// A cuBLAS handle on one stream, in CUBLAS_DEFAULT_MATH (no TF32: the FP32 result cuBLAS promises).
class cuda_blas {
 public:
  explicit cuda_blas(cudaStream_t stream);
  ~cuda_blas();
  cuda_blas(const cuda_blas&) = delete;
  cuda_blas& operator=(const cuda_blas&) = delete;
  void gemm(const gemm_args<float>& g);
  void gemm(const gemm_args<double>& g);

 private:
  void* handle_ = nullptr;
};
#if defined(PK_BENCH_HAVE_CUDNN)
// cuDNN's convolution for one layer and pass (peers_cudnn.cpp): the layout (NHWC or NCHW) and
// algorithm chosen by measuring at construction; run() then computes the pass's output into its
// argument (y forward, x the input gradient, w the weight gradient), all of them in pk's layout.
// Where cuDNN's NCHW is the faster, stage() copies the pass's inputs into the peer's own NCHW
// buffers first, run() works on those, and unstage() writes its result back in pk's layout.
class cuda_conv {
 public:
  cuda_conv(cudaStream_t stream, const conv_shape& s, conv_pass pass);
  ~cuda_conv();
  cuda_conv(const cuda_conv&) = delete;
  cuda_conv& operator=(const cuda_conv&) = delete;
  void stage(float* x, float* w, float* y);
  void run(float* x, float* w, float* y);
  void unstage(float* x, float* w, float* y);
  std::string name() const;

 private:
  struct state;
  std::unique_ptr<state> s_;
  conv_pass pass_;
};
#endif
#endif

// ---- dispatch by execution space ----
template <class Exec>
constexpr bool is_cuda() {
#if defined(KOKKOS_ENABLE_CUDA)
  return std::is_same_v<Exec, Kokkos::Cuda>;
#else
  return false;
#endif
}

template <class Exec>
void peer_copy(const Exec& space, void* dst, const void* src, std::size_t bytes) {
  if constexpr (is_cuda<Exec>()) {
#if defined(KOKKOS_ENABLE_CUDA)
    cuda_copy(dst, src, bytes, space.cuda_stream());
#endif
  } else {
    // On the host: glibc's memcpy, one contiguous slice per thread of the backend's own pool (a
    // second OpenMP team would fight the backend's spinning threads for the cores).
    const int parts = space.concurrency();
    auto* to = static_cast<char*>(dst);
    const auto* from = static_cast<const char*>(src);
    Kokkos::parallel_for(
        "pk_bench::memcpy", Kokkos::RangePolicy<Exec>(space, 0, parts), [=](int part) {
          const std::size_t begin = bytes * std::size_t(part) / std::size_t(parts);
          const std::size_t end = bytes * std::size_t(part + 1) / std::size_t(parts);
          std::memcpy(to + begin, from + begin, end - begin);
        });
  }
}

template <class Exec>
const char* peer_copy_name() {
  return is_cuda<Exec>() ? "cudaMemcpy D2D" : "memcpy";
}

}  // namespace pk_bench
