#pragma once
// The parts of the portable_kernels module, one file each (bind_<part>.cpp).
#include <pybind11/pybind11.h>

namespace pkpy {

void bind_errors(pybind11::module_& m);   // pk::error -> ValueError (module.cpp)
void bind_devices(pybind11::module_& m);  // backends, devices, initialize
void bind_arrays(pybind11::module_& m);   // Array, to_device, empty, zeros, from_dlpack, synchronize
void bind_add(pybind11::module_& m);      // add, axpby, scale
void bind_matmul(pybind11::module_& m);   // matmul
void bind_filter(pybind11::module_& m);   // filter, sobel, filter_names, filter_kernel
void bind_nn(pybind11::module_& m);       // conv2d and the other layers of a CNN
#ifdef PK_PYTHON_IMAGE_IO
void bind_image_io(pybind11::module_& m);  // load_image, save_image, load_idx
#endif

}  // namespace pkpy
