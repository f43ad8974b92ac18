# ctest driver: install the build tree into a scratch prefix (or take PREFIX), then build and run
# consumer.c against it twice: through find_package(clscan CONFIG) and through pkg-config; where clscan was built with MPI,
# consumer_mpi.c the same two ways (run as one MPI process). Fails on any step.
# PREFIX (tests/packages.cmake): a tree installed already, here the packages unpacked under a root.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
if(DEFINED PREFIX)
  set(prefix "${PREFIX}")
endif()
set(ENV{CLSCAN_CACHE_DIR} "${WORK_DIR}/cache")

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

if(NOT DEFINED PREFIX)
  step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
endif()
step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/consumer" -B "${WORK_DIR}/cmake-build"
     "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/cmake-build")
step("${WORK_DIR}/cmake-build/consumer")
if(EXISTS "${WORK_DIR}/cmake-build/consumer_mpi")
  step("${WORK_DIR}/cmake-build/consumer_mpi")
endif()

find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)   # the setup script installs it; a bare GPU box may lack it
  message("pkg-config not found: the pkg-config consumer was NOT built on this machine")
  return()
endif()
file(GLOB_RECURSE pc_files "${prefix}/*/clscan.pc")
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs clscan OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs clscan failed")
endif()
execute_process(COMMAND ${PKG_CONFIG} --variable=libdir clscan OUTPUT_VARIABLE libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(flags UNIX_COMMAND "${flags}")
step(${CMAKE_C_COMPILER} -std=c99 -Wall -Wextra -Werror "${SOURCE_DIR}/tests/consumer/consumer.c" ${flags}
     "-Wl,-rpath,${libdir}" -o "${WORK_DIR}/consumer-pc")
step("${WORK_DIR}/consumer-pc")

file(GLOB_RECURSE pc_mpi "${prefix}/*/clscan-mpi.pc")
if(pc_mpi)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs clscan-mpi OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs clscan-mpi failed")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  step(${CMAKE_C_COMPILER} -std=c99 -Wall -Wextra -Werror "${SOURCE_DIR}/tests/consumer/consumer_mpi.c" ${flags}
       "-Wl,-rpath,${libdir}" -o "${WORK_DIR}/consumer-mpi-pc")
  step("${WORK_DIR}/consumer-mpi-pc")
endif()
