// filter and sobel: pk::apply / pk::sobel_magnitude on the images' own memory, wherever it lies.
// An H x W array is a one-channel image; H x W x C (C = 1..4) has its channels interleaved, which
// is numpy's C order for that shape and pk::image_ref's layout alike.
#include "bindings.hpp"
#include "kernel_call.hpp"

#include <climits>
#include <cstdint>

#include <pybind11/stl.h>

#include <pk/filter.hpp>
#include <pk/kokkos/filter.hpp>

namespace pkpy {

namespace {

struct image_shape {
  int height = 0, width = 0, channels = 1;
};

image_shape require_image(const kernel_call& call, const operand& img) {
  const auto& shape = img.a.shape;
  const char* who = call.who();
  const bool ok_rank = shape.size() == 2 || shape.size() == 3;
  if (!ok_rank || (shape.size() == 3 && (shape[2] < 1 || shape[2] > 4)))
    throw py::value_error(std::string(who) + ": image has shape " + shape_string(shape) +
                          ", expected (height, width) or (height, width, channels) with 1..4 channels");
  if (shape[0] > INT_MAX || shape[1] > INT_MAX)
    throw py::value_error(std::string(who) + ": image has shape " + shape_string(shape) +
                          ", expected sides up to " + std::to_string(INT_MAX));
  call.require_c_contiguous(img, "image");
  return {static_cast<int>(shape[0]), static_cast<int>(shape[1]), shape.size() == 3 ? static_cast<int>(shape[2]) : 1};
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
    throw py::value_error(std::string(who) + ": kernel has shape " + shape_string({weights.shape(), weights.shape() + weights.ndim()}) +
                          ", expected a square 2-D array of weights (odd size 1.." +
                          std::to_string(pk::max_filter_size) + ")");
  const auto size = weights.shape(0);
  const float* w = weights.data();
  return {pk::filter_op::convolve,
          pk::custom_kernel(static_cast<int>(size), std::vector<float>(w, w + size * size))};
}

template <class T>
void run_filter(kernel_call& call, const pk::filter_spec& spec, const array& in, const array& out, image_shape s,
                pk::border border) {
  if (call.copies()) {
    const pk::image_ref<const T> in_ref{reinterpret_cast<const T*>(in.data), s.height, s.width, s.channels};
    const pk::image_ref<T> out_ref{reinterpret_cast<T*>(out.data), s.height, s.width, s.channels};
    const pk::backend on = call.on();
    return run_kernel(on, [&] { pk::apply(on, spec, in_ref, out_ref, border); });
  }
  call.run([&](auto space) {
    using Exec = decltype(space);
    const pk::image_view<const T, Exec> vin(reinterpret_cast<const T*>(in.data), s.height, s.width, s.channels);
    const pk::image_view<T, Exec> vout(reinterpret_cast<T*>(out.data), s.height, s.width, s.channels);
    pk::apply(space, spec, vin, vout, border);
  });
}

py::object filter_image(const char* who, const py::object& image, const pk::filter_spec& spec,
                        const std::string& border, const py::object& out_obj, const py::object& backend,
                        const py::object& stream) {
  kernel_call call(who, backend, stream);
  const operand in = call.input(image, "image");
  auto out = call.optional_input(out_obj, "out");
  const element e = call.require_element(in, "image", {element::float32, element::uint8});
  const image_shape s = require_image(call, in);
  const pk::border b = pk::parse_border(border);
  call.place({{&in, "image"}, {out ? &*out : nullptr, "out"}});
  const operand result = call.output(out, in.a.shape, e);
  call.require_separate(result, in, "image");  // a tile would read pixels it already wrote
  if (e == element::float32)
    run_filter<float>(call, spec, in.a, result.a, s, b);
  else
    run_filter<std::uint8_t>(call, spec, in.a, result.a, s, b);
  return result.object;
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
         const py::object& backend, const py::object& stream) {
        const char* who = "portable_kernels.filter";
        return filter_image(who, image, kernel_arg(kernel, who), border, out, backend, stream);
      },
      "image"_a, "kernel"_a = "gaussian5", "border"_a = "reflect101", py::kw_only(), "out"_a = py::none(),
      "backend"_a = py::none(), "stream"_a = py::none(),
      R"(2-D filter (correlation, as cv2.filter2D): out[y,x,c] = sum w[i,j] * image[y+i-r, x+j-r, c].

image: H x W or H x W x C (C = 1..4, channels interleaved) array, float32 or uint8, C-contiguous:
       numpy, portable_kernels.Array, or CuPy/PyTorch/Numba (no copy).
       uint8 images accumulate in float and are rounded to nearest, saturated to 0..255.
kernel: a name from filter_names(): "box3".."box15", "gaussian3".."gaussian15" (optionally with
       sigma, "gaussian7:1.5"), "sharpen", "sobel-x", "sobel-y", "sobel" (gradient magnitude);
       or a square 2-D array of weights of odd size up to 15 (not flipped).
border: what lies outside the image: "reflect101" (OpenCV's default, dcb|abcd|cba),
       "clamp" (aaa|abcd|ddd), "zero", "wrap".
out:   optional C-contiguous array of the image's shape and dtype, not sharing memory with it.
backend: "serial", "openmp" or "cuda" (see backends()); None: where the image lies
       (default_backend() for numpy arrays).
stream: a CUDA stream for images in GPU memory (see add()).

Returns out; without out= a new array, numpy for a numpy image, else a portable_kernels.Array
where the image lies. Numpy images on "cuda" are copied to the GPU and back.)");

  m.def(
      "sobel",
      [](const py::object& image, const std::string& border, const py::object& out, const py::object& backend,
         const py::object& stream) {
        return filter_image("portable_kernels.sobel", image, pk::parse_filter("sobel"), border, out, backend, stream);
      },
      "image"_a, "border"_a = "reflect101", py::kw_only(), "out"_a = py::none(), "backend"_a = py::none(),
      "stream"_a = py::none(),
      R"(Edge strength: out = sqrt(gx^2 + gy^2), gx and gy the 3x3 Sobel derivatives.

Same arguments as filter(image, "sobel", ...): float32 or uint8 images (uint8 saturates at 255).)");

  m.def("filter_names", &pk::filter_names, "The kernel names filter() accepts (a gaussian may add :SIGMA).");
  m.def("filter_kernel", &kernel_weights, "name"_a,
        "The weights of a named kernel as a square float32 array (\"sobel\" is two kernels: raises ValueError).");
}

}  // namespace pkpy
