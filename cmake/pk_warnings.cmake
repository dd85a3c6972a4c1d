# pk_set_warnings(target): warnings for the project's own code (not for its users').
function(pk_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT Kokkos_ENABLE_CUDA)
    target_compile_options(${target} PRIVATE -Wall -Wextra)
  endif()
  if(PK_NATIVE_ARCH AND NOT Kokkos_ENABLE_CUDA AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -march=native)
  endif()
endfunction()
