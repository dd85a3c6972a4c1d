// The GPU peer of conv2d: cuDNN's convolution (forward, backward data, backward filter), NHWC
// tensors and KRSC (F x KH x KW x C) filters as pk lays them out, padding 0, stride 1, cross-correlation,
// FP32 FMA math (CUDNN_FMA_MATH: no TF32 tensor cores), and for each pass the fastest algorithm
// that cudnnFind* measured at these shapes, its workspace allocated once. Built when the
// CUDA build finds cudnn.h and libcudnn (the toolkit's, or CUDNN_ROOT, e.g. PyTorch's
// nvidia-cudnn wheel).
#include "peers.hpp"

#include <cudnn.h>

#include <string>

#include <pk/error.hpp>

namespace pk_bench {
namespace {

void check(cudnnStatus_t status, const char* what) {
  if (status != CUDNN_STATUS_SUCCESS)
    throw pk::error(std::string("bench: ") + what + ": " + cudnnGetErrorString(status));
}
void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw pk::error(std::string("bench: ") + what + ": " + cudaGetErrorString(status));
}

// The fastest FMA-math result of a cudnnFind*: results come sorted by time.
template <class Perf>
Perf fastest(const Perf* results, int count, const char* what) {
  for (int i = 0; i < count; ++i)
    if (results[i].status == CUDNN_STATUS_SUCCESS && results[i].mathType == CUDNN_FMA_MATH) return results[i];
  throw pk::error(std::string("bench: ") + what + " found no FP32 (FMA) algorithm");
}

}  // namespace

struct cuda_conv::state {
  cudnnHandle_t handle = nullptr;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  int algo = 0;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  std::string algo_name;
  // Whatever the constructor got as far as making (it may throw half way).
  ~state() {
    if (workspace) cudaFree(workspace);
    if (conv) cudnnDestroyConvolutionDescriptor(conv);
    if (w) cudnnDestroyFilterDescriptor(w);
    if (y) cudnnDestroyTensorDescriptor(y);
    if (x) cudnnDestroyTensorDescriptor(x);
    if (handle) cudnnDestroy(handle);
  }
};

cuda_conv::cuda_conv(cudaStream_t stream, const conv_shape& s, conv_pass pass)
    : s_(new state), pass_(pass) {
  check(cudnnCreate(&s_->handle), "cudnnCreate");
  check(cudnnSetStream(s_->handle, stream), "cudnnSetStream");
  check(cudnnCreateTensorDescriptor(&s_->x), "cudnnCreateTensorDescriptor");
  check(cudnnCreateTensorDescriptor(&s_->y), "cudnnCreateTensorDescriptor");
  check(cudnnCreateFilterDescriptor(&s_->w), "cudnnCreateFilterDescriptor");
  check(cudnnCreateConvolutionDescriptor(&s_->conv), "cudnnCreateConvolutionDescriptor");
  const int ho = int(s.h - s.kh + 1), wo = int(s.w - s.kw + 1);
  check(cudnnSetTensor4dDescriptor(s_->x, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, int(s.n), int(s.c), int(s.h), int(s.w)),
        "cudnnSetTensor4dDescriptor x");
  check(cudnnSetTensor4dDescriptor(s_->y, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, int(s.n), int(s.f), ho, wo),
        "cudnnSetTensor4dDescriptor y");
  check(cudnnSetFilter4dDescriptor(s_->w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, int(s.f), int(s.c), int(s.kh), int(s.kw)),
        "cudnnSetFilter4dDescriptor");
  check(cudnnSetConvolution2dDescriptor(s_->conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        "cudnnSetConvolution2dDescriptor");
  check(cudnnSetConvolutionMathType(s_->conv, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
  // cudnnFind* runs each algorithm on buffers of these shapes that it allocates itself.
  constexpr int want = 16;
  int got = 0;  // written by the Find call, read in choose's body (after its arguments are evaluated)
  const auto choose = [&](auto (&results)[want], cudnnStatus_t found, const char* what) {
    check(found, what);
    const auto best = fastest(results, got, what);
    s_->algo = int(best.algo);
    s_->workspace_bytes = best.memory;
  };
  if (pass == conv_pass::forward) {
    cudnnConvolutionFwdAlgoPerf_t r[want];
    choose(r, cudnnFindConvolutionForwardAlgorithm(s_->handle, s_->x, s_->w, s_->conv, s_->y, want, &got, r),
           "cudnnFindConvolutionForwardAlgorithm");
  } else if (pass == conv_pass::input_gradient) {
    cudnnConvolutionBwdDataAlgoPerf_t r[want];
    choose(r, cudnnFindConvolutionBackwardDataAlgorithm(s_->handle, s_->w, s_->y, s_->conv, s_->x, want, &got, r),
           "cudnnFindConvolutionBackwardDataAlgorithm");
  } else {
    cudnnConvolutionBwdFilterAlgoPerf_t r[want];
    choose(r, cudnnFindConvolutionBackwardFilterAlgorithm(s_->handle, s_->x, s_->y, s_->conv, s_->w, want, &got, r),
           "cudnnFindConvolutionBackwardFilterAlgorithm");
  }
  if (s_->workspace_bytes) check(cudaMalloc(&s_->workspace, s_->workspace_bytes), "cudaMalloc (cuDNN workspace)");
  s_->algo_name = "cuDNN algo " + std::to_string(s_->algo);
}

cuda_conv::~cuda_conv() = default;

std::string cuda_conv::name() const { return s_->algo_name; }

// forward: y = conv(x, w); input gradient: x = conv^T(y, w) (x receives dx); weight gradient:
// w = x (*) y (w receives dw).
void cuda_conv::run(float* x, float* w, float* y) {
  const float one = 1.0f, zero = 0.0f;
  if (pass_ == conv_pass::forward)
    check(cudnnConvolutionForward(s_->handle, &one, s_->x, x, s_->w, w, s_->conv, cudnnConvolutionFwdAlgo_t(s_->algo),
                                  s_->workspace, s_->workspace_bytes, &zero, s_->y, y),
          "cudnnConvolutionForward");
  else if (pass_ == conv_pass::input_gradient)
    check(cudnnConvolutionBackwardData(s_->handle, &one, s_->w, w, s_->y, y, s_->conv,
                                       cudnnConvolutionBwdDataAlgo_t(s_->algo), s_->workspace, s_->workspace_bytes,
                                       &zero, s_->x, x),
          "cudnnConvolutionBackwardData");
  else
    check(cudnnConvolutionBackwardFilter(s_->handle, &one, s_->x, x, s_->y, y, s_->conv,
                                         cudnnConvolutionBwdFilterAlgo_t(s_->algo), s_->workspace,
                                         s_->workspace_bytes, &zero, s_->w, w),
          "cudnnConvolutionBackwardFilter");
}

}  // namespace pk_bench
