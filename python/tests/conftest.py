# Fixtures shared by the module's tests: every compiled-in backend, and fresh random inputs whose
# seed is printed (pytest shows it with a failure; PK_TEST_SEED=<seed> replays it).
import os
import secrets

import numpy as np
import pytest

import portable_kernels as pk


@pytest.fixture(params=pk.backends())
def backend(request):
    """Each test that takes `backend` runs once on every backend this build has."""
    return request.param


@pytest.fixture
def rng():
    seed = int(os.environ.get("PK_TEST_SEED", secrets.randbits(32)))
    print(f"random inputs: PK_TEST_SEED={seed}")
    return np.random.default_rng(seed)
