#pragma once
// Element-wise kernels on Kokkos Views, run on a given execution space instance:
//   pk::add(space, a, b, c);            // c = a + b
//   pk::axpby(space, alpha, a, beta, b, c);
//   pk::scale(space, alpha, x);
// They are asynchronous like any Kokkos kernel: fence the space before reading c on the host.
#include <cstdint>
#include <pk/kokkos/views.hpp>

namespace pk {
namespace detail {
// Compiled once per backend (backends/<name>/); the templates below only convert Views.
template <class Exec, class T>
void axpby(const Exec& space, T alpha, const vector_view<const T, Exec>& a, T beta,
           const vector_view<const T, Exec>& b, const vector_view<T, Exec>& c);
template <class Exec, class T>
void add(const Exec& space, const vector_view<const T, Exec>& a, const vector_view<const T, Exec>& b,
         const vector_view<T, Exec>& c);
template <class Exec, class T>
void scale(const Exec& space, T alpha, const vector_view<T, Exec>& x);
}  // namespace detail

template <class Exec, class AView, class BView, class CView, class = enable_if_views_t<Exec, AView, BView, CView>>
void add(const Exec& space, const AView& a, const BView& b, const CView& c) {
  using T = typename CView::non_const_value_type;
  detail::add<Exec, T>(space, vector_view<const T, Exec>(a), vector_view<const T, Exec>(b),
                       vector_view<T, Exec>(c));
}

template <class Exec, class AView, class BView, class CView, class = enable_if_views_t<Exec, AView, BView, CView>>
void axpby(const Exec& space, typename CView::non_const_value_type alpha, const AView& a,
           typename CView::non_const_value_type beta, const BView& b, const CView& c) {
  using T = typename CView::non_const_value_type;
  detail::axpby<Exec, T>(space, alpha, vector_view<const T, Exec>(a), beta,
                         vector_view<const T, Exec>(b), vector_view<T, Exec>(c));
}

template <class Exec, class XView, class = enable_if_views_t<Exec, XView>>
void scale(const Exec& space, typename XView::non_const_value_type alpha, const XView& x) {
  using T = typename XView::non_const_value_type;
  detail::scale<Exec, T>(space, alpha, vector_view<T, Exec>(x));
}

}  // namespace pk
