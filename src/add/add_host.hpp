#pragma once
// Host-array entry points of the element-wise kernels, one instantiation per backend
// (defined in add_impl.hpp, compiled in backends/<name>/).
#include <cstdint>

namespace pk::detail {

template <class Exec, class T>
void axpby_host(T alpha, const T* a, T beta, const T* b, T* c, std::int64_t n, bool plain_add);

template <class Exec, class T>
void scale_host(T alpha, T* x, std::int64_t n);

}  // namespace pk::detail
