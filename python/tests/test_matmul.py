# matmul: every backend, dtype and layout (C order, transposed views) against float64 numpy, with
# the error bound of a length-k dot product; out= poisoned with NaN; shape and dtype errors.
import numpy as np
import pytest

import portable_kernels as pk

# (m, n, k): degenerate, odd, prime and non-square shapes, and some larger than one tile
SHAPES = [(1, 1, 1), (7, 5, 3), (3, 1, 8), (1, 9, 4), (31, 17, 63), (64, 64, 64), (130, 71, 257), (0, 3, 4),
          (3, 0, 4), (3, 4, 0)]
DTYPES = [np.float32, np.float64]


def check_product(got, a, b, alpha=1.0, beta=0.0, c0=None):
    """|got - ref| <= 2 (k+2) u (|alpha| |a| |b| + |beta c0|): each entry is a dot product of length k."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    want = alpha * (a64 @ b64)
    size = abs(alpha) * (np.abs(a64) @ np.abs(b64))
    if c0 is not None:
        want += beta * c0.astype(np.float64)
        size += abs(beta) * np.abs(c0.astype(np.float64))
    u = np.finfo(got.dtype).eps / 2
    bound = 2 * (a.shape[1] + 2) * u * size
    assert got.shape == want.shape
    assert np.all(np.abs(got - want) <= bound), f"max error {np.nanmax(np.abs(got - want))}"


def matrix(rng, rows, cols, dtype, transposed=False):
    """A rows x cols matrix, C-contiguous, or (transposed) the .T view of a C-contiguous cols x rows one."""
    if transposed:
        return rng.standard_normal((cols, rows)).astype(dtype).T
    return rng.standard_normal((rows, cols)).astype(dtype)


@pytest.mark.parametrize("m,n,k", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_matches_float64(backend, rng, m, n, k, dtype):
    a, b = matrix(rng, m, k, dtype), matrix(rng, k, n, dtype)
    out = np.full((m, n), np.nan, dtype)
    got = pk.matmul(a, b, out=out, backend=backend)
    assert got is out
    check_product(out, a, b)


@pytest.mark.parametrize("ta,tb", [(True, False), (False, True), (True, True)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_transposed_views_are_read_in_place(backend, rng, ta, tb, dtype):
    m, n, k = 37, 29, 45
    a, b = matrix(rng, m, k, dtype, ta), matrix(rng, k, n, dtype, tb)
    assert a.flags.f_contiguous == ta and b.flags.f_contiguous == tb
    check_product(pk.matmul(a, b, backend=backend), a, b)


# Every alpha with every beta on every class of shape: smaller than one tile (edge tiles only),
# whole tiles (whole thread and block tiles, rows of whole 16-byte packs) and both.
ALPHA_BETA_SHAPES = [(7, 5, 3), (64, 64, 16), (768, 1024, 4), (130, 71, 37)]


@pytest.mark.parametrize("m,n,k", ALPHA_BETA_SHAPES)
@pytest.mark.parametrize("alpha", [1.0, 2.5, -0.5, 0.0])
@pytest.mark.parametrize("beta", [0.0, 1.0, -0.5])
@pytest.mark.parametrize("dtype", DTYPES)
def test_alpha_and_beta_on_every_shape_class(backend, rng, m, n, k, alpha, beta, dtype):
    a, b = matrix(rng, m, k, dtype), matrix(rng, k, n, dtype, transposed=True)
    c0 = rng.standard_normal((m, n)).astype(dtype)
    out = c0.copy() if beta != 0 else np.full((m, n), np.nan, dtype)  # beta 0: out is never read
    got = pk.matmul(a, b, out=out, alpha=alpha, beta=beta, backend=backend)
    assert got is out
    check_product(out, a, b, alpha=alpha, beta=beta, c0=c0 if beta != 0 else None)


def test_beta_zero_never_reads_out(backend, rng):
    a, b = matrix(rng, 5, 6, np.float32), matrix(rng, 6, 4, np.float32)
    out = np.full((5, 4), np.nan, np.float32)  # BLAS semantics: NaN * 0 does not leak in
    pk.matmul(a, b, out=out, alpha=3.0, beta=0.0, backend=backend)
    check_product(out, a, b, alpha=3.0)


def test_shapes_that_do_not_multiply():
    with pytest.raises(ValueError, match=r"shapes \(3, 4\) and \(5, 2\) do not multiply \(a has 4 columns, b has 5 rows\)"):
        pk.matmul(np.ones((3, 4)), np.ones((5, 2)))
    with pytest.raises(ValueError, match=r"a has shape \(4,\), expected a 2-D matrix"):
        pk.matmul(np.ones(4), np.ones((4, 2)))
    with pytest.raises(ValueError, match=r"b has shape \(2, 2, 2\), expected a 2-D matrix"):
        pk.matmul(np.ones((3, 2)), np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match=r"out has shape \(2, 3\), expected \(3, 2\)"):
        pk.matmul(np.ones((3, 4)), np.ones((4, 2)), out=np.ones((2, 3)))


def test_wrong_dtypes():
    with pytest.raises(TypeError, match=r"a has dtype int64, expected float32 or float64"):
        pk.matmul(np.ones((2, 2), np.int64), np.ones((2, 2)))
    with pytest.raises(TypeError, match=r"b has dtype float32, expected float64"):
        pk.matmul(np.ones((2, 2)), np.ones((2, 2), np.float32))
    with pytest.raises(TypeError, match=r"a must be an array \(numpy, portable_kernels.Array, .*\), got list"):
        pk.matmul([[1.0]], np.ones((1, 1)))


def test_layouts_and_outputs_that_are_refused():
    a = np.ones((4, 6))
    with pytest.raises(ValueError, match=r"a is neither C- nor F-contiguous"):
        pk.matmul(a[:, ::2], np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"beta is 1.0 but there is no out="):
        pk.matmul(a, np.ones((6, 2)), beta=1.0)
    with pytest.raises(ValueError, match=r"out is not C-contiguous"):
        pk.matmul(a, np.ones((6, 4)), out=np.ones((4, 4)).T.copy().T[:, :])  # F order
    square = np.ones((4, 4))
    with pytest.raises(ValueError, match=r"out shares memory with a \(expected a separate array\)"):
        pk.matmul(square, np.ones((4, 4)), out=square)


def test_results_past_the_free_memory_are_memory_errors():
    # a 10^6 x 10^6 float32 product of small factors: 4 TB of result, refused before allocating
    a = np.ones((1_000_000, 1), dtype=np.float32)
    with pytest.raises(MemoryError, match=r"portable_kernels.matmul: the result \(1000000, 1000000\): needs 4000.0 GB, more than the [0-9.]+ GB free on the host"):
        pk.matmul(a, a.T.copy())
