#pragma once
// The host vector register width the compiler targets (the CPUs' policies size their register
// blocks by it): 64 bytes with AVX-512 (32 registers), 32 with AVX/AVX2 (16 registers), 16 otherwise.
#if defined(__AVX512F__)
#define PK_HOST_VECTOR_BYTES 64
#elif defined(__AVX__)
#define PK_HOST_VECTOR_BYTES 32
#else
#define PK_HOST_VECTOR_BYTES 16
#endif

namespace pk::detail {
inline constexpr int host_vector_bytes = PK_HOST_VECTOR_BYTES;
}  // namespace pk::detail
#undef PK_HOST_VECTOR_BYTES
