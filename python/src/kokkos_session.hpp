#pragma once
// Kokkos inside a Python process. Kokkos lives on a thread of its own, the kernel thread: it
// starts Kokkos (at the first call that needs it, or at initialize()), runs every call into pk,
// one at a time, and finalizes Kokkos at interpreter exit (an atexit handler joins it).
//
// Why a thread of its own: Kokkos 3.4's OpenMP backend ties its thread pool to the thread that
// initialized it (a kernel launched from any other thread fails with "in parallel or not
// initialized"), and Python code calls from whichever thread it likes. Kokkos cannot be restarted
// once finalized, so a call made after exit, or in a child process forked after the start, raises
// RuntimeError.
#include <functional>

#include <pk/runtime.hpp>

namespace pkpy {

// Starts Kokkos with these options; RuntimeError if it already runs and options were given
// (threads and device are fixed at start-up). Called with the GIL held.
void start_kokkos(const pk::runtime_options& options);

// Runs f (a call into pk) on the kernel thread, starting Kokkos first if needed, with the GIL
// released while it runs; f's exceptions reach the caller. Called with the GIL held. The arrays f
// works on stay alive: the caller's frame holds references to them.
void run_kernel(const std::function<void()>& f);

// Finalizes Kokkos (if this module started it) and ends the kernel thread. Registered with atexit.
void stop_kokkos();

// Called in a child process after fork(): the kernel thread was not copied into it.
void forget_kokkos_after_fork();

// Runs f with the GIL released. Not pybind11's gil_scoped_release: its destructor takes the GIL
// back, and at interpreter exit Python ends a daemon thread right there (pthread_exit); that
// unwinding may not leave a destructor (noexcept), so it would call std::terminate. Here the GIL
// is taken back in ordinary code, which the unwinding passes through.
void without_gil(const std::function<void()>& f);

}  // namespace pkpy
