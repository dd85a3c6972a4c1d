#pragma once
// What the distributed kernels share: element types as MPI datatypes, and errors that every
// process of a collective call raises together (a process that raised alone would leave the
// others waiting in a message that never comes).
#include <mpi.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

#include <pk/backend.hpp>
#include <pk/memory.hpp>

namespace pk::mpi::detail {

template <class T>
MPI_Datatype datatype();

// Collective: when any process has a non-empty `local_error`, every process raises pk::error with
// the message of the lowest such rank (prefixed with that rank where it is another's).
void agree(MPI_Comm comm, const std::string& local_error);

// Collective: pk::memory_error on every process when any lacks `bytes` of free memory on backend b's
// device (pk::require_memory's message), before anything is allocated, so that no process is left
// waiting for one that ran out.
void require_memory_everywhere(MPI_Comm comm, backend b, double bytes, const std::string& what);

// Collective: pk::error on every process unless each named value is the same on all of them.
void require_same(MPI_Comm comm, const char* who, std::initializer_list<std::pair<const char*, std::int64_t>> values);

// n elements of host memory for copies to and from backend b's memory (pk::allocate_host:
// page-locked on a GPU backend), freed with it.
template <class T>
class host_buffer {
 public:
  host_buffer() = default;
  host_buffer(backend b, std::size_t n, const std::string& what)
      : b_(b), p_(static_cast<T*>(allocate_host(b, n * sizeof(T), what))) {}
  ~host_buffer() { deallocate_host(b_, p_); }
  host_buffer(host_buffer&& o) noexcept : b_(o.b_), p_(std::exchange(o.p_, nullptr)) {}
  host_buffer& operator=(host_buffer&& o) noexcept {
    std::swap(b_, o.b_);
    std::swap(p_, o.p_);
    return *this;
  }
  T* data() const { return p_; }

 private:
  backend b_ = backend::serial;
  T* p_ = nullptr;
};

// A 64-bit fingerprint of bytes (FNV-1a), to compare arrays such as filter weights across processes.
std::int64_t fingerprint(const void* data, std::size_t bytes);

}  // namespace pk::mpi::detail
