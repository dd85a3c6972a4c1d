# add, axpby, scale: every backend and dtype against float64 numpy, outputs poisoned with NaN so an
# element left unwritten fails; bad arguments raise TypeError/ValueError naming what was wrong.
import numpy as np
import pytest

import portable_kernels as pk

SHAPES = [(0,), (1,), (7,), (4099,), (100003,), (3, 5), (2, 3, 17)]
DTYPES = [np.float32, np.float64]


def rounding(dtype):
    return np.finfo(dtype).eps / 2  # one correctly rounded operation


def poisoned(shape, dtype):
    return np.full(shape, np.nan, dtype=dtype)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_add_is_the_rounded_sum(backend, rng, shape, dtype):
    a = rng.standard_normal(shape).astype(dtype)
    b = rng.standard_normal(shape).astype(dtype)
    out = poisoned(shape, dtype)
    got = pk.add(a, b, out=out, backend=backend)
    assert got is out
    want = a.astype(np.float64) + b.astype(np.float64)
    assert np.all(np.abs(out - want) <= rounding(dtype) * np.abs(want))


@pytest.mark.parametrize("dtype", DTYPES)
def test_add_returns_a_new_array_without_out(backend, rng, dtype):
    a = rng.standard_normal(1000).astype(dtype)
    b = rng.standard_normal(1000).astype(dtype)
    c = pk.add(a, b, backend=backend)
    assert c.dtype == dtype and c.shape == a.shape
    assert not np.shares_memory(c, a) and not np.shares_memory(c, b)
    np.testing.assert_allclose(c, a.astype(np.float64) + b, rtol=rounding(dtype))


def test_add_in_place_writes_into_the_input(backend, rng):
    a = rng.standard_normal(513).astype(np.float32)
    b = rng.standard_normal(513).astype(np.float32)
    want = a.astype(np.float64) + b
    pk.add(a, b, out=a, backend=backend)
    np.testing.assert_allclose(a, want, rtol=rounding(np.float32))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_axpby_matches_float64(backend, rng, shape, dtype):
    a = rng.standard_normal(shape).astype(dtype)
    b = rng.standard_normal(shape).astype(dtype)
    alpha, beta = dtype(rng.uniform(-2, 2)), dtype(rng.uniform(-2, 2))
    out = poisoned(shape, dtype)
    pk.axpby(alpha, a, beta, b, out=out, backend=backend)
    terms = np.abs(float(alpha) * a.astype(np.float64)) + np.abs(float(beta) * b.astype(np.float64))
    want = float(alpha) * a.astype(np.float64) + float(beta) * b.astype(np.float64)
    # two products and a sum, each rounded once (or fused): three roundings of the summed terms
    assert np.all(np.abs(out - want) <= 3 * rounding(dtype) * terms)


@pytest.mark.parametrize("dtype", DTYPES)
def test_axpby_as_a_gradient_step_in_place(backend, rng, dtype):
    w = rng.standard_normal(1000).astype(dtype)
    grad = rng.standard_normal(1000).astype(dtype)
    want = w.astype(np.float64) - 0.1 * grad
    pk.axpby(1.0, w, -0.1, grad, out=w, backend=backend)
    np.testing.assert_allclose(w, want, rtol=0, atol=4 * rounding(dtype) * np.max(np.abs(want) + 1))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_scale_in_place(backend, rng, shape, dtype):
    x = rng.standard_normal(shape).astype(dtype)
    alpha = dtype(rng.uniform(-3, 3))
    want = float(alpha) * x.astype(np.float64)
    got = pk.scale(alpha, x, backend=backend)
    assert got is x
    assert np.all(np.abs(x - want) <= rounding(dtype) * np.abs(want))


def test_wrong_dtypes_raise_type_error():
    f32 = np.ones(4, np.float32)
    with pytest.raises(TypeError, match=r"portable_kernels.add: a has dtype int64, expected float32 or float64"):
        pk.add(np.ones(4, np.int64), f32)
    with pytest.raises(TypeError, match=r"b has dtype float64, expected float32"):
        pk.add(f32, np.ones(4, np.float64))
    with pytest.raises(TypeError, match=r"out has dtype float64, expected float32"):
        pk.add(f32, f32, out=np.ones(4, np.float64))
    with pytest.raises(TypeError, match=r"a has dtype >f4"):
        pk.add(f32.astype(">f4"), f32)
    with pytest.raises(TypeError, match=r"a must be an array \(numpy, portable_kernels.Array, .*\), got list"):
        pk.add([1.0, 2.0], [3.0, 4.0])
    with pytest.raises(TypeError, match=r"x has dtype int32"):
        pk.scale(2.0, np.ones(3, np.int32))


def test_bad_shapes_and_layouts_raise_value_error():
    a = np.ones(8, np.float32)
    with pytest.raises(ValueError, match=r"b has shape \(7,\), expected \(8,\)"):
        pk.add(a, np.ones(7, np.float32))
    with pytest.raises(ValueError, match=r"b has shape \(2, 4\), expected \(8,\)"):
        pk.axpby(1.0, a, 1.0, np.ones((2, 4), np.float32))
    with pytest.raises(ValueError, match=r"out has shape \(9,\), expected \(8,\)"):
        pk.add(a, a, out=np.ones(9, np.float32))
    with pytest.raises(ValueError, match=r"a is not C-contiguous"):
        pk.add(np.ones(16, np.float32)[::2], a)
    read_only = np.ones(8, np.float32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match=r"out is read-only"):
        pk.add(a, a, out=read_only)
    with pytest.raises(ValueError, match=r"x is read-only"):
        pk.scale(2.0, read_only)
    buffer = np.ones(9, np.float32)
    with pytest.raises(ValueError, match=r"partially overlaps"):
        pk.add(buffer[:8], a, out=buffer[1:])


def test_unknown_backend():
    a = np.ones(3, np.float32)
    with pytest.raises(ValueError, match=r"unknown backend 'gpu' \(expected one of: "):
        pk.add(a, a, backend="gpu")
    with pytest.raises(TypeError, match=r"backend must be a name"):
        pk.add(a, a, backend=1)
    if "cuda" not in pk.backends():
        with pytest.raises(ValueError, match=r"backend 'cuda' is not compiled into this build"):
            pk.add(a, a, backend="cuda")
