// Example 1: vector addition, c = a + b -- the "hello world" of GPU programming.
//
// This is the program that opens the PyCUDA and Numba CUDA tutorials: make two arrays on the
// host, copy them to the device, launch one thread per element, copy the result back, check it.
// Here the kernel is written once (a Kokkos functor inside portable-kernels) and runs on whatever
// backend this build has: an NVIDIA GPU (Kokkos::Cuda), all CPU cores (Kokkos::OpenMP) or one
// core (Kokkos::Serial). The steps are the same as in the tutorials; only the names change.
//
//   build/host/examples/cpp/example_vector_add [N]
#include <pk/add.hpp>
#include <pk/kokkos/add.hpp>
#include <pk/runtime.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  if (n <= 0) {
    std::fprintf(stderr, "usage: example_vector_add [N > 0]\n");
    return 2;
  }

  // Step 1: start Kokkos. PyCUDA does this with `import pycuda.autoinit`; in C++ a pk::runtime
  // object initializes Kokkos (threads, GPU context) and finalizes it when it goes out of scope.
  pk::runtime kokkos;

  // Step 2: choose where to run. Every build has Serial; this one may also have OpenMP and CUDA.
  // Kokkos::DefaultExecutionSpace is the fastest of them; its memory_space is where its data lives
  // (GPU memory for Cuda, ordinary host memory for OpenMP and Serial).
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec space;
  std::printf("vector_add: %d elements on %s\n", n, Exec::name());

  // Step 3: allocate on the device. A Kokkos View is an array that knows its memory space, like
  // numba.cuda.device_array or pycuda's gpuarray. pk::vector_view<T, Exec> is a 1-D View in Exec's memory.
  pk::vector_view<float, Exec> a("a", n), b("b", n), c("c", n);

  // Step 4: fill the inputs on the host and copy them over. A "mirror" is a host View shaped like a
  // device View; when the device IS the host (OpenMP, Serial) it is the same memory, and the copy
  // (deep_copy) does nothing. This is cuda.to_device / cuda.memcpy_htod.
  auto ha = Kokkos::create_mirror_view(a), hb = Kokkos::create_mirror_view(b);
  for (int i = 0; i < n; ++i) {
    ha(i) = std::sin(0.001f * i);
    hb(i) = 2.0f - 0.5f * std::cos(0.002f * i);
  }
  Kokkos::deep_copy(a, ha);
  Kokkos::deep_copy(b, hb);

  // Step 5: launch. In the tutorials this is add_kernel[blocks, threads](a, b, c); pk::add hands
  // the same work -- one index per element -- to Kokkos::parallel_for on `space`. Launches are
  // asynchronous, as on a GPU: the call returns before the work is done.
  pk::add(space, a, b, c);

  // Step 6: wait for it (cuda.synchronize()), then copy the result back to the host.
  space.fence();
  auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);

  // Step 7: check every element against the same sum done on the host in double precision. A float
  // sum is exact to one rounding: |c - (a+b)| <= 2^-24 |a+b|.
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const double want = double(ha(i)) + double(hb(i));
    if (!(std::abs(double(hc(i)) - want) <= std::ldexp(std::abs(want), -24))) ++wrong;
  }
  std::printf("vector_add: c[0] = %g, c[%d] = %g; %d of %d elements wrong\n", hc(0), n - 1, hc(n - 1), wrong, n);

  // The same computation through the host-array interface: plain std::vectors, on a backend chosen
  // at run time. pk copies to and from the GPU when the backend needs it.
  std::vector<float> x(ha.data(), ha.data() + n), y(hb.data(), hb.data() + n), z(n);
  for (pk::backend on : pk::available_backends()) {
    pk::add(on, x, y, z);
    int differ = 0;
    for (int i = 0; i < n; ++i) differ += z[i] != hc(i);
    std::printf("vector_add: host-array pk::add on %-6s: %d elements differ from the View result\n",
                pk::to_string(on), differ);
    wrong += differ;
  }
  std::printf("vector_add: %s\n", wrong == 0 ? "PASS" : "FAIL");
  return wrong == 0 ? 0 : 1;
}
