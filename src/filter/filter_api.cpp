// The host-friendly filter functions: check the images and the kernel, pick the backend, run.
#include <pk/filter.hpp>

#include <cstdint>

#include "core/check.hpp"
#include "core/dispatch.hpp"
#include "filter/filter_checks.hpp"
#include "filter/filter_host.hpp"

namespace pk {
namespace {

template <class T>
detail::image_extents extents_of(image_ref<T> img) {
  return {img.height, img.width, img.channels};
}

// Checks in and out; false when there is nothing to compute (0 rows or 0 columns: allowed,
// nothing is written).
template <class T>
bool check_images(const char* who, image_ref<const T> in, image_ref<T> out) {
  require_initialized(who);
  detail::check_filter_images(who, extents_of(in), extents_of(out), in.data, out.data, sizeof(T));
  return in.height > 0 && in.width > 0;
}

template <class T>
void filter_on(backend on, image_ref<const T> in, image_ref<T> out, const filter_kernel& k, border b) {
  const char* who = "pk::filter";
  require_initialized(who);
  detail::check_filter_kernel(who, k);
  if (!check_images(who, in, out)) return;
  detail::on_backend(on, who, [&](auto space) {
    detail::filter_host<decltype(space), T>(in.data, out.data, in.height, in.width, in.channels, k, b);
  });
}

template <class T>
void sobel_on(backend on, image_ref<const T> in, image_ref<T> out, border b) {
  const char* who = "pk::sobel_magnitude";
  if (!check_images(who, in, out)) return;
  detail::on_backend(on, who, [&](auto space) {
    detail::sobel_magnitude_host<decltype(space), T>(in.data, out.data, in.height, in.width, in.channels, b);
  });
}

}  // namespace

void filter(backend on, image_ref<const float> in, image_ref<float> out, const filter_kernel& k, border b) {
  filter_on<float>(on, in, out, k, b);
}
void filter(backend on, image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out, const filter_kernel& k,
            border b) {
  filter_on<std::uint8_t>(on, in, out, k, b);
}

void sobel_magnitude(backend on, image_ref<const float> in, image_ref<float> out, border b) {
  sobel_on<float>(on, in, out, b);
}
void sobel_magnitude(backend on, image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out, border b) {
  sobel_on<std::uint8_t>(on, in, out, b);
}

void apply(backend on, const filter_spec& f, image_ref<const float> in, image_ref<float> out, border b) {
  if (f.op == filter_op::sobel_magnitude)
    sobel_magnitude(on, in, out, b);
  else
    filter(on, in, out, f.kernel, b);
}
void apply(backend on, const filter_spec& f, image_ref<const std::uint8_t> in, image_ref<std::uint8_t> out,
           border b) {
  if (f.op == filter_op::sobel_magnitude)
    sobel_magnitude(on, in, out, b);
  else
    filter(on, in, out, f.kernel, b);
}

}  // namespace pk
