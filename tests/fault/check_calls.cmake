# Every OpenCL function and host allocator named in src/ must have a hook (tests/fault/CMakeLists.txt
# and hooks.c), else the fault tests would silently skip its failures. -DSRC_DIR, -DHOOKED=a,b,c.
cmake_minimum_required(VERSION 3.16)
string(REPLACE "," ";" hooked "${HOOKED}")
file(GLOB_RECURSE files ${SRC_DIR}/*.c ${SRC_DIR}/*.h)
set(missing "")
foreach(file ${files})
  file(READ ${file} text)
  # An identifier that starts with cl and a capital is an OpenCL entry point; the allocators by name.
  string(REGEX MATCHALL "(^|[^A-Za-z0-9_])(cl[A-Z][A-Za-z0-9]*|malloc|calloc|realloc|strdup|strndup|aligned_alloc|posix_memalign|reallocarray)[ ]*\\("
         calls "${text}")
  foreach(call ${calls})
    string(REGEX REPLACE "^[^A-Za-z]*([A-Za-z0-9_]+).*$" "\\1" name "${call}")
    if(NOT name IN_LIST hooked AND NOT name IN_LIST missing)
      list(APPEND missing ${name})
      message(SEND_ERROR "${file} calls ${name}, which tests/fault has no hook for")
    endif()
  endforeach()
endforeach()
list(LENGTH hooked count)
message(STATUS "all calls of src/ are among the ${count} hooked ones")
