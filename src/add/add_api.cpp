// The host-friendly element-wise functions: check the spans, pick the backend, run.
#include <pk/add.hpp>
#include <pk/runtime.hpp>

#include "add/add_host.hpp"
#include "core/check.hpp"
#include "core/dispatch.hpp"

namespace pk {
namespace {

template <class T>
void axpby_on(backend on, const char* who, T alpha, span<const T> a, T beta, span<const T> b, span<T> c,
              bool plain_add) {
  // Kokkos must run even when there is nothing to do: a program that forgot pk::runtime hears it
  // on its first call, not on the first one with data.
  require_initialized(who);
  detail::require_addressable(who, "a", a.size(), sizeof(T));
  detail::require_addressable(who, "b", b.size(), sizeof(T));
  detail::require_addressable(who, "c", c.size(), sizeof(T));
  const auto n = static_cast<std::int64_t>(a.size());
  detail::require_length(who, "b", static_cast<std::int64_t>(b.size()), n, "the length of a");
  detail::require_length(who, "c", static_cast<std::int64_t>(c.size()), n, "the length of a");
  if (n == 0) return;
  detail::require(a.data() && b.data() && c.data(), who, "a null array was given with a non-zero length");
  // Checked here on the caller's arrays: a backend with its own memory (CUDA) works on copies,
  // where an overlap could no longer be seen.
  const auto bytes = n * static_cast<std::int64_t>(sizeof(T));
  detail::require(!detail::partially_overlap(c.data(), bytes, a.data(), bytes) &&
                      !detail::partially_overlap(c.data(), bytes, b.data(), bytes),
                  who, "c partially overlaps an input (c may be a or b exactly, or separate memory)");
  detail::on_backend(on, who, [&](auto space) {
    detail::axpby_host<decltype(space), T>(alpha, a.data(), beta, b.data(), c.data(), n, plain_add);
  });
}

template <class T>
void scale_on(backend on, T alpha, span<T> x) {
  require_initialized("pk::scale");
  detail::require_addressable("pk::scale", "x", x.size(), sizeof(T));
  if (x.empty()) return;
  detail::require(x.data() != nullptr, "pk::scale", "x is null with a non-zero length");
  detail::on_backend(on, "pk::scale", [&](auto space) {
    detail::scale_host<decltype(space), T>(alpha, x.data(), static_cast<std::int64_t>(x.size()));
  });
}

}  // namespace

void add(backend on, span<const float> a, span<const float> b, span<float> c) {
  axpby_on<float>(on, "pk::add", 1.0f, a, 1.0f, b, c, true);
}
void add(backend on, span<const double> a, span<const double> b, span<double> c) {
  axpby_on<double>(on, "pk::add", 1.0, a, 1.0, b, c, true);
}
void axpby(backend on, float alpha, span<const float> a, float beta, span<const float> b, span<float> c) {
  axpby_on<float>(on, "pk::axpby", alpha, a, beta, b, c, false);
}
void axpby(backend on, double alpha, span<const double> a, double beta, span<const double> b, span<double> c) {
  axpby_on<double>(on, "pk::axpby", alpha, a, beta, b, c, false);
}
void scale(backend on, float alpha, span<float> x) { scale_on<float>(on, alpha, x); }
void scale(backend on, double alpha, span<double> x) { scale_on<double>(on, alpha, x); }

}  // namespace pk
