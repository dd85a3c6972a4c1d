# The GPU paths of portable_kernels.Array: kernels on CuPy arrays, PyTorch tensors and Numba device
# arrays without copies (pointers compared before and after), results handed back the same way,
# streams (a PyTorch kernel writing an input just before pk on the same stream, and on the default
# streams), and the errors of mixing memories. Skipped without the cuda backend or a GPU; each
# library's tests are skipped when it is not installed (the GPU machine has all three).
import numpy as np
import pytest

import portable_kernels as pk

pytestmark = pytest.mark.skipif("cuda" not in pk.backends(), reason="needs the cuda backend")


def library(name):
    try:
        return pytest.importorskip(name)
    except Exception as e:  # installed but without a usable GPU
        pytest.skip(f"{name}: {e}")


def ptr(x):
    return x.__cuda_array_interface__["data"][0]


@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_add_on_pk_arrays(rng, n):
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    da, db = pk.to_device(a), pk.to_device(b)
    assert da.backend == "cuda"
    out = pk.empty(n)
    before = ptr(out)
    assert pk.add(da, db, out=out) is out and ptr(out) == before
    np.testing.assert_allclose(out.copy_to_host(), a.astype(np.float64) + b, rtol=6e-8)
    c = pk.add(da, db)
    assert isinstance(c, pk.Array) and c.backend == "cuda"
    np.testing.assert_array_equal(c.copy_to_host(), out.copy_to_host())


def test_cupy_arrays_in_and_out_without_copies(rng):
    cp = library("cupy")
    a = cp.asarray(rng.standard_normal((512, 384)).astype(np.float32))
    b = cp.asarray(rng.standard_normal((512, 384)).astype(np.float32))
    out = cp.full((512, 384), cp.nan, dtype=cp.float32)
    pointers = (a.data.ptr, b.data.ptr, out.data.ptr)
    assert pk.add(a, b, out=out) is out
    assert (a.data.ptr, b.data.ptr, out.data.ptr) == pointers
    np.testing.assert_allclose(cp.asnumpy(out), cp.asnumpy(a).astype(np.float64) + cp.asnumpy(b), rtol=6e-8)
    # pk's result taken by CuPy without a copy, both ways of asking
    c = pk.add(a, b)
    assert cp.asarray(c).data.ptr == ptr(c) and cp.from_dlpack(c).data.ptr == ptr(c)
    # filter on a CuPy image, compared with the numpy path (checked against float64 in test_filter.py)
    img = cp.asarray(rng.standard_normal((97, 131)).astype(np.float32))
    got = pk.filter(img, "box3")
    np.testing.assert_array_equal(cp.asnumpy(cp.asarray(got)), pk.filter(cp.asnumpy(img), "box3"))
    u8 = cp.asarray(rng.integers(0, 256, (64, 80, 3), dtype=np.uint8))
    out8 = cp.zeros_like(u8)
    pk.filter(u8, "gaussian5", out=out8)
    np.testing.assert_array_equal(cp.asnumpy(out8), pk.filter(cp.asnumpy(u8), "gaussian5"))


def test_torch_tensors_through_dlpack_and_the_interface(rng):
    torch = library("torch")
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.randn(300, 200, device="cuda", dtype=torch.float64)
    b = torch.randn(200, 170, device="cuda", dtype=torch.float64)
    c = torch.empty(300, 170, device="cuda", dtype=torch.float64)
    pointers = (a.data_ptr(), b.data_ptr(), c.data_ptr())
    assert pk.matmul(a, b, out=c) is c
    assert (a.data_ptr(), b.data_ptr(), c.data_ptr()) == pointers
    want = (a.cpu().numpy() @ b.cpu().numpy())
    np.testing.assert_allclose(c.cpu().numpy(), want, rtol=1e-12, atol=1e-12 * np.abs(want).max())
    # a transposed tensor is read in place
    ct = pk.matmul(b.T, a.T)
    np.testing.assert_allclose(torch.from_dlpack(ct).cpu().numpy(), want.T, rtol=1e-12, atol=1e-12 * np.abs(want).max())
    # pk arrays into torch and back, no copies
    d = pk.from_dlpack(a)
    assert ptr(d) == a.data_ptr()
    t = torch.from_dlpack(d)
    assert t.data_ptr() == a.data_ptr() and t.device.type == "cuda"
    # a tensor that requires grad: the protocol's own error, as TypeError naming the argument
    with pytest.raises(TypeError, match=r"portable_kernels.add: a: .*grad"):
        pk.add(torch.ones(4, device="cuda", requires_grad=True), torch.ones(4, device="cuda"))


def test_numba_device_arrays(rng):
    cuda = library("numba.cuda")
    if not cuda.is_available():
        pytest.skip("numba sees no GPU")
    x = rng.standard_normal(4096).astype(np.float32)
    dx = cuda.to_device(x)
    out = cuda.device_array_like(dx)
    pk.add(dx, dx, out=out)
    np.testing.assert_allclose(out.copy_to_host(), 2 * x.astype(np.float64), rtol=6e-8)
    d = pk.scale(3.0, pk.to_device(x))
    nd = cuda.as_cuda_array(d)
    assert nd.__cuda_array_interface__["data"][0] == ptr(d)
    np.testing.assert_allclose(nd.copy_to_host(), 3 * x.astype(np.float64), rtol=6e-8)


def test_torch_writes_then_pk_reads_on_one_stream():
    torch = library("torch")
    n = 1 << 24
    s = torch.cuda.Stream()
    a = torch.zeros(n, device="cuda")
    b = torch.zeros(n, device="cuda")
    out = torch.empty(n, device="cuda")
    big = torch.randn(4096, 4096, device="cuda")
    for round in range(3):
        with torch.cuda.stream(s):
            for _ in range(4):
                big = big @ big / 64  # keeps the stream busy, so that a missing order shows
            a.fill_(round + 1.0)
            b.fill_(2.0)
            pk.add(a, b, out=out, stream=s)
            pk.scale(2.0, out, stream=torch.cuda.current_stream())
        s.synchronize()
        assert torch.all(out == 2 * (round + 3.0)).item()


def test_default_streams_are_ordered():
    torch = library("torch")
    n = 1 << 24
    big = torch.randn(4096, 4096, device="cuda")
    a = torch.zeros(n, device="cuda")
    for round in range(3):
        for _ in range(4):
            big = big @ big / 64
        a.fill_(round + 1.0)  # torch's default stream
        d = pk.scale(1.0, pk.to_device(a))  # pk's default stream, no stream given
        c = torch.from_dlpack(pk.add(d, d))  # and back: the consumer's stream waits for pk
        assert torch.all(c == 2 * (round + 1.0)).item()


def test_cupy_stream_and_raw_handles():
    cp = library("cupy")
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        a = cp.full(1 << 20, 3.0, dtype=cp.float32)
        out = cp.empty_like(a)
        pk.add(a, a, out=out, stream=s)
        pk.scale(0.5, out, stream=s.ptr)
    s.synchronize()
    assert float(out.max()) == 3.0 and float(out.min()) == 3.0
    pk.synchronize(stream=s)
    pk.synchronize()


def test_gpu_errors():
    d = pk.zeros(8, backend="cuda")
    with pytest.raises(TypeError, match=r"this array is in GPU memory \(cuda:0\): copy_to_host\(\)"):
        np.asarray(d)
    with pytest.raises(ValueError, match=r"stream= needs arrays in GPU memory"):
        pk.add(np.zeros(4, np.float32), np.zeros(4, np.float32), backend="cuda", stream=0)
    with pytest.raises(ValueError, match=r"device 5: pk runs on cuda:0"):
        pk.zeros(4, backend="cuda", device=5)
    with pytest.raises(BufferError, match=r"dl_device \(1, 0\) is not where the array lies \(cuda:0\)"):
        d.__dlpack__(dl_device=(1, 0))
    cai = d.__cuda_array_interface__
    assert cai["version"] == 3 and cai["typestr"] == "<f4" and cai["shape"] == (8,) and cai["strides"] is None
    assert d.__dlpack_device__() == (2, 0)
    with pytest.raises(MemoryError, match=r"portable_kernels.empty: the array \(1000000, 1000000\): needs 4000.0 GB"):
        pk.empty((1000000, 1000000), backend="cuda")
