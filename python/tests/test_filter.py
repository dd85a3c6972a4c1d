# filter and sobel: every backend, dtype (float32, uint8), channel count and border mode against a
# float64 numpy reference built from np.pad (an implementation of the border modes independent of
# pk's); weights of the named kernels against their textbook values; outputs poisoned; errors.
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

import portable_kernels as pk

NUMPY_PAD_MODE = {"clamp": "edge", "reflect101": "reflect", "zero": "constant", "wrap": "wrap"}
BORDERS = list(NUMPY_PAD_MODE)
SOBEL_X = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], np.float64)


def correlate(image, weights, border):
    """out[y,x,c] = sum_ij w[i,j] image[y+i-r, x+j-r, c] in float64 (image H x W or H x W x C)."""
    r = weights.shape[0] // 2
    img = image.astype(np.float64)
    pad = [(r, r), (r, r)] + [(0, 0)] * (img.ndim - 2)
    padded = np.pad(img, pad, mode=NUMPY_PAD_MODE[border])
    windows = sliding_window_view(padded, weights.shape, axis=(0, 1))  # H x W [x C] x s x s
    return np.einsum("...ij,ij->...", windows, weights.astype(np.float64))


def sobel_reference(image, border):
    gx = correlate(image, SOBEL_X, border)
    gy = correlate(image, SOBEL_X.T, border)
    return np.sqrt(gx * gx + gy * gy)


def check_float(got, want, image, weights):
    """Float32 accumulation of s*s terms: error <= 2 s^2 u sum |w| |x| (<= max|x| sum|w|)."""
    u = np.finfo(np.float32).eps / 2
    size = np.abs(weights).sum() * max(np.abs(image).max(initial=0), 1)
    bound = 2 * weights.size * u * size + 1e-30
    assert got.dtype == np.float32 and got.shape == want.shape
    assert np.all(np.abs(got - want) <= bound), f"max error {np.nanmax(np.abs(got - want))}, bound {bound}"


def check_uint8(got, want):
    """Rounded to nearest after float32 accumulation: one step off where the sum lies near a .5."""
    expected = np.clip(np.rint(want), 0, 255)
    assert got.dtype == np.uint8 and got.shape == want.shape
    assert np.all(np.abs(got.astype(np.int32) - expected) <= 1)


def image_of(rng, shape, dtype):
    if dtype == np.uint8:
        return rng.integers(0, 256, shape, dtype=np.uint8)
    return rng.uniform(0, 255, shape).astype(np.float32)


SHAPES = [(1, 1), (2, 3), (5, 4), (37, 29), (64, 97), (33, 21, 1), (19, 40, 2), (41, 23, 3), (17, 30, 4)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("border", BORDERS)
def test_float_images_every_border(backend, rng, shape, border):
    image = image_of(rng, shape, np.float32)
    weights = rng.uniform(-1, 1, (5, 5)).astype(np.float32)
    out = np.full(shape, np.nan, np.float32)
    got = pk.filter(image, weights, border, out=out, backend=backend)
    assert got is out
    check_float(out, correlate(image, weights, border), image, weights)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("border", BORDERS)
def test_uint8_images_every_border(backend, rng, shape, border):
    image = image_of(rng, shape, np.uint8)
    weights = rng.uniform(-0.2, 0.4, (3, 3)).astype(np.float32)
    want = correlate(image, weights, border)
    # uint8 cannot hold NaN: two outputs poisoned differently must both end up right
    for poison in (0, 255):
        out = np.full(shape, poison, np.uint8)
        pk.filter(image, weights, border, out=out, backend=backend)
        check_uint8(out, want)


@pytest.mark.parametrize("size", [1, 3, 7, 15])
def test_every_kernel_size(backend, rng, size):
    image = image_of(rng, (23, 31, 3), np.float32)
    weights = rng.uniform(-1, 1, (size, size)).astype(np.float32)
    check_float(pk.filter(image, weights, "wrap", backend=backend), correlate(image, weights, "wrap"), image, weights)


# Named kernels: weights as the textbooks (and OpenCV's fixed Gaussian tables) give them.
def outer(v):
    v = np.asarray(v, np.float64)
    return np.outer(v, v)


NAMED = {
    "box3": np.full((3, 3), 1 / 9),
    "box5": np.full((5, 5), 1 / 25),
    "gaussian3": outer([1, 2, 1]) / 16,
    "gaussian5": outer([1, 4, 6, 4, 1]) / 256,
    "gaussian7": outer([2, 7, 14, 18, 14, 7, 2]) / 64**2,
    "sharpen": np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float64),
    "sobel-x": SOBEL_X,
    "sobel-y": SOBEL_X.T,
}


@pytest.mark.parametrize("name", NAMED)
def test_named_kernel_weights(name):
    np.testing.assert_allclose(pk.filter_kernel(name), NAMED[name], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", NAMED)
@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
def test_named_kernels_filter(backend, rng, name, dtype):
    image = image_of(rng, (45, 38, 3), dtype)
    want = correlate(image, NAMED[name], "reflect101")
    got = pk.filter(image, name, backend=backend)  # reflect101 is the default
    if dtype == np.uint8:
        check_uint8(got, want)
    else:
        check_float(got, want, image, NAMED[name])


@pytest.mark.parametrize("dtype", [np.float32, np.uint8])
@pytest.mark.parametrize("shape", [(40, 50), (31, 27, 3)])
def test_sobel_magnitude(backend, rng, dtype, shape):
    image = image_of(rng, shape, dtype)
    want = sobel_reference(image, "clamp")
    got = pk.sobel(image, "clamp", backend=backend)
    assert np.array_equal(got, pk.filter(image, "sobel", "clamp", backend=backend))
    if dtype == np.uint8:
        check_uint8(got, np.minimum(want, 255))
    else:
        check_float(got, want, image, np.abs(SOBEL_X) * 2)


def test_wrong_dtypes():
    with pytest.raises(TypeError, match=r"portable_kernels.filter: image has dtype float64, expected float32 or uint8"):
        pk.filter(np.ones((4, 4)))
    with pytest.raises(TypeError, match=r"out has dtype uint8, expected float32"):
        pk.sobel(np.ones((4, 4), np.float32), out=np.ones((4, 4), np.uint8))
    with pytest.raises(TypeError, match=r"image must be an array \(numpy, portable_kernels.Array, .*\), got list"):
        pk.filter([[1.0]])


def test_bad_shapes_and_kernels():
    img = np.ones((8, 8), np.float32)
    with pytest.raises(ValueError, match=r"image has shape \(8, 8, 5\), expected \(height, width\) or \(height, width, channels\) with 1..4 channels"):
        pk.filter(np.ones((8, 8, 5), np.float32))
    with pytest.raises(ValueError, match=r"image has shape \(8,\)"):
        pk.filter(np.ones(8, np.float32))
    with pytest.raises(ValueError, match=r"out has shape \(8, 7\), expected \(8, 8\)"):
        pk.filter(img, out=np.ones((8, 7), np.float32))
    with pytest.raises(ValueError, match=r"unknown filter 'gaussian4' \(expected one of: box3"):
        pk.filter(img, "gaussian4")
    with pytest.raises(ValueError, match=r"unknown border 'mirror' \(expected one of: clamp, reflect101, zero, wrap\)"):
        pk.filter(img, "box3", "mirror")
    with pytest.raises(ValueError, match=r"kernel has shape \(3, 5\), expected a square 2-D array"):
        pk.filter(img, np.ones((3, 5)))
    with pytest.raises(ValueError, match=r"size"):
        pk.filter(img, np.ones((4, 4)))  # even
    with pytest.raises(ValueError, match=r"size"):
        pk.filter(img, np.ones((17, 17)))  # over 15
    with pytest.raises(ValueError, match=r"out shares memory with image"):
        pk.filter(img, "box3", out=img)
    with pytest.raises(ValueError, match=r"image is not C-contiguous"):
        pk.filter(np.ones((8, 16), np.float32)[:, ::2])
    with pytest.raises(ValueError, match=r"'sobel' is the gradient magnitude"):
        pk.filter_kernel("sobel")


def test_filter_names_are_all_accepted():
    names = pk.filter_names()
    assert "gaussian5" in names and "sobel" in names and "box15" in names
    img = np.ones((6, 6), np.float32)
    for name in names:
        pk.filter(img, name)
