# ctest driver: each kernel layer must compile as portable OpenCL C 1.2 on top of the layers below
# it, for every type and work-group algorithm (clang -fsyntax-only; no device involved).
set(layers types.clh workgroup.clh scan.cl)
set(text "")
foreach(layer IN LISTS layers)
  file(READ "${CL_DIR}/${layer}" part)
  string(APPEND text "${part}\n")
  file(WRITE "${WORK_DIR}/upto-${layer}.cl" "${text}")
  foreach(type INT32 UINT32 INT64 UINT64 FLOAT DOUBLE)
    foreach(algo HILLIS_STEELE BLELLOCH)
      execute_process(COMMAND ${CLANG} -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only
                              -Werror -DCLSCAN_TYPE_${type} -DWG_ALGO_${algo} "${WORK_DIR}/upto-${layer}.cl"
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${layer} (with the layers below) does not compile for ${type}/${algo}:\n${err}")
      endif()
    endforeach()
  endforeach()
endforeach()
message("every layer compiles as OpenCL C 1.2 for 6 types x 2 algorithms")
