"""Example 3 (Python): matrix multiplication, C = A @ B.

The Numba CUDA and TensorFlow tutorials build this up in two steps: a naive kernel (one thread per
entry of C, each reading a row of A and a column of B from global memory: memory-bound), then a
tiled one (a block of threads stages TILE x TILE pieces of A and B in fast shared memory and reuses
them TILE times). portable_kernels' GEMM is the tiled kind, written once in Kokkos for GPUs and
CPUs; from Python it is pk.matmul, on numpy matrices or on matrices kept in the device's memory
(pk.to_device, or CuPy arrays and PyTorch tensors as they are).

    PYTHONPATH=build/host/python python3 examples/python/matmul.py

Checks every entry against numpy's float64 product (exit status 1 if any is off by more than
the rounding bound of a length-k dot product), and times a square product.
"""
import sys
import time

import numpy as np

import portable_kernels as pk


def max_excess(got, a, b, alpha=1.0, beta=0.0, c0=None):
    """How far the worst entry is past its bound 2(k+2)u(|alpha||A||B| + |beta C0|); <= 0 is right."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    want = alpha * (a64 @ b64)
    size = abs(alpha) * (np.abs(a64) @ np.abs(b64))
    if c0 is not None:
        want += beta * c0
        size += abs(beta) * np.abs(c0)
    bound = 2 * (a.shape[1] + 2) * np.finfo(got.dtype).eps / 2 * size
    return float(np.max(np.abs(got - want) - bound))


def main():
    rng = np.random.default_rng(2026)
    failures = 0

    # Sizes that are multiples of no tile, so that the edge tiles are exercised too.
    m, n, k = 300, 257, 131
    a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
    for backend in pk.backends():
        c = pk.matmul(a, b, backend=backend)
        excess = max_excess(c, a, b)
        failures += excess > 0
        print(f"matmul: {backend:6s}: C = A @ B, {m}x{k} @ {k}x{n} float32: "
              f"{'every entry within the rounding bound' if excess <= 0 else 'WRONG'}")

    # Transposes cost nothing: a.T is a view whose memory is a, row by row, and pk.matmul reads it
    # as such (BLAS's "transpose" flag). This is backpropagation's dW = X.T @ dZ without a copy.
    x = rng.standard_normal((k, m)).astype(np.float32)  # stored k x m; x.T is m x k
    c = pk.matmul(x.T, b)
    excess = max_excess(c, x.T, b)
    failures += excess > 0
    print(f"matmul: x.T @ B with x.T a transposed view (F-contiguous: {x.T.flags.f_contiguous}): "
          f"{'right' if excess <= 0 else 'WRONG'}")

    # The full GEMM: out = alpha * A @ B + beta * out, accumulating into an existing array.
    c0 = rng.standard_normal((m, n)).astype(np.float32)
    out = c0.copy()
    pk.matmul(a, b, out=out, alpha=0.5, beta=-2.0)
    excess = max_excess(out, a, b, alpha=0.5, beta=-2.0, c0=c0.astype(np.float64))
    failures += excess > 0
    print(f"matmul: out = 0.5 A @ B - 2 out: {'right' if excess <= 0 else 'WRONG'}")

    # Timing: a square product, 2 n^3 floating-point operations, with the matrices kept in the
    # backend's memory (to_device once; numpy arrays on the GPU would be copied at every call).
    size = 1024
    a = rng.uniform(-1, 1, (size, size)).astype(np.float32)
    b = rng.uniform(-1, 1, (size, size)).astype(np.float32)
    d_a, d_b = pk.to_device(a), pk.to_device(b)
    d_c = pk.matmul(d_a, d_b)  # the first call is a warm-up
    pk.synchronize()
    start = time.perf_counter()
    pk.matmul(d_a, d_b, out=d_c)
    pk.synchronize()  # calls on GPU arrays return once queued
    seconds = time.perf_counter() - start
    c = d_c.copy_to_host()
    print(f"matmul: {size}^3 on {pk.default_backend()}: {seconds * 1e3:.1f} ms, "
          f"{2 * size**3 / seconds / 1e9:.1f} GFLOP/s (numpy's BLAS for comparison: ", end="")
    start = time.perf_counter()
    a @ b
    print(f"{2 * size**3 / (time.perf_counter() - start) / 1e9:.1f} GFLOP/s)")
    failures += max_excess(c, a, b) > 0

    print(f"matmul: {'PASS' if failures == 0 else 'FAIL'}")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
