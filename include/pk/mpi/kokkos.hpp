#pragma once
// The distributed filters (<pk/mpi/filter.hpp>) and GEMM (<pk/mpi/matmul.hpp>) on Kokkos Views in a
// backend's memory: each process passes its blocks as Views of Exec's memory space (images height x
// width x channels, matrices rows x columns, LayoutRight) and an execution space instance, which
// runs the local kernels. On a GPU the blocks stay there and only what travels leaves them: a
// filter block's edge frame (2R rows and columns) and the windows near its edge, through host
// memory; GEMM's panels, broadcast from device memory where the MPI reads it (pk::mpi::gpu_aware()),
// else through page-locked host buffers. Each call returns once its output is written (the space
// is fenced).
//   pk::mpi::apply(Kokkos::Cuda(), g, height, width, pk::parse_filter("gaussian5"), in, out);
//   pk::mpi::gemm(Kokkos::Cuda(), g, m, n, k, 1.0, a, b, 0.0, c);
#include <cstdint>

#include <pk/filter.hpp>
#include <pk/kokkos/views.hpp>
#include <pk/matmul.hpp>
#include <pk/mpi/grid.hpp>

namespace pk::mpi {
namespace detail {
// Compiled for each backend of this build (src/mpi/mpi_filter.cpp); the templates below only convert Views.
template <class Exec, class T>
void gemm_views(const Exec& space, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k,
                T alpha,
                const matrix_view<const T, Exec>& a, const matrix_view<const T, Exec>& b, T beta,
                const matrix_view<T, Exec>& c);
template <class Exec, class T>
void apply_views(const Exec& space, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
                 const image_view<const T, Exec>& in, const image_view<T, Exec>& out, border b);
}  // namespace detail

template <class Exec, class InView, class OutView, class = enable_if_views_t<Exec, InView, OutView>>
void apply(const Exec& space, const grid& g, std::int64_t height, std::int64_t width, const filter_spec& f,
           const InView& in, const OutView& out, border b = border::reflect101) {
  using T = typename OutView::non_const_value_type;
  detail::apply_views<Exec, T>(space, g, height, width, f, image_view<const T, Exec>(in), image_view<T, Exec>(out), b);
}

template <class Exec, class InView, class OutView, class = enable_if_views_t<Exec, InView, OutView>>
void filter(const Exec& space, const grid& g, std::int64_t height, std::int64_t width, const InView& in,
            const OutView& out, const filter_kernel& k, border b = border::reflect101) {
  filter_spec f;
  f.kernel = k;
  apply(space, g, height, width, f, in, out, b);
}

// (op_a, op_b: as <pk/mpi/matmul.hpp> says, each process's block of the matrix as stored.)
template <class Exec, class AView, class BView, class CView, class = enable_if_views_t<Exec, AView, BView, CView>>
void gemm(const Exec& space, const grid& g, op op_a, op op_b, std::int64_t m, std::int64_t n, std::int64_t k,
          typename CView::non_const_value_type alpha, const AView& a, const BView& b,
          typename CView::non_const_value_type beta, const CView& c) {
  using T = typename CView::non_const_value_type;
  detail::gemm_views<Exec, T>(space, g, op_a, op_b, m, n, k, alpha, matrix_view<const T, Exec>(a),
                              matrix_view<const T, Exec>(b), beta, matrix_view<T, Exec>(c));
}
template <class Exec, class AView, class BView, class CView, class = enable_if_views_t<Exec, AView, BView, CView>>
void gemm(const Exec& space, const grid& g, std::int64_t m, std::int64_t n, std::int64_t k,
          typename CView::non_const_value_type alpha, const AView& a, const BView& b,
          typename CView::non_const_value_type beta, const CView& c) {
  gemm(space, g, op::none, op::none, m, n, k, alpha, a, b, beta, c);
}

}  // namespace pk::mpi
