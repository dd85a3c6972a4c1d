#pragma once
// 2-D image filters on Kokkos Views, run on a given execution space instance:
//   pk::filter(space, in, out, pk::gaussian_kernel(5));          // out = in (*) kernel
//   pk::filter(space, in, out, k, pk::border::clamp);
//   pk::sobel_magnitude(space, in, out);                          // edge strength
//   pk::apply(space, pk::parse_filter("box7"), in, out);
// in and out are H x W x C (channels interleaved, LayoutRight) Views of float or std::uint8_t
// in the space's memory; semantics and argument rules are those of <pk/filter.hpp>.
// Asynchronous like any Kokkos kernel: fence the space before reading out on the host.
#include <cstdint>

#include <pk/filter.hpp>
#include <pk/kokkos/views.hpp>

namespace pk {
namespace detail {
// Compiled once per backend (backends/<name>/<name>_filter.cpp); the templates below only convert Views.
template <class Exec, class T>
void filter(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
            const filter_kernel& k, border b);
template <class Exec, class T>
void sobel_magnitude(const Exec& space, const image_view<const T, Exec>& in, const image_view<T, Exec>& out,
                     border b);
}  // namespace detail

template <class Exec, class InView, class OutView, class = enable_if_views_t<Exec, InView, OutView>>
void filter(const Exec& space, const InView& in, const OutView& out, const filter_kernel& k,
            border b = border::reflect101) {
  using T = typename OutView::non_const_value_type;
  detail::filter<Exec, T>(space, image_view<const T, Exec>(in), image_view<T, Exec>(out), k, b);
}

template <class Exec, class InView, class OutView, class = enable_if_views_t<Exec, InView, OutView>>
void sobel_magnitude(const Exec& space, const InView& in, const OutView& out, border b = border::reflect101) {
  using T = typename OutView::non_const_value_type;
  detail::sobel_magnitude<Exec, T>(space, image_view<const T, Exec>(in), image_view<T, Exec>(out), b);
}

// Runs a parsed filter_spec (convolution or Sobel magnitude).
template <class Exec, class InView, class OutView, class = enable_if_views_t<Exec, InView, OutView>>
void apply(const Exec& space, const filter_spec& f, const InView& in, const OutView& out,
           border b = border::reflect101) {
  if (f.op == filter_op::sobel_magnitude)
    pk::sobel_magnitude(space, in, out, b);
  else
    pk::filter(space, in, out, f.kernel, b);
}

}  // namespace pk
