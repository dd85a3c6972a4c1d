// load_image and save_image: PNG and JPEG files as uint8 numpy arrays (save_image: any uint8 array), through pk's image I/O;
// load_idx: MNIST's idx files.
#include "bindings.hpp"
#include "kernel_call.hpp"
#include "kokkos_session.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include <pk/idx.hpp>
#include <pk/image_io.hpp>

namespace pkpy {

namespace {

std::string path_arg(const py::object& path) {
  return py::module_::import("os").attr("fspath")(path).cast<std::string>();
}

// The decoded pixels become the array's memory (no copy): the array owns the pk::image.
py::array load(const py::object& path) {
  const std::string p = path_arg(path);
  std::error_code error;
  if (!std::filesystem::exists(p, error)) {  // as open() says it: FileNotFoundError
    PyErr_Format(PyExc_FileNotFoundError, "portable_kernels.load_image: no such file: '%s'", p.c_str());
    throw py::error_already_set();
  }
  auto img = std::make_unique<pk::image<std::uint8_t>>();
  without_gil([&] { *img = pk::load_image(p); });  // decoding takes a while; it needs no Kokkos
  std::vector<py::ssize_t> shape{img->height, img->width};
  if (img->channels > 1) shape.push_back(img->channels);
  std::uint8_t* pixels = img->pixels.data();
  py::capsule owner(img.release(), [](void* p) { delete static_cast<pk::image<std::uint8_t>*>(p); });
  return py::array(py::dtype("uint8"), shape, pixels, owner);
}

void save(const py::object& path, const py::object& image, int jpeg_quality) {
  const char* who = "portable_kernels.save_image";
  const std::string p = path_arg(path);
  kernel_call call(who, py::none(), py::none());
  const operand a = call.input(image, "image");
  call.require_element(a, "image", {element::uint8});
  const auto& shape = a.a.shape;
  if (!(shape.size() == 2 || (shape.size() == 3 && shape[2] >= 1 && shape[2] <= 4)))
    throw py::value_error(std::string(who) + ": image has shape " + shape_string(shape) +
                          ", expected (height, width) or (height, width, channels) with 1..4 channels");
  call.require_c_contiguous(a, "image");
  // pk::save_image takes an owning pk::image: one copy of the pixels, on the way to a file (from
  // the GPU too, on the default stream, which every pk kernel queued so far is ahead of).
  pk::image<std::uint8_t> img(static_cast<int>(shape[0]), static_cast<int>(shape[1]),
                              shape.size() == 3 ? static_cast<int>(shape[2]) : 1);
  if (a.a.where() == memory::cuda)
    pk::copy(pk::backend::cuda, img.pixels.data(), a.a.data, a.a.nbytes(), default_stream_of(pk::backend::cuda));
  else
    std::copy(a.a.data, a.a.data + a.a.nbytes(), reinterpret_cast<char*>(img.pixels.data()));
  without_gil([&] { pk::save_image(p, img, jpeg_quality); });
}

// The idx file's bytes become the array's memory (no copy).
py::array load_idx(const py::object& path) {
  const std::string p = path_arg(path);
  pk::idx_array a;
  without_gil([&] { a = pk::load_idx(p); });
  auto* owned = new std::vector<std::uint8_t>(std::move(a.data));
  py::capsule keep(owned, [](void* q) { delete static_cast<std::vector<std::uint8_t>*>(q); });
  return py::array(py::dtype("uint8"), std::vector<py::ssize_t>(a.shape.begin(), a.shape.end()), owned->data(), keep);
}

}  // namespace

void bind_image_io(py::module_& m) {
  using namespace py::literals;
  m.def("load_image", &load, "path"_a,
        R"(Reads a PNG or JPEG file (recognized by its bytes) as a uint8 array: H x W for gray images,
H x W x C (C = 2, 3, 4: gray+alpha, RGB, RGBA) otherwise. Raises ValueError for a missing,
unreadable or corrupt file.)");
  m.def("save_image", &save, "path"_a, "image"_a, "jpeg_quality"_a = 95,
        R"(Writes a uint8 H x W or H x W x C (C = 1..4) array as PNG or JPEG, chosen by the extension
(.png, .jpg, .jpeg); a portable_kernels.Array or a GPU array is copied to the host first. JPEG drops alpha. Raises ValueError for another extension or a failed write.)");
  m.def("load_idx", &load_idx, "path"_a,
        R"(Reads an idx file of unsigned bytes (MNIST, Fashion-MNIST; gzip-compressed or not) as a uint8
numpy array of its shape, e.g. (60000, 28, 28) images or (60000,) labels. ValueError naming the file
when it cannot be read.)");
}

}  // namespace pkpy
