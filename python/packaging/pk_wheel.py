"""The build backend of `pip install .` (PEP 517, named in pyproject.toml): CMake builds the module,
and the wheel is written here with the standard library alone, so that no build tool has to be
downloaded (pip install --no-build-isolation . works offline, as on Debian with its own packages).

What it runs, in the source tree:
    cmake -S . -B <build-dir> -DCMAKE_BUILD_TYPE=Release -DPK_BUILD_PYTHON=ON
          -DPK_PYTHON_EXECUTABLE=<the installing Python> (tests, apps, benchmarks, examples off) <cmake-args>
    cmake --build <build-dir> --target portable_kernels_python
Settings (pip's --config-settings / -C, or the environment):
    build-dir   (PK_BUILD_DIR)   default build/pip in the source tree: later installs rebuild what changed
    cmake-args  (PK_CMAKE_ARGS)  more configure arguments, e.g. "--preset cuda" for the GPU build
    jobs        (PK_BUILD_JOBS)  parallel compile jobs, default the CPUs this process may use
Kokkos is found as for any build of the project (.deps/kokkos from tools/install-deps.sh, or
Kokkos_ROOT); see the README.
"""
import base64
import hashlib
import os
import re
import shlex
import subprocess
import sys
import sysconfig
import zipfile

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NAME = "portable_kernels"
DIST = "portable-kernels"


def _version():
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        found = re.search(r"project\(portable_kernels VERSION ([0-9.]+)", f.read())
    if not found:
        raise RuntimeError("pk_wheel: no project(portable_kernels VERSION ...) in CMakeLists.txt")
    return found.group(1)


def _setting(config_settings, key, env, default):
    value = (config_settings or {}).get(key)
    if isinstance(value, list):  # the setting given more than once
        value = " ".join(value)
    if value is None:
        value = os.environ.get(env)
    return default() if value is None and callable(default) else (default if value is None else value)


def _tag():
    interpreter = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    abi = interpreter + getattr(sys, "abiflags", "")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{interpreter}-{abi}-{platform}"


def _metadata():
    return "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {DIST}",
        f"Version: {_version()}",
        "Summary: GPU and CPU kernels written once in Kokkos: add, filters, GEMM on numpy, CuPy and "
        "PyTorch arrays",
        "License: see the project's repository",
        "Requires-Python: >=3.8",
        "Requires-Dist: numpy",
        "",
    ])


def _build_module(config_settings):
    build = os.path.abspath(_setting(config_settings, "build-dir", "PK_BUILD_DIR", os.path.join(SOURCE, "build", "pip")))
    extra = shlex.split(_setting(config_settings, "cmake-args", "PK_CMAKE_ARGS", ""))
    jobs = str(_setting(config_settings, "jobs", "PK_BUILD_JOBS", lambda: len(os.sched_getaffinity(0))
                        if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
    configure = ["cmake", "-S", SOURCE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DPK_BUILD_PYTHON=ON",
                 f"-DPK_PYTHON_EXECUTABLE={sys.executable}", "-DPK_BUILD_TESTS=OFF", "-DPK_BUILD_BENCH=OFF",
                 "-DPK_BUILD_APPS=OFF", "-DPK_BUILD_EXAMPLES=OFF", "-DPK_WITH_MPI=OFF"]
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")) and _has("ninja"):
        configure += ["-G", "Ninja"]
    _run(configure + extra)
    _run(["cmake", "--build", build, "--target", "portable_kernels_python", "--parallel", jobs])
    folder = os.path.join(build, "python")
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    module = os.path.join(folder, NAME + suffix)
    if not os.path.exists(module):
        raise RuntimeError(f"pk_wheel: the build made no {module}: the configure step says why the Python module "
                           "was not built (numpy, pybind11 or a position-independent Kokkos missing)")
    return module


def _has(program):
    return any(os.access(os.path.join(d, program), os.X_OK) for d in os.environ.get("PATH", "").split(os.pathsep))


def _run(command):
    print("pk_wheel:", " ".join(shlex.quote(c) for c in command), flush=True)
    subprocess.run(command, check=True, cwd=SOURCE)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, module):
    version = _version()
    dist_info = f"{NAME}-{version}.dist-info"
    name = f"{NAME}-{version}-{_tag()}.whl"
    files = {
        os.path.basename(module): open(module, "rb").read(),
        f"{dist_info}/METADATA": _metadata().encode(),
        f"{dist_info}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: pk_wheel ({version})\nRoot-Is-Purelib: false\n"
                               f"Tag: {_tag()}\n").encode(),
        f"{dist_info}/top_level.txt": f"{NAME}\n".encode(),
    }
    record = [_record_line(path, data) for path, data in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    os.makedirs(wheel_directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if path.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return name


# PEP 517 hooks
def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_sdist(sdist_directory, config_settings=None):
    """The source tree as git tracks it (or, outside a clone, without build outputs and .deps)."""
    import tarfile
    try:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=SOURCE, check=True, capture_output=True).stdout
        files = [f for f in files.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".deps", "build", "__pycache__"}
        files = []
        for root, dirs, names in os.walk(SOURCE):
            dirs[:] = [d for d in dirs if d not in skip and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(root, n), SOURCE) for n in names]
    base = f"{NAME}-{_version()}"
    name = base + ".tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for f in sorted(files):
            tar.add(os.path.join(SOURCE, f), arcname=f"{base}/{f}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        import io
        tar.addfile(info, io.BytesIO(data))
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _build_module(config_settings))


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = f"{NAME}-{_version()}.dist-info"
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"), "w") as f:
        f.write(_metadata())
    return dist_info
