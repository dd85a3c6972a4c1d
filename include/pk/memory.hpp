#pragma once
// Memory and streams for code that hands out arrays of its own (pk's Python module, an
// application's containers): a backend's memory, allocated and returned in stream order on CUDA.
//
//   void* p = pk::allocate(pk::backend::cuda, bytes, "my buffer", stream);   // no synchronization
//   ... kernels on `stream` use p ...
//   pk::deallocate(pk::backend::cuda, p, stream);                            // after that work
//
// A stream is a CUDA stream's handle as an integer (the value of a cudaStream_t): 0 is the legacy
// default stream (also 1, as DLPack and __cuda_array_interface__ write it; 2 the per-thread
// default). Host backends have no streams: their calls finish before they return, so every stream
// argument is ignored there.
#include <cstddef>
#include <cstdint>
#include <string>

#include <pk/backend.hpp>

namespace pk {

using stream_handle = std::uintptr_t;

// `bytes` (0 gives a valid pointer) of backend b's memory, aligned to 256 bytes. On cuda from the
// current device's stream-ordered pool (cudaMallocAsync on `stream`: usable at once by work on that
// stream, by work on others once they are ordered after it); memory returned to the pool is kept
// for reuse, so allocating again costs no call into the driver and no synchronization. Throws
// pk::memory_error "<what>: needs X GB, more than the Y GB free on <device>" before allocating
// (memory the pool keeps is released to make room first). Needs pk::runtime for cuda.
void* allocate(backend b, std::size_t bytes, const std::string& what, stream_handle stream = 0);

// Returns memory from allocate(b, ...); on cuda once the work queued on `stream` so far is done
// (the host does not wait): pass the last stream that used it. Never throws.
void deallocate(backend b, void* p, stream_handle stream = 0) noexcept;

// `bytes` of host memory for copies to and from backend b's memory, aligned to 256 bytes:
// page-locked on cuda (cudaMallocHost: copies run at the bus's full speed without a staging copy of
// the driver's, and an MPI sends from it as it is), plain memory on host backends. Throws
// pk::memory_error before allocating past the host's free memory. Allocating page-locked memory is
// slow (a driver call): keep such buffers for many copies. Free with deallocate_host(b, p).
void* allocate_host(backend b, std::size_t bytes, const std::string& what);
void deallocate_host(backend b, void* p) noexcept;

// Copies `bytes` from src to dst, each in the host's memory or backend b's (a CUDA pointer says
// where it lies), queued on `stream`; a copy to or from host memory has finished when it returns.
void copy(backend b, void* dst, const void* src, std::size_t bytes, stream_handle stream = 0);

// Sets `bytes` bytes at p (backend b's memory) to 0, queued on `stream`.
void zero(backend b, void* p, std::size_t bytes, stream_handle stream = 0);

// The GPU whose memory p points into, or -1 for memory no device of backend b holds (host memory;
// every pointer on host backends). CUDA managed memory counts as its device's.
int device_of(backend b, const void* p);

// The stream the default instance of backend b's Kokkos execution space runs on (0 on the host).
stream_handle default_stream(backend b);

// Work queued on `waiting` from now on runs after the work queued on `producer` so far; the host
// does not wait (an event recorded on one, waited on by the other). Nothing when they are one stream.
void stream_wait(backend b, stream_handle waiting, stream_handle producer);

// Blocks the host until the work queued on `stream` is done (host backends: returns at once).
void synchronize(backend b, stream_handle stream);

// Blocks the host until all work on backend b's device is done, on every stream of every library.
void synchronize_device(backend b);

// On cuda every function here works on the GPU Kokkos runs on, whichever the calling thread has
// made current (another library may have chosen another); the current one is left as it was.

}  // namespace pk
