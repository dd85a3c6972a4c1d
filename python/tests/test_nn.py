# The CNN layers on every backend against float64 numpy references: conv2d (valid and same, odd
# shapes: batch 1, H or W smaller than the kernel, C = 1, F not a multiple of any tile), its two
# gradients checked by the adjoint identity <dy, conv(e)> = <dx, e> and by finite differences,
# max pooling and its gradient, bias/relu, column sums, softmax cross-entropy, Adam; errors.
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

import portable_kernels as pk

CASES = [  # (N, H, W, C, F, KH, KW, padding)
    (1, 5, 5, 1, 1, 3, 3, "valid"),
    (2, 9, 7, 3, 5, 3, 3, "valid"),
    (3, 8, 11, 2, 7, 3, 5, "same"),
    (1, 2, 3, 4, 3, 3, 5, "same"),   # H and W smaller than the kernel
    (2, 6, 6, 1, 33, 1, 1, "valid"),
    (4, 13, 13, 32, 17, 3, 3, "valid"),
]


def dev(backend, x):
    """x in the backend's memory: the layers take no numpy arrays on cuda."""
    return pk.to_device(x, backend=backend) if backend == "cuda" and x is not None else x


def host(x):
    return x.copy_to_host() if isinstance(x, pk.Array) else x


def conv_ref(x, w, b, pad):
    kh, kw = w.shape[1:3]
    x = x.astype(np.float64)
    if pad == "same":
        x = np.pad(x, ((0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2), (0, 0)))
    windows = sliding_window_view(x, (kh, kw), axis=(1, 2))  # N, Ho, Wo, C, KH, KW
    y = np.einsum("nhwcij,fijc->nhwf", windows, w.astype(np.float64))
    return y if b is None else y + b.astype(np.float64)


def tolerance(dtype, k, size):
    return 2 * (k + 2) * np.finfo(dtype).eps * size


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES)
def test_conv2d_forward(backend, rng, dtype, case):
    n, h, w_, c, f, kh, kw, pad = case
    x = rng.standard_normal((n, h, w_, c)).astype(dtype)
    w = rng.standard_normal((f, kh, kw, c)).astype(dtype)
    b = rng.standard_normal(f).astype(dtype)
    want = conv_ref(x, w, b, pad)
    out = dev(backend, np.full(want.shape, np.nan, dtype))
    assert pk.conv2d(dev(backend, x), dev(backend, w), dev(backend, b), padding=pad, out=out, backend=backend) is out
    size = conv_ref(np.abs(x), np.abs(w), np.abs(b), pad)
    assert np.all(np.abs(host(out) - want) <= tolerance(dtype, kh * kw * c, size))
    y = host(pk.conv2d(dev(backend, x), dev(backend, w), padding=pad, relu=True, backend=backend))  # no bias, relu
    assert np.all(np.abs(y - np.maximum(conv_ref(x, w, None, pad), 0)) <= tolerance(dtype, kh * kw * c, size))


@pytest.mark.parametrize("case", CASES)
def test_conv2d_gradients_are_the_adjoints(backend, rng, case):
    n, h, w_, c, f, kh, kw, pad = case
    x = rng.standard_normal((n, h, w_, c))
    w = rng.standard_normal((f, kh, kw, c))
    dy = rng.standard_normal(conv_ref(x, w, None, pad).shape)
    dx = host(pk.conv2d_backward_input(dev(backend, dy), dev(backend, w), padding=pad, backend=backend,
                                       out=dev(backend, np.full(x.shape, np.nan))))
    dw, db = map(host, pk.conv2d_backward_weights(dev(backend, x), dev(backend, dy), (kh, kw), padding=pad,
                                                  backend=backend))
    # conv is linear in x and in w: <dy, conv(e, w)> = <dx, e>, <dy, conv(x, e)> = <dw, e>
    ex, ew = rng.standard_normal(x.shape), rng.standard_normal(w.shape)
    scale = np.abs(dy).sum() * max(np.abs(w).max(), np.abs(x).max()) * 4
    assert abs(np.sum(dy * conv_ref(ex, w, None, pad)) - np.sum(dx * ex)) <= 1e-12 * scale * kh * kw * c
    assert abs(np.sum(dy * conv_ref(x, ew, None, pad)) - np.sum(dw * ew)) <= 1e-12 * scale * kh * kw * c
    np.testing.assert_allclose(db, dy.sum(axis=(0, 1, 2)), rtol=1e-12, atol=1e-12 * np.abs(dy).sum())
    dw2, none = pk.conv2d_backward_weights(dev(backend, x), dev(backend, dy), (kh, kw), padding=pad, bias=False,
                                           backend=backend)
    assert none is None and np.array_equal(dw, host(dw2))


def test_conv2d_gradients_by_finite_differences(backend, rng):
    # float64 all through: the central difference of a loss L = sum(relu(conv(x, w) + b) * r)
    x = rng.standard_normal((2, 6, 5, 3))
    w = rng.standard_normal((4, 3, 3, 3))
    b = rng.standard_normal(4)
    r = rng.standard_normal((2, 6, 5, 4))

    def conv(x, w, b):
        return pk.conv2d(dev(backend, x), dev(backend, w), dev(backend, b), padding="same", relu=True, backend=backend)

    def loss(x, w, b):
        return np.sum(host(conv(x, w, b)) * r)

    y = conv(x, w, b)
    dz = pk.relu_backward(y, dev(backend, r), backend=backend)
    dx = host(pk.conv2d_backward_input(dz, dev(backend, w), padding="same", backend=backend))
    dw, db = map(host, pk.conv2d_backward_weights(dev(backend, x), dz, (3, 3), padding="same", backend=backend))
    eps = 1e-6
    for grad, arg in ((dx, 0), (dw, 1), (db, 2)):
        e = rng.standard_normal(grad.shape)
        args_plus = [x, w, b]
        args_minus = [x, w, b]
        args_plus[arg] = args_plus[arg] + eps * e
        args_minus[arg] = args_minus[arg] - eps * e
        fd = (loss(*args_plus) - loss(*args_minus)) / (2 * eps)
        assert abs(fd - np.sum(grad * e)) <= 1e-5 * (1 + abs(fd))


@pytest.mark.parametrize("shape", [(1, 2, 2, 1), (2, 7, 9, 3), (3, 26, 26, 32), (1, 1, 5, 2)])
def test_max_pool_and_its_gradient(backend, rng, shape):
    x = rng.standard_normal(shape).astype(np.float32)
    n, h, w, c = shape
    want = x[:, :h // 2 * 2, :w // 2 * 2, :].reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
    y = host(pk.max_pool2x2(dev(backend, x), backend=backend, out=dev(backend, np.full(want.shape, np.nan, np.float32))))
    assert np.array_equal(y, want)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    dx = host(pk.max_pool2x2_backward(dev(backend, x), dev(backend, dy), backend=backend,
                                      out=dev(backend, np.full(shape, np.nan, np.float32))))
    ref = np.zeros(shape, np.float32)
    for i in range(h // 2):
        for j in range(w // 2):
            win = x[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2, :].reshape(n, 4, c)
            arg = win.argmax(axis=1)  # the first maximum, row by row
            for k in range(4):
                ref[:, 2 * i + k // 2, 2 * j + k % 2, :] = np.where(arg == k, dy[:, i, j, :], 0)
    assert np.array_equal(dx, ref)


def test_bias_relu_sums(backend, rng):
    y = rng.standard_normal((37, 5)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    want = np.maximum(y + b, 0)
    d_y = dev(backend, y)
    assert pk.bias_activation(d_y, dev(backend, b), relu=True, backend=backend) is d_y
    y = host(d_y)
    assert np.array_equal(y, want)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    assert np.array_equal(host(pk.relu_backward(dev(backend, y), dev(backend, dy), backend=backend)),
                          np.where(y > 0, dy, 0))
    x = rng.standard_normal((4, 3, 3, 64))
    np.testing.assert_allclose(host(pk.column_sums(dev(backend, x), backend=backend)), x.sum(axis=(0, 1, 2)),
                               rtol=1e-12, atol=1e-12)
    # Many parts of rows (the partial sums, then their sum in order), and no rows at all (zeros).
    x = rng.standard_normal((5003, 7))
    np.testing.assert_allclose(host(pk.column_sums(dev(backend, x), backend=backend)), x.sum(axis=0),
                               rtol=1e-12, atol=1e-12)
    x = np.zeros((0, 3))
    assert np.array_equal(host(pk.column_sums(dev(backend, x), backend=backend)), np.zeros(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_cross_entropy(backend, rng, dtype):
    logits = (rng.standard_normal((9, 10)) * 5).astype(dtype)
    labels = rng.integers(0, 10, 9).astype(np.int32)
    loss, grad = map(host, pk.softmax_cross_entropy(dev(backend, logits), dev(backend, labels), backend=backend))
    l64 = logits.astype(np.float64)
    p = np.exp(l64 - l64.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    eps = 16 * np.finfo(dtype).eps
    np.testing.assert_allclose(loss, -np.log(p[np.arange(9), labels]), rtol=eps, atol=eps)
    np.testing.assert_allclose(grad, (p - np.eye(10)[labels]) / 9, rtol=eps, atol=eps)


def test_adam_matches_its_formula(backend, rng):
    p0 = rng.standard_normal(100)
    g = rng.standard_normal(100)
    p, m, v = (dev(backend, a) for a in (p0.copy(), np.zeros(100), np.zeros(100)))
    for step in (1, 2):
        pk.adam_update(p, dev(backend, g), m, v, step=step, learning_rate=0.01, backend=backend)
    p, m = host(p), host(m)
    mw, vw, pw = np.zeros(100), np.zeros(100), p0.copy()
    for t in (1, 2):
        mw = 0.9 * mw + 0.1 * g
        vw = 0.999 * vw + 0.001 * g * g
        pw -= 0.01 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t) * mw / (np.sqrt(vw) + 1e-7)
    np.testing.assert_allclose(p, pw, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(m, mw, rtol=1e-13)


def test_errors_name_the_argument(backend):
    if backend == "cuda":
        with pytest.raises(ValueError, match=r"x is in host memory but the call runs on cuda: pk.to_device\(\)"):
            pk.conv2d(np.zeros((1, 3, 3, 1), np.float32), np.zeros((1, 3, 3, 1), np.float32), backend="cuda")
        return
    x = np.zeros((1, 2, 2, 1), np.float32)
    w = np.zeros((4, 3, 3, 1), np.float32)
    with pytest.raises(ValueError, match=r"the input is 2 x 2, smaller than the 3 x 3 kernel: padding 'valid'"):
        pk.conv2d(x, w, backend=backend)
    # The shape error comes before out= is compared with a shape that cannot exist.
    with pytest.raises(ValueError, match=r"^portable_kernels.conv2d: the input is 2 x 2, smaller than the 3 x 3 kernel"):
        pk.conv2d(x, w, out=np.zeros((1, 1, 1, 4), np.float32), backend=backend)
    with pytest.raises(ValueError, match=r"^portable_kernels.conv2d_backward_input: padding 'same' needs a kernel of odd size"):
        pk.conv2d_backward_input(np.zeros((1, 2, 2, 4), np.float32), np.zeros((4, 2, 2, 1), np.float32),
                                 padding="same", out=np.zeros((1, 2, 2, 1), np.float32), backend=backend)
    with pytest.raises(ValueError, match=r"w has 2 input channels, x has 1"):
        pk.conv2d(x, np.zeros((4, 1, 1, 2), np.float32), backend=backend)
    with pytest.raises(ValueError, match=r"padding 'same' needs a kernel of odd size, got 2 x 2"):
        pk.conv2d(x, np.zeros((4, 2, 2, 1), np.float32), padding="same", backend=backend)
    with pytest.raises(ValueError, match=r"unknown padding 'full' \(expected valid or same\)"):
        pk.conv2d(x, w, padding="full", backend=backend)
    with pytest.raises(ValueError, match=r"x has shape \(2, 2\), expected \(N, H, W, C\)"):
        pk.conv2d(np.zeros((2, 2), np.float32), w, backend=backend)
    with pytest.raises(TypeError, match=r"w has dtype float64, expected float32"):
        pk.conv2d(x, w.astype(np.float64), backend=backend)
    with pytest.raises(ValueError, match=r"bias has 3 elements, expected 4 \(one per output channel\)"):
        pk.conv2d(np.zeros((1, 3, 3, 1), np.float32), w, np.zeros(3, np.float32), backend=backend)
    with pytest.raises(TypeError, match=r"labels has dtype int64, expected int32"):
        pk.softmax_cross_entropy(np.zeros((2, 3)), np.zeros(2, np.int64), backend=backend)
    with pytest.raises(ValueError, match=r"labels\[1\] is 3, expected 0..2"):
        pk.softmax_cross_entropy(np.zeros((2, 3)), np.array([0, 3], np.int32), backend=backend)
    with pytest.raises(ValueError, match=r"step is 0, expected 1 or more"):
        pk.adam_update(np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(2), step=0, backend=backend)
    with pytest.raises(ValueError, match=r"m has shape \(3,\), expected \(2,\)"):
        pk.adam_update(np.zeros(2), np.zeros(2), np.zeros(3), np.zeros(2), step=1, backend=backend)
    # Memory shared where an element would be written before it is read, or twice: refused.
    state = np.zeros(4)
    with pytest.raises(ValueError, match=r"param, m and v share memory"):
        pk.adam_update(np.zeros(2), np.zeros(2), state[:2], state[1:3], step=1, backend=backend)
    with pytest.raises(ValueError, match=r"param, m and v share memory"):
        pk.adam_update(np.zeros(2), np.zeros(2), state[:2], state[:2], step=1, backend=backend)
    with pytest.raises(ValueError, match=r"grad partially overlaps param, m or v"):
        pk.adam_update(state[:2], state[1:3], np.zeros(2), np.zeros(2), step=1, backend=backend)
    buf = np.ones(8, np.float32)
    with pytest.raises(ValueError, match=r"dz partially overlaps an input \(dz may be y or dy exactly"):
        pk.relu_backward(buf[:4], np.ones(4, np.float32), out=buf[2:6], backend=backend)
    with pytest.raises(ValueError, match=r"dw has shape \(4, 3, 3, 1\), expected \(3, 3, 3, 1\)"):
        pk.conv2d_backward_weights(np.zeros((1, 3, 3, 1)), np.zeros((1, 1, 1, 3)), (3, 3), backend=backend,
                                   dw=np.zeros((4, 3, 3, 1)))


def test_load_idx(tmp_path):
    if not hasattr(pk, "load_idx"):
        pytest.skip("no image I/O in this build")
    data = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    path = tmp_path / "a.idx"
    path.write_bytes(bytes([0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4]) + data.tobytes())
    assert np.array_equal(pk.load_idx(path), data)
    import gzip
    gz = tmp_path / "a.idx.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    assert np.array_equal(pk.load_idx(gz), data)
    path.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 9, 1, 2]))
    with pytest.raises(ValueError, match=r"pk::load_idx: .*a.idx: the file ends inside its elements"):
        pk.load_idx(path)
    path.write_bytes(bytes([0, 0, 13, 1, 0, 0, 0, 1, 0, 0, 0, 0]))
    with pytest.raises(ValueError, match=r"idx type 13; only unsigned bytes \(8\) are read"):
        pk.load_idx(path)
    with pytest.raises(ValueError, match=r"cannot open it"):
        pk.load_idx(tmp_path / "missing.idx")
