"""pk from Python with the data kept on the GPU, beside CuPy and PyTorch in the same run.

    PYTHONPATH=<build>/python python3 bench/python/gpu_exchange.py [--json FILE] [--quick]

Each case times a peer's call and pk's call on the same GPU arrays (CuPy arrays or PyTorch tensors
handed to pk without a copy; pk's own Arrays too), interleaved: per repeat, a burst of calls of
one then of the other, each burst between device synchronizations, time per call = wall time /
calls; the median of the repeats is reported. Python's time per call overlaps the GPU's (calls
return once queued), so this is what a program chaining kernels sees. Results are checked against
the peer's before timing, and the pointers of inputs and out= are compared across the exchange.
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np

import portable_kernels as pk


def timed(call, sync, calls, repeats):
    call()
    sync()
    out = []
    for _ in range(repeats):
        sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        sync()
        out.append((time.perf_counter() - t0) / calls)
    return out


def compare(name, peer_name, peer, mine, sync, calls, repeats, work=None, unit=None):
    """Interleaved repeats of both; returns a row with medians and pk / peer (speed ratio)."""
    peer_t, pk_t = [], []
    for _ in range(repeats):
        peer_t += timed(peer, sync, calls, 1)
        pk_t += timed(mine, sync, calls, 1)
    p, m = statistics.median(peer_t), statistics.median(pk_t)
    row = {"case": name, "peer": peer_name, "peer_ms": p * 1e3, "pk_ms": m * 1e3, "pk_over_peer": p / m}
    if work:
        row["peer_rate"], row["pk_rate"], row["unit"] = work / p / 1e9, work / m / 1e9, unit
    print(f"{name:46s} {peer_name:34s} {p * 1e3:9.3f} ms {m * 1e3:9.3f} ms   pk/peer {p / m:5.3f}", flush=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats (a smoke run)")
    ap.add_argument("--repeats", type=int, default=9, help="interleaved repeats of each case (median reported)")
    args = ap.parse_args()

    import cupy as cp
    import cupyx.scipy.ndimage as ndi
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    pk.initialize()
    dev = pk.devices("cuda")[0]
    print(f"device: {dev['name']}, pk {pk.__version__} (Kokkos {pk.kokkos_version}), CuPy {cp.__version__}, "
          f"PyTorch {torch.__version__}")

    def sync():
        torch.cuda.synchronize()  # the whole device: CuPy's, PyTorch's and pk's streams
        pk.synchronize()

    repeats = 3 if args.quick else args.repeats
    rows, checks = [], []

    # add: c = a + b on float32 vectors
    for log2 in ([22] if args.quick else [26, 27, 28]):
        n = 1 << log2
        a = cp.random.standard_normal(n, dtype=cp.float32)
        b = cp.random.standard_normal(n, dtype=cp.float32)
        c_cp, c_pk = cp.empty_like(a), cp.empty_like(a)
        ptrs = (a.data.ptr, b.data.ptr, c_pk.data.ptr)
        pk.add(a, b, out=c_pk)
        cp.add(a, b, out=c_cp)
        assert bool((c_cp == c_pk).all()), "pk.add differs from cupy.add"
        checks.append(ptrs == (a.data.ptr, b.data.ptr, c_pk.data.ptr) and pk.add(a, b, out=c_pk) is c_pk)
        calls = max(5, (1 << 28) // n * 5)
        rows.append(compare(f"add 2^{log2} f32, CuPy arrays, out=", "cupy.add(out=)", lambda: cp.add(a, b, out=c_cp),
                            lambda: pk.add(a, b, out=c_pk), sync, calls, repeats, 12.0 * n, "GB/s"))
        da, db = pk.from_dlpack(a), pk.from_dlpack(b)
        dc = pk.from_dlpack(c_pk)
        rows.append(compare(f"add 2^{log2} f32, pk Arrays, out=", "cupy.add(out=)", lambda: cp.add(a, b, out=c_cp),
                            lambda: pk.add(da, db, out=dc), sync, calls, repeats, 12.0 * n, "GB/s"))
        rows.append(compare(f"add 2^{log2} f32, new result each call", "cupy.add", lambda: cp.add(a, b),
                            lambda: pk.add(da, db), sync, calls, repeats, 12.0 * n, "GB/s"))
        del a, b, c_cp, c_pk, da, db, dc
        cp.get_default_memory_pool().free_all_blocks()

    # matmul on PyTorch tensors (FP32, no TF32), through DLPack/the interface
    for size in ([1024] if args.quick else [4096, 8192]):
        a = torch.randn(size, size, device="cuda")
        b = torch.randn(size, size, device="cuda")
        c_t, c_pk = torch.empty_like(a), torch.empty_like(a)
        ptrs = (a.data_ptr(), b.data_ptr(), c_pk.data_ptr())
        pk.matmul(a, b, out=c_pk)
        torch.matmul(a, b, out=c_t)
        sync()
        err = (c_pk.double() - c_t.double()).abs().max().item()
        scale = (a.abs().double() @ b.abs().double()).max().item()
        assert err <= 1e-5 * scale, f"pk.matmul differs from torch.matmul by {err} (scale {scale})"
        checks.append(ptrs == (a.data_ptr(), b.data_ptr(), c_pk.data_ptr()))
        calls = 3 if size >= 8192 else 10
        rows.append(compare(f"matmul {size}^3 f32, PyTorch tensors, out=", "torch.matmul(out=), TF32 off",
                            lambda: torch.matmul(a, b, out=c_t), lambda: pk.matmul(a, b, out=c_pk), sync, calls,
                            repeats, 2.0 * size ** 3, "GFLOP/s"))
        del a, b, c_t, c_pk
        torch.cuda.empty_cache()

    # box 3x3 filter on a CuPy image (pk's reflect101 is scipy's "mirror")
    side = 1024 if args.quick else 8192
    img = cp.random.standard_normal((side, side), dtype=cp.float32)
    w = cp.full((3, 3), 1 / 9, dtype=cp.float32)
    out_cp, out_pk = cp.empty_like(img), cp.empty_like(img)
    ptrs = (img.data.ptr, out_pk.data.ptr)
    pk.filter(img, "box3", out=out_pk)
    ndi.correlate(img, w, output=out_cp, mode="mirror")
    assert float(cp.abs(out_pk - out_cp).max()) <= 1e-5 * float(cp.abs(img).max()), "pk.filter differs"
    checks.append(ptrs == (img.data.ptr, out_pk.data.ptr))
    rows.append(compare(f"filter box3 {side}^2 f32, CuPy image, out=", "cupyx.scipy.ndimage.correlate",
                        lambda: ndi.correlate(img, w, output=out_cp, mode="mirror"),
                        lambda: pk.filter(img, "box3", out=out_pk), sync, 20, repeats, 8.0 * side * side, "GB/s"))
    del img, out_cp, out_pk

    # The uint8 photo case: a 4096^2 RGB Gaussian, numpy on cuda (copies) against GPU arrays
    side = 1024 if args.quick else 4096
    host = np.random.default_rng(1).integers(0, 256, (side, side, 3), dtype=np.uint8)
    d = pk.to_device(host)
    o = pk.empty(host.shape, "uint8")
    np.testing.assert_array_equal(pk.filter(d, "gaussian5", out=o).copy_to_host(), pk.filter(host, "gaussian5"))
    rows.append(compare(f"filter gaussian5 {side}^2 RGB uint8", "pk on numpy arrays (copies)",
                        lambda: pk.filter(host, "gaussian5"), lambda: pk.filter(d, "gaussian5", out=o), sync, 10,
                        repeats, 6.0 * side * side, "GB/s"))

    print(f"no copies (pointers of inputs and out= unchanged across the exchange): {all(checks)}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": dev["name"], "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                       "pk": pk.__version__, "cupy": cp.__version__, "torch": torch.__version__,
                       "no_copies": all(checks), "rows": rows}, f, indent=1)
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
