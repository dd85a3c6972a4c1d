"""Example 1 (Python): vector addition, c = a + b -- the "hello world" of GPU programming.

This is the program that opens the PyCUDA and Numba CUDA tutorials: make two arrays, copy them to
the device, launch one thread per element, copy the result back, check it. With portable_kernels
the kernel is already written (a Kokkos functor in the C++ library) and runs on whatever backend
this build has: an NVIDIA GPU ("cuda"), all CPU cores ("openmp") or one core ("serial").

    Numba (PyCUDA)                                     portable_kernels
    d_a = cuda.to_device(a)  (mem_alloc, memcpy_htod)  d_a = pk.to_device(a)
    d_c = cuda.device_array_like(a)                    d_c = pk.empty_like(d_a)
    add_kernel[blocks, threads](d_a, d_b, d_c)         pk.add(d_a, d_b, out=d_c)
    c = d_c.copy_to_host()   (memcpy_dtoh)             c = d_c.copy_to_host()

    PYTHONPATH=build/host/python python3 examples/python/vector_add.py [N]

Exit status 0 when every element matches numpy's float64 sum, 1 otherwise.
"""
import sys
import time

import numpy as np

import portable_kernels as pk  # PyCUDA's `import pycuda.autoinit`: Kokkos starts at the first call


def main(n):
    # Step 1: where can this run? backends() lists what was compiled in, fastest first.
    print(f"vector_add: backends {pk.backends()}, default {pk.default_backend()!r}")
    for d in pk.devices():
        print(f"vector_add: device {d['id']}: {d['name']} ({d['concurrency']} threads at once)")

    # Step 2: the inputs, ordinary numpy arrays. The kernels take them as they are, provided they
    # are C-contiguous and of the kernel's dtype (float32 or float64): no conversion is made for
    # you, so nothing is copied behind your back.
    i = np.arange(n, dtype=np.float32)
    a = np.sin(0.001 * i)
    b = 2.0 - 0.5 * np.cos(0.002 * i)

    # Step 3: copy the inputs to each backend's memory once, launch, copy the result back. The
    # device arrays stay where they are between calls: chain as many kernels on them as you like
    # (on "openmp"/"serial" they are host memory, and nothing is copied at all).
    wrong = 0
    for backend in pk.backends():
        d_a = pk.to_device(a, backend=backend)       # host -> device
        d_b = pk.to_device(b, backend=backend)
        d_c = pk.empty_like(d_a)                      # uninitialized, on the same device
        pk.add(d_a, d_b, out=d_c)                     # the kernel: runs where the arrays lie
        pk.synchronize()                              # kernels return once queued; wait, to time it
        start = time.perf_counter()
        pk.add(d_a, d_b, out=d_c)
        pk.synchronize()
        seconds = time.perf_counter() - start
        c = d_c.copy_to_host()                        # device -> host (waits for the kernel)

        # Step 4: check every element against the sum in float64. A float32 sum is exact to one
        # rounding: |c - (a+b)| <= 2^-24 |a+b|.
        want = a.astype(np.float64) + b.astype(np.float64)
        bad = int(np.count_nonzero(~(np.abs(c - want) <= 2.0**-24 * np.abs(want))))
        wrong += bad
        print(f"vector_add: {backend:6s}: c[0] = {c[0]:.6f}, c[{n - 1}] = {c[-1]:.6f}; {bad} of {n} wrong; "
              f"kernel {seconds * 1e3:.3f} ms ({12 * n / seconds / 1e9:.0f} GB/s)")

    # numpy arrays are taken directly too: on host backends in place, on "cuda" copied there and
    # back within the call (convenient, but the copies cost far more than the addition).
    c = pk.add(a, b)
    wrong += int(np.count_nonzero(c != a + b))

    # Step 5: write into an array you already have (out=), even one of the inputs: a += b in place.
    a_plus_b = a.astype(np.float64) + b
    pk.add(a, b, out=a)
    wrong += int(np.count_nonzero(~(np.abs(a - a_plus_b) <= 2.0**-24 * np.abs(a_plus_b))))
    # ... and the other element-wise kernels: out = alpha*a + beta*b, x *= alpha.
    # Three roundings at most (two products, one sum) of the terms' size.
    y = pk.axpby(2.0, a, -1.0, b)
    terms = 2.0 * np.abs(a.astype(np.float64)) + np.abs(b)
    wrong += int(np.count_nonzero(~(np.abs(y - (2.0 * a.astype(np.float64) - b)) <= 3 * 2.0**-24 * terms)))

    print(f"vector_add: {'PASS' if wrong == 0 else 'FAIL'}")
    return 0 if wrong == 0 else 1


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    if size <= 0:
        sys.exit("usage: vector_add.py [N > 0]")
    sys.exit(main(size))
