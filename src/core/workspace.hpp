#pragma once
// Temporary device memory for one call of a kernel (a GEMM's split-K partial sums, a convolution's
// im2col array), taken from <pk/memory.hpp>'s allocator in the order of the execution space
// instance's stream and given back the same way: on CUDA the stream-ordered pool (no device-wide
// synchronization, which a Kokkos View's cudaFree costs), on the host aligned memory after a fence.
// What stream an instance runs on is a backend's answer: exec_stream<Exec>, defined here for the
// host spaces and in backends/cuda/cuda_streams.hpp for Kokkos::Cuda (a backend that forgets it
// does not compile).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

#include <pk/kokkos/on_backend.hpp>
#include <pk/memory.hpp>

namespace pk::detail {

template <class Exec>
struct exec_stream;  // static stream_handle of(const Exec&): the stream the instance runs on

#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct exec_stream<Kokkos::Serial> {
  static constexpr bool stream_ordered = false;
  static stream_handle of(const Kokkos::Serial&) { return 0; }
};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct exec_stream<Kokkos::OpenMP> {
  static constexpr bool stream_ordered = false;
  static stream_handle of(const Kokkos::OpenMP&) { return 0; }
};
#endif

// `count` elements of T in Exec's memory for the work queued on `space` from now until the
// workspace goes out of scope. Refused before allocating (pk::memory_error, naming `what`) when
// the memory is not there.
template <class Exec, class T>
class workspace {
 public:
  workspace(const Exec& space, std::size_t count, const std::string& what)
      : space_(space),
        data_(static_cast<T*>(pk::allocate(backend_of<Exec>(), count * sizeof(T), what, exec_stream<Exec>::of(space)))) {}
  ~workspace() {
    // Host spaces: their kernels may still run (an asynchronous instance); stream-ordered memory
    // is freed behind them on the stream.
    if (!exec_stream<Exec>::stream_ordered) space_.fence();
    pk::deallocate(backend_of<Exec>(), data_, exec_stream<Exec>::of(space_));
  }
  workspace(const workspace&) = delete;
  workspace& operator=(const workspace&) = delete;
  T* data() const { return data_; }

 private:
  Exec space_;
  T* data_;
};

}  // namespace pk::detail
