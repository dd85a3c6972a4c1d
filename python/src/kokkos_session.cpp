#include "kokkos_session.hpp"

#include "spaces.hpp"

#include <Python.h>

#include <Kokkos_Macros.hpp>  // KOKKOS_VERSION

#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace pkpy {

namespace {

// Touched with the GIL held only (the mutex aside).
pk::runtime* session = nullptr;  // deleted by stop_kokkos, never by a static destructor after Python
std::thread::id kokkos_thread;
const char* stopped_because = nullptr;
std::mutex one_kernel_at_a_time;  // Kokkos' execution space instances are not for concurrent launches

constexpr bool openmp_bound_to_its_thread = KOKKOS_VERSION < 40000;

void require_not_stopped() {
  if (stopped_because) throw std::runtime_error(std::string("portable_kernels: ") + stopped_because);
}

void require_callable_from_this_thread(pk::backend on) {
  if (openmp_bound_to_its_thread && on == pk::backend::openmp && std::this_thread::get_id() != kokkos_thread)
    throw std::runtime_error(std::string("portable_kernels: with Kokkos ") + kokkos_version() +
                             ", openmp kernels run only on the thread that started Kokkos (the one that made the "
                             "first call, or initialize()); from this thread use backend='serial'");
}

}  // namespace

const char* kokkos_version() {
  static const std::string v = std::to_string(KOKKOS_VERSION / 10000) + "." +
                               std::to_string(KOKKOS_VERSION / 100 % 100) + "." + std::to_string(KOKKOS_VERSION % 100);
  return v.c_str();
}

void without_gil(const std::function<void()>& f) {
  PyThreadState* state = PyEval_SaveThread();
  std::exception_ptr failure;
  try {
    f();
  } catch (...) {
    failure = std::current_exception();
  }
  PyEval_RestoreThread(state);  // a daemon thread at exit ends here
  if (failure) std::rethrow_exception(failure);
}

void start_kokkos(const pk::runtime_options& options) {
  require_not_stopped();
  if (session) {
    if (options.threads > 0 || options.device >= 0)
      throw std::runtime_error("portable_kernels.initialize: Kokkos is already running (threads and device are "
                               "fixed when it starts: call initialize() before the first kernel)");
    return;
  }
  session = new pk::runtime(options);  // with the GIL held: no other thread starts it meanwhile
  kokkos_thread = std::this_thread::get_id();
}

void ensure_kokkos() {
  require_not_stopped();
  if (!session) start_kokkos({});
}

bool kokkos_running() { return session && !stopped_because; }

void run_kernel(pk::backend on, const std::function<void()>& f) {
  ensure_kokkos();
  require_callable_from_this_thread(on);
  without_gil([&] {
    std::lock_guard<std::mutex> lock(one_kernel_at_a_time);
    f();
  });
}

void stop_kokkos() {
  if (stopped_because) return;  // a forked child: its parent's Kokkos is not its to finalize
  stopped_because = "Kokkos was finalized at interpreter exit and cannot be restarted";
  if (!session) return;
  pk::runtime* kokkos = session;
  session = nullptr;
  without_gil([&] {
    std::lock_guard<std::mutex> lock(one_kernel_at_a_time);  // a kernel running for another thread finishes first
    forget_instances();  // the execution space instances on callers' streams go before Kokkos does
    delete kokkos;
  });
}

void forget_kokkos_after_fork() {
  // The child has one thread, this one: no OpenMP pool, no kernel running, and a mutex that may
  // have been copied locked. It must not touch Kokkos at all (session is never deleted here).
  if (session && !stopped_because)
    stopped_because = "Kokkos was started before this process was forked; it runs in the parent only";
}

}  // namespace pkpy
