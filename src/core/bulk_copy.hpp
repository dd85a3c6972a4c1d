#pragma once
// Copies of whole rows from global memory into team scratch that run in the background and do
// not pass through registers, each signalling completion on its own flag in scratch, so that a
// thread waits only for the rows it reads. On a GPU of compute capability 9.0 (Hopper) and newer:
// PTX's cp.async.bulk (the one-dimensional copy of the Tensor Memory Accelerator), completing on
// an mbarrier. One instruction moves a row (16-byte aligned, whole 16 bytes), where loads and
// stores take one each per 16 bytes a thread and hold the data in registers meanwhile.
//
// Nowhere else: bulk_copy_available() is false and callers stage otherwise (the functions below
// do nothing there; they are compiled, never called).
#include <Kokkos_Core.hpp>
#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define PK_HAS_BULK_COPY 1
#endif

namespace pk::detail {

// Whether this compilation (a GPU pass for sm_90 and newer) has the bulk copies.
KOKKOS_INLINE_FUNCTION constexpr bool bulk_copy_available() {
#if defined(PK_HAS_BULK_COPY)
  return true;
#else
  return false;
#endif
}

// An mbarrier: completes once one arrival has announced its bytes and the copies have delivered
// them. 8 bytes of team scratch, 8-byte aligned.
struct bulk_copy_flag {
  std::uint64_t word;
};

#if defined(PK_HAS_BULK_COPY)
KOKKOS_INLINE_FUNCTION unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
#endif

// Makes `flag` ready for one bulk_copy (one thread, before any thread uses it).
KOKKOS_INLINE_FUNCTION void bulk_flag_init(bulk_copy_flag* flag) {
#if defined(PK_HAS_BULK_COPY)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(flag)) : "memory");
#else
  (void)flag;
#endif
}

// Makes the flags this thread initialized visible to the copy engine; then a team barrier makes
// them visible to the team's threads before they wait on them.
KOKKOS_INLINE_FUNCTION void bulk_flags_publish() {
#if defined(PK_HAS_BULK_COPY)
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

// dst[0, bytes) = src[0, bytes), some time before bulk_wait(flag) returns. dst: team scratch;
// dst, src and bytes multiples of 16. One copy per flag.
KOKKOS_INLINE_FUNCTION void bulk_copy(void* dst, const void* src, int bytes, bulk_copy_flag* flag) {
#if defined(PK_HAS_BULK_COPY)
  const unsigned f = shared_address(flag);
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(f), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(dst)),
               "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(f)
               : "memory");
#else
  (void)dst, (void)src, (void)bytes, (void)flag;
#endif
}

// Waits until the copy on `flag` has landed in scratch (and is visible to this thread).
KOKKOS_INLINE_FUNCTION void bulk_wait(const bulk_copy_flag* flag) {
#if defined(PK_HAS_BULK_COPY)
  // (The retry loop inside the asm, its labels local to the braces: one statement to the compiler.)
  asm volatile(
      "{ .reg .pred p;\n"
      "retry: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n"
      "@!p bra retry; }" ::"r"(shared_address(flag))
      : "memory");
#else
  (void)flag;
#endif
}

}  // namespace pk::detail
