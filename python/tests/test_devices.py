# What the build runs on: backends, the default, device descriptions.
import pytest

import portable_kernels as pk


def test_backends_fastest_first():
    names = pk.backends()
    assert "serial" in names  # every build has the reference backend
    assert set(names) <= {"cuda", "openmp", "serial"}
    order = ["cuda", "openmp", "serial"]
    assert names == sorted(names, key=order.index)
    assert pk.default_backend() == names[0]


def test_devices_describe_each_backend(backend):
    devices = pk.devices(backend)
    assert len(devices) >= 1
    for i, d in enumerate(devices):
        assert d["backend"] == backend and d["id"] == i
        assert isinstance(d["name"], str) and d["name"]
        assert d["concurrency"] >= 1 and d["memory_bytes"] > 0 and d["free_bytes"] > 0
        if backend == "cuda":
            assert d["multiprocessors"] > 0 and d["compute_capability"][0] >= 3
    if backend == "serial":
        assert devices[0]["concurrency"] == 1
    assert pk.is_initialized()


def test_devices_default_backend():
    assert pk.devices()[0]["backend"] == pk.default_backend()


def test_unknown_backend():
    with pytest.raises(ValueError, match=r"unknown backend 'tpu'"):
        pk.devices("tpu")


def test_settings_are_fixed_once_kokkos_runs():
    pk.devices()  # starts Kokkos if no earlier test did
    pk.initialize()  # nothing asked: nothing to refuse
    with pytest.raises(RuntimeError, match=r"Kokkos is already running"):
        pk.initialize(threads=1)


def test_initialize_checks_its_arguments():
    with pytest.raises(ValueError, match=r"threads is 0, expected 1 or more"):
        pk.initialize(threads=0)
