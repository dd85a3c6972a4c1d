#pragma once
// pk_tune: sweeps of the GPU tile shapes (bench/tune/), a developer's tool for choosing the
// choices in backends/cuda/cuda_filter_policy.hpp and cuda_gemm_policy.hpp. Built with CUDA only; prints one line per shape.
#include <Kokkos_Core.hpp>
#include <string>

#include <pk/kokkos/views.hpp>

#include "../bench_row.hpp"
#include "../peers.hpp"

namespace pk_tune {

using exec = Kokkos::DefaultExecutionSpace;

// An h x w x c image of random values and a copy's rate on it (bytes read and written a second, in
// GB/s) and time (ms): what the filter sweeps compare against.
template <class T>
struct image_and_copy {
  pk::image_view<T, exec> in, out;
  double copy_rate = 0, copy_ms = 0;
  image_and_copy(int h, int w, int c, int runs) : in("in", h, w, c), out("out", h, w, c) {
    exec space;
    pk_bench::random_stream rng;
    pk_bench::random_view(in, rng);
    pk::image_view<T, exec> copy("copy", h, w, c);
    copy_ms = pk_bench::measure(
                  space, [&] { pk_bench::peer_copy(space, copy.data(), in.data(), in.span() * sizeof(T)); }, runs)
                  .median_ms;
    copy_rate = rate(copy_ms);
  }
  double rate(double ms) const { return 2.0 * double(in.span()) * sizeof(T) / (ms * 1e6); }
};

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
