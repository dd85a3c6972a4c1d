# Finds Kokkos, in this order:
#   1. PK_KOKKOS_SOURCE_DIR: a Kokkos source tree, built as part of this project (add_subdirectory);
#   2. Kokkos_ROOT / CMAKE_PREFIX_PATH: an installed Kokkos 3.4 .. 5.x (find_package);
#   3. .deps/kokkos: the Kokkos 3.4.01 (Serial + OpenMP) that tools/install-deps.sh builds.
# Afterwards Kokkos_ENABLE_SERIAL / _OPENMP / _CUDA say which backends this build has.
set(PK_KOKKOS_SOURCE_DIR "" CACHE PATH "Kokkos source tree to build in-tree (optional)")

if(PK_KOKKOS_SOURCE_DIR)
  add_subdirectory(${PK_KOKKOS_SOURCE_DIR} ${CMAKE_BINARY_DIR}/kokkos EXCLUDE_FROM_ALL)
  foreach(dev SERIAL OPENMP CUDA)
    set(Kokkos_ENABLE_${dev} ${Kokkos_ENABLE_${dev}})
  endforeach()
else()
  if(NOT Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT} AND EXISTS ${PROJECT_SOURCE_DIR}/.deps/kokkos)
    set(Kokkos_ROOT ${PROJECT_SOURCE_DIR}/.deps/kokkos)
  endif()
  find_package(Kokkos 3.4 REQUIRED)
  # Whether that is the Kokkos of .deps/ (pk_install.cmake installs it with the package then).
  get_filename_component(pk_kokkos_dir "${Kokkos_DIR}" REALPATH)
  get_filename_component(pk_deps_kokkos "${PROJECT_SOURCE_DIR}/.deps/kokkos" REALPATH)
  string(FIND "${pk_kokkos_dir}" "${pk_deps_kokkos}/" pk_kokkos_at)
  if(pk_kokkos_at EQUAL 0)
    set(pk_kokkos_from_deps ON)
  else()
    set(pk_kokkos_from_deps OFF)
  endif()
endif()

foreach(dev SERIAL OPENMP CUDA)
  if(Kokkos_ENABLE_${dev})
    set(PK_HAVE_${dev} ON)
  else()
    set(PK_HAVE_${dev} OFF)
  endif()
endforeach()
if(NOT PK_HAVE_SERIAL)
  message(FATAL_ERROR "portable_kernels needs a Kokkos with the Serial backend (it is the reference)")
endif()
message(STATUS "portable_kernels backends: serial=${PK_HAVE_SERIAL} openmp=${PK_HAVE_OPENMP} cuda=${PK_HAVE_CUDA}"
               " (Kokkos ${Kokkos_VERSION})")
