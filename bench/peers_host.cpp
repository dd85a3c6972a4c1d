// Host peers: OpenBLAS GEMM and OpenCV filters, each run with the thread count of the backend it
// is compared with (1 for Serial).
#include "peers.hpp"

#include <cstring>

#include <pk/error.hpp>

#if defined(PK_BENCH_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#if defined(PK_BENCH_HAVE_OPENCV)
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#endif

namespace pk_bench {

#if defined(PK_BENCH_HAVE_OPENBLAS)
bool host_has_blas() { return true; }
std::string host_blas_name(bool dbl) { return dbl ? "OpenBLAS cblas_dgemm" : "OpenBLAS cblas_sgemm"; }
void host_gemm(const gemm_args<float>& g, int threads) {
  openblas_set_num_threads(threads);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(g.m), int(g.n), int(g.k), 1.0f, g.a, int(g.k), g.b,
              int(g.n), 0.0f, g.c, int(g.n));
}
void host_gemm_flags(bool trans_a, bool trans_b, const gemm_args<float>& g, int threads) {
  openblas_set_num_threads(threads);
  cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, int(g.m),
              int(g.n), int(g.k), 1.0f, g.a, trans_a ? int(g.m) : int(g.k), g.b, trans_b ? int(g.k) : int(g.n), 0.0f,
              g.c, int(g.n));
}
void host_gemm(const gemm_args<double>& g, int threads) {
  openblas_set_num_threads(threads);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(g.m), int(g.n), int(g.k), 1.0, g.a, int(g.k), g.b,
              int(g.n), 0.0, g.c, int(g.n));
}
#else
bool host_has_blas() { return false; }
std::string host_blas_name(bool) { return ""; }
void host_gemm(const gemm_args<float>&, int) { throw pk::error("bench: built without OpenBLAS"); }
void host_gemm(const gemm_args<double>&, int) { throw pk::error("bench: built without OpenBLAS"); }
void host_gemm_flags(bool, bool, const gemm_args<float>&, int) { throw pk::error("bench: built without OpenBLAS"); }
#endif

#if defined(PK_BENCH_HAVE_OPENCV)
namespace {
cv::Mat as_mat(const host_image& im) {
  const int depth = im.u8 ? CV_8U : CV_32F;
  return cv::Mat(im.rows, im.cols, CV_MAKETYPE(depth, im.channels), im.data);
}
}  // namespace

bool host_has_opencv() { return true; }

void host_filter(const host_image& in, const host_image& out, int size, const float* weights, const float* row,
                 const float* column, int threads) {
  cv::setNumThreads(threads);
  cv::Mat src = as_mat(in), dst = as_mat(out);
  if (row && column) {
    cv::Mat kx(1, size, CV_32F, const_cast<float*>(row)), ky(size, 1, CV_32F, const_cast<float*>(column));
    cv::sepFilter2D(src, dst, -1, kx, ky, cv::Point(-1, -1), 0, cv::BORDER_REFLECT_101);
  } else {
    cv::Mat k(size, size, CV_32F, const_cast<float*>(weights));
    cv::filter2D(src, dst, -1, k, cv::Point(-1, -1), 0, cv::BORDER_REFLECT_101);
  }
}

void host_sobel_magnitude(const host_image& in, const host_image& out, int threads) {
  cv::setNumThreads(threads);
  cv::Mat src = as_mat(in), dst = as_mat(out), gx, gy;
  cv::Sobel(src, gx, CV_32F, 1, 0, 3, 1, 0, cv::BORDER_REFLECT_101);
  cv::Sobel(src, gy, CV_32F, 0, 1, 3, 1, 0, cv::BORDER_REFLECT_101);
  cv::magnitude(gx, gy, dst);
}
#else
bool host_has_opencv() { return false; }
void host_filter(const host_image&, const host_image&, int, const float*, const float*, const float*, int) {
  throw pk::error("bench: built without OpenCV");
}
void host_sobel_magnitude(const host_image&, const host_image&, int) { throw pk::error("bench: built without OpenCV"); }
#endif

}  // namespace pk_bench
