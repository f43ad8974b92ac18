# ctest driver: every program of the registry, in the variants of its #define block that the host can
# ask for, compiles for each of -DTARGETS (comma-separated): gfx90a and gfx1030 (clang's amdgcn-amd-amdhsa,
# wave64 and wave32, linked against the ROCm device libraries of -DDEVICE_LIBS, so that a built-in they
# lack is a link error), and spirv (spir64 to LLVM IR, llvm-spirv, spirv-val).
#
# Which variants. The host writes the block (clscan__write_defines, src/core/program.c) from a
# configuration that clscan__config_with (src/engine/config.c) fills from the device and the tuning
# override and each primitive (src/prims/*.c) adjusts; host() below mirrors it and refuses what the
# host cannot produce. The whole cross product (type x operator x work-group algorithm x sub-group kind
# x tile x item mode x vector loads x status words x fallback x each primitive's own) runs to tens of
# thousands of programs, so each program has a list of shapes, each a configuration the host picks for
# some device or when asked, together setting every define (and value kind) at least once; each shape
# at every type (compaction: both payload widths; sort: every key type). Every operator at every type
# in the AMD default shape and in the cl_khr_subgroups one (a different built-in each); elsewhere the
# operator turns with the type, as does the sort's value width (all three at every key in the default
# shape). Tiles: AMD's row of the policy tables (groups of 256, 8 items of 4 bytes or 4 of 8), the CPUs'
# (streamed), NVIDIA's, and small or odd ones the override can ask for (groups of 1 or 8, 3 items).
# -DTIER=quick: each program's first variant only (the AMD default at int32).
#
# Skipped, as no device of that kind gets them (the counts name the reason): cl_intel_subgroups on AMD
# (taken only where the device lists the extension, src/core/device.c, and AMD's do not); NVIDIA's
# inline PTX sub-groups and volatile status reads (SG_NVIDIA_PTX, SP_VOLATILE_READS: NVIDIA GPUs only,
# whose programs NVIDIA's compiler builds from source) on AMD and SPIR-V. cl_syntax.cmake compiles
# those for nvptx.
#
# How each target compiles. AMD: optimised (-O2, clang's default for OpenCL) to a code object. SPIR-V:
# clang's default built-in declarations, except for cl_intel_subgroups, whose functions clang 15
# declares in its full opencl-c.h only; -O0, the translator's usual input (Debian 12's llvm-spirv
# 15.0.0 cannot translate the `freeze` of -O2, and at -O1 wrote SPIR-V that spirv-val rejects: IDs
# never defined); SPIR-V 1.0, what OpenCL 2.1 and cl_khr_il_program take; validated under the OpenCL
# environment of the program's OpenCL C version, or under SPIR-V 1.0's own rules where it has 64-bit
# atomics (spirv-val's OpenCL environments allow no optional capability, and the host asks for those
# only where the device lists cl_khr_int64_base_atomics). The sort's sub-group ballots (clang's spir64
# declares cl_khr_subgroup_ballot) need SPIR-V 1.3, validated under its own rules.
cmake_minimum_required(VERSION 3.16)   # IN_LIST
include("${CMAKE_CURRENT_LIST_DIR}/cl_programs.cmake")
# 8- and 16-bit: int8 and uint16 (both widths, both signs), as tests/test_scan.c runs them.
set(types INT32 UINT32 INT64 UINT64 FLOAT DOUBLE INT8 UINT16)
set(ops ADD MUL MIN MAX)

# host(program TYPE t OP o WG algorithm SIZE wg ITEMS n SG kind [STREAM] [VEC_IO] [VEC4] [ATOMIC64]
#      [FALLBACK] [VOLATILE] [DEFINES words...]): appends to variants_<program> the block the host
# writes for that configuration, as words (TYPE_INT32 ... WG_SIZE=256 ...), in the host's order.
# DEFINES: the primitive's own (clscan__config_define), without the CLSCAN_ prefix.
set(word_VEC_IO VEC_IO)
set(word_VEC4 VEC4)
set(word_ATOMIC64 SP_ATOMIC64)
set(word_FALLBACK SP_FORCE_FALLBACK)
set(word_VOLATILE SP_VOLATILE_READS)
function(host program)
  cmake_parse_arguments(PARSE_ARGV 1 c "STREAM;VEC_IO;VEC4;ATOMIC64;FALLBACK;VOLATILE" "TYPE;OP;WG;SIZE;ITEMS;SG"
                        "DEFINES")
  if(c_VEC_IO AND (c_STREAM OR NOT c_ITEMS MATCHES "^(4|8|16)$"))
    message(FATAL_ERROR "${program}: the host loads tiles as vectors only of 4, 8 or 16 items, not streamed")
  endif()
  if(NOT c_SG STREQUAL "LOCAL" AND NOT c_WG STREQUAL "SUBGROUP")
    message(FATAL_ERROR "${program}: the host picks a sub-group mechanism for the SUBGROUP algorithm only")
  endif()
  set(words TYPE_${c_TYPE} OP_${c_OP} WG_ALGO_${c_WG} WG_SIZE=${c_SIZE} ITEMS=${c_ITEMS} ${c_DEFINES})
  if(c_STREAM)
    list(APPEND words ITEMS_STREAM)
  endif()
  list(APPEND words SG_${c_SG})
  foreach(flag VEC_IO VEC4 ATOMIC64 FALLBACK VOLATILE)
    if(c_${flag})
      list(APPEND words ${word_${flag}})
    endif()
  endforeach()
  string(JOIN " " variant ${words})
  set(variants_${program} ${variants_${program}} "${variant}" PARENT_SCOPE)
endfunction()

# The AMD tile of the policy tables (src/tuning/scan.c, sort.c: GPUs not measured) by element width.
function(amd_items bytes out)
  if(bytes EQUAL 4)
    set(${out} 8 PARENT_SCOPE)
  else()
    set(${out} 4 PARENT_SCOPE)
  endif()
endfunction()
# A type's width, and the width of the policy rows it takes (8-bit and 16-bit types: the 4-byte rows).
function(type_bytes type out)
  if(type MATCHES "64|DOUBLE")
    set(${out} 8 PARENT_SCOPE)
  elseif(type MATCHES "16")
    set(${out} 2 PARENT_SCOPE)
  elseif(type MATCHES "8")
    set(${out} 1 PARENT_SCOPE)
  else()
    set(${out} 4 PARENT_SCOPE)
  endif()
endfunction()
function(row_bytes bytes out)
  if(bytes EQUAL 8)
    set(${out} 8 PARENT_SCOPE)
  else()
    set(${out} 4 PARENT_SCOPE)
  endif()
endfunction()

# The scan engine's program (scans and the reduction), for every type.
set(i 0)
foreach(type IN LISTS types)
  type_bytes(${type} width)
  row_bytes(${width} bytes)
  amd_items(${bytes} items)
  math(EXPR cpu_items "32768 / ${bytes}")   # the CPU row: 8192 or 4096 items
  math(EXPR nv_wg "1024 / ${bytes}")        # NVIDIA's row: 256 or 128 work-items, 32 items
  set(args SCAN TYPE ${type})
  foreach(op IN LISTS ops)   # AUTO on an AMD GPU (no sub-groups picked: Hillis-Steele); then KHR forced
    host(${args} OP ${op} WG HILLIS_STEELE SIZE 256 ITEMS ${items} SG LOCAL VEC_IO VEC4 ATOMIC64)
  endforeach()
  foreach(op IN LISTS ops)
    host(${args} OP ${op} WG SUBGROUP SIZE 256 ITEMS ${items} SG KHR VEC_IO VEC4 ATOMIC64)
  endforeach()
  if(type MATCHES "INT8|INT16")   # 8- and 16-bit: AUTO and the widened KHR scans; the shapes below are the
    continue()                     # same code at every type, and CI's time is counted
  endif()
  # The operator turns with the type from here on.
  set(k 0)
  foreach(shape INTEL NVIDIA PORTABLE SG_LOCAL CPU SMALL ONE)
    math(EXPR o "(${i} + ${k}) % 4")
    list(GET ops ${o} op)
    math(EXPR k "${k} + 1")
    if(shape STREQUAL "INTEL")          # forced where the device lists cl_intel_subgroups
      host(${args} OP ${op} WG SUBGROUP SIZE 256 ITEMS ${items} SG INTEL VEC_IO VEC4 ATOMIC64)
    elseif(shape STREQUAL "NVIDIA")     # AUTO on NVIDIA GPUs
      host(${args} OP ${op} WG SUBGROUP SIZE ${nv_wg} ITEMS 32 SG NVIDIA_PTX VEC4 ATOMIC64 VOLATILE)
    elseif(shape STREQUAL "PORTABLE")   # the portable paths and the forced fallback, Blelloch
      host(${args} OP ${op} WG BLELLOCH SIZE 256 ITEMS ${items} SG LOCAL FALLBACK)
    elseif(shape STREQUAL "SG_LOCAL")   # the sub-group algorithm without sub-groups, 16-wide vectors
      host(${args} OP ${op} WG SUBGROUP SIZE 64 ITEMS 16 SG LOCAL VEC_IO VEC4 ATOMIC64 FALLBACK)
    elseif(shape STREQUAL "CPU")        # AUTO on CPUs (PoCL): streamed items
      host(${args} OP ${op} WG HILLIS_STEELE SIZE 16 ITEMS ${cpu_items} SG LOCAL STREAM VEC4 ATOMIC64)
    elseif(shape STREQUAL "SMALL")      # a group smaller than a sub-group slice, odd items
      host(${args} OP ${op} WG BLELLOCH SIZE 8 ITEMS 3 SG LOCAL VEC4)
    else()                              # a work-group of one
      host(${args} OP ${op} WG SUBGROUP SIZE 1 ITEMS 32 SG LOCAL VEC4 ATOMIC64)
    endif()
  endforeach()
  math(EXPR i "${i} + 1")
endforeach()

# The compaction: counts in uint, elements moved as 1-, 2-, 4- or 8-byte patterns (one for each width).
foreach(bytes 1 2 4 8)
  row_bytes(${bytes} rows)
  amd_items(${rows} items)
  math(EXPR nv_wg "1024 / ${rows}")
  set(args COMPACT TYPE UINT32 OP ADD DEFINES PAYLOAD_BYTES=${bytes})
  host(${args} WG HILLIS_STEELE SIZE 256 ITEMS ${items} SG LOCAL VEC_IO VEC4 ATOMIC64)
  host(${args} WG BLELLOCH SIZE 256 ITEMS ${items} SG LOCAL FALLBACK)
  host(${args} WG SUBGROUP SIZE 64 ITEMS 16 SG LOCAL VEC_IO VEC4 ATOMIC64 FALLBACK)
  host(${args} WG SUBGROUP SIZE 256 ITEMS ${items} SG KHR VEC_IO VEC4 ATOMIC64)
  host(${args} WG SUBGROUP SIZE 256 ITEMS ${items} SG INTEL VEC_IO VEC4 ATOMIC64)
  host(${args} WG SUBGROUP SIZE ${nv_wg} ITEMS 32 SG NVIDIA_PTX VEC4 ATOMIC64 VOLATILE)
  host(${args} WG HILLIS_STEELE SIZE 8 ITEMS 4096 SG LOCAL STREAM VEC4 ATOMIC64 FALLBACK)   # CPUs
  host(${args} WG BLELLOCH SIZE 1 ITEMS 3 SG LOCAL VEC4)
endforeach()

# The radix sort: packed ulong counters (TYPE_UINT64), no vector loads; every key type, values of 0, 4
# or 8 bytes; 8-bit digits, 4 (portable) and 1 (the split); 64-bit counts; the CPU's group of one.
set(i 0)
foreach(key IN LISTS types)
  type_bytes(${key} bytes)
  row_bytes(${bytes} rows)
  amd_items(${rows} items)
  math(EXPR nv_items "64 / ${rows}")   # NVIDIA's row: 16 or 8
  set(kind "")
  if(key MATCHES "^INT")
    set(kind SORT_KEY_SIGNED)
  elseif(key MATCHES "FLOAT|DOUBLE")
    set(kind SORT_KEY_FLOAT)
  endif()
  foreach(values 0 4 8)
    host(SORT TYPE UINT64 OP ADD WG HILLIS_STEELE SIZE 256 ITEMS ${items} SG LOCAL ATOMIC64
         DEFINES SORT_KEY_BYTES=${bytes} ${kind} SORT_VALUE_BYTES=${values} RADIX_BITS=8)
  endforeach()
  set(k 0)
  foreach(shape KHR INTEL NVIDIA PORTABLE CPU SPLIT)
    math(EXPR v "(${i} + ${k}) % 3")
    math(EXPR values "${v} * 4")   # 0, 4, 8 in turn
    math(EXPR k "${k} + 1")
    set(args SORT TYPE UINT64 OP ADD)
    set(keys SORT_KEY_BYTES=${bytes} ${kind} SORT_VALUE_BYTES=${values})
    if(shape STREQUAL "KHR")   # ranking by sub-group ballots
      host(${args} WG SUBGROUP SIZE 256 ITEMS ${items} SG KHR ATOMIC64 DEFINES ${keys} RADIX_BITS=8 SORT_BALLOT_KHR)
    elseif(shape STREQUAL "INTEL")
      host(${args} WG SUBGROUP SIZE 256 ITEMS ${items} SG INTEL ATOMIC64 DEFINES ${keys} RADIX_BITS=8)
    elseif(shape STREQUAL "NVIDIA")   # ballot ranking, a range's float flip
      host(${args} WG SUBGROUP SIZE 256 ITEMS ${nv_items} SG NVIDIA_PTX ATOMIC64 VOLATILE DEFINES ${keys} RADIX_BITS=8
           SORT_FLIP SORT_BALLOT_PTX)
    elseif(shape STREQUAL "PORTABLE")
      host(${args} WG BLELLOCH SIZE 256 ITEMS ${items} SG LOCAL FALLBACK DEFINES ${keys} RADIX_BITS=4 SORT_HIST64)
    elseif(shape STREQUAL "CPU")
      host(${args} WG HILLIS_STEELE SIZE 1 ITEMS 8192 SG LOCAL ATOMIC64 DEFINES ${keys} RADIX_BITS=8 SORT_HIST64)
    else()
      host(${args} WG SUBGROUP SIZE 64 ITEMS 16 SG LOCAL ATOMIC64 DEFINES ${keys} RADIX_BITS=1)
    endif()
  endforeach()
  math(EXPR i "${i} + 1")
endforeach()

# The summed-area tables: Hillis-Steele, no sub-groups, vectors or streaming (src/prims/sat.c), the
# column look-back; bands of the AMD row (16), part-band table tiles with 64-bit offsets, the CPU
# shape (band 0), NVIDIA's, bands of one row in a small group.
foreach(type IN LISTS types)
  type_bytes(${type} width)
  row_bytes(${width} bytes)
  amd_items(${bytes} items)
  math(EXPR cpu_items "32768 / ${bytes}")
  math(EXPR nv_wg "1024 / ${bytes}")
  set(args SAT TYPE ${type} OP ADD WG HILLIS_STEELE SG LOCAL)
  host(${args} SIZE 256 ITEMS ${items} ATOMIC64 DEFINES SP_COLUMNS SAT_BAND=16)
  host(${args} SIZE 256 ITEMS ${items} ATOMIC64 DEFINES SP_COLUMNS SAT_BAND=8 SAT_CARRY_ROWS=16 SAT_WIDE SAT_IN_PLACE)
  host(${args} SIZE 256 ITEMS ${items} FALLBACK DEFINES SP_COLUMNS SAT_BAND=4)
  host(${args} SIZE 16 ITEMS ${cpu_items} ATOMIC64 DEFINES SP_COLUMNS SAT_BAND=0 SAT_WIDE)
  host(${args} SIZE ${nv_wg} ITEMS 32 ATOMIC64 VOLATILE DEFINES SP_COLUMNS SAT_BAND=16 SAT_CARRY_ROWS=32)
  host(${args} SIZE 32 ITEMS ${items} FALLBACK DEFINES SP_COLUMNS SAT_BAND=1 SAT_WIDE)
endforeach()

# The segmented scans: no sub-groups or packed tiles (src/prims/segscan.c); byte heads in 16-byte loads
# and keys staged in local memory, at the AMD row, the CPU shape, NVIDIA's; a few types, since the code
# is the same at every width.
foreach(type INT32 DOUBLE INT8)
  set(args SEGSCAN TYPE ${type} OP ADD WG HILLIS_STEELE SG LOCAL)
  host(${args} SIZE 256 ITEMS 8 ATOMIC64 DEFINES SP_CLOSING SEG_HEADS16)
  host(${args} SIZE 256 ITEMS 8 FALLBACK DEFINES SP_CLOSING SEG_KEY_BYTES=4)
endforeach()
host(SEGSCAN TYPE FLOAT OP MAX WG HILLIS_STEELE SG LOCAL SIZE 16 ITEMS 8192 STREAM ATOMIC64 DEFINES SP_CLOSING SEG_KEY_BYTES=12)
host(SEGSCAN TYPE INT32 OP ADD WG SUBGROUP SG NVIDIA_PTX SIZE 256 ITEMS 32 ATOMIC64 VOLATILE DEFINES SP_CLOSING SEG_KEY_BYTES=8)

host(RUNS TYPE INT32 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 8 ATOMIC64 DEFINES SP_RUNS SEG_KEY_BYTES=4 RUNS_COUNT32)
host(RUNS TYPE UINT64 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 8 ATOMIC64 DEFINES SP_RUNS SEG_KEY_BYTES=8 RUNS_COUNT32 RUNS_KEYS)
host(RUNS TYPE DOUBLE OP MIN WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 8 FALLBACK DEFINES SP_RUNS SEG_KEY_BYTES=12)
host(RUNS TYPE UINT64 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 16 ITEMS 8192 STREAM ATOMIC64 DEFINES SP_RUNS SEG_KEY_BYTES=1)

host(SEGREDUCE TYPE INT32 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 8 VEC_IO ATOMIC64 DEFINES SP_CLOSING)
host(SEGREDUCE TYPE DOUBLE OP MIN WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 4 FALLBACK DEFINES SP_CLOSING)
host(SEGREDUCE TYPE INT8 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 16 ITEMS 8192 STREAM ATOMIC64 DEFINES SP_CLOSING)

host(ARG TYPE FLOAT OP MIN WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 8 VEC4 ATOMIC64)
host(ARG TYPE UINT8 OP MAX WG HILLIS_STEELE SG LOCAL SIZE 16 ITEMS 8192 STREAM ATOMIC64)

host(HIST TYPE INT32 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 8 VEC4 ATOMIC64)
host(HIST TYPE DOUBLE OP ADD WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 4 VEC4 ATOMIC64)
host(HIST TYPE INT64 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 256 ITEMS 4)
host(HIST TYPE UINT16 OP ADD WG HILLIS_STEELE SG LOCAL SIZE 16 ITEMS 8192 STREAM ATOMIC64)

foreach(program IN LISTS registry_programs)
  if(NOT variants_${program})
    message(FATAL_ERROR "the registry's program ${program} has no variants in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
endforeach()

# Why `target` never gets the variant `words`, or "".
function(skip_reason target words out)
  set(reason "")
  if(target MATCHES "^gfx" AND "SG_INTEL" IN_LIST words)
    set(reason "cl_intel_subgroups (no AMD device lists it)")
  elseif("SG_NVIDIA_PTX" IN_LIST words OR "SP_VOLATILE_READS" IN_LIST words)
    set(reason "inline PTX or volatile status reads (NVIDIA GPUs only)")
  endif()
  set(${out} "${reason}" PARENT_SCOPE)
endfunction()

# Runs one step; on failure sets `error` in the caller to what it said.
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " command)
    set(error "${what} failed (${rc}): ${command}\n${out}${err}" PARENT_SCOPE)
  endif()
endfunction()

# Compiles `file` (the program's text) in the variant `words` for `target`; `error` as step().
function(compile target file words dir)
  set(defines ${words})
  list(TRANSFORM defines PREPEND "-DCLSCAN_")
  set(std -cl-std=CL1.2)
  set(env opencl1.2)
  if("SG_KHR" IN_LIST words)   # as the host builds it (clscan__build_options)
    set(std -cl-std=CL2.0)
    set(env opencl2.0)
  endif()
  set(clang_cl ${CLANG} -x cl -Werror ${std} ${defines})
  set(error "")
  if(target MATCHES "^gfx")
    step("clang for ${target}" ${clang_cl} -target amdgcn-amd-amdhsa -mcpu=${target}
         --rocm-device-lib-path=${DEVICE_LIBS} "${file}" -o "${dir}/program.co")
  else()
    set(header "")
    set(extensions "")
    if("SG_INTEL" IN_LIST words)
      set(header -cl-no-stdinc -Xclang -finclude-default-header)
      set(extensions --spirv-ext=+SPV_INTEL_subgroups)
    endif()
    set(version 1.0)
    if("SP_ATOMIC64" IN_LIST words)
      set(env spv1.0)
    endif()
    if("SORT_BALLOT_KHR" IN_LIST words)   # clang's spir64 has cl_khr_subgroup_ballot: SPIR-V 1.3's ballots
      set(version 1.3)
      set(env spv1.3)
    endif()
    step("clang for spir64" ${clang_cl} ${header} -O0 -target spir64 -c -emit-llvm "${file}" -o "${dir}/program.bc")
    if(NOT error)
      step("llvm-spirv" ${LLVM_SPIRV} --spirv-max-version=${version} ${extensions} "${dir}/program.bc"
           -o "${dir}/program.spv")
    endif()
    if(NOT error)
      step("spirv-val" ${SPIRV_VAL} --target-env ${env} "${dir}/program.spv")
    endif()
  endif()
  set(error "${error}" PARENT_SCOPE)
endfunction()

string(REPLACE "," ";" targets "${TARGETS}")
set(failed 0)
foreach(target IN LISTS targets)
  string(TIMESTAMP start "%s")
  set(dir "${WORK_DIR}/cl-targets/${TIER}-${target}")   # ctest runs the tiers side by side
  file(MAKE_DIRECTORY "${dir}")
  set(done "")
  set(skipped "")
  set(total 0)
  foreach(program IN LISTS registry_programs)
    program_text(${program} text)
    set(file "${dir}/${program}.cl")
    file(WRITE "${file}" "${text}")
    set(variants ${variants_${program}})
    if(TIER STREQUAL "quick")
      list(GET variants 0 variants)
    endif()
    set(count 0)
    foreach(variant IN LISTS variants)
      string(REPLACE " " ";" words "${variant}")
      skip_reason(${target} "${words}" reason)
      if(reason)
        list(APPEND skipped "${reason}")
        continue()
      endif()
      compile(${target} "${file}" "${words}" "${dir}")
      math(EXPR count "${count} + 1")
      if(error)
        math(EXPR failed "${failed} + 1")
        message("FAILED: ${program} for ${target}, variant ${variant}\n${error}")
      endif()
    endforeach()
    list(APPEND done "${program} ${count}")
    math(EXPR total "${total} + ${count}")
  endforeach()
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  list(JOIN done ", " done)
  set(skips "")
  if(skipped)
    list(LENGTH skipped skip_count)
    list(REMOVE_DUPLICATES skipped)
    list(JOIN skipped "; " skipped)
    set(skips ", ${skip_count} skipped: ${skipped}")
  endif()
  message("${target}: ${total} programs compiled (${done})${skips}, ${seconds} s")
endforeach()
if(failed)
  message(FATAL_ERROR "${failed} compilation(s) failed (above)")
endif()
