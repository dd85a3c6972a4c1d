# cmake -DBUILD=<build dir> -DPREFIX=<dir> -DLIBDIR=<lib> -DVERSION=<x.y.z> -DIMAGE_IO=<ON|OFF> -P install_and_check.cmake
# Installs the build into a fresh prefix and checks that the package is all there: the public
# headers, the libraries, portable_kernelsConfig.cmake, its version file (and that the version
# file accepts this version and refuses the next minor and major ones), and the exported targets.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install ${BUILD} failed (${rc})")
endif()

set(package ${PREFIX}/${LIBDIR}/cmake/portable_kernels)
set(expected
    include/pk/add.hpp include/pk/backend.hpp include/pk/error.hpp include/pk/filter.hpp include/pk/image.hpp
    include/pk/matmul.hpp include/pk/runtime.hpp include/pk/span.hpp
    include/pk/kokkos/add.hpp include/pk/kokkos/filter.hpp include/pk/kokkos/matmul.hpp
    include/pk/kokkos/on_backend.hpp include/pk/kokkos/views.hpp
    ${LIBDIR}/cmake/portable_kernels/portable_kernelsConfig.cmake
    ${LIBDIR}/cmake/portable_kernels/portable_kernelsConfigVersion.cmake
    ${LIBDIR}/cmake/portable_kernels/portable_kernelsTargets.cmake)
if(KOKKOS)  # PK_INSTALL_KOKKOS: the Kokkos of .deps/ beside it
  list(APPEND expected ${LIBDIR}/cmake/Kokkos/KokkosConfig.cmake include/Kokkos_Core.hpp)
endif()
if(PYTHON_MODULE)  # the Python module, where that Python looks in this prefix
  file(GLOB module ${PREFIX}/${PYTHON_MODULE}/portable_kernels*.so)
  if(NOT module)
    message(FATAL_ERROR "the install prefix lacks the Python module in ${PYTHON_MODULE}")
  endif()
endif()
set(libraries portable_kernels)
if(IMAGE_IO)
  list(APPEND expected include/pk/image_io.hpp)
  list(APPEND libraries pk_image_io)
endif()
foreach(f ${expected})
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "the install prefix lacks ${f}")
  endif()
endforeach()
foreach(lib ${libraries})
  file(GLOB found ${PREFIX}/${LIBDIR}/lib${lib}.a ${PREFIX}/${LIBDIR}/lib${lib}.so)
  if(NOT found)
    message(FATAL_ERROR "the install prefix lacks the library ${lib} (lib${lib}.a or .so in ${LIBDIR})")
  endif()
endforeach()
# No private header (src/) may leak into the prefix.
file(GLOB_RECURSE installed_headers RELATIVE ${PREFIX}/include ${PREFIX}/include/*)
foreach(h ${installed_headers})
  # pk's own are under pk/; with KOKKOS, Kokkos' headers sit beside them (but none of src/'s folders)
  if((NOT KOKKOS AND NOT h MATCHES "^pk/") OR h MATCHES "^(add|core|filter|image_io|matmul|reference)/")
    message(FATAL_ERROR "unexpected header installed: include/${h}")
  endif()
endforeach()

# The version file, as find_package(portable_kernels X.Y) runs it.
function(version_accepts wanted result)
  string(REPLACE "." ";" parts ${wanted})
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
  set(PACKAGE_FIND_VERSION ${wanted})
  set(PACKAGE_FIND_VERSION_PATCH 0)
  set(PACKAGE_FIND_VERSION_TWEAK 0)
  set(PACKAGE_FIND_VERSION_COUNT 2)
  include(${package}/portable_kernelsConfigVersion.cmake)
  set(${result} ${PACKAGE_VERSION_COMPATIBLE} PARENT_SCOPE)
endfunction()
string(REPLACE "." ";" v ${VERSION})
list(GET v 0 major)
list(GET v 1 minor)
math(EXPR next_minor "${minor} + 1")
math(EXPR next_major "${major} + 1")
version_accepts(${major}.${minor} same)
version_accepts(${major}.${next_minor} newer_minor)
version_accepts(${next_major}.0 newer_major)
if(NOT same OR newer_minor OR newer_major)
  message(FATAL_ERROR "portable_kernelsConfigVersion.cmake (version ${VERSION}) accepts ${major}.${minor}: ${same}, "
                      "${major}.${next_minor}: ${newer_minor}, ${next_major}.0: ${newer_major}")
endif()
message(STATUS "installed into ${PREFIX}: ${expected}; libraries ${libraries}; version ${VERSION}")
