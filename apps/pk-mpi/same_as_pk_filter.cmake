# cmake -DPK=<pk> -DPK_MPI=<pk-mpi> -DMPIEXEC=<mpiexec> -DNP=<processes> -DPHOTO=<image> -DWORK=<dir>
#       -P same_as_pk_filter.cmake
# pk-mpi filter on NP processes must write the same PNG as pk filter, for a colour convolution and
# for Sobel (gray), with two borders. Skips (77) without the photograph.
if(NOT EXISTS "${PHOTO}")
  message("same_as_pk_filter: no photograph at ${PHOTO}: skipped")
  cmake_language(EXIT 77)
endif()
file(MAKE_DIRECTORY ${WORK})
foreach(kernel_border "gaussian7;reflect101" "sobel;wrap" "box3;zero")
  list(GET kernel_border 0 kernel)
  list(GET kernel_border 1 border)
  set(one ${WORK}/${kernel}-pk.png)
  set(many ${WORK}/${kernel}-pk-mpi.png)
  file(REMOVE ${one} ${many})
  execute_process(COMMAND ${PK} filter ${PHOTO} ${one} --kernel ${kernel} --border ${border} RESULT_VARIABLE rc1)
  execute_process(COMMAND ${MPIEXEC} -n ${NP} ${PK_MPI} filter ${PHOTO} ${many} --kernel ${kernel} --border ${border}
                  RESULT_VARIABLE rc2)
  if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "same_as_pk_filter: ${kernel}: pk exited ${rc1}, pk-mpi ${rc2}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${one} ${many} RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "same_as_pk_filter: ${kernel} on ${NP} processes: ${many} differs from ${one}")
  endif()
  message("same_as_pk_filter: ${kernel}, ${border}, ${NP} processes: the same image")
endforeach()
