// The GPU peer of conv2d: cuDNN's convolution (forward, backward data, backward filter), padding 0,
// stride 1, cross-correlation, FP32 FMA math (CUDNN_FMA_MATH: no TF32 tensor cores), in the faster
// of cuDNN's two layouts: NHWC tensors with KRSC (F x KH x KW x C) filters as pk lays them out, or
// NCHW with KCRS filters (PyTorch's default, and for FP32 often cuDNN's faster one: at batch 256 on
// an H100 its forward pass of the CNN's third layer took about a third of the NHWC time). For
// each layout cudnnFind* measures every algorithm at these shapes; the fastest FMA-math one of
// either layout runs, its workspace allocated once. In NCHW the peer works on its own copies of
// the pass's inputs, transposed from pk's before timing (stage), and its result is transposed back
// for the comparison after it (unstage): the timed calls are the convolution alone. Built when the
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

// The fastest FMA-math result of a cudnnFind* (results come sorted by time), or null.
template <class Perf>
const Perf* fastest(const Perf* results, int count) {
  for (int i = 0; i < count; ++i)
    if (results[i].status == CUDNN_STATUS_SUCCESS && results[i].mathType == CUDNN_FMA_MATH) return results + i;
  return nullptr;
}

struct tensor {
  cudnnTensorDescriptor_t d = nullptr;
  tensor() { check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor"); }
  ~tensor() { cudnnDestroyTensorDescriptor(d); }
  tensor(const tensor&) = delete;
  tensor& operator=(const tensor&) = delete;
  void set(cudnnTensorFormat_t format, std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w) {
    check(cudnnSetTensor4dDescriptor(d, format, CUDNN_DATA_FLOAT, int(n), int(c), int(h), int(w)),
          "cudnnSetTensor4dDescriptor");
  }
};

// data (laid out as `from` says) into result (as `to` says): a layout change.
void transform(cudnnHandle_t handle, const tensor& from, const float* data, const tensor& to, float* result) {
  const float one = 1.0f, zero = 0.0f;
  check(cudnnTransformTensor(handle, &one, from.d, data, &zero, to.d, result), "cudnnTransformTensor");
}

struct device_floats {
  float* p = nullptr;
  explicit device_floats(std::int64_t count) {
    check(cudaMalloc(&p, std::size_t(count) * sizeof(float)), "cudaMalloc (cuDNN peer)");
  }
  ~device_floats() { cudaFree(p); }
  device_floats(const device_floats&) = delete;
  device_floats& operator=(const device_floats&) = delete;
};

}  // namespace

struct cuda_conv::state {
  cudnnHandle_t handle = nullptr;
  tensor x, y;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  cudnnTensorFormat_t format = CUDNN_TENSOR_NHWC;
  int algo = 0;
  void* workspace = nullptr;
  std::size_t workspace_bytes = 0;
  std::string algo_name;
  // NCHW only: pk's NHWC tensors and the filter as tensors in both layouts (for the transposes),
  // and the peer's own NCHW copies.
  tensor x_pk, y_pk, w_pk, w_own;
  std::unique_ptr<device_floats> x_own, y_own, w_own_data;
  // Whatever the constructor got as far as making (it may throw half way).
  ~state() {
    if (workspace) cudaFree(workspace);
    if (conv) cudnnDestroyConvolutionDescriptor(conv);
    if (w) cudnnDestroyFilterDescriptor(w);
    if (handle) cudnnDestroy(handle);
  }
};

cuda_conv::cuda_conv(cudaStream_t stream, const conv_shape& s, conv_pass pass)
    : s_(new state), pass_(pass) {
  check(cudnnCreate(&s_->handle), "cudnnCreate");
  check(cudnnSetStream(s_->handle, stream), "cudnnSetStream");
  check(cudnnCreateFilterDescriptor(&s_->w), "cudnnCreateFilterDescriptor");
  check(cudnnCreateConvolutionDescriptor(&s_->conv), "cudnnCreateConvolutionDescriptor");
  check(cudnnSetConvolution2dDescriptor(s_->conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        "cudnnSetConvolution2dDescriptor");
  check(cudnnSetConvolutionMathType(s_->conv, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
  const std::int64_t ho = s.h - s.kh + 1, wo = s.w - s.kw + 1;
  const auto describe = [&](cudnnTensorFormat_t format) {
    s_->x.set(format, s.n, s.c, s.h, s.w);
    s_->y.set(format, s.n, s.f, ho, wo);
    check(cudnnSetFilter4dDescriptor(s_->w, CUDNN_DATA_FLOAT, format, int(s.f), int(s.c), int(s.kh), int(s.kw)),
          "cudnnSetFilter4dDescriptor");
  };
  // cudnnFind* runs each algorithm on buffers of these shapes that it allocates itself. A layout
  // that cuDNN cannot run in FMA math at all is passed over.
  float best_ms = -1;
  for (const cudnnTensorFormat_t format : {CUDNN_TENSOR_NHWC, CUDNN_TENSOR_NCHW}) {
    describe(format);
    constexpr int want = 16;
    int got = 0;  // written by the Find call, read in choose's body (after its arguments are evaluated)
    const auto choose = [&](auto (&results)[want], cudnnStatus_t found) {
      const auto* best = found == CUDNN_STATUS_SUCCESS ? fastest(results, got) : nullptr;
      if (!best || (best_ms >= 0 && best->time >= best_ms)) return;
      best_ms = best->time;
      s_->format = format;
      s_->algo = int(best->algo);
      s_->workspace_bytes = best->memory;
    };
    if (pass == conv_pass::forward) {
      cudnnConvolutionFwdAlgoPerf_t r[want];
      choose(r, cudnnFindConvolutionForwardAlgorithm(s_->handle, s_->x.d, s_->w, s_->conv, s_->y.d, want, &got, r));
    } else if (pass == conv_pass::input_gradient) {
      cudnnConvolutionBwdDataAlgoPerf_t r[want];
      choose(r,
             cudnnFindConvolutionBackwardDataAlgorithm(s_->handle, s_->w, s_->y.d, s_->conv, s_->x.d, want, &got, r));
    } else {
      cudnnConvolutionBwdFilterAlgoPerf_t r[want];
      choose(r,
             cudnnFindConvolutionBackwardFilterAlgorithm(s_->handle, s_->x.d, s_->y.d, s_->conv, s_->w, want, &got, r));
    }
  }
  if (best_ms < 0) throw pk::error("bench: cuDNN found no FP32 (FMA) algorithm for this convolution in NHWC or NCHW");
  describe(s_->format);
  if (s_->workspace_bytes) check(cudaMalloc(&s_->workspace, s_->workspace_bytes), "cudaMalloc (cuDNN workspace)");
  if (s_->format == CUDNN_TENSOR_NCHW) {
    s_->x_pk.set(CUDNN_TENSOR_NHWC, s.n, s.c, s.h, s.w);
    s_->y_pk.set(CUDNN_TENSOR_NHWC, s.n, s.f, ho, wo);
    // KRSC is the NHWC layout of an F x C x KH x KW tensor, KCRS its NCHW one.
    s_->w_pk.set(CUDNN_TENSOR_NHWC, s.f, s.c, s.kh, s.kw);
    s_->w_own.set(CUDNN_TENSOR_NCHW, s.f, s.c, s.kh, s.kw);
    s_->x_own = std::make_unique<device_floats>(s.n * s.c * s.h * s.w);
    s_->y_own = std::make_unique<device_floats>(s.n * s.f * ho * wo);
    s_->w_own_data = std::make_unique<device_floats>(s.f * s.c * s.kh * s.kw);
  }
  s_->algo_name = "cuDNN algo " + std::to_string(s_->algo) + (s_->format == CUDNN_TENSOR_NCHW ? " NCHW" : " NHWC");
}

cuda_conv::~cuda_conv() = default;

std::string cuda_conv::name() const { return s_->algo_name; }

// The pass's inputs from pk's layout into the peer's own (forward: x and w; input gradient: w and
// y; weight gradient: x and y), and its output back.
void cuda_conv::stage(float* x, float* w, float* y) {
  if (s_->format == CUDNN_TENSOR_NHWC) return;
  if (pass_ != conv_pass::input_gradient) transform(s_->handle, s_->x_pk, x, s_->x, s_->x_own->p);
  if (pass_ != conv_pass::weight_gradient) transform(s_->handle, s_->w_pk, w, s_->w_own, s_->w_own_data->p);
  if (pass_ != conv_pass::forward) transform(s_->handle, s_->y_pk, y, s_->y, s_->y_own->p);
}
void cuda_conv::unstage(float* x, float* w, float* y) {
  if (s_->format == CUDNN_TENSOR_NHWC) return;
  if (pass_ == conv_pass::forward)
    transform(s_->handle, s_->y, s_->y_own->p, s_->y_pk, y);
  else if (pass_ == conv_pass::input_gradient)
    transform(s_->handle, s_->x, s_->x_own->p, s_->x_pk, x);
  else
    transform(s_->handle, s_->w_own, s_->w_own_data->p, s_->w_pk, w);
}

// forward: y = conv(x, w); input gradient: x = conv^T(y, w) (x receives dx); weight gradient:
// w = x (*) y (w receives dw). In NCHW on the peer's own copies (stage/unstage).
void cuda_conv::run(float* x, float* w, float* y) {
  if (s_->format == CUDNN_TENSOR_NCHW) {
    x = s_->x_own->p;
    w = s_->w_own_data->p;
    y = s_->y_own->p;
  }
  const float one = 1.0f, zero = 0.0f;
  if (pass_ == conv_pass::forward)
    check(cudnnConvolutionForward(s_->handle, &one, s_->x.d, x, s_->w, w, s_->conv, cudnnConvolutionFwdAlgo_t(s_->algo),
                                  s_->workspace, s_->workspace_bytes, &zero, s_->y.d, y),
          "cudnnConvolutionForward");
  else if (pass_ == conv_pass::input_gradient)
    check(cudnnConvolutionBackwardData(s_->handle, &one, s_->w, w, s_->y.d, y, s_->conv,
                                       cudnnConvolutionBwdDataAlgo_t(s_->algo), s_->workspace, s_->workspace_bytes,
                                       &zero, s_->x.d, x),
          "cudnnConvolutionBackwardData");
  else
    check(cudnnConvolutionBackwardFilter(s_->handle, &one, s_->x.d, x, s_->y.d, y, s_->conv,
                                         cudnnConvolutionBwdFilterAlgo_t(s_->algo), s_->workspace,
                                         s_->workspace_bytes, &zero, s_->w, w),
          "cudnnConvolutionBackwardFilter");
}

}  // namespace pk_bench
