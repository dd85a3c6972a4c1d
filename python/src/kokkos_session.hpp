#pragma once
// Kokkos inside a Python process: started once, on the thread of the first call that needs it (or
// of initialize()), and finalized at interpreter exit by an atexit handler, while Python is still
// whole. Kernels run on the calling thread with the GIL released, one at a time.
//
// Kokkos 3.x's OpenMP backend binds its thread pool to the thread that initialized Kokkos: an
// OpenMP kernel launched from any other thread fails there, so it raises RuntimeError up front
// (serial and cuda, and OpenMP on Kokkos 4 and later, take calls from any thread). A thread of the
// module's own running every kernel would lift that limit, but the hand-over to it and back was
// measured at 20 us to 6 ms a call on a busy 2-core machine, against 0.3 to 170 us for a direct
// launch: small kernels, as in training a small network, would pay it a thousand times a second.
#include <functional>

#include <pk/backend.hpp>
#include <pk/runtime.hpp>

namespace pkpy {

// Starts Kokkos with these options; RuntimeError if it already runs and options were given
// (threads and device are fixed at start-up). Called with the GIL held.
void start_kokkos(const pk::runtime_options& options);

// Starts Kokkos with its defaults unless it runs (RuntimeError after it stopped). GIL held.
void ensure_kokkos();

// Whether Kokkos runs now (started, and not yet stopped at exit).
bool kokkos_running();

// Runs f (a call into pk on backend `on`) with Kokkos started, the GIL released and no other
// kernel running; f's exceptions reach the caller. Called with the GIL held. The arrays f works
// on stay alive: the caller's frame holds references to them.
void run_kernel(pk::backend on, const std::function<void()>& f);

// Finalizes Kokkos (if this module started it); later calls raise RuntimeError. Registered with atexit.
void stop_kokkos();

// Called in a child process after fork(): Kokkos' threads were not copied into it.
void forget_kokkos_after_fork();

// "3.4.1": the Kokkos this module was built against.
const char* kokkos_version();

// Runs f with the GIL released. Not pybind11's gil_scoped_release: its destructor takes the GIL
// back, and at interpreter exit Python ends a daemon thread right there (pthread_exit), whose
// unwinding may not leave a destructor (noexcept): std::terminate. Here the GIL is taken back in
// ordinary code, which the unwinding passes through.
void without_gil(const std::function<void()>& f);

}  // namespace pkpy
