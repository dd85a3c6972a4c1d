# Builds the fuzz project with clang, writes the seed corpus and runs the fuzzer for RUNS inputs,
# or for SECONDS seconds when that is given (then RUNS is not a limit).
#   cmake [-DRUNS=1000000 | -DSECONDS=60] [-DBUILD=build/fuzz] [-DCXX=clang++] [-DJOBS=2] -P tests/fuzz/run_fuzz.cmake
# Says "no clang++ found" and stops (ctest counts that as skipped) when there is no clang; fails
# when the build fails or the fuzzer finds anything (its input is kept in BUILD as crash-*).
get_filename_component(source ${CMAKE_CURRENT_LIST_DIR} ABSOLUTE)
if(NOT RUNS)
  set(RUNS 1000000)
endif()
if(NOT BUILD)
  set(BUILD ${source}/../../build/fuzz)
endif()
get_filename_component(BUILD ${BUILD} ABSOLUTE)
if(NOT JOBS)
  set(JOBS 2)
endif()
if(NOT CXX)
  find_program(CXX NAMES clang++-14 clang++)
endif()
if(NOT CXX)
  message(STATUS "run_fuzz: no clang++ found (Debian: apt-get install clang-14 libclang-rt-14-dev): skipped")
  return()
endif()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run_fuzz: ${what} failed (${rc}): ${ARGN}")
  endif()
endfunction()

find_program(ninja NAMES ninja ninja-build)
set(generator)
if(ninja)
  set(generator -G Ninja)
endif()
if(NOT EXISTS ${BUILD}/CMakeCache.txt)
  run("configure" ${CMAKE_COMMAND} -S ${source} -B ${BUILD} ${generator} -DCMAKE_CXX_COMPILER=${CXX}
      -DCMAKE_BUILD_TYPE=RelWithDebInfo)
endif()
run("build" ${CMAKE_COMMAND} --build ${BUILD} -j ${JOBS})

# Seeds are rewritten each time; what the fuzzer finds goes into a fresh corpus directory.
file(REMOVE_RECURSE ${BUILD}/seeds ${BUILD}/corpus)
file(MAKE_DIRECTORY ${BUILD}/seeds ${BUILD}/corpus)
run("make_seeds" ${BUILD}/make_seeds ${BUILD}/seeds)

# Symbolized reports where LLVM's symbolizer is installed (Debian: llvm-14); addresses otherwise.
find_program(symbolizer NAMES llvm-symbolizer llvm-symbolizer-14 PATHS /usr/lib/llvm-14/bin)
set(with_symbolizer)
if(symbolizer)
  set(with_symbolizer ${CMAKE_COMMAND} -E env ASAN_SYMBOLIZER_PATH=${symbolizer})
endif()

# -malloc_limit_mb: within fuzz_max_pixels no decode needs more than a few MB at once; a larger
# allocation is a finding (a file that makes the decoder allocate what its header merely claims).
# -reduce_inputs=0: coverage is measured in pk's code only (the codecs are Debian's, not
# instrumented), so libFuzzer would otherwise trade the seeds for the shortest inputs that reach
# the same pk lines, and stop feeding the codecs whole images to mutate.
set(limit -runs=${RUNS})
if(SECONDS)
  set(limit -max_total_time=${SECONDS})
endif()
string(TIMESTAMP start "%s")
run("the fuzzer (see ${BUILD}/crash-* for the input)"
    ${with_symbolizer} ${BUILD}/fuzz_image_decode ${limit} -dict=${source}/image.dict -max_len=4096
    -reduce_inputs=0 -malloc_limit_mb=256 -rss_limit_mb=1024 -print_final_stats=1
    -artifact_prefix=${BUILD}/ ${BUILD}/corpus ${BUILD}/seeds)
string(TIMESTAMP end "%s")
math(EXPR seconds "${end} - ${start}")
if(SECONDS)
  message(STATUS "run_fuzz: fuzzed for ${seconds} s without a finding (libFuzzer's stats above: inputs run)")
else()
  message(STATUS "run_fuzz: ${RUNS} inputs decoded in ${seconds} s without a finding")
endif()
