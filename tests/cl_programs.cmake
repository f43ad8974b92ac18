# The OpenCL programs as the host assembles them, for the checks that compile them (cl_syntax.cmake,
# cl_targets.cmake; included, with -DREGISTRY and -DCL_DIR set): the ids of the registry's programs,
# each one's kernel files in order, and a program's text (the core files, then its own), as
# src/core/program.c concatenates them after its #define block (the checks pass the defines as -D).
file(READ "${REGISTRY}" registry)
# The quoted paths of the registry entry that starts with `head`, in order.
function(registry_files head out)
  string(REGEX MATCH "\n${head}[^\n]*" line "${registry}")
  string(REGEX MATCHALL "\"[a-z/_]+\\.clh?\"" files "${line}")
  list(TRANSFORM files REPLACE "\"" "")
  set(${out} ${files} PARENT_SCOPE)
endfunction()
registry_files("CLSCAN_CORE_FILES" core_files)
# registry_programs: the ids of the CLSCAN_PROGRAM entries (SCAN, COMPACT, ...); <id>_files: their files.
string(REGEX MATCHALL "\nCLSCAN_PROGRAM\\([A-Z0-9_]+," registry_programs "${registry}")
list(TRANSFORM registry_programs REPLACE "\nCLSCAN_PROGRAM\\(([A-Z0-9_]+)," "\\1")
foreach(program IN LISTS registry_programs)
  registry_files("CLSCAN_PROGRAM\\(${program}," ${program}_files)
endforeach()
# The text of the core files followed by those of a program, in order.
function(program_text program out)
  set(text "")
  foreach(file IN LISTS core_files ${program}_files)
    file(READ "${CL_DIR}/${file}" part)
    string(APPEND text "${part}\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
