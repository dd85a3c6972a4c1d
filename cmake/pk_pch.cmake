# Precompiled headers for the host builds: Kokkos_Core.hpp (and pybind11, doctest) parsed once a
# target instead of once a file. On the 2-core CI machine this parsing was a third of the test
# command's build (a Python binding file: 7.6 s, 4.4 s with the headers precompiled).
# Off for CUDA builds (nvcc_wrapper does not take GCC's precompiled headers) and for compilers other
# than GCC and Clang; -DPK_PRECOMPILE_HEADERS=OFF turns it off anywhere.
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT Kokkos_ENABLE_CUDA)
  set(pk_pch_default ON)
else()
  set(pk_pch_default OFF)
endif()
option(PK_PRECOMPILE_HEADERS "Precompile Kokkos' (and pybind11's, doctest's) headers (host builds)" ${pk_pch_default})

# pk_precompile_headers(target header...): the target's files start from these headers, precompiled.
function(pk_precompile_headers target)
  if(PK_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()

# pk_reuse_precompiled_headers(target from): the target uses those of `from` (same compile flags).
function(pk_reuse_precompiled_headers target from)
  if(PK_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} REUSE_FROM ${from})
  endif()
endfunction()
