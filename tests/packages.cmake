# ctest driver: builds the Debian packages of cmake/packaging.cmake (a build for /usr, cpack -G DEB),
# checks their names, that the library's names an OpenCL loader and (where lintian is) that lintian
# finds no error, unpacks every one under a clean root, and runs the consumer test (consumer/run.cmake)
# against that root's /usr: find_package and pkg-config, with the kernels found where the package put
# them. Fails on any step.
cmake_policy(SET CMP0057 NEW)   # IN_LIST in a -P script
file(REMOVE_RECURSE "${WORK_DIR}")
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
endfunction()

# A build of its own for /usr: the Debian layout (libraries under lib/<multiarch>), no tests.
step(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/build" -DCMAKE_INSTALL_PREFIX=/usr -DCLSCAN_TESTS=OFF
     -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build" -j2)
step(cpack -G DEB --config "${WORK_DIR}/build/CPackConfig.cmake" -B "${WORK_DIR}/debs")
file(GLOB debs "${WORK_DIR}/debs/*.deb")
set(names "")
foreach(deb IN LISTS debs)
  execute_process(COMMAND dpkg-deb -f "${deb}" Package OUTPUT_VARIABLE name OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND names "${name}")
  step(dpkg-deb -x "${deb}" "${WORK_DIR}/root")
endforeach()
foreach(want libclscan0 libclscan-dev clscan-tools)
  if(NOT want IN_LIST names)
    message(FATAL_ERROR "no package ${want} among: ${names}")
  endif()
endforeach()
execute_process(COMMAND dpkg-deb -f "${WORK_DIR}/debs/libclscan0_${VERSION}_${ARCH}.deb" Depends
                OUTPUT_VARIABLE depends)
if(NOT depends MATCHES "libopencl1")
  message(FATAL_ERROR "libclscan0 names no OpenCL loader: ${depends}")
endif()
message("packages: ${names}")
# Debian's checks: no error allowed (warnings are printed). CI installs lintian; elsewhere it may be absent.
find_program(LINTIAN lintian)
if(LINTIAN)
  execute_process(COMMAND ${LINTIAN} --fail-on error ${debs} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("lintian:\n${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lintian reports errors")
  endif()
else()
  message("lintian not found: the packages were NOT checked by it on this machine")
endif()
step(${CMAKE_COMMAND} -DSOURCE_DIR=${SOURCE_DIR} -DPREFIX=${WORK_DIR}/root/usr -DWORK_DIR=${WORK_DIR}/consumer
     -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -P "${SOURCE_DIR}/tests/consumer/run.cmake")
