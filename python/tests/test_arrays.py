# portable_kernels.Array and the exchange protocols, on every backend of this build: arrays made in
# a backend's memory, kernels on them returning them, views, DLPack both ways with numpy (no copies:
# pointers compared), lifetimes across the exchange, and every error path. The GPU's own paths
# (CuPy, PyTorch, Numba, streams) are in test_cuda_exchange.py.
import gc

import numpy as np
import pytest

import portable_kernels as pk

DTYPES = [np.float32, np.float64, np.uint8]


def data_pointer(x):
    """Where an array's first element lies: numpy's or pk's (host arrays through numpy's view)."""
    if isinstance(x, pk.Array) and "cuda" == x.backend:
        return x.__cuda_array_interface__["data"][0]
    return np.asarray(x).__array_interface__["data"][0]


def random_of(rng, shape, dtype):
    if dtype == np.uint8:
        return rng.integers(0, 256, shape, dtype=np.uint8)
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0,), (5,), (3, 4), (2, 3, 4)])
def test_to_device_and_back_keeps_every_value(backend, rng, dtype, shape):
    x = random_of(rng, shape, dtype)
    d = pk.to_device(x, backend=backend)
    assert isinstance(d, pk.Array)
    assert d.shape == shape and d.dtype == dtype and d.backend == backend and d.device == 0
    assert d.ndim == len(shape) and d.size == x.size and d.nbytes == x.nbytes and d.itemsize == x.itemsize
    if x.size:
        assert d.strides == x.strides
    back = d.copy_to_host()
    assert isinstance(back, np.ndarray) and back.dtype == dtype
    np.testing.assert_array_equal(back, x)
    if x.size:
        assert data_pointer(back) != data_pointer(x)
    out = np.full(shape, 7, dtype)
    assert d.copy_to_host(out=out) is out
    np.testing.assert_array_equal(out, x)


def test_to_device_makes_a_strided_numpy_array_contiguous(backend, rng):
    x = rng.standard_normal((6, 8)).astype(np.float32)
    d = pk.to_device(x[:, ::2], backend=backend)
    np.testing.assert_array_equal(d.copy_to_host(), x[:, ::2])
    d2 = pk.to_device(d, backend=backend)  # a pk array: copied
    np.testing.assert_array_equal(d2.copy_to_host(), x[:, ::2])


@pytest.mark.parametrize("dtype", DTYPES)
def test_empty_and_zeros(backend, dtype):
    z = pk.zeros((3, 5), dtype, backend=backend)
    np.testing.assert_array_equal(z.copy_to_host(), np.zeros((3, 5), dtype))
    e = pk.empty(7, dtype=dtype, backend=backend)
    assert e.shape == (7,) and e.dtype == dtype
    assert pk.zeros(0, backend=backend).size == 0


def test_host_arrays_are_host_memory_without_copies(rng):
    for backend in [b for b in pk.backends() if b != "cuda"]:
        d = pk.to_device(rng.standard_normal(16).astype(np.float32), backend=backend)
        v = np.asarray(d)
        assert data_pointer(v) == data_pointer(d) and np.shares_memory(v, np.asarray(d))
        v[3] = 42.0  # the same memory
        assert d.copy_to_host()[3] == 42.0
        del d
        gc.collect()
        v[0] = 1.0  # the numpy view keeps the array's memory alive
        assert v[3] == 42.0
        assert np.asarray(pk.zeros(4, backend=backend), dtype=np.float64).dtype == np.float64


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_kernels_take_and_return_device_arrays(backend, rng, dtype):
    a = rng.standard_normal((64, 48)).astype(dtype)
    b = rng.standard_normal((64, 48)).astype(dtype)
    da, db = pk.to_device(a, backend=backend), pk.to_device(b, backend=backend)
    c = pk.add(da, db)  # runs where the arrays lie
    assert isinstance(c, pk.Array) and c.backend == backend
    np.testing.assert_allclose(c.copy_to_host(), a.astype(np.float64) + b, rtol=np.finfo(dtype).eps)
    out = pk.empty(a.shape, dtype, backend=backend)
    assert pk.axpby(2.0, da, -1.0, db, out=out) is out
    np.testing.assert_allclose(out.copy_to_host(), 2.0 * a.astype(np.float64) - b, rtol=4 * np.finfo(dtype).eps,
                               atol=4 * np.finfo(dtype).eps)
    assert pk.scale(0.5, out) is out
    np.testing.assert_allclose(out.copy_to_host(), (2.0 * a.astype(np.float64) - b) / 2,
                               rtol=8 * np.finfo(dtype).eps, atol=8 * np.finfo(dtype).eps)
    # matmul, with a transposed view read in place
    m = pk.matmul(da.T, db)
    assert isinstance(m, pk.Array) and m.shape == (48, 48)
    want = a.T.astype(np.float64) @ b
    tol = 64 * np.finfo(dtype).eps * (np.abs(a.T) @ np.abs(b))
    assert np.all(np.abs(m.copy_to_host() - want) <= tol)


@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_filters_take_and_return_device_arrays(backend, rng, dtype):
    img = random_of(rng, (37, 53, 3), dtype)
    d = pk.to_device(img, backend=backend)
    want = pk.filter(img, "gaussian5", backend=backend)  # the numpy path, checked in test_filter.py
    got = pk.filter(d, "gaussian5")
    assert isinstance(got, pk.Array)
    np.testing.assert_array_equal(got.copy_to_host(), want)
    out = pk.empty(img.shape, dtype, backend=backend)
    assert pk.sobel(d, out=out) is out
    np.testing.assert_array_equal(out.copy_to_host(), pk.sobel(img, backend=backend))


def test_rows_transpose_and_reshape_are_views(backend, rng):
    x = rng.standard_normal((6, 4)).astype(np.float32)
    d = pk.to_device(x, backend=backend)
    np.testing.assert_array_equal(d[2].copy_to_host(), x[2])
    np.testing.assert_array_equal(d[-1].copy_to_host(), x[-1])
    np.testing.assert_array_equal(d[1:4].copy_to_host(), x[1:4])
    assert d[4:2].shape == (0, 4)
    assert d.T.shape == (4, 6) and d.T.strides == x.T.strides
    np.testing.assert_array_equal(d.reshape(3, 8).copy_to_host(), x.reshape(3, 8))
    np.testing.assert_array_equal(d.reshape(-1).copy_to_host(), x.reshape(-1))
    rows = d[1:3]
    pk.scale(2.0, rows)  # writes through the view
    x[1:3] *= 2
    np.testing.assert_array_equal(d.copy_to_host(), x)
    assert len(d) == 6 and "shape=(6, 4), dtype=float32, backend='" + backend + "'" in repr(d)


def test_view_errors(backend):
    d = pk.zeros((6, 4), backend=backend)
    with pytest.raises(IndexError, match=r"index 6 is out of range for 6 rows"):
        d[6]
    with pytest.raises(ValueError, match=r"only row ranges with step 1"):
        d[::2]
    with pytest.raises(TypeError, match=r"an index is an int or a slice of rows"):
        d[1, 2]
    with pytest.raises(ValueError, match=r"cannot reshape 24 elements \(6, 4\) into \(5, 5\)"):
        d.reshape(5, 5)
    with pytest.raises(ValueError, match=r"not C-contiguous"):
        d.T.reshape(24)
    with pytest.raises(ValueError, match=r"not C-contiguous"):
        pk.add(d.T, d.T)
    with pytest.raises(ValueError, match=r"not C-contiguous"):
        d.T.copy_to_host()


def test_dlpack_with_numpy_shares_memory(rng):
    x = rng.standard_normal((5, 7)).astype(np.float32)
    d = pk.from_dlpack(x)
    assert isinstance(d, pk.Array) and d.shape == x.shape and d.backend in pk.backends()
    assert data_pointer(d) == data_pointer(x)
    host = [b for b in pk.backends() if b != "cuda"][0]
    pk.scale(3.0, d, backend=host)  # a kernel on numpy's memory through the pk array
    np.testing.assert_allclose(x, d.copy_to_host())
    y = np.from_dlpack(d)  # and back to numpy: the same memory again
    assert data_pointer(y) == data_pointer(x)
    del x, d
    gc.collect()
    assert y.shape == (5, 7) and np.isfinite(y).all()  # kept alive through both exchanges


def test_dlpack_capsules_both_versions(rng):
    host = [b for b in pk.backends() if b != "cuda"][0]
    x = rng.standard_normal(9).astype(np.float64)
    d = pk.to_device(x, backend=host)
    assert d.__dlpack_device__() == (1, 0)

    class Producer:  # hands out pk's own capsule, versioned (DLPack 1.0) or not
        def __init__(self, versioned):
            self.versioned = versioned

        def __dlpack__(self, stream=None, max_version=None):
            return d.__dlpack__(max_version=(1, 0) if self.versioned else None)

        def __dlpack_device__(self):
            return d.__dlpack_device__()

    for versioned in (False, True):
        e = pk.from_dlpack(Producer(versioned))
        assert data_pointer(e) == data_pointer(d)
        np.testing.assert_array_equal(e.copy_to_host(), x)
    capsule = d.__dlpack__()  # never consumed: its reference to d is dropped with it
    del capsule
    c = pk.from_dlpack(Producer(True))
    del d
    gc.collect()
    np.testing.assert_array_equal(c.copy_to_host(), x)  # the capsule's consumer keeps the memory alive
    with pytest.raises(BufferError, match=r"dl_device \(2, 0\) is not where the array lies \(host\)"):
        c.__dlpack__(dl_device=(2, 0))
    copied = pk.from_dlpack(_Wrap(c, copy=True))
    assert data_pointer(copied) != data_pointer(c)


class _Wrap:
    def __init__(self, arr, copy):
        self.arr, self.copy = arr, copy

    def __dlpack__(self, stream=None, max_version=None):
        return self.arr.__dlpack__(copy=self.copy)

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()


def test_outputs_are_what_the_inputs_are(rng):
    host = [b for b in pk.backends() if b != "cuda"][0]
    a = rng.standard_normal(8).astype(np.float32)
    assert isinstance(pk.add(a, a, backend=host), np.ndarray)  # numpy in, numpy out
    d = pk.to_device(a, backend=host)
    assert isinstance(pk.add(a, d), pk.Array)  # both in host memory: a pk array out
    out = np.zeros(8, np.float32)
    assert pk.add(d, d, out=out) is out  # out= is returned as it is
    np.testing.assert_allclose(out, 2 * a)


def test_errors_name_the_argument(rng):
    host = [b for b in pk.backends() if b != "cuda"][0]
    d = pk.zeros(4, backend=host)
    with pytest.raises(ValueError, match=r"portable_kernels.add: stream= applies to the cuda backend only"):
        pk.add(d, d, stream=5)
    with pytest.raises(TypeError, match=r"stream must be a CUDA stream .*, got str"):
        pk.add(d, d, stream="s")
    with pytest.raises(TypeError, match=r"shape must be an int or a tuple of ints, got str"):
        pk.empty("big")
    with pytest.raises(ValueError, match=r"shape \(2, -1\) has a negative extent"):
        pk.zeros((2, -1))
    with pytest.raises(TypeError, match=r"dtype int16 has no kernels \(expected float32, float64, uint8, or int32 for labels\)"):
        pk.empty(3, np.int16)
    with pytest.raises(TypeError, match=r"portable_kernels.to_device: x has dtype int64, expected float32"):
        pk.to_device(np.arange(3))
    with pytest.raises(TypeError, match=r"to_device: x must be an array \(numpy, portable_kernels.Array"):
        pk.to_device([1.0, 2.0])
    with pytest.raises(ValueError, match=r"device 3: host backends have device 0 only"):
        pk.zeros(2, backend=host, device=3)
    with pytest.raises(MemoryError, match=r"portable_kernels.empty: the array \(1000000, 1000000, 100\): needs "
                                          r"400000.0 GB, more than the [0-9.]+ GB free on the host"):
        pk.empty((1000000, 1000000, 100), backend=host)
    with pytest.raises(TypeError, match=r"from_dlpack: x has no __dlpack__"):
        pk.from_dlpack([1, 2])
    with pytest.raises(TypeError, match=r"a has dtype int64, expected float32 or float64"):
        pk.add(pk.from_dlpack(np.arange(4)), d)
    with pytest.raises(ValueError, match=r"out is read-only"):
        ro = np.zeros(4, np.float32)
        ro.setflags(write=False)
        pk.add(d, d, out=ro)
    with pytest.raises(ValueError, match=r"out shares memory with image"):
        img = pk.zeros((8, 8), backend=host)
        pk.filter(img, "box3", out=img)
    with pytest.raises(AttributeError):
        d.__cuda_array_interface__
    if "cuda" not in pk.backends():
        class FakeGpuArray:
            __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False), "version": 3}

        with pytest.raises(ValueError, match=r"a is in GPU memory .*this build of portable_kernels has no cuda "
                                             r"backend"):
            pk.add(FakeGpuArray(), d)


@pytest.mark.skipif("cuda" not in pk.backends(), reason="needs the cuda backend")
def test_arrays_in_different_memories_are_refused():
    host = [b for b in pk.backends() if b != "cuda"][0]
    d = pk.zeros(4, backend=host)
    g = pk.zeros(4, backend="cuda")
    with pytest.raises(ValueError, match=r"b is in host memory but the call runs on cuda \(where a lies\)"):
        pk.add(g, d)
    with pytest.raises(ValueError, match=r"a is in GPU memory \(cuda:0\) but the call runs on " + host):
        pk.add(g, d, backend=host)
    with pytest.raises(ValueError, match=r"a is in host memory but the call runs on cuda"):
        pk.add(d, np.zeros(4, np.float32), backend="cuda")


def test_synchronize(backend):
    pk.synchronize(backend=backend)
    pk.synchronize()
