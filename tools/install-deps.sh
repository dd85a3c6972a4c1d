#!/usr/bin/env bash
# Installs everything portable-kernels needs on a fresh Debian 12 machine, using only Debian's
# package registry:
#   1. build tools and libraries from Debian packages (doctest, libpng, libjpeg, OpenBLAS, OpenCV imgproc,
#      clang and libFuzzer for the fuzz test);
#   2. Kokkos 3.4.01 (Serial + OpenMP), which Debian ships only inside the `trilinos` source package:
#      the source is downloaded with the ordinary apt client and built into .deps/ once, then reused.
# Nothing third-party is stored in this repository. Users with their own Kokkos 4.x/5.x skip step 2
# by configuring with -DKokkos_ROOT=/their/prefix.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps=${PK_DEPS_DIR:-$root/.deps}
kokkos_prefix=$deps/kokkos
jobs=$(nproc)

# python-matplotlib-data (2.7 MB, arch-independent) ships a real photograph, sample_data/grace_hopper.jpg,
# that the image tests and examples use; nothing of it is copied into this repository.
# The Python module (python/) builds against Debian's own interpreter, /usr/bin/python3: its headers
# (python3-dev), pybind11-dev, numpy; pytest runs its tests, and python3-sklearn ships the 8x8
# handwritten digits that examples/python/train_digits.py learns (no download at run time);
# python3-venv and python3-pip install it as a package (`pip install .`, pyproject.toml);
# dataset-fashion-mnist (30 MB) is what examples/python/train_fashion.py trains the CNN on.
# clang-14 and libclang-rt-14-dev (libFuzzer and clang's sanitizer runtimes) build the image
# decoder's fuzz test (tests/fuzz/); without them that one test is skipped. OpenMPI builds
# portable_kernels::mpi (the distributed filters and GEMM, tests/mpi/), ScaLAPACK is its peer.
debian_packages=(g++ cmake ninja-build pkg-config doctest-dev libpng-dev libjpeg62-turbo-dev
                 libopenblas-dev libopencv-imgproc-dev python-matplotlib-data
                 python3-dev pybind11-dev python3-numpy python3-pytest python3-sklearn python3-venv python3-pip
                 dataset-fashion-mnist
                 clang-14 libclang-rt-14-dev libopenmpi-dev openmpi-bin libscalapack-openmpi-dev)

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing Debian packages: ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -f "$kokkos_prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
  echo "install-deps: Kokkos already installed in $kokkos_prefix"
  exit 0
fi

# Debian's Kokkos source: fetch the trilinos source package with private apt lists so the
# system's own sources and lists stay untouched.
work=$deps/src
mkdir -p "$work/apt/lists/partial"
echo "deb-src http://deb.debian.org/debian bookworm main" > "$work/apt/sources.list"
apt_opts=(-o Dir::Etc::SourceList="$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists="$work/apt/lists" -o APT::Sandbox::User=root)
if [ ! -d "$work/kokkos" ] && ! ls "$work"/trilinos_*.orig.tar.* >/dev/null 2>&1; then
  echo "install-deps: downloading Debian source package trilinos (about 166 MB) for its Kokkos 3.4.01"
  apt-get "${apt_opts[@]}" update -qq
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only -qq trilinos)
fi
if [ ! -d "$work/kokkos" ]; then
  tarball=$(ls "$work"/trilinos_*.orig.tar.*)
  tar -xf "$tarball" -C "$work" --wildcards '*/packages/kokkos/*'
  mv "$work"/Trilinos-*/packages/kokkos "$work/kokkos"
  rm -rf "$work"/Trilinos-* "$tarball"
fi

echo "install-deps: building Kokkos (Serial + OpenMP) into $kokkos_prefix"
cmake -S "$work/kokkos" -B "$work/kokkos-build" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF \
  -DCMAKE_INSTALL_PREFIX="$kokkos_prefix" -DCMAKE_INSTALL_LIBDIR=lib \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
  -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF >/dev/null
cmake --build "$work/kokkos-build" -j "$jobs" >/dev/null
cmake --install "$work/kokkos-build" >/dev/null
rm -rf "$work/kokkos-build"
echo "install-deps: Kokkos installed in $kokkos_prefix"
