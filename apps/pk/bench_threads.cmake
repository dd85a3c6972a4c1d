# `pk bench` runs pk-bench with the CPUs pk started with: under OMP_PROC_BIND (which binds pk's
# first thread to one CPU at start-up) its OpenMP backend must run as many threads as `pk info`
# reports. -DPK=<pk>
set(ENV{OMP_PROC_BIND} spread)
set(ENV{OMP_PLACES} threads)
execute_process(COMMAND ${PK} --backend openmp info OUTPUT_VARIABLE info RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT info MATCHES "openmp:[^\n]*\n[^\n]*, ([0-9]+) threads?")
  message(FATAL_ERROR "pk info failed (${rc}): ${info}")
endif()
set(want ${CMAKE_MATCH_1})
execute_process(COMMAND ${PK} --backend openmp bench --quick --only add --runs 1 OUTPUT_VARIABLE out ERROR_QUIET
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "pk bench on openmp \\([^,]*, ([0-9]+) threads?\\)")
  message(FATAL_ERROR "pk bench failed (${rc}): ${out}")
endif()
if(NOT CMAKE_MATCH_1 EQUAL want)
  message(FATAL_ERROR "pk bench ran ${CMAKE_MATCH_1} OpenMP threads, pk info reports ${want}")
endif()
message(STATUS "pk bench: ${want} OpenMP threads, as pk info")
