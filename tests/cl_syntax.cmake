# ctest driver: each kernel layer must compile as portable OpenCL C 1.2 on top of the layers below
# it, for every type and work-group algorithm; then the whole scan program in each variant the host
# can ask for (vector tile loads, streamed items, packed or two-word status words, forced fallback, the
# sub-group mechanisms, the KHR one as OpenCL C 2.0 and 3.0), and the summed-area, compaction and sort
# programs. clang -fsyntax-only; no device involved. The files of each program come from the primitive
# registry (-DREGISTRY), read by cl_programs.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/cl_programs.cmake")
set(layers ${core_files} ${SCAN_files})
set(types INT32 UINT32 INT64 UINT64 FLOAT DOUBLE INT8 UINT8 INT16 UINT16)
set(clang_cl ${CLANG} -x cl -Xclang -finclude-default-header -fsyntax-only -Werror)
execute_process(COMMAND ${CLANG} --version OUTPUT_VARIABLE clang_version)
string(REGEX REPLACE ".*clang version ([0-9]+).*" "\\1" clang_major "${clang_version}")
set(feature_variants "")

function(check file what)
  execute_process(COMMAND ${clang_cl} ${ARGN} "${file}" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} does not compile (${ARGN}):\n${err}")
  endif()
endfunction()

set(text "")
foreach(layer IN LISTS layers)
  file(READ "${CL_DIR}/${layer}" part)
  string(APPEND text "${part}\n")
  get_filename_component(name "${layer}" NAME)
  set(all "${WORK_DIR}/upto-${name}.cl")
  file(WRITE "${all}" "${text}")
  foreach(type IN LISTS types)
    foreach(algo HILLIS_STEELE BLELLOCH SUBGROUP)
      check("${all}" "${layer} (with the layers below)" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_WG_ALGO_${algo})
    endforeach()
  endforeach()
endforeach()

foreach(type IN LISTS types)
  check("${all}" "vector loads, 64-bit status words" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_WG_ALGO_SUBGROUP
        -DCLSCAN_VEC_IO -DCLSCAN_VEC4 -DCLSCAN_ITEMS=16 -DCLSCAN_SP_ATOMIC64)
  check("${all}" "32-bit status words, forced fallback" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_SP_FORCE_FALLBACK)
  check("${all}" "4-wide alignment, items of 32 (8/16-bit tiles packed in words), NVIDIA" -cl-std=CL1.2
        -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_${type} -DCLSCAN_VEC4 -DCLSCAN_ITEMS=32 -DCLSCAN_WG_ALGO_SUBGROUP
        -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SP_VOLATILE_READS -DCLSCAN_BYTES_DP4A)
  check("${all}" "streamed items (CPUs), llvmpipe's workarounds" -cl-std=CL1.2 -DCLSCAN_TYPE_${type}
        -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8 -DCLSCAN_LLVMPIPE)
  check("${all}" "NVIDIA PTX sub-groups" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_${type}
        -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SP_VOLATILE_READS)
  # clang declares the cl_khr_subgroups built-ins from OpenCL C 2.0 on: the host builds them as 3.0 where
  # the device takes it (with the extension, or with the feature __opencl_c_subgroups alone, as rusticl
  # has them: clang 14's header declares nothing for the feature alone, 15 and later do), else as 2.0.
  foreach(op ADD MUL)
    check("${all}" "cl_khr_subgroups" -cl-std=CL2.0 -DCLSCAN_TYPE_${type} -DCLSCAN_OP_${op}
          -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_KHR)
    check("${all}" "cl_khr_subgroups, OpenCL C 3.0" -cl-std=CL3.0 -DCLSCAN_TYPE_${type} -DCLSCAN_OP_${op}
          -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_KHR)
    if(clang_major GREATER_EQUAL 15)
      check("${all}" "__opencl_c_subgroups, OpenCL C 3.0" -cl-std=CL3.0 -target spir64 -Xclang -cl-ext=-cl_khr_subgroups
            -DCLSCAN_TYPE_${type} -DCLSCAN_OP_${op} -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_KHR)
      set(feature_variants " and __opencl_c_subgroups alone")
    endif()
  endforeach()
endforeach()
# Registered structs with their operator (CLSCAN_TYPE_USER, CLSCAN_OP_USER), as src/core/user_text.c puts
# them before the layers: 8 bytes carried as a ulong (CLSCAN_T_CARRIED), 12 bytes as words through the
# look-back and NVIDIA's shuffles (CLSCAN_T_OPAQUE); local memory for the KHR sub-group scans.
foreach(size 8 12)
  set(fields "uint n\; float x\;")
  if(size EQUAL 12)
    set(fields "uint n\; float x\; uchar tag\;")
  endif()
  set(user_text "#define CLSCAN_T_NAME check_t\n#define CLSCAN_T_SIZE ${size}\n"
      "typedef struct { ${fields} } check_t\;\n"
      "check_t clscan_user_combine(check_t a, check_t b) { check_t r = b\; r.n = a.n + b.n\; return r\; }\n"
      "check_t clscan_user_identity(void) { check_t r\; r.n = 0u\; r.x = 0.0f\; return r\; }\n")
  set(user_scan "${WORK_DIR}/scan-user-struct-${size}.cl")
  file(WRITE "${user_scan}" ${user_text} "${text}")
  set(user_defs -DCLSCAN_TYPE_USER -DCLSCAN_OP_USER)
  foreach(algo HILLIS_STEELE BLELLOCH SUBGROUP)
    check("${user_scan}" "a registered struct" -cl-std=CL1.2 ${user_defs} -DCLSCAN_WG_ALGO_${algo} -DCLSCAN_SP_ATOMIC64)
  endforeach()
  check("${user_scan}" "a registered struct, 32-bit status words, forced fallback" -cl-std=CL1.2 ${user_defs}
        -DCLSCAN_SP_FORCE_FALLBACK)
  check("${user_scan}" "a registered struct, streamed items" -cl-std=CL1.2 ${user_defs} -DCLSCAN_ITEMS_STREAM
        -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8)
  check("${user_scan}" "a registered struct, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl ${user_defs}
        -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SP_VOLATILE_READS)
  check("${user_scan}" "a registered struct, cl_khr_subgroups" -cl-std=CL3.0 ${user_defs} -DCLSCAN_WG_ALGO_SUBGROUP
        -DCLSCAN_SG_KHR)
endforeach()
check("${WORK_DIR}/scan-user-struct-8.cl" "a registered struct, vector loads" -cl-std=CL1.2 -DCLSCAN_TYPE_USER
      -DCLSCAN_OP_USER -DCLSCAN_VEC_IO -DCLSCAN_VEC4 -DCLSCAN_ITEMS=16 -DCLSCAN_SP_ATOMIC64)
# The summed-area program: the layers and the status words (CLSCAN_SP_COLUMNS: no tile look-back), then
# sat.cl; the CPU's band tables (SAT_BAND 0) and the GPU bands, both kinds of status words.
program_text(SAT sat_text)
set(sat "${WORK_DIR}/sat-program.cl")
file(WRITE "${sat}" "${sat_text}")
foreach(type IN LISTS types)
  check("${sat}" "summed-area tables, CPU shape, 64-bit status words" -cl-std=CL1.2 -DCLSCAN_TYPE_${type}
        -DCLSCAN_SP_COLUMNS -DCLSCAN_SAT_BAND=0 -DCLSCAN_WG_SIZE=8 -DCLSCAN_SP_ATOMIC64)
  check("${sat}" "summed-area tables, 32-bit status words, forced fallback, in place" -cl-std=CL1.2
        -DCLSCAN_TYPE_${type} -DCLSCAN_SP_COLUMNS -DCLSCAN_SAT_BAND=4 -DCLSCAN_SP_FORCE_FALLBACK -DCLSCAN_SAT_IN_PLACE)
  check("${sat}" "summed-area tables, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_${type}
        -DCLSCAN_SP_COLUMNS -DCLSCAN_SAT_BAND=32 -DCLSCAN_SP_VOLATILE_READS)
endforeach()
# The compaction program: the layers and the look-back, then compact.cl, counting in uint, elements of
# 1, 2, 4 or 8 bytes or a registered type's width, both kinds of status words.
program_text(COMPACT compact_text)
set(compact "${WORK_DIR}/compact-program.cl")
file(WRITE "${compact}" "${compact_text}")
foreach(bytes 1 2 4 8 3 24)
  foreach(algo HILLIS_STEELE BLELLOCH SUBGROUP)
    check("${compact}" "compaction" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32 -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_WG_ALGO_${algo})
  endforeach()
  check("${compact}" "compaction, streamed items, forced fallback" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32
        -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8 -DCLSCAN_SP_FORCE_FALLBACK)
  check("${compact}" "compaction, vector flag loads, 64-bit status words" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32
        -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_VEC4 -DCLSCAN_ITEMS=16 -DCLSCAN_SP_ATOMIC64)
  check("${compact}" "compaction, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_UINT32
        -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SP_VOLATILE_READS)
  check("${compact}" "compaction, cl_khr_subgroups" -cl-std=CL3.0 -DCLSCAN_TYPE_UINT32 -DCLSCAN_PAYLOAD_BYTES=${bytes}
        -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_KHR)
  # unique: the elements as their own flags, vector loads where they are 4 or 8 bytes, chunks of 4 at
  # 12 items, streamed items, NVIDIA's target
  check("${compact}" "unique, vector loads" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32 -DCLSCAN_PAYLOAD_BYTES=${bytes}
        -DCLSCAN_COMPACT_HEADS -DCLSCAN_VEC4 -DCLSCAN_ITEMS=32)
  check("${compact}" "unique, 12 items" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32 -DCLSCAN_PAYLOAD_BYTES=${bytes}
        -DCLSCAN_COMPACT_HEADS -DCLSCAN_ITEMS=12 -DCLSCAN_SP_ATOMIC64)
  check("${compact}" "unique, streamed items, forced fallback" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32
        -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_COMPACT_HEADS -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096
        -DCLSCAN_WG_SIZE=8 -DCLSCAN_SP_FORCE_FALLBACK)
  check("${compact}" "unique, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_UINT32
        -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_COMPACT_HEADS -DCLSCAN_VEC4 -DCLSCAN_ITEMS=32
        -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SP_VOLATILE_READS)
  # run-length encoding: unique with lengths and its own look-back carry (held items only)
  check("${compact}" "run-length encoding" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32 -DCLSCAN_PAYLOAD_BYTES=${bytes}
        -DCLSCAN_COMPACT_HEADS -DCLSCAN_COMPACT_LENGTHS -DCLSCAN_ITEMS=12 -DCLSCAN_SP_FORCE_FALLBACK)
  check("${compact}" "run-length encoding, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_UINT32
        -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_COMPACT_HEADS -DCLSCAN_COMPACT_LENGTHS -DCLSCAN_VEC4
        -DCLSCAN_ITEMS=32 -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SP_VOLATILE_READS)
  check("${compact}" "run-length encoding, 64-bit status words" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32
        -DCLSCAN_PAYLOAD_BYTES=${bytes} -DCLSCAN_COMPACT_HEADS -DCLSCAN_COMPACT_LENGTHS -DCLSCAN_VEC4 -DCLSCAN_ITEMS=32
        -DCLSCAN_SP_ATOMIC64)
endforeach()
# The segmented scan program: the layers and the look-back, then segscan.cl; byte heads (16-byte loads)
# and keys of 1, 4, 8 and 12 bytes (staged through local memory), streamed items, both kinds of status
# words, and a registered 12-byte struct as values.
program_text(SEGSCAN segscan_text)
set(segscan "${WORK_DIR}/segscan-program.cl")
file(WRITE "${segscan}" "#define CLSCAN_SP_CLOSING\n${segscan_text}")
foreach(type INT32 INT8 UINT16 INT64 DOUBLE)
  foreach(keys "-DCLSCAN_SEG_HEADS16" "-DCLSCAN_SEG_KEY_BYTES=1" "-DCLSCAN_SEG_KEY_BYTES=4" "-DCLSCAN_SEG_KEY_BYTES=8"
          "-DCLSCAN_SEG_KEY_BYTES=12")
    check("${segscan}" "segmented scan" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} ${keys} -DCLSCAN_ITEMS=32 -DCLSCAN_SP_ATOMIC64)
    check("${segscan}" "segmented scan, streamed items, forced fallback, llvmpipe's workarounds" -cl-std=CL1.2
          -DCLSCAN_TYPE_${type} ${keys} -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8
          -DCLSCAN_SP_FORCE_FALLBACK -DCLSCAN_LLVMPIPE)
  endforeach()
  check("${segscan}" "segmented scan, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_${type}
        -DCLSCAN_SEG_KEY_BYTES=4 -DCLSCAN_ITEMS=32 -DCLSCAN_SP_VOLATILE_READS)
endforeach()
file(WRITE "${WORK_DIR}/segscan-user.cl" "#define CLSCAN_SP_CLOSING\n" ${user_text} "${segscan_text}")
check("${WORK_DIR}/segscan-user.cl" "segmented scan of a registered struct" -cl-std=CL1.2 -DCLSCAN_TYPE_USER -DCLSCAN_OP_USER
      -DCLSCAN_SEG_KEY_BYTES=4 -DCLSCAN_ITEMS=8)
# The runs: keys of 1, 4, 8 and 12 bytes, held and streamed (heads recorded or read again), both kinds
# of status words (the carry of a value and a 32- or 64-bit count travels as words; unique's, the
# count), NVIDIA's shape, a registered struct as values.
program_text(RUNS runs_text)
set(runs "${WORK_DIR}/runs-program.cl")
file(WRITE "${runs}" "#define CLSCAN_SP_RUNS\n${runs_text}")
foreach(type INT32 INT8 DOUBLE)
  foreach(keys "-DCLSCAN_SEG_KEY_BYTES=1" "-DCLSCAN_SEG_KEY_BYTES=12")
    check("${runs}" "runs" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} ${keys} -DCLSCAN_ITEMS=32 -DCLSCAN_SP_ATOMIC64)
    check("${runs}" "runs, streamed items, forced fallback, llvmpipe's workarounds" -cl-std=CL1.2
          -DCLSCAN_TYPE_${type} ${keys} -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8
          -DCLSCAN_SP_FORCE_FALLBACK -DCLSCAN_LLVMPIPE)
    check("${runs}" "runs, streamed items, heads recorded" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} ${keys}
          -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8 -DCLSCAN_RUNS_RECORDS=1024)
  endforeach()
  check("${runs}" "runs, 32-bit counts" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_SEG_KEY_BYTES=4 -DCLSCAN_ITEMS=32
        -DCLSCAN_RUNS_COUNT32)
  check("${runs}" "runs, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_${type}
        -DCLSCAN_SEG_KEY_BYTES=4 -DCLSCAN_ITEMS=32 -DCLSCAN_SP_VOLATILE_READS)
endforeach()
check("${runs}" "run lengths counted in 32 bits" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT32 -DCLSCAN_SEG_KEY_BYTES=4
      -DCLSCAN_ITEMS=32 -DCLSCAN_RUNS_COUNT32 -DCLSCAN_RUNS_LENGTHS32)
file(WRITE "${WORK_DIR}/runs-user.cl" "#define CLSCAN_SP_RUNS\n" ${user_text} "${runs_text}")
check("${WORK_DIR}/runs-user.cl" "runs of a registered struct" -cl-std=CL1.2 -DCLSCAN_TYPE_USER -DCLSCAN_OP_USER
      -DCLSCAN_SEG_KEY_BYTES=4 -DCLSCAN_ITEMS=8)
# The segmented reduction: held tiles, streamed items with the forced fallback, NVIDIA's shape.
program_text(SEGREDUCE segreduce_text)
set(segreduce "${WORK_DIR}/segreduce-program.cl")
file(WRITE "${segreduce}" "#define CLSCAN_SP_CLOSING\n#define CLSCAN_PAD_ONE_SUM\n${segreduce_text}")   # as segreduce.c
foreach(type INT32 INT8 DOUBLE)
  check("${segreduce}" "segmented reduction" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_ITEMS=32 -DCLSCAN_SP_ATOMIC64)
  check("${segreduce}" "segmented reduction, vector tiles" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_ITEMS=8
        -DCLSCAN_VEC_IO)
  check("${segreduce}" "segmented reduction, streamed items, forced fallback" -cl-std=CL1.2 -DCLSCAN_TYPE_${type}
        -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8 -DCLSCAN_SP_FORCE_FALLBACK)
  check("${segreduce}" "segmented reduction, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_${type}
        -DCLSCAN_ITEMS=32 -DCLSCAN_SP_VOLATILE_READS)
endforeach()
# 8- and 16-bit values under MIN and MAX, where a conditional's operands promote to int and min or max
# of an int and a char is ambiguous: the segmented scan, the runs and the segmented reduction, held and
# streamed.
foreach(type INT8 UINT16)
  foreach(op MIN MAX)
    set(narrow -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_OP_${op})
    set(streamed -DCLSCAN_ITEMS_STREAM -DCLSCAN_ITEMS=4096 -DCLSCAN_WG_SIZE=8)
    check("${segscan}" "segmented scan, narrow min/max" ${narrow} -DCLSCAN_SEG_KEY_BYTES=4 -DCLSCAN_ITEMS=32)
    check("${segscan}" "segmented scan, narrow min/max, streamed" ${narrow} -DCLSCAN_SEG_KEY_BYTES=4 ${streamed})
    check("${runs}" "runs, narrow min/max" ${narrow} -DCLSCAN_SEG_KEY_BYTES=4 -DCLSCAN_ITEMS=32)
    check("${runs}" "runs, narrow min/max, streamed" ${narrow} -DCLSCAN_SEG_KEY_BYTES=4 ${streamed}
          -DCLSCAN_RUNS_RECORDS=1024)
    check("${segreduce}" "segmented reduction, narrow min/max" ${narrow} -DCLSCAN_ITEMS=32)
  endforeach()
endforeach()
# argmin and argmax: every type, both orders.
program_text(ARG arg_text)
set(arg "${WORK_DIR}/arg-program.cl")
file(WRITE "${arg}" "${arg_text}")
foreach(type IN LISTS types)
  foreach(op MIN MAX)
    check("${arg}" "argmin/argmax" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_OP_${op})
  endforeach()
endforeach()
# Histograms: every type (the float and integer bin rules) with 16-byte vector loads, scalar loads,
# bins numbered in ulong, NVIDIA's target at a 64-bit one, and bytes counted by value.
program_text(HIST hist_text)
set(hist "${WORK_DIR}/hist-program.cl")
file(WRITE "${hist}" "${hist_text}")
foreach(type IN LISTS types)
  check("${hist}" "histograms" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_OP_ADD -DCLSCAN_VEC4)
endforeach()
check("${hist}" "histograms, scalar loads" -cl-std=CL1.2 -DCLSCAN_TYPE_INT32 -DCLSCAN_OP_ADD)
check("${hist}" "histograms, wide bins" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT8 -DCLSCAN_OP_ADD -DCLSCAN_HIST_WIDE_BINS)
check("${hist}" "histograms, NVIDIA" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_UINT64 -DCLSCAN_OP_ADD
      -DCLSCAN_VEC4)
foreach(type INT8 UINT8)   # bytes counted by value (GPUs), with and without vector loads, and wide bins
  check("${hist}" "histograms by value" -cl-std=CL1.2 -DCLSCAN_TYPE_${type} -DCLSCAN_OP_ADD -DCLSCAN_VEC4
        -DCLSCAN_HIST_COPIES=32)
endforeach()
check("${hist}" "histograms by value, scalar loads" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT8 -DCLSCAN_OP_ADD
      -DCLSCAN_HIST_COPIES=16 -DCLSCAN_HIST_WIDE_BINS)
# The sort program: the layers, then sort.cl, packed ulong counters; every key kind and width, values
# of 0, 1, 2, 4 or 8 bytes or a registered type's width, 64-bit counts, and the CPU shape (a work-group of one).
program_text(SORT sort_text)
set(sort "${WORK_DIR}/sort-program.cl")
file(WRITE "${sort}" "${sort_text}")
foreach(key "-DCLSCAN_SORT_KEY_BYTES=4" "-DCLSCAN_SORT_KEY_BYTES=4;-DCLSCAN_SORT_KEY_SIGNED" "-DCLSCAN_SORT_KEY_BYTES=8;-DCLSCAN_SORT_KEY_FLOAT"
        "-DCLSCAN_SORT_KEY_BYTES=1;-DCLSCAN_SORT_KEY_SIGNED" "-DCLSCAN_SORT_KEY_BYTES=2")
  foreach(values 0 1 2 4 8 3 24)
    check("${sort}" "sort" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT64 ${key} -DCLSCAN_SORT_VALUE_BYTES=${values} -DCLSCAN_RADIX_BITS=8
          -DCLSCAN_ITEMS=16)
  endforeach()
endforeach()
check("${sort}" "sort, cl_khr_subgroups" -cl-std=CL3.0 -DCLSCAN_TYPE_UINT64 -DCLSCAN_SORT_KEY_BYTES=4
      -DCLSCAN_SORT_VALUE_BYTES=4 -DCLSCAN_RADIX_BITS=8 -DCLSCAN_ITEMS=16 -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_KHR)
# The ranking by cl_khr_subgroups ballots: keys alone, values moved beside them (4 bytes) or gathered (8),
# with the ballots of cl_khr_subgroup_ballot where the compiler has it (clang's spir64 target does)
foreach(values 0 4 8)
  check("${sort}" "sort, cl_khr_subgroups ballots" -cl-std=CL3.0 -DCLSCAN_TYPE_UINT64 -DCLSCAN_SORT_KEY_BYTES=4
        -DCLSCAN_SORT_VALUE_BYTES=${values} -DCLSCAN_RADIX_BITS=8 -DCLSCAN_ITEMS=8 -DCLSCAN_WG_ALGO_SUBGROUP
        -DCLSCAN_SG_KHR -DCLSCAN_SORT_BALLOT_KHR)
endforeach()
check("${sort}" "sort, cl_khr_subgroup_ballot" -cl-std=CL3.0 -target spir64 -DCLSCAN_TYPE_UINT64 -DCLSCAN_SORT_KEY_BYTES=8 -DCLSCAN_SORT_VALUE_BYTES=4 -DCLSCAN_RADIX_BITS=8
      -DCLSCAN_ITEMS=8 -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_KHR -DCLSCAN_SORT_BALLOT_KHR)
check("${sort}" "sort, 64-bit counts, CPU shape" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT64 -DCLSCAN_SORT_KEY_BYTES=8
      -DCLSCAN_SORT_VALUE_BYTES=4 -DCLSCAN_SORT_HIST64 -DCLSCAN_WG_SIZE=1 -DCLSCAN_ITEMS=8192 -DCLSCAN_RADIX_BITS=4)
# NVIDIA's ranking by warp ballots (inline PTX), keys alone, values moved beside them (1, 3, 4 bytes) or
# gathered (8), and 6-bit digits
foreach(values 0 1 3 4 8)
  check("${sort}" "sort, NVIDIA ballots" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_UINT64
        -DCLSCAN_SORT_KEY_BYTES=4 -DCLSCAN_SORT_VALUE_BYTES=${values} -DCLSCAN_RADIX_BITS=8 -DCLSCAN_ITEMS=16
        -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SORT_BALLOT_PTX)
endforeach()
check("${sort}" "sort, NVIDIA ballots, 6-bit digits" -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -DCLSCAN_TYPE_UINT64
      -DCLSCAN_SORT_KEY_BYTES=8 -DCLSCAN_SORT_VALUE_BYTES=4 -DCLSCAN_RADIX_BITS=6 -DCLSCAN_ITEMS=8
      -DCLSCAN_WG_ALGO_SUBGROUP -DCLSCAN_SG_NVIDIA_PTX -DCLSCAN_SORT_BALLOT_PTX)
# clscan_sort_ex's range of bits: the usual flip of float keys (descending is a flag of the call, not a define)
foreach(key "-DCLSCAN_SORT_KEY_BYTES=4;-DCLSCAN_SORT_KEY_FLOAT" "-DCLSCAN_SORT_KEY_BYTES=8;-DCLSCAN_SORT_KEY_FLOAT"
        "-DCLSCAN_SORT_KEY_BYTES=2;-DCLSCAN_SORT_KEY_SIGNED")
  check("${sort}" "sort, a range's flip" -cl-std=CL1.2 -DCLSCAN_TYPE_UINT64 ${key} -DCLSCAN_SORT_VALUE_BYTES=4
        -DCLSCAN_RADIX_BITS=6 -DCLSCAN_ITEMS=16 -DCLSCAN_SORT_FLIP)
endforeach()
message("every layer compiles as OpenCL C 1.2 for 10 types x 3 algorithms, the whole scan program in 7 variants a type (the KHR sub-groups as OpenCL C 2.0, and 3.0 with the extension${feature_variants}; clang ${clang_major}) and 15 for registered structs, the summed-area program in 30, the compaction program in 42 and unique and run-length encoding in 42, the segmented scan program in 56, the segmented reduction in 12, argmin/argmax in 20, the histograms in 14, the sort program in 46")
