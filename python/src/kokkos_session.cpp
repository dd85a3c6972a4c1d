#include "kokkos_session.hpp"

#include <Python.h>

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

namespace pkpy {

namespace {

// The kernel thread: runs the jobs callers hand it, one at a time, each to completion.
class kernel_thread {
 public:
  explicit kernel_thread(const pk::runtime_options& options) : worker_([this, options] { serve(options); }) {}

  void run(const std::function<void()>& f) {
    std::unique_lock<std::mutex> lock(m_);
    changed_.wait(lock, [&] { return !busy_ || quit_; });
    if (quit_) throw std::runtime_error("portable_kernels: Kokkos was finalized at interpreter exit");
    busy_ = true;
    job_ = &f;
    done_ = false;
    changed_.notify_all();
    changed_.wait(lock, [&] { return done_; });  // a queued job always runs, even when quit_ comes meanwhile
    busy_ = false;
    std::exception_ptr failure = std::exchange(failure_, nullptr);
    changed_.notify_all();
    lock.unlock();
    if (failure) std::rethrow_exception(failure);
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(m_);
      quit_ = true;
    }
    changed_.notify_all();
    worker_.join();
  }

 private:
  void serve(const pk::runtime_options& options) {
    std::unique_ptr<pk::runtime> kokkos;
    std::exception_ptr start_failure;
    try {
      kokkos = std::make_unique<pk::runtime>(options);
    } catch (...) {
      start_failure = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      changed_.wait(lock, [&] { return job_ != nullptr || quit_; });
      if (!job_) break;
      const std::function<void()>* job = std::exchange(job_, nullptr);
      lock.unlock();
      std::exception_ptr failure = start_failure;
      if (!failure) {
        try {
          (*job)();
        } catch (...) {
          failure = std::current_exception();
        }
      }
      lock.lock();
      failure_ = failure;
      done_ = true;
      changed_.notify_all();
    }
    lock.unlock();
    kokkos.reset();  // Kokkos::finalize on the thread that initialized it
  }

  std::mutex m_;
  std::condition_variable changed_;
  const std::function<void()>* job_ = nullptr;
  bool busy_ = false, done_ = false, quit_ = false;
  std::exception_ptr failure_;
  std::thread worker_;  // last: it starts serving once the members above exist
};

// Touched with the GIL held only. Never deleted: a daemon thread may still be inside run() when
// the interpreter exits, and there is no static destructor to race with it.
kernel_thread* kernels = nullptr;
const char* stopped_because = nullptr;

void require_not_stopped() {
  if (stopped_because) throw std::runtime_error(std::string("portable_kernels: ") + stopped_because);
}

}  // namespace

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
  if (kernels) {
    if (options.threads > 0 || options.device >= 0)
      throw std::runtime_error("portable_kernels.initialize: Kokkos is already running (threads and device are "
                               "fixed when it starts: call initialize() before the first kernel)");
    return;
  }
  kernels = new kernel_thread(options);
  run_kernel([] { pk::require_initialized("portable_kernels"); });  // start-up errors show here
}

void run_kernel(const std::function<void()>& f) {
  require_not_stopped();
  if (!kernels) start_kokkos({});
  kernel_thread* k = kernels;
  without_gil([&] { k->run(f); });
}

void stop_kokkos() {
  if (!kernels || stopped_because) return;
  stopped_because = "Kokkos was finalized at interpreter exit and cannot be restarted";
  kernel_thread* k = kernels;
  without_gil([&] { k->stop(); });  // a kernel running for another thread finishes first
}

void forget_kokkos_after_fork() {
  if (!kernels || stopped_because) return;
  // The thread does not exist here: nothing may wait for it or join it (the object is never deleted).
  stopped_because = "Kokkos was started before this process was forked; it runs in the parent only";
}

}  // namespace pkpy
