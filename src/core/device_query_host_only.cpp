// Host-only builds: there are no CUDA devices to describe.
#include "core/device_query.hpp"

#include "core/check.hpp"

namespace pk::detail {

std::vector<device_info> cuda_devices() { return {}; }
int cuda_device_count() { return 0; }
device_info cuda_current_device() { fail("pk::current_device", "this build has no CUDA backend"); }

}  // namespace pk::detail
