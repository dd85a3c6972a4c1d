# pk.profile(): kernels by label, calls and times, from Kokkos' Tools callbacks.
import numpy as np
import pytest

import portable_kernels as pk


@pytest.mark.parametrize("backend", pk.backends())
def test_profile_counts_kernels_by_label(backend, capsys):
    rng = np.random.default_rng()
    img = rng.random((40, 30), dtype=np.float32)
    a = rng.random((64, 48), dtype=np.float32)
    with pk.profile() as prof:
        pk.filter(img, "gaussian5", backend=backend)
        pk.matmul(a, a.T.copy(), backend=backend)
        pk.matmul(a, a.T.copy(), backend=backend)
    names = {k["name"]: k for k in prof.kernels}
    assert names["pk::filter separable5 f32"]["calls"] == 1
    gemm = [k for name, k in names.items() if name.startswith("pk::gemm f32 ")]
    assert len(gemm) == 1 and gemm[0]["calls"] == 2 and gemm[0]["total_ms"] > 0
    totals = [k["total_ms"] for k in prof.kernels]
    assert totals == sorted(totals, reverse=True)
    err = capsys.readouterr().err
    assert "pk::filter separable5 f32" in err and "all kernels" in err
    assert "pk::filter separable5 f32" in prof.table()


def test_one_profile_at_a_time():
    with pk.profile(print=False):
        with pytest.raises(ValueError, match=r"another profiler is active"):
            with pk.profile(print=False):
                pass
