#pragma once
// CUDA device descriptions, implemented in backends/cuda/ (a stub answers in host-only builds).
#include <vector>

#include <pk/backend.hpp>

namespace pk::detail {

std::vector<device_info> cuda_devices();
int cuda_device_count();  // 0 without CUDA, or when its runtime sees no GPU
device_info cuda_current_device();

}  // namespace pk::detail
