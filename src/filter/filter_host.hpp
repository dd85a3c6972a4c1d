#pragma once
// Host-array entry points of the filter kernels, one instantiation per backend (defined in
// filter_impl.hpp, compiled in backends/<name>/). The arguments are already checked.
#include <pk/filter.hpp>

namespace pk::detail {

template <class Exec, class T>
void filter_host(const T* in, T* out, int height, int width, int channels, const filter_kernel& k, border b);

template <class Exec, class T>
void sobel_magnitude_host(const T* in, T* out, int height, int width, int channels, border b);

}  // namespace pk::detail
