# Finds what the Python module needs: an interpreter that can import numpy, its C headers, and
# pybind11. Never fails the configure: afterwards PK_PYTHON_FOUND says whether the module can be
# built, PK_PYTHON_WHY_NOT why not, and PK_PYTHON_EXECUTABLE is the interpreter (for the tests).
#
# Which interpreter: PK_PYTHON_EXECUTABLE when set; otherwise the first of `python3` on PATH, then
# /usr/bin/python3, that imports numpy (one that also imports pytest preferred). The interpreter on
# PATH can be a pyenv or venv one without numpy, while Debian's python3-numpy, python3-pytest and
# pybind11-dev serve /usr/bin/python3: probing by `import numpy` picks what works either way.
set(PK_PYTHON_EXECUTABLE "" CACHE FILEPATH "Python interpreter for the module and its tests (empty: probe)")
set(PK_PYTHON_FOUND OFF)
set(PK_PYTHON_WHY_NOT "")

# pk_python_probe(<exe> <result-var>): "numpy", "numpy;pytest" (plus ";sklearn") or "" when the
# interpreter cannot import numpy or does not run.
function(pk_python_probe exe out)
  execute_process(
    COMMAND ${exe} -c "
import importlib.util as u
print(';'.join(m for m in ('numpy', 'pytest', 'sklearn') if u.find_spec(m)))"
    RESULT_VARIABLE rc OUTPUT_VARIABLE modules ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 30)
  if(NOT rc EQUAL 0 OR NOT "numpy" IN_LIST modules)
    set(modules "")
  endif()
  set(${out} "${modules}" PARENT_SCOPE)
endfunction()

# A module is a shared object, so a static Kokkos must have been compiled position-independent,
# which Kokkos' own defaults are not (tools/install-deps.sh builds it so; a CUDA Kokkos built by
# hand often is not). Linking a one-function shared object against Kokkos tells, once per build tree.
if(NOT DEFINED PK_KOKKOS_FITS_A_MODULE)
  set(pk_probe ${CMAKE_BINARY_DIR}/CMakeFiles/pk_kokkos_pic_probe)
  file(WRITE ${pk_probe}/probe.cpp "namespace Kokkos { bool is_initialized() noexcept; }\n"
                                   "extern \"C\" int pk_probe() { return Kokkos::is_initialized() ? 1 : 0; }\n")
  try_compile(pk_kokkos_fits_a_module ${pk_probe}/build SOURCES ${pk_probe}/probe.cpp
              CMAKE_FLAGS -DCMAKE_POSITION_INDEPENDENT_CODE=ON
              LINK_OPTIONS -shared
              LINK_LIBRARIES Kokkos::kokkoscore)
  set(PK_KOKKOS_FITS_A_MODULE ${pk_kokkos_fits_a_module} CACHE INTERNAL "Kokkos links into a shared object")
endif()
set(pk_kokkos_fits_a_module ${PK_KOKKOS_FITS_A_MODULE})

set(pk_python_modules "")
if(PK_PYTHON_EXECUTABLE)
  set(pk_python_candidates ${PK_PYTHON_EXECUTABLE})
else()
  find_program(PK_PYTHON_ON_PATH NAMES python3 python)
  mark_as_advanced(PK_PYTHON_ON_PATH)
  set(pk_python_candidates ${PK_PYTHON_ON_PATH} /usr/bin/python3)
  list(REMOVE_DUPLICATES pk_python_candidates)
endif()
set(pk_python_choice "")
foreach(candidate ${pk_python_candidates})
  if(NOT EXISTS ${candidate})
    continue()
  endif()
  pk_python_probe(${candidate} modules)
  if(modules AND (NOT pk_python_choice OR ("pytest" IN_LIST modules AND NOT "pytest" IN_LIST pk_python_modules)))
    set(pk_python_choice ${candidate})
    set(pk_python_modules ${modules})
  endif()
endforeach()

if(CMAKE_VERSION VERSION_LESS 3.18)
  set(PK_PYTHON_WHY_NOT "CMake ${CMAKE_VERSION} is older than 3.18 (FindPython's Development.Module)")
elseif(NOT pk_python_choice)
  string(REPLACE ";" ", " tried "${pk_python_candidates}")
  set(PK_PYTHON_WHY_NOT "no Python interpreter that imports numpy (tried: ${tried}; Debian: apt-get install python3-numpy, or set PK_PYTHON_EXECUTABLE)")
else()
  # FindPython before pybind11, so that pybind11 uses this interpreter rather than its own search.
  set(Python_EXECUTABLE ${pk_python_choice})
  find_package(Python 3.7 COMPONENTS Interpreter Development.Module QUIET)
  if(NOT Python_FOUND)
    set(PK_PYTHON_WHY_NOT "no C headers for ${pk_python_choice} (Debian: apt-get install python3-dev)")
  else()
    find_package(pybind11 2.6 CONFIG QUIET)
    if(NOT pybind11_FOUND)
      set(PK_PYTHON_WHY_NOT "pybind11 not found (Debian: apt-get install pybind11-dev)")
    elseif(NOT pk_kokkos_fits_a_module)
      string(CONCAT PK_PYTHON_WHY_NOT "the Kokkos found (${Kokkos_DIR}) is a static library compiled without -fPIC, which no "
                            "shared object such as a Python module can link: rebuild it with "
                            "-DCMAKE_POSITION_INDEPENDENT_CODE=ON or -DBUILD_SHARED_LIBS=ON")
    else()
      set(PK_PYTHON_FOUND ON)
      set(PK_PYTHON_EXECUTABLE ${pk_python_choice})
      set(PK_PYTHON_HAS_PYTEST OFF)
      set(PK_PYTHON_HAS_SKLEARN OFF)
      if("pytest" IN_LIST pk_python_modules)
        set(PK_PYTHON_HAS_PYTEST ON)
      endif()
      if("sklearn" IN_LIST pk_python_modules)
        set(PK_PYTHON_HAS_SKLEARN ON)
      endif()
    endif()
  endif()
endif()

if(PK_PYTHON_FOUND)
  string(REPLACE ";" ", " pk_python_modules "${pk_python_modules}")
  message(STATUS "portable_kernels Python module: ${PK_PYTHON_EXECUTABLE} (Python ${Python_VERSION}, "
                 "pybind11 ${pybind11_VERSION}; has ${pk_python_modules})")
else()
  message(STATUS "portable_kernels Python module: not built: ${PK_PYTHON_WHY_NOT}")
endif()
