# ctest driver: a real photograph through `pk filter` to its Sobel edge image.
#   cmake -DPK=<pk> -DPHOTO=<jpeg or png> -DWORK=<dir> -P filter_photo.cmake
# Exit status 77 (skipped) when the photograph is not installed (tools/install-deps.sh installs it).
if(NOT EXISTS "${PHOTO}")
  message("no photograph at ${PHOTO} (Debian package python-matplotlib-data): skipped")
  cmake_language(EXIT 77)
endif()
function(pk_run expect)
  execute_process(COMMAND ${PK} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("pk ${ARGN}\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "${expect}")
    message(FATAL_ERROR "expected exit status 0 and output matching '${expect}'")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# The photograph's size, as pk reads it.
pk_run("channel" filter "${PHOTO}" "${WORK}/photo.png" --kernel gaussian3)
string(REGEX MATCH ": ([0-9]+x[0-9]+), ([0-9]) channel" size "${last_output}")
set(size "${CMAKE_MATCH_1}")
pk_run("photo.png: ${size}, [0-9] channels? .*-> .*edges.png: 1 channel; kernel sobel"
       filter "${WORK}/photo.png" "${WORK}/edges.png" --kernel sobel)
file(READ "${WORK}/edges.png" signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "edges.png is not a PNG file (starts with ${signature})")
endif()
# Decoding the edge image again (load_image reads every row) gives the photograph's size, gray.
pk_run("edges.png: ${size}, 1 channel " filter "${WORK}/edges.png" "${WORK}/edges_box3.png" --kernel box3)
