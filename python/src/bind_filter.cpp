// filter and sobel on numpy images: pk::apply / pk::sobel_magnitude on the arrays' own memory.
// An H x W array is a one-channel image; H x W x C (C = 1..4) has its channels interleaved, which
// is numpy's C order for that shape and pk::image_ref's layout alike.
#include "array_args.hpp"
#include "bindings.hpp"
#include "kokkos_session.hpp"

#include <climits>
#include <cstdint>

#include <pybind11/stl.h>

#include <pk/filter.hpp>

namespace pkpy {

namespace {

struct image_shape {
  int height = 0, width = 0, channels = 1;
};

image_shape require_image(const py::array& img, const char* who) {
  const auto shape = shape_of(img);
  const bool ok_rank = img.ndim() == 2 || img.ndim() == 3;
  if (!ok_rank || (img.ndim() == 3 && (shape[2] < 1 || shape[2] > 4)))
    throw py::value_error(std::string(who) + ": image has shape " + shape_string(shape) +
                          ", expected (height, width) or (height, width, channels) with 1..4 channels");
  if (shape[0] > INT_MAX || shape[1] > INT_MAX)
    throw py::value_error(std::string(who) + ": image has shape " + shape_string(shape) +
                          ", expected sides up to " + std::to_string(INT_MAX));
  require_c_contiguous(img, who, "image");
  return {static_cast<int>(shape[0]), static_cast<int>(shape[1]), img.ndim() == 3 ? static_cast<int>(shape[2]) : 1};
}

// A kernel given by name ("gaussian5", "sobel", ...) or as a square array of weights.
pk::filter_spec kernel_arg(const py::object& kernel, const char* who) {
  if (py::isinstance<py::str>(kernel)) return pk::parse_filter(kernel.cast<std::string>());
  // Weights are copied (at most 15 x 15 floats): a kernel is an argument, not data.
  auto weights = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(kernel);
  if (!weights)
    throw py::type_error(std::string(who) + ": kernel must be a filter name (see filter_names()) or a square "
                                            "2-D array of weights");
  if (weights.ndim() != 2 || weights.shape(0) != weights.shape(1))
    throw py::value_error(std::string(who) + ": kernel has shape " + shape_string(shape_of(weights)) +
                          ", expected a square 2-D array of weights (odd size 1.." +
                          std::to_string(pk::max_filter_size) + ")");
  const auto size = weights.shape(0);
  const float* w = weights.data();
  return {pk::filter_op::convolve,
          pk::custom_kernel(static_cast<int>(size), std::vector<float>(w, w + size * size))};
}

template <class T>
void run_filter(pk::backend on, const pk::filter_spec& spec, const py::array& in, py::array& out, image_shape s,
                pk::border border) {
  const pk::image_ref<const T> in_ref{static_cast<const T*>(in.data()), s.height, s.width, s.channels};
  const pk::image_ref<T> out_ref{static_cast<T*>(out.mutable_data()), s.height, s.width, s.channels};
  run_kernel(on, [&] { pk::apply(on, spec, in_ref, out_ref, border); });
}

py::array filter_image(const char* who, const py::object& image, const pk::filter_spec& spec,
                       const std::string& border, const py::object& out, const py::object& backend) {
  const py::array in = require_array(image, who, "image");
  const element e = require_element(in, who, "image", {element::float32, element::uint8});
  const image_shape s = require_image(in, who);
  const pk::border b = pk::parse_border(border);
  const pk::backend on = backend_arg(backend);
  py::array result = output_array(out, shape_of(in), e, who);
  require_separate(result, in, who, "image");  // a tile would read pixels it already wrote
  if (e == element::float32)
    run_filter<float>(on, spec, in, result, s, b);
  else
    run_filter<std::uint8_t>(on, spec, in, result, s, b);
  return result;
}

py::array kernel_weights(const std::string& name) {
  const pk::filter_spec spec = pk::parse_filter(name);
  if (spec.op != pk::filter_op::convolve)
    throw py::value_error("portable_kernels.filter_kernel: '" + name +
                          "' is the gradient magnitude of sobel-x and sobel-y, not one kernel");
  const auto size = static_cast<py::ssize_t>(spec.kernel.size);
  py::array_t<float> w({size, size});
  std::copy(spec.kernel.weights.begin(), spec.kernel.weights.end(), w.mutable_data());
  return std::move(w);
}

}  // namespace

void bind_filter(py::module_& m) {
  using namespace py::literals;
  m.def(
      "filter",
      [](const py::object& image, const py::object& kernel, const std::string& border, const py::object& out,
         const py::object& backend) {
        const char* who = "portable_kernels.filter";
        return filter_image(who, image, kernel_arg(kernel, who), border, out, backend);
      },
      "image"_a, "kernel"_a = "gaussian5", "border"_a = "reflect101", py::kw_only(), "out"_a = py::none(),
      "backend"_a = py::none(),
      R"(2-D filter (correlation, as cv2.filter2D): out[y,x,c] = sum w[i,j] * image[y+i-r, x+j-r, c].

image: H x W or H x W x C (C = 1..4, channels interleaved) array, float32 or uint8, C-contiguous.
       uint8 images accumulate in float and are rounded to nearest, saturated to 0..255.
kernel: a name from filter_names(): "box3".."box15", "gaussian3".."gaussian15" (optionally with
       sigma, "gaussian7:1.5"), "sharpen", "sobel-x", "sobel-y", "sobel" (gradient magnitude);
       or a square 2-D array of weights of odd size up to 15 (not flipped).
border: what lies outside the image: "reflect101" (OpenCV's default, dcb|abcd|cba),
       "clamp" (aaa|abcd|ddd), "zero", "wrap".
out:   optional C-contiguous array of the image's shape and dtype, not sharing memory with it.
backend: "serial", "openmp" or "cuda" (see backends()); None for default_backend().

Returns out (a new array without out=); the image is read in place on host backends.)");

  m.def(
      "sobel",
      [](const py::object& image, const std::string& border, const py::object& out, const py::object& backend) {
        return filter_image("portable_kernels.sobel", image, pk::parse_filter("sobel"), border, out, backend);
      },
      "image"_a, "border"_a = "reflect101", py::kw_only(), "out"_a = py::none(), "backend"_a = py::none(),
      R"(Edge strength: out = sqrt(gx^2 + gy^2), gx and gy the 3x3 Sobel derivatives.

Same arguments as filter(image, "sobel", ...): float32 or uint8 images (uint8 saturates at 255).)");

  m.def("filter_names", &pk::filter_names, "The kernel names filter() accepts (a gaussian may add :SIGMA).");
  m.def("filter_kernel", &kernel_weights, "name"_a,
        "The weights of a named kernel as a square float32 array (\"sobel\" is two kernels: raises ValueError).");
}

}  // namespace pkpy
