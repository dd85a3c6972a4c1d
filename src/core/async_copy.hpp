#pragma once
// Copies from global memory into team scratch that do not pass through registers: on a GPU of
// compute capability 8.0 or newer, PTX's cp.async (the LDGSTS instruction). A thread issues its
// copies and goes on computing while they are in flight; async_copies_wait() then waits for all
// of its own, and a team barrier after it makes every thread's copies visible to the team.
//
// Anywhere else (host backends, older GPUs) a copy is an ordinary load and store, done at once,
// and commit/wait do nothing: the same code runs, without the overlap.
#include <Kokkos_Core.hpp>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define PK_HAS_CP_ASYNC 1
#endif

namespace pk::detail {

// *dst = *src, some time before the next async_copies_wait() returns. dst: team scratch.
KOKKOS_INLINE_FUNCTION void copy_async(float* dst, const float* src) {
#if defined(PK_HAS_CP_ASYNC)
  const auto shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(shared), "l"(__cvta_generic_to_global(src))
               : "memory");
#else
  *dst = *src;
#endif
}

// Closes the group of copies issued since the last commit (what async_copies_wait waits for).
KOKKOS_INLINE_FUNCTION void async_copies_commit() {
#if defined(PK_HAS_CP_ASYNC)
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until every committed copy of this thread has landed in scratch.
KOKKOS_INLINE_FUNCTION void async_copies_wait() {
#if defined(PK_HAS_CP_ASYNC)
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

}  // namespace pk::detail
