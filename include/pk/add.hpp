#pragma once
// Element-wise kernels on host arrays: c = a + b, c = alpha*a + beta*b, x = alpha*x.
// The data is copied to the backend's memory and back when that memory is not the host's
// (CUDA); on host backends the kernel works on the arrays in place. For device-resident data
// use the Kokkos View interface in <pk/kokkos/add.hpp>.
#include <pk/backend.hpp>
#include <pk/span.hpp>

namespace pk {

// c[i] = a[i] + b[i]. a, b, c have one length; c may be a or b (in-place).
void add(backend on, span<const float> a, span<const float> b, span<float> c);
void add(backend on, span<const double> a, span<const double> b, span<double> c);

// c[i] = alpha*a[i] + beta*b[i].
void axpby(backend on, float alpha, span<const float> a, float beta, span<const float> b, span<float> c);
void axpby(backend on, double alpha, span<const double> a, double beta, span<const double> b,
           span<double> c);

// x[i] = alpha*x[i].
void scale(backend on, float alpha, span<float> x);
void scale(backend on, double alpha, span<double> x);

}  // namespace pk
