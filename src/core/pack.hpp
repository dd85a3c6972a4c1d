#pragma once
// The one pack type: Bytes of T (16 by default) loaded or stored as one: LDG.128 / STS.128 on a
// GPU, a vector register on a CPU. The element-wise kernels, the filter's tile staging and
// stores, and the GPU GEMM's operands move data in packs.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace pk::detail {

template <class T, int Bytes = 16>
struct alignas(Bytes) pack {
  static constexpr int size = Bytes / static_cast<int>(sizeof(T));
  static_assert(size >= 1 && Bytes % sizeof(T) == 0, "a pack is a whole number of elements");
  T v[size];
};

// Whether p can be read or written as a Bytes-wide pack.
template <int Bytes = 16>
KOKKOS_INLINE_FUNCTION bool pack_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % Bytes == 0;
}

}  // namespace pk::detail
