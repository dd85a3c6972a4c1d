// The Python module portable_kernels: pk's kernels on numpy arrays. Each function checks its
// arrays (dtype, shape, layout), then hands their memory to pk's host-array API with the GIL
// released; pk::error, pk's "bad argument" exception, becomes ValueError with pk's message
// (pk::memory_error, a size past the free memory, MemoryError).
#include "bindings.hpp"
#include "kokkos_session.hpp"

#include <pk/error.hpp>

namespace pkpy {

void bind_errors(pybind11::module_&) {
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pk::memory_error& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const pk::error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

}  // namespace pkpy

PYBIND11_MODULE(portable_kernels, m) {
  m.doc() = R"(portable_kernels: GPU/CPU kernels written once in Kokkos, on numpy, pk, CuPy and PyTorch arrays.

    import numpy as np, portable_kernels as pk
    d_a, d_b = pk.to_device(a), pk.to_device(b)   # into the default backend's memory (the GPU's)
    d_c = pk.add(d_a, d_b)                  # element-wise; also axpby, scale
    edges = pk.sobel(d_gray)                # filters: pk.filter(img, "gaussian5", "reflect101")
    C = pk.matmul(A, B)                     # GEMM; pk.matmul(X.T, Y) reads the transpose in place
    c = d_c.copy_to_host()                  # back to numpy
    pk.backends(), pk.devices("cuda")       # what this build runs on

Kernels run where their arrays lie (or on backend="serial" | "openmp" | "cuda"), on the arrays'
own memory: portable_kernels.Array, numpy arrays (on cuda: copied there and back within the call),
and CuPy/PyTorch/Numba arrays through __cuda_array_interface__ or DLPack, without copies. Inputs
must be C-contiguous with the exact dtype (TypeError / ValueError otherwise, nothing is converted
behind your back). GPU calls return once queued (pk.synchronize() waits). Kokkos starts at the
first call (or initialize()) and stops at exit.)";
  m.attr("__version__") = PK_VERSION;

  pkpy::bind_errors(m);
  pkpy::bind_devices(m);
  pkpy::bind_arrays(m);
  pkpy::bind_add(m);
  pkpy::bind_matmul(m);
  pkpy::bind_filter(m);
  pkpy::bind_nn(m);
#ifdef PK_PYTHON_IMAGE_IO
  pkpy::bind_image_io(m);
#endif

  // Kokkos stops while the interpreter still runs (atexit), not from a static destructor after it.
  pybind11::module_::import("atexit").attr("register")(pybind11::cpp_function(&pkpy::stop_kokkos));
  pybind11::module_::import("os").attr("register_at_fork")(
      pybind11::arg("after_in_child") = pybind11::cpp_function(&pkpy::forget_kokkos_after_fork));
}
