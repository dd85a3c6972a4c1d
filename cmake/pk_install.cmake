# Install rules: headers, libraries and a CMake package, so that
#   find_package(portable_kernels) ; target_link_libraries(app portable_kernels::portable_kernels)
# works from the install prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(pk_install_targets portable_kernels)
if(TARGET pk_image_io)
  list(APPEND pk_install_targets pk_image_io)
endif()
if(TARGET pk_mpi)
  list(APPEND pk_install_targets pk_mpi)
endif()
install(TARGETS ${pk_install_targets} EXPORT portable_kernelsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET pk_mpi)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
else()  # (the headers of portable_kernels::mpi need its MPI)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} PATTERN mpi EXCLUDE)
endif()
# The Kokkos that tools/install-deps.sh built into .deps/ lives in the source clone only: it is
# installed into the same prefix, so that the prefix alone serves find_package(portable_kernels).
# A Kokkos of your own (Kokkos_ROOT) stays where it is; the package config records its path.
option(PK_INSTALL_KOKKOS "Install the Kokkos of .deps/ with portable_kernels" ${pk_kokkos_from_deps})
if(PK_INSTALL_KOKKOS)
  if(NOT pk_kokkos_from_deps)
    message(FATAL_ERROR "PK_INSTALL_KOKKOS: this build's Kokkos (${Kokkos_DIR}) is not the one of .deps/; "
                        "install it yourself")
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/.deps/kokkos/ DESTINATION . USE_SOURCE_PERMISSIONS)
endif()
install(EXPORT portable_kernelsTargets NAMESPACE portable_kernels::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/portable_kernels)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/portable_kernelsConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/portable_kernelsConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/portable_kernels)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/portable_kernelsConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/portable_kernelsConfig.cmake
              ${PROJECT_BINARY_DIR}/portable_kernelsConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/portable_kernels)
