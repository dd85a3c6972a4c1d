#pragma once
// The distributed filters (<pk/mpi/filter.hpp>) on Kokkos Views in a backend's memory: each process
// passes its block as an image_view (height x width x channels, LayoutRight) of Exec's memory space
// and an execution space instance, which runs the block's filters. On a GPU, the block stays there:
// only its edge frame (2R rows and columns) is copied to the host for the messages (the MPI is not
// asked to read device memory) and the windows near the edge are copied back. Returns once `out` is
// written (the space is fenced).
//   pk::mpi::apply(Kokkos::Cuda(), g, height, width, pk::parse_filter("gaussian5"), in, out);
#include <cstdint>

#include <pk/filter.hpp>
#include <pk/kokkos/views.hpp>
#include <pk/mpi/grid.hpp>

namespace pk::mpi {
namespace detail {
// Compiled for each backend of this build (src/mpi/mpi_filter.cpp); the templates below only convert Views.
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

}  // namespace pk::mpi
