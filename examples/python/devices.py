"""Example 4 (Python): which devices are there, what are they, and choosing one.

The questions the CUDA FAQs answer first (numba.cuda.gpus, cuda.select_device, cudaGetDeviceCount,
cudaGetDeviceProperties): how many GPUs this machine has, their properties, and how to run on a
given one. In portable_kernels the backends are chosen per call (backend=...), and the GPU once per
process, before the first kernel: pk.initialize(device=N), as Kokkos runs on one GPU per process
(an MPI program gives each process its own: see the README's MPI section).

    PYTHONPATH=build/host/python python3 examples/python/devices.py [DEVICE]

Runs a small addition on the chosen device and checks it (exit status 1 if wrong).
"""
import sys

import numpy as np

import portable_kernels as pk


def main(device):
    # Before Kokkos starts: what was compiled in.
    print(f"devices: backends {pk.backends()} (default {pk.default_backend()!r}), Kokkos {pk.kokkos_version}")
    pk.initialize(device=device)  # the GPU for this process (0 without one); threads=N for OpenMP
    for backend in pk.backends():
        found = pk.devices(backend)
        print(f"devices: {backend}: {len(found)} device(s)")
        for d in found:
            extra = ""
            if backend == "cuda":
                extra = (f", {d['multiprocessors']} SMs, compute capability {d['compute_capability'][0]}."
                         f"{d['compute_capability'][1]}, L2 {d['l2_bytes'] >> 20} MiB")
            print(f"devices:   {d['id']}: {d['name']}: {d['concurrency']} threads at once, "
                  f"{d['memory_bytes'] / 2**30:.1f} GiB ({d['free_bytes'] / 2**30:.1f} free){extra}")

    x = np.linspace(0, 1, 1000, dtype=np.float32)
    d = pk.to_device(x)  # on the default backend, the chosen device
    y = pk.add(d, d).copy_to_host()
    ok = bool(np.all(y == 2 * x))
    print(f"devices: 2x on {d.backend}, device {d.device}: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
