# Runs one group of tests/oclgrind_paths under Oclgrind with its race, uninitialized-value, bounds
# and barrier checks and API checking on; fails when the program fails or the checker logs anything.
# -DOCLGRIND=... -DPROGRAM=... -DGROUP=... -DLOG=... -DTHREADS=... [-DFILTER=...]
file(REMOVE ${LOG})
execute_process(COMMAND ${OCLGRIND} --data-races --uninitialized --check-api --num-threads ${THREADS} --log ${LOG}
                        ${PROGRAM} ${GROUP} ${FILTER}
                RESULT_VARIABLE rc)
set(log "")
if(EXISTS ${LOG})
  file(READ ${LOG} log)
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "oclgrind_paths ${GROUP} exited with ${rc}\n${log}")
endif()
if(NOT log STREQUAL "")
  string(LENGTH "${log}" len)
  string(SUBSTRING "${log}" 0 6000 head)
  message(FATAL_ERROR "Oclgrind reported problems (${len} bytes in ${LOG}):\n${head}")
endif()
