#include "spaces.hpp"

#include <map>

namespace pkpy {

#if defined(KOKKOS_ENABLE_CUDA)
namespace {
// Instances on callers' streams, made once each (touched under the kernel lock only).
std::map<pk::stream_handle, Kokkos::Cuda>& instances() {
  static auto* kept = new std::map<pk::stream_handle, Kokkos::Cuda>;  // never destroyed after Kokkos
  return *kept;
}
constexpr std::size_t most_instances = 64;
}  // namespace

Kokkos::Cuda cuda_instance(pk::stream_handle stream) {
  const Kokkos::Cuda space;
  if (stream == reinterpret_cast<pk::stream_handle>(space.cuda_stream())) return space;
  auto& kept = instances();
  auto found = kept.find(stream);
  if (found != kept.end()) return found->second;
  if (kept.size() >= most_instances) kept.clear();  // a program that makes streams without end
  return kept.emplace(stream, Kokkos::Cuda(reinterpret_cast<cudaStream_t>(stream))).first->second;
}

void forget_instances() { instances().clear(); }
#else
void forget_instances() {}
#endif

}  // namespace pkpy
