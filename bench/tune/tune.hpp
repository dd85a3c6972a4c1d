#pragma once
// pk_tune: sweeps of the GPU tile shapes (bench/tune/), a developer's tool for choosing the
// choices in backends/cuda/cuda_filter_policy.hpp and cuda_gemm_policy.hpp. Built with CUDA only; prints one line per shape.
#include <Kokkos_Core.hpp>
#include <string>

namespace pk_tune {

using exec = Kokkos::DefaultExecutionSpace;

// only: the sweeps whose kernel name (e.g. "conv 3x3 float") contains it; "" for all.
void tune_filter(int runs, const std::string& only);
void tune_gemm(int runs, const std::string& only);
// Small images (512x768, 1080x1920): the CUDA policy's kernels with tiles shrunk to several a
// multiprocessor.
void tune_small(int runs);
// Float Sobel and separable filters by quads against the policy's columns (tune_quads.cpp).
void tune_quads(int runs);
// What a call costs before its kernel does any work (tune_launch.cpp).
void tune_launch(int runs);

}  // namespace pk_tune
