#pragma once
// Element-wise kernels: argument checks and launches, written once for every execution space.
// A backend compiles them by naming PK_INSTANTIATE_ADD(ExecSpace) in backends/<name>/.
#include <cstdint>
#include <string>

#include <pk/kokkos/add.hpp>

#include "add/add_functors.hpp"
#include "add/add_host.hpp"
#include "core/check.hpp"
#include "core/elementwise.hpp"
#include "core/region.hpp"
#include "core/host_views.hpp"
#include <pk/runtime.hpp>

namespace pk::detail {

// "pk::add f32 packs": the operation, the type and whether it runs a pack or an element per index.
template <class T>
std::string label(const char* op, bool packs) {
  return std::string(op) + " " + type_tag<T>() + (packs ? " packs" : " elements");
}

// Runs c = formula(a, b), labelled "<op> <type> packs", a 16-byte pack per index when the backend wants packs and every array allows it (Views made by
// Kokkos do; subviews at odd offsets do not); false otherwise (then run the plain functor).
template <class Exec, class T, class Formula>
bool run_packed(const Exec& space, const char* op, const T* a, const T* b, T* c, std::size_t n, Formula formula) {
  if constexpr (!elementwise_packs<Exec>::value) {  // not even compiled for backends without packs
    return false;
  } else {
    using packed = Packed<T, Exec, Formula>;
    if (!packed::aligned(a) || !packed::aligned(b) || !packed::aligned(c)) return false;
    const auto count = static_cast<std::int64_t>(n);
    Kokkos::parallel_for(label<T>(op, true), index_range<Exec>(space, 0, packed::packs(count)),
                         packed{a, b, c, count, formula});
    return true;
  }
}

template <class Exec, class T>
void add(const Exec& space, const vector_view<const T, Exec>& a, const vector_view<const T, Exec>& b,
         const vector_view<T, Exec>& c) {
  check_elementwise<Exec, T>("pk::add", a, b, c);
  const tools_region region("pk::add");
  if (!run_packed(space, "pk::add", a.data(), b.data(), c.data(), a.extent(0), sum<T>{}))
    Kokkos::parallel_for(label<T>("pk::add", false), index_range<Exec>(space, 0, a.extent(0)), Add<T, Exec>{a, b, c});
}

template <class Exec, class T>
void axpby(const Exec& space, T alpha, const vector_view<const T, Exec>& a, T beta,
           const vector_view<const T, Exec>& b, const vector_view<T, Exec>& c) {
  check_elementwise<Exec, T>("pk::axpby", a, b, c);
  const tools_region region("pk::axpby");
  if (!run_packed(space, "pk::axpby", a.data(), b.data(), c.data(), a.extent(0), linear_combination<T>{alpha, beta}))
    Kokkos::parallel_for(label<T>("pk::axpby", false), index_range<Exec>(space, 0, a.extent(0)),
                         Axpby<T, Exec>{alpha, beta, a, b, c});
}

template <class Exec, class T>
void scale(const Exec& space, T alpha, const vector_view<T, Exec>& x) {
  pk::require_initialized("pk::scale");
  const tools_region region("pk::scale");
  if (!run_packed(space, "pk::scale", x.data(), x.data(), x.data(), x.extent(0), scaled_first<T>{alpha}))
    Kokkos::parallel_for(label<T>("pk::scale", false), index_range<Exec>(space, 0, x.extent(0)), Scale<T, Exec>{alpha, x});
}

// Host-array entry points: move the arrays to the backend, run, bring c back.
template <class Exec, class T>
void axpby_host(T alpha, const T* a, T beta, const T* b, T* c, std::int64_t n, bool plain_add) {
  require_copies<Exec>(plain_add ? "pk::add" : "pk::axpby", 3.0 * double(n) * sizeof(T));
  Exec space;
  auto host_c = host_unmanaged<T*>(c, n);
  auto da = to_backend<Exec>(host_unmanaged<const T*>(a, n));
  auto db = to_backend<Exec>(host_unmanaged<const T*>(b, n));
  auto dc = output_on_backend<Exec>(host_c);
  if (plain_add)
    add<Exec, T>(space, da, db, dc);
  else
    axpby<Exec, T>(space, alpha, da, beta, db, dc);
  space.fence();
  copy_to_host(host_c, dc);
}

template <class Exec, class T>
void scale_host(T alpha, T* x, std::int64_t n) {
  require_copies<Exec>("pk::scale", double(n) * sizeof(T));
  Exec space;
  auto host_x = host_unmanaged<T*>(x, n);
  auto dx = to_backend<Exec>(host_x);
  scale<Exec, T>(space, alpha, dx);
  space.fence();
  copy_to_host(host_x, dx);
}

}  // namespace pk::detail

#define PK_INSTANTIATE_ADD_FOR(EXEC, T)                                                                       \
  template void pk::detail::add<EXEC, T>(const EXEC&, const pk::vector_view<const T, EXEC>&,                \
                                         const pk::vector_view<const T, EXEC>&, const pk::vector_view<T, EXEC>&); \
  template void pk::detail::axpby<EXEC, T>(const EXEC&, T, const pk::vector_view<const T, EXEC>&, T,        \
                                           const pk::vector_view<const T, EXEC>&,                           \
                                           const pk::vector_view<T, EXEC>&);                                \
  template void pk::detail::scale<EXEC, T>(const EXEC&, T, const pk::vector_view<T, EXEC>&);                \
  template void pk::detail::axpby_host<EXEC, T>(T, const T*, T, const T*, T*, std::int64_t, bool);          \
  template void pk::detail::scale_host<EXEC, T>(T, T*, std::int64_t);

#define PK_INSTANTIATE_ADD(EXEC)    \
  PK_INSTANTIATE_ADD_FOR(EXEC, float) \
  PK_INSTANTIATE_ADD_FOR(EXEC, double)
