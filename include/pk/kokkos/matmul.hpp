#pragma once
// Matrix multiply on Kokkos Views (row-major pk::matrix_view), run on a given execution space:
//   pk::gemm(space, pk::op::none, pk::op::transpose, alpha, a, b, beta, c);  // C = alpha*A*B^T + beta*C
//   pk::matmul(space, a, b, c);                                             // C = A*B
// Shapes come from the extents: op(A) is m x k, op(B) is k x n, C is m x n (pk::error otherwise).
// With beta == 0, C is only written. C must not share memory with A or B. Asynchronous like any
// Kokkos kernel: fence the space before reading C on the host.
#include <pk/kokkos/views.hpp>
#include <pk/matmul.hpp>

namespace pk {
namespace detail {
// Compiled once per backend (backends/<name>/); the templates below only convert Views.
template <class Exec, class T>
void gemm(const Exec& space, op op_a, op op_b, T alpha, const matrix_view<const T, Exec>& a,
          const matrix_view<const T, Exec>& b, T beta, const matrix_view<T, Exec>& c);
}  // namespace detail

template <class Exec, class AView, class BView, class CView, class = enable_if_views_t<Exec, AView, BView, CView>>
void gemm(const Exec& space, op op_a, op op_b, typename CView::non_const_value_type alpha, const AView& a,
          const BView& b, typename CView::non_const_value_type beta, const CView& c) {
  using T = typename CView::non_const_value_type;
  detail::gemm<Exec, T>(space, op_a, op_b, alpha, matrix_view<const T, Exec>(a), matrix_view<const T, Exec>(b), beta,
                        matrix_view<T, Exec>(c));
}

template <class Exec, class AView, class BView, class CView, class = enable_if_views_t<Exec, AView, BView, CView>>
void matmul(const Exec& space, const AView& a, const BView& b, const CView& c) {
  using T = typename CView::non_const_value_type;
  detail::gemm<Exec, T>(space, op::none, op::none, T(1), matrix_view<const T, Exec>(a),
                        matrix_view<const T, Exec>(b), T(0), matrix_view<T, Exec>(c));
}

}  // namespace pk
