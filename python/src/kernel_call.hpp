#pragma once
// One kernel call from Python: its arguments resolved to arrays, checked (each error names the
// function and the argument, as "portable_kernels.add: b has shape (3,), expected (4,) (the shape
// of a)"), the backend and stream chosen, the result made, and the kernel run in order.
//
// Where a call runs: the backend it names; otherwise that of its first argument that is not a
// numpy array (a portable_kernels.Array's own, cuda for GPU memory, the fastest host backend for
// host memory); otherwise default_backend(). Every array must then lie in that backend's memory,
// except that a call on cuda whose arrays are all numpy arrays copies them to the GPU and back
// (the host-array API: `copies()`). Results are numpy arrays when every input is one, else
// portable_kernels.Arrays in the backend's memory. Calls on the GPU return once the kernel is queued.
#include <optional>
#include <string>
#include <vector>

#include <pk/kokkos/views.hpp>
#include <pk/span.hpp>

#include "arrays.hpp"
#include "kokkos_session.hpp"
#include "spaces.hpp"

namespace pkpy {

class kernel_call {
 public:
  kernel_call(const char* who, const py::object& backend, const py::object& stream);

  // An array argument (TypeError when it is none).
  operand input(const py::object& obj, const char* name);
  // out=: none, or an array argument.
  std::optional<operand> optional_input(const py::object& obj, const char* name);

  // TypeError "<name> has dtype X, expected float32 or float64" unless its dtype is allowed.
  element require_element(const operand& o, const char* name, const std::vector<element>& allowed) const;
  // ValueError unless its elements lie densely in row-major order (and aligned).
  void require_c_contiguous(const operand& o, const char* name) const;
  void require_writeable(const operand& o, const char* name) const;
  // ValueError unless its pointer and strides are multiples of its element size.
  void require_aligned(const operand& o, const char* name) const;
  // ValueError "<name> has shape X, expected Y (<why>)" unless o has that shape.
  void require_shape(const operand& o, const char* name, const std::vector<py::ssize_t>& shape, const std::string& why) const;
  // ValueError "out shares memory with <name> (expected a separate array)".
  void require_separate(const operand& out, const operand& in, const char* name) const;

  // Chooses the backend from the arguments (all of them, out= included; null: an argument not
  // given) and checks that each lies in its memory (ValueError naming the argument and both places
  // otherwise). Numpy arrays on cuda are copied there and back unless `copies_allowed` is false
  // (kernels without a host-array API): then they are refused too.
  void place(const std::vector<std::pair<const operand*, const char*>>& args, bool copies_allowed = true);
  pk::backend on() const { return on_; }
  bool copies() const { return copies_; }

  // The result: out (checked: dtype, shape, C-contiguous, writeable) or a new array.
  operand output(std::optional<operand>& out, const std::vector<py::ssize_t>& shape, element e,
                 const char* name = "out");

  // f(space) on the call's execution space instance, with the GIL released, ordered after the
  // default stream's work and before its next (see arrays.hpp), and after and before the work of
  // the streams that __cuda_array_interface__ arguments named.
  template <class F>
  void run(F&& f) {
    if (on_ != pk::backend::cuda) return run_kernel(on_, [&] { with_space(on_, 0, f); });
    const pk::stream_handle s = stream(), d = default_stream_of(on_);
    run_kernel(on_, [&] {
      if (s != d) pk::stream_wait(on_, s, d);
      for (pk::stream_handle w : waits_)
        if (w != s) pk::stream_wait(on_, s, w);
      with_space(on_, s, f);
      if (s != d) pk::stream_wait(on_, d, s);
      for (pk::stream_handle w : waits_)  // the arrays' own streams: their next work comes after this kernel
        if (w != s) pk::stream_wait(on_, w, s);
    });
  }

  // The stream the call runs on (the backend's default stream when it names none).
  pk::stream_handle stream() const;
  const char* who() const { return who_; }

 private:
  const char* who_;
  bool backend_given_ = false;
  pk::backend on_ = pk::backend::serial;
  bool stream_given_ = false;
  pk::stream_handle stream_ = 0;
  bool all_numpy_ = true;
  bool copies_ = false;
  std::vector<pk::stream_handle> waits_;
};

// An argument's memory as a span, for the host-array API (numpy arrays on cuda: copies()).
template <class T>
pk::span<T> span_of(const array& a) {
  return {reinterpret_cast<T*>(a.data), static_cast<std::size_t>(a.size())};
}

// Views of an argument's memory for the kernels' Kokkos interface (pk/kokkos/*.hpp).
template <class T, class Exec>
pk::vector_view<T, Exec> vector_of(const array& a) {
  return pk::vector_view<T, Exec>(reinterpret_cast<T*>(a.data), static_cast<std::size_t>(a.size()));
}

}  // namespace pkpy
