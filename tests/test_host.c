/* Host-only logic, no OpenCL device touched: status and version strings, type sizes, the device-spec
 * grammar and its matching, the generated defines, cache keys, the policy and block-sum levels, and
 * the launch geometry of every primitive for n up to 2^40 (nothing allocated, nothing launched), and
 * the kernels' padded local places by rows (core/sizes.clh, a macro the host sees too). */
#include "prims/prims.h"
#include "../cl/core/sizes.clh"   /* the kernels' own formulas (a path from here: no include dir) */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static void test_status_strings(void **state)
{
    (void)state;
    for (int s = -7; s <= 0; s++) {
        const char *text = clscan_status_string((clscan_status)s);
        assert_non_null(text);
        assert_string_not_equal(text, "unknown status");
        for (int t = -7; t < s; t++)   /* every status has its own text */
            assert_string_not_equal(text, clscan_status_string((clscan_status)t));
    }
    assert_string_equal(clscan_status_string((clscan_status)42), "unknown status");
    assert_string_equal(clscan_status_string((clscan_status)-100), "unknown status");
    assert_string_equal(clscan__cl_error_name(CL_OUT_OF_RESOURCES), "CL_OUT_OF_RESOURCES");
    assert_string_equal(clscan__cl_error_name(-12345), "unknown OpenCL error");
    assert_int_equal(clscan__status_from_cl(CL_MEM_OBJECT_ALLOCATION_FAILURE), CLSCAN_OUT_OF_MEMORY);
    assert_int_equal(clscan__status_from_cl(CL_INVALID_KERNEL), CLSCAN_OPENCL_ERROR);
}

static void test_version_and_sizes(void **state)
{
    (void)state;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", CLSCAN_VERSION_MAJOR, CLSCAN_VERSION_MINOR, CLSCAN_VERSION_PATCH);
    assert_string_equal(clscan_version_string(), want);
    assert_int_equal(clscan_type_size(CLSCAN_INT32), 4);
    assert_int_equal(clscan_type_size(CLSCAN_UINT32), 4);
    assert_int_equal(clscan_type_size(CLSCAN_FLOAT), 4);
    assert_int_equal(clscan_type_size(CLSCAN_INT64), 8);
    assert_int_equal(clscan_type_size(CLSCAN_UINT64), 8);
    assert_int_equal(clscan_type_size(CLSCAN_DOUBLE), 8);
    assert_int_equal(clscan_type_size(CLSCAN_INT8), 1);
    assert_int_equal(clscan_type_size(CLSCAN_UINT8), 1);
    assert_int_equal(clscan_type_size(CLSCAN_INT16), 2);
    assert_int_equal(clscan_type_size(CLSCAN_UINT16), 2);
    assert_int_equal(clscan_type_size((clscan_type)10), 0);
    assert_int_equal(clscan_type_size((clscan_type)-1), 0);
}

static void test_spec_parsing(void **state)
{
    (void)state;
    assert_int_equal(clscan__parse_device_spec(NULL).kind, CLSCAN__SPEC_DEFAULT);
    assert_int_equal(clscan__parse_device_spec("").kind, CLSCAN__SPEC_DEFAULT);
    assert_int_equal(clscan__parse_device_spec("gpu").kind, CLSCAN__SPEC_GPU);
    assert_int_equal(clscan__parse_device_spec("GPU").kind, CLSCAN__SPEC_GPU);
    assert_int_equal(clscan__parse_device_spec("Cpu").kind, CLSCAN__SPEC_CPU);
    clscan__device_spec s = clscan__parse_device_spec("12");
    assert_int_equal(s.kind, CLSCAN__SPEC_INDEX);
    assert_int_equal(s.index, 12);
    s = clscan__parse_device_spec("1:3");
    assert_int_equal(s.kind, CLSCAN__SPEC_PAIR);
    assert_int_equal(s.platform, 1);
    assert_int_equal(s.device, 3);
    const char *names[] = {"h200", "1:", ":2", "1:2:3", "-1", "1x", "gpus", "99999999999999999999"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        s = clscan__parse_device_spec(names[i]);
        assert_int_equal(s.kind, CLSCAN__SPEC_NAME);
        assert_string_equal(s.name, names[i]);
    }
    char longname[400];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(clscan__parse_device_spec(longname).kind, CLSCAN__SPEC_INVALID);
}

static clscan__device_entry entry(size_t p, size_t d, cl_device_type type, const char *name, const char *platform,
                                   const char *vendor)
{
    clscan__device_entry e;
    memset(&e, 0, sizeof e);
    e.platform = p;
    e.device = d;
    e.type = type;
    snprintf(e.name, sizeof e.name, "%s", name);
    snprintf(e.platform_name, sizeof e.platform_name, "%s", platform);
    snprintf(e.platform_vendor, sizeof e.platform_vendor, "%s", vendor);
    return e;
}

static long match(const char *spec, const clscan__device_entry *e, size_t n)
{
    clscan__device_spec s = clscan__parse_device_spec(spec);
    return clscan__match_device(&s, e, n);
}

static void test_spec_matching(void **state)
{
    (void)state;
    clscan__device_entry e[4] = {
        entry(0, 0, CL_DEVICE_TYPE_CPU, "pthread-haswell-AMD EPYC", "Portable Computing Language", "The pocl project"),
        entry(1, 0, CL_DEVICE_TYPE_GPU, "NVIDIA H200", "NVIDIA CUDA", "NVIDIA Corporation"),
        entry(1, 1, CL_DEVICE_TYPE_GPU, "NVIDIA H100 80GB HBM3", "NVIDIA CUDA", "NVIDIA Corporation"),
        entry(2, 0, CL_DEVICE_TYPE_ACCELERATOR, "FPGA", "Other", "Someone"),
    };
    assert_int_equal(match(NULL, e, 4), 1);      /* first GPU */
    assert_int_equal(match(NULL, e, 1), 0);      /* else the first device */
    assert_int_equal(match(NULL, e, 0), -1);
    assert_int_equal(match("gpu", e, 4), 1);
    assert_int_equal(match("gpu", e, 1), -1);
    assert_int_equal(match("cpu", e, 4), 0);
    assert_int_equal(match("2", e, 4), 2);
    assert_int_equal(match("4", e, 4), -1);
    assert_int_equal(match("1:1", e, 4), 2);
    assert_int_equal(match("2:0", e, 4), 3);
    assert_int_equal(match("0:1", e, 4), -1);
    assert_int_equal(match("h100", e, 4), 2);
    assert_int_equal(match("H200", e, 4), 1);
    assert_int_equal(match("pocl", e, 4), 0);    /* the platform vendor counts: "The pocl project" */
    assert_int_equal(match("corporation", e, 4), 1);
    assert_int_equal(match("portable", e, 4), 0);
    assert_int_equal(match("cuda", e, 4), 1);    /* platform names count too */
    assert_int_equal(match("radeon", e, 4), -1);
}

static void test_defines_and_keys(void **state)
{
    (void)state;
    clscan__config cfg = {.program = CLSCAN__PROGRAM_SCAN, .type = CLSCAN_UINT64, .op = CLSCAN_MIN,
                          .wg = CLSCAN_WG_BLELLOCH, .wg_size = 128, .items = 4, .sg = CLSCAN__SG_NONE, .atomics64 = 1};
    char buf[1024];
    clscan__write_defines(&cfg, buf, sizeof buf);
    assert_non_null(strstr(buf, "#define CLSCAN_TYPE_UINT64\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_OP_MIN\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_WG_ALGO_BLELLOCH\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_WG_SIZE 128\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_ITEMS 4\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_SG_LOCAL\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_SP_ATOMIC64\n"));
    assert_null(strstr(buf, "CLSCAN_VEC_IO"));
    assert_null(strstr(buf, "CLSCAN_SP_FORCE_FALLBACK"));
    assert_null(strstr(buf, "CLSCAN_ITEMS_STREAM"));
    assert_null(strstr(buf, "CLSCAN_VEC4"));
    assert_null(strstr(buf, "CLSCAN_SP_VOLATILE_READS"));
    assert_null(strstr(buf, "CLSCAN_BYTES_DP4A"));
    assert_null(strstr(buf, "CLSCAN_LLVMPIPE"));
    clscan__config cfg2 = {.program = CLSCAN__PROGRAM_SAT, .type = CLSCAN_FLOAT, .op = CLSCAN_ADD,
                           .wg = CLSCAN_WG_SUBGROUP, .wg_size = 256, .items = 8, .stream = 1,
                           .sg = CLSCAN__SG_NVIDIA_PTX, .vec_io = 1, .vec4 = 1, .atomics64 = 1, .force_fallback = 1,
                           .volatile_reads = 1, .dp4a = 1, .llvmpipe = 1};
    clscan__write_defines(&cfg2, buf, sizeof buf);
    assert_non_null(strstr(buf, "#define CLSCAN_BYTES_DP4A\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_LLVMPIPE\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_WG_ALGO_SUBGROUP\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_SG_NVIDIA_PTX\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_VEC_IO\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_ITEMS_STREAM\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_VEC4\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_SP_FORCE_FALLBACK\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_SP_VOLATILE_READS\n"));
    cfg2.atomics64 = 0;                        /* no 64-bit atomics: 32-bit status words */
    clscan__write_defines(&cfg2, buf, sizeof buf);
    assert_null(strstr(buf, "CLSCAN_SP_ATOMIC64"));
    /* A primitive's own lines, in the order it writes them, after the tile's. */
    clscan__config_define_uint(&cfg2, "CLSCAN_SAT_BAND", 32);
    clscan__config_define(&cfg2, "CLSCAN_SAT_WIDE", NULL);
    clscan__write_defines(&cfg2, buf, sizeof buf);
    assert_non_null(strstr(buf, "#define CLSCAN_ITEMS 8\n#define CLSCAN_SAT_BAND 32\n#define CLSCAN_SAT_WIDE\n"));
    /* The registry: every program starts with the core files (the shared local-memory formulas first),
     * each kernel has its index. */
    const char *files[CLSCAN__MAX_FILES + 1];
    for (int id = 0; id < CLSCAN__PROGRAM_COUNT; id++) {
        clscan__program_files((clscan__program_id)id, files);
        assert_string_equal(files[0], "core/sizes.clh");
        const char *const *kernels = clscan__program_kernels((clscan__program_id)id);
        for (int k = 0; kernels[k]; k++)
            assert_int_equal(clscan__kernel_index((clscan__program_id)id, kernels[k]), k);
        assert_int_equal(clscan__kernel_index((clscan__program_id)id, "no_such_kernel"), -1);
    }
    /* Below the table's size: a full table may have dropped a file (0.2's ARG program made 17 of 16, and
     * the summed-area program lost its last one). */
    assert_true(clscan__source_count() >= 9 && clscan__source_count() < CLSCAN__MAX_FILES);

    clscan__device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "dev");
    snprintf(dev.driver, sizeof dev.driver, "1.0");
    char k1[33], k2[33], k3[33], k4[33], k5[33];
    clscan__cache_key(&dev, "source", "-O", k1);
    clscan__cache_key(&dev, "source", "-O", k2);
    assert_string_equal(k1, k2);                 /* stable */
    assert_int_equal(strlen(k1), 32);
    clscan__cache_key(&dev, "sourcf", "-O", k3);
    assert_string_not_equal(k1, k3);             /* source matters */
    clscan__cache_key(&dev, "source", "-O2", k4);
    assert_string_not_equal(k1, k4);             /* options matter */
    snprintf(dev.driver, sizeof dev.driver, "1.1");
    clscan__cache_key(&dev, "source", "-O", k5);
    assert_string_not_equal(k1, k5);             /* the driver matters */
    snprintf(dev.driver, sizeof dev.driver, "1.0");
    snprintf(dev.name, sizeof dev.name, "dev2");
    clscan__cache_key(&dev, "source", "-O", k5);
    assert_string_not_equal(k1, k5);             /* the device matters */
}

static void test_policy(void **state)
{
    (void)state;
    clscan__device_info gpu, cpu;
    memset(&gpu, 0, sizeof gpu);
    memset(&cpu, 0, sizeof cpu);
    gpu.type = CL_DEVICE_TYPE_GPU;
    snprintf(gpu.vendor, sizeof gpu.vendor, "NVIDIA Corporation");
    cpu.type = CL_DEVICE_TYPE_CPU;
    clscan__tuning t4 = clscan__table_scan_tile(&gpu, 4), t8 = clscan__table_scan_tile(&gpu, 8);
    assert_true(t4.wg_size >= 32 && (t4.wg_size & (t4.wg_size - 1)) == 0);
    assert_true(t4.items > 1);                   /* several elements per work-item */
    assert_int_equal((size_t)t8.items * t8.wg_size * 2, (size_t)t4.items * t4.wg_size);   /* same tile bytes */
    assert_true(clscan__table_scan_tile(&cpu, 4).items > 1);
    assert_false(t4.stream);                     /* GPUs hold items in registers; CPUs stream them */
    assert_true(clscan__table_scan_tile(&cpu, 4).stream);
    /* Compaction: the scans' tile on GPUs, its own on CPUs, in the same item mode. */
    clscan__tuning c4 = clscan__table_compact_tile(&gpu, 4);
    assert_true(c4.wg_size == t4.wg_size && c4.items == t4.items && c4.stream == t4.stream);
    clscan__tuning cc = clscan__table_compact_tile(&cpu, 4), sc = clscan__table_scan_tile(&cpu, 4);
    assert_true(cc.wg_size * cc.items > 1 && cc.stream == sc.stream);
    for (size_t n = 1; n < ((size_t)1 << 40); n *= 7) {
        assert_int_not_equal(clscan__table_strategy(&gpu, 4, n), CLSCAN_STRATEGY_AUTO);
        assert_int_not_equal(clscan__table_strategy(&cpu, 8, n), CLSCAN_STRATEGY_AUTO);
    }
    /* Sub-group scans only where the device shuffles in hardware. */
    assert_int_equal(clscan__table_wg(&gpu, CLSCAN_INT32, 1000), CLSCAN_WG_HILLIS_STEELE);
    gpu.subgroups = CLSCAN__SG_NVIDIA_PTX;
    assert_int_equal(clscan__table_wg(&gpu, CLSCAN_INT32, 1000), CLSCAN_WG_SUBGROUP);
    /* A row for a device name: the H100's one-band table tasks, not the H200's; the rest as its vendor's. */
    snprintf(gpu.name, sizeof gpu.name, "NVIDIA H100 80GB HBM3");
    clscan__tuning h100 = clscan__table_scan_tile(&gpu, 4);
    assert_true(clscan__table_sat_split(&gpu) > 0);
    assert_true(h100.wg_size == t4.wg_size && h100.items == t4.items);
    snprintf(gpu.name, sizeof gpu.name, "NVIDIA H200");
    assert_int_equal(clscan__table_sat_split(&gpu), 0);
    assert_int_equal(clscan__table_sat_split(&cpu), 0);
}

/* Which sub-group mechanism a device gets: PTX on NVIDIA GPUs, the KHR built-ins where the suite has
 * passed with them (rusticl on llvmpipe), the local-memory path everywhere else (PoCL 5 and 6 list both
 * extensions on CPUs, where they went wrong; neither has run on a GPU); a forced choice only where the
 * device has it. The KHR built-ins come from the extension or from OpenCL C 3.0's __opencl_c_subgroups
 * and build as OpenCL C 3.0 where the device takes it, else as 2.0. */
static clscan__device_info sg_device(cl_device_type type, int is_nvidia, const char *platform, const char *name,
                                     int c3, int c3_subgroups)
{
    clscan__device_info d;
    memset(&d, 0, sizeof d);
    d.type = type, d.is_nvidia = is_nvidia, d.c3 = c3, d.c3_subgroups = c3_subgroups;
    snprintf(d.platform, sizeof d.platform, "%s", platform);
    snprintf(d.name, sizeof d.name, "%s", name);
    return d;
}

static void test_subgroup_pick(void **state)
{
    (void)state;
    const char *both = "cl_khr_fp64 cl_khr_subgroups cl_intel_subgroups_short cl_intel_subgroups";
    const cl_device_type cpu = CL_DEVICE_TYPE_CPU, gpu = CL_DEVICE_TYPE_GPU;
    clscan__device_info pocl_cpu = sg_device(cpu, 0, "Portable Computing Language", "cpu-haswell-Intel(R) Xeon", 1, 1);
    clscan__device_info amd = sg_device(gpu, 0, "AMD Accelerated Parallel Processing", "gfx1100", 0, 0);
    clscan__device_info nvidia = sg_device(gpu, 1, "NVIDIA CUDA", "NVIDIA H100", 1, 0);
    clscan__device_info rusticl_cpu = sg_device(cpu, 0, "rusticl", "llvmpipe (LLVM 19.1.7, 256 bits)", 1, 1);
    clscan__device_info rusticl_gpu = sg_device(gpu, 0, "rusticl", "llvmpipe (LLVM 19.1.7, 256 bits)", 1, 1);
    clscan__device_info radeonsi = sg_device(gpu, 0, "rusticl", "AMD Radeon RX 7900 XTX (radeonsi, navi31)", 1, 1);
    assert_int_equal(clscan__pick_subgroups(&pocl_cpu, both, CLSCAN_SG_DEVICE), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&amd, both, CLSCAN_SG_DEVICE), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&radeonsi, "", CLSCAN_SG_DEVICE), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&nvidia, "cl_khr_fp64", CLSCAN_SG_DEVICE), CLSCAN__SG_NVIDIA_PTX);
    nvidia.type = gpu | CL_DEVICE_TYPE_DEFAULT;
    assert_int_equal(clscan__pick_subgroups(&nvidia, "", CLSCAN_SG_DEVICE), CLSCAN__SG_NVIDIA_PTX);
    nvidia.type = CL_DEVICE_TYPE_ACCELERATOR;
    assert_int_equal(clscan__pick_subgroups(&nvidia, "", CLSCAN_SG_DEVICE), CLSCAN__SG_NONE);
    /* rusticl: the feature alone, as a CPU and as a GPU; without the feature (or OpenCL C 3.0) none. */
    assert_int_equal(clscan__pick_subgroups(&rusticl_cpu, "cl_khr_subgroup_shuffle", CLSCAN_SG_DEVICE), CLSCAN__SG_KHR_C3);
    assert_int_equal(clscan__pick_subgroups(&rusticl_gpu, "cl_khr_fp64", CLSCAN_SG_DEVICE), CLSCAN__SG_KHR_C3);
    assert_int_equal(clscan__pick_subgroups(&rusticl_gpu, "", CLSCAN_SG_NONE), CLSCAN__SG_NONE);
    rusticl_cpu.c3_subgroups = 0;
    assert_int_equal(clscan__pick_subgroups(&rusticl_cpu, "", CLSCAN_SG_DEVICE), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&rusticl_cpu, "", CLSCAN_SG_KHR), CLSCAN__SG_NONE);
    rusticl_cpu.c3_subgroups = 1, rusticl_cpu.c3 = 0;   /* a feature list without OpenCL C 3.0 counts for nothing */
    assert_int_equal(clscan__pick_subgroups(&rusticl_cpu, "", CLSCAN_SG_DEVICE), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&rusticl_cpu, "cl_khr_subgroups", CLSCAN_SG_DEVICE), CLSCAN__SG_KHR);
    /* Forced: where the device has it, as OpenCL C 3.0 where it takes that. */
    assert_int_equal(clscan__pick_subgroups(&amd, both, CLSCAN_SG_KHR), CLSCAN__SG_KHR);
    assert_int_equal(clscan__pick_subgroups(&pocl_cpu, both, CLSCAN_SG_KHR), CLSCAN__SG_KHR_C3);
    assert_int_equal(clscan__pick_subgroups(&radeonsi, "", CLSCAN_SG_KHR), CLSCAN__SG_KHR_C3);
    assert_int_equal(clscan__pick_subgroups(&pocl_cpu, both, CLSCAN_SG_INTEL), CLSCAN__SG_INTEL);
    assert_int_equal(clscan__pick_subgroups(&amd, "cl_khr_subgroups_extended", CLSCAN_SG_KHR), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&amd, "cl_intel_subgroups_short", CLSCAN_SG_INTEL), CLSCAN__SG_NONE);
    nvidia.type = gpu;
    assert_int_equal(clscan__pick_subgroups(&nvidia, "", CLSCAN_SG_NONE), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&amd, "", CLSCAN_SG_PTX), CLSCAN__SG_NONE);
    assert_int_equal(clscan__pick_subgroups(&nvidia, "", 99), CLSCAN__SG_NVIDIA_PTX);
    clscan__config cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int sg = CLSCAN__SG_NONE; sg <= CLSCAN__SG_KHR_C3; sg++) {
        cfg.sg = (clscan__subgroup_kind)sg;
        assert_string_equal(clscan__build_options(&cfg), sg == CLSCAN__SG_KHR_C3 ? "-cl-std=CL3.0"
                                                         : sg == CLSCAN__SG_KHR  ? "-cl-std=CL2.0"
                                                                                 : "-cl-std=CL1.2");
    }
}

static void test_block_sum_levels(void **state)
{
    (void)state;
    size_t e[CLSCAN__MAX_LEVELS];
    assert_int_equal(clscan__block_sum_levels(1, 2048, e), 0);
    assert_int_equal(clscan__block_sum_levels(2048, 2048, e), 0);
    assert_int_equal(clscan__block_sum_levels(2049, 2048, e), 1);
    assert_int_equal(e[0], 2);
    assert_int_equal(clscan__block_sum_levels(2048u * 2048u, 2048, e), 1);
    assert_int_equal(e[0], 2048);
    assert_int_equal(clscan__block_sum_levels(2048u * 2048u + 1, 2048, e), 2);
    assert_int_equal(e[0], 2049);
    assert_int_equal(e[1], 2);
    /* No overflow at the top of size_t: 2^64-1 at tile 2048 needs 6 levels. */
    assert_int_equal(clscan__block_sum_levels(SIZE_MAX, 2048, e), 5);
    assert_true(e[4] <= 2048);
    assert_int_equal(e[0], SIZE_MAX / 2048 + 1);
}

/* ---- launch geometry up to n = 2^40 ---------------------------------------------------------------- */
/* Sizes around 2^31 and 2^32 (where a 32-bit count or index would wrap), 2^32 + 2^21 (past 2^32 by
 * more than a tile) and 2^40; the tile-relative ones are added per tile. */
static const uint64_t big_sizes[] = {
    0, 1, ((uint64_t)1 << 31) - 1, (uint64_t)1 << 31, ((uint64_t)1 << 31) + 1, ((uint64_t)1 << 32) - 1,
    (uint64_t)1 << 32, ((uint64_t)1 << 32) + ((uint64_t)1 << 21), (uint64_t)1 << 40,
};
#define BIG_SIZES (sizeof big_sizes / sizeof big_sizes[0])
/* Every tile the policy rows give (scans, sorts; 4- and 8-byte), the shrunken ones local memory can
 * force, and odd ones that a tuning override can set. */
static const size_t geometry_tiles[] = {1, 2, 3, 64, 1000, 1024, 2048, 4096, 8192, 16384, 32768};
#define GEOMETRY_TILES (sizeof geometry_tiles / sizeof geometry_tiles[0])
static unsigned long geometry_cases;

/* The n to check at this tile: the fixed ones and tile - 1, tile, tile + 1 (those past size_t left out). */
static size_t geometry_sizes(size_t tile, size_t *out)
{
    size_t count = 0;
    for (size_t i = 0; i < BIG_SIZES; i++)
        if (big_sizes[i] <= SIZE_MAX)
            out[count++] = (size_t)big_sizes[i];
    out[count++] = tile - 1, out[count++] = tile, out[count++] = tile + 1;
    return count;
}

/* Tiles cover [0, n) exactly: the last starts inside n, its end is past it by less than a tile; and
 * the launch walks every tile with at most CLSCAN__MAX_GROUPS groups whose global size fits 32 bits. */
static void check_tiles(size_t n, size_t tile)
{
    const size_t tiles = clscan__tiles(n, tile);
    assert_int_equal(tiles, ((uint64_t)n + tile - 1) / tile);   /* no overflow at these n */
    if (n == 0) {
        assert_int_equal(tiles, 0);
        assert_int_equal(clscan__launch_groups(tiles), 0);
        return;
    }
    assert_true((uint64_t)(tiles - 1) * tile < n);
    assert_true((uint64_t)tiles * tile >= n && (uint64_t)tiles * tile - n < tile);
    const size_t groups = clscan__launch_groups(tiles);
    assert_true(groups >= 1 && groups <= tiles && groups <= CLSCAN__MAX_GROUPS);
    assert_true((tiles - 1) % groups < groups);                  /* the last tile has a group */
    assert_true((uint64_t)groups * 1024 <= UINT32_MAX);           /* global size at work-groups of 1024 */
}

/* Single-pass: either refused (2^31 tiles or more) or the uint tile counter, which runs past the last
 * tile by up to one take per group, never wraps; the status array's size does not overflow. */
static void check_single_pass(size_t n, size_t tile)
{
    const size_t tiles = clscan__tiles(n, tile);
    const int fits = clscan__sp_tiles_fit(tiles);
    assert_int_equal(fits, (uint64_t)tiles < ((uint64_t)1 << 31));
    if (tile >= 1024)   /* every policy tile is: single-pass never refuses up to 2^40 */
        assert_true(fits);
    if (!fits)
        return;
    assert_true((uint64_t)tiles + CLSCAN__MAX_GROUPS <= UINT32_MAX);
    assert_int_equal(clscan__sp_status_bytes(tiles, 4) / 32, tiles);
}

/* Block-sum: each level holds the tiles of the one below, the top fits one tile (tile >= 64: within
 * the levels there are), scratch bytes do not overflow. Reduce-then-scan's totals go the same way. */
static void check_levels(size_t n, size_t tile)
{
    size_t e[CLSCAN__MAX_LEVELS];
    unsigned levels = clscan__block_sum_levels(n, tile, e);
    if (n <= tile) {
        assert_int_equal(levels, 0);
        return;
    }
    assert_true(levels >= 1);
    assert_int_equal(e[0], clscan__tiles(n, tile));
    for (unsigned l = 1; l < levels; l++)
        assert_int_equal(e[l], clscan__tiles(e[l - 1], tile));
    for (unsigned l = 0; l < levels; l++)
        assert_true((tile == 1 || e[l] < n) && e[l] * 8 / 8 == e[l]);
    if (tile >= 64)
        assert_true(e[levels - 1] <= tile);
    if (tile == 1)   /* never shrinks: block_sum refuses it (all levels used, the top above a tile) */
        assert_true(levels == CLSCAN__MAX_LEVELS && e[levels - 1] > tile);
    const size_t totals = clscan__tiles(n, tile);   /* reduce-then-scan: scanned by block-sum */
    if (tile >= 64 && totals > tile) {
        levels = clscan__block_sum_levels(totals, tile, e);
        assert_true(levels >= 1 && e[levels - 1] <= tile);
    }
}

/* The reduction: every group gets a tile (groups <= tiles), the stride walk gives none more than
 * per_group, groups stay within 8 a compute unit, and its status words are few. */
static void check_reduce(size_t n, size_t tile)
{
    static const size_t units[] = {0, 1, 2, 132, 1024};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        clscan__reduce_shape s = clscan__reduce_geometry(n, tile, units[u]);
        assert_int_equal(s.tiles, clscan__tiles(n, tile));
        if (n == 0) {
            assert_true(s.per_group == 0 && s.groups == 0);
            continue;
        }
        size_t cap = 8 * (units[u] ? units[u] : 1);
        assert_true(s.groups >= 1 && s.groups <= s.tiles && s.groups <= cap);
        assert_true((uint64_t)s.groups * s.per_group >= s.tiles);
        assert_true((uint64_t)(s.groups - 1) * s.per_group < s.tiles);
        assert_true(clscan__tiles(s.tiles, s.groups) <= s.per_group);
        assert_true(clscan__launch_groups(s.groups) == s.groups || cap > CLSCAN__MAX_GROUPS);
    }
}

/* Compaction: one launch (uint counts and status values) only below 2^32 elements and 2^31 tiles. */
static void check_compact(size_t n, size_t tile)
{
    const size_t tiles = clscan__tiles(n, tile);
    const int one = clscan__compact_one_pass_fits(n, tiles);
    assert_int_equal(one, (uint64_t)n <= UINT32_MAX && (uint64_t)tiles < ((uint64_t)1 << 31));
    if ((uint64_t)n >= ((uint64_t)1 << 32))
        assert_false(one);
    assert_int_equal(tiles * sizeof(cl_ulong) / sizeof(cl_ulong), tiles);   /* three launches' counts */
}

/* Sorts: digit-major counts d * tiles + t all inside the array without overflow; 32-bit counts only
 * while n fits them; the split path's groups cover n with at most one idle. */
static void check_sort(size_t n, size_t tile)
{
    for (unsigned bits = 1; bits <= 8; bits++) {
        clscan__sort_shape s = clscan__sort_geometry(n, tile, bits);
        assert_int_equal(s.tiles, clscan__tiles(n, tile));
        assert_int_equal(s.counts >> bits, s.tiles);
        if (s.tiles)
            assert_true((((uint64_t)1 << bits) - 1) * s.tiles + (s.tiles - 1) < s.counts);
    }
    const int wide = clscan__sort_hist64(n);
    assert_int_equal(wide, (uint64_t)n > UINT32_MAX);
    clscan__sort_shape s = clscan__sort_geometry(n, tile, 8);
    const size_t hist_bytes = wide ? 8 : 4;
    assert_int_equal(s.counts * hist_bytes / hist_bytes, s.counts);
    const size_t groups = clscan__split_groups(n, tile);
    assert_true((uint64_t)groups * tile >= n && (uint64_t)(groups - 1) * tile <= n);
    assert_true(groups == s.tiles || groups == s.tiles + 1);
}

/* Summed-area tables of height rows: the CPU bands cover every row (at most a band a compute unit,
 * none under 128 rows unless one), GPU bands of 32 and 16 rows likewise. Every image up to 2^35
 * elements fits the 31-bit band counter; taller ones are refused, never wrapped; where the bands fit,
 * their status and scratch sizes do not overflow. */
static void check_sat(size_t height)
{
    static const size_t units[] = {1, 2, 64};
    static const size_t widths[] = {2, 1000, (size_t)1 << 20};
    if (height < 2)
        return;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t rows = clscan__sat_cpu_rows(height, units[u], 0), bands = clscan__tiles(height, rows);
        assert_true(rows >= 1 && rows <= height && bands <= units[u]);
        assert_true((uint64_t)bands * rows >= height && (uint64_t)(bands - 1) * rows < height);
        assert_true(bands == 1 || rows >= 128);
    }
    assert_int_equal(clscan__sat_cpu_rows(height, 2, -5), 5);   /* the test override */
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (size_t band = 16; band <= 32; band += 16) {
            size_t width = widths[w], bands = clscan__tiles(height, band);
            if ((uint64_t)width * height > ((uint64_t)1 << 42))
                continue;   /* more than 16 TiB of 4-byte elements: no device holds it */
            const int fits = clscan__sat_bands_fit(width, bands);
            assert_int_equal(fits, (uint64_t)bands < ((uint64_t)1 << 31));
            if ((uint64_t)width * height <= ((uint64_t)1 << 35))
                assert_true(fits);
            if (!fits)
                continue;
            assert_int_equal(clscan__sp_status_bytes(bands * width, 8) / 32, bands * width);
            assert_int_equal(2 * bands * width * 8 / 16, bands * width);   /* the CPU shape's scratch */
        }
}

static void test_launch_geometry(void **state)
{
    (void)state;
    size_t sizes[BIG_SIZES + 3];
    for (size_t t = 0; t < GEOMETRY_TILES; t++) {
        const size_t tile = geometry_tiles[t], count = geometry_sizes(tile, sizes);
        for (size_t i = 0; i < count; i++) {
            check_tiles(sizes[i], tile);
            check_single_pass(sizes[i], tile);
            check_levels(sizes[i], tile);
            check_reduce(sizes[i], tile);
            check_compact(sizes[i], tile);
            check_sort(sizes[i], tile);
            check_sat(sizes[i]);
            geometry_cases++;
        }
    }
    printf("  %lu (n, tile) cases, n up to 2^40, tiles 1 to 32768\n", geometry_cases);
}

/* The edges: no overflow where n + tile - 1 would wrap, refusals instead of wrapping counters. */
static void test_geometry_limits(void **state)
{
    (void)state;
    assert_int_equal(clscan__tiles(SIZE_MAX, 2), SIZE_MAX / 2 + 1);
    assert_int_equal(clscan__tiles(SIZE_MAX, 1), SIZE_MAX);
    assert_int_equal(clscan__tiles(SIZE_MAX - 1, SIZE_MAX), 1);
    assert_true(clscan__sp_tiles_fit(((size_t)1 << 31) - 1));
    assert_false(clscan__sp_tiles_fit((size_t)1 << 31));
    assert_true(clscan__compact_one_pass_fits(UINT32_MAX, 1));
    assert_false(clscan__compact_one_pass_fits((size_t)UINT32_MAX + 1, 1));
    assert_false(clscan__sort_hist64(UINT32_MAX));
    assert_true(clscan__sort_hist64((size_t)UINT32_MAX + 1));
    assert_false(clscan__sat_wide(1));
    assert_false(clscan__sat_wide((size_t)UINT32_MAX + 1));   /* offsets up to 2^32 - 1 */
    assert_true(clscan__sat_wide((size_t)UINT32_MAX + 2));
    assert_false(clscan__sat_bands_fit(1, 0));
    assert_false(clscan__sat_bands_fit(1, (size_t)1 << 31));
    assert_false(clscan__sat_bands_fit(SIZE_MAX / 64 + 1, 1));
    assert_true(clscan__sat_bands_fit(SIZE_MAX / 64, 1));
    clscan__reduce_shape r = clscan__reduce_geometry(SIZE_MAX, 1, 1);   /* 8 groups share every tile */
    assert_int_equal(r.groups, 8);
    assert_int_equal(r.per_group, SIZE_MAX / 8 + 1);
}

/* CLSCAN_PAD_RC(row, width, col) is CLSCAN_PAD(row * width + col) for every col < width, whether width is
 * a multiple of the banks (the kernels' form by rows) or not (the one sum), up to a tile of 2^17. */
static void test_pad_rows(void **state)
{
    (void)state;
    static const unsigned widths[] = {1, 2, 4, 8, 16, 24, 32, 64, 96, 128, 256, 512, 1024, 4096};
    unsigned long cases = 0;
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (unsigned row = 0; row * widths[w] < (1u << 17); row += 1 + row / 8)
            for (unsigned col = 0; col < widths[w]; col++, cases++)
                if (CLSCAN_PAD_RC(row, widths[w], col) != CLSCAN_PAD(row * widths[w] + col))
                    fail_msg("CLSCAN_PAD_RC(%u, %u, %u) = %u, CLSCAN_PAD gives %u", row, widths[w], col,
                             CLSCAN_PAD_RC(row, widths[w], col), CLSCAN_PAD(row * widths[w] + col));
    printf("  %lu padded places by rows\n", cases);
}

/* The register cap written into PTX (core/ptx.c): the directive after each entry's parameters and
 * before its body, everything else byte for byte; anything that is not PTX as NVIDIA writes it, or
 * already capped, left alone (NULL). */
static void test_ptx_cap(void **state)
{
    (void)state;
    static const char ptx[] = "//\n// Generated by NVIDIA NVVM Compiler\n.version 8.5\n.target sm_90\n"
                              ".func (.param .b32 r) helper(.param .b32 x)\n{\n\tret;\n}\n"
                              ".visible .entry first(\n\t.param .u64 a,\n\t.param .u32 b\n)\n.reqntid 256, 1, 1\n"
                              "{\n\tret;\n}\n.visible .entry second(\n\t.param .u64 c\n)\n{\n\tret;\n}\n";
    static const char want[] = "//\n// Generated by NVIDIA NVVM Compiler\n.version 8.5\n.target sm_90\n"
                               ".func (.param .b32 r) helper(.param .b32 x)\n{\n\tret;\n}\n"
                               ".visible .entry first(\n\t.param .u64 a,\n\t.param .u32 b\n)\n.reqntid 256, 1, 1\n"
                               ".maxnreg 80\n{\n\tret;\n}\n.visible .entry second(\n\t.param .u64 c\n)\n"
                               ".maxnreg 80\n{\n\tret;\n}\n";
    size_t size = 0;
    /* With its NUL (as NVIDIA's binaries come) and without: the NUL, where there is one, is kept. */
    for (size_t with_nul = 0; with_nul <= 1; with_nul++) {
        unsigned char *out = clscan__ptx_with_cap((const unsigned char *)ptx, sizeof ptx - 1 + with_nul, 80, &size);
        assert_non_null(out);
        assert_int_equal(size, sizeof want - 1 + with_nul);
        assert_memory_equal(out, want, sizeof want - 1 + with_nul);
        /* Capped once: a second cap is refused rather than stacked. */
        size_t again = 0;
        assert_null(clscan__ptx_with_cap(out, size, 64, &again));
        free(out);
    }
    assert_null(clscan__ptx_with_cap((const unsigned char *)ptx, sizeof ptx, 0, &size));   /* no cap asked */
    static const char *const refused[] = {
        "\x7f" "ELF binary of another compiler .entry x() {}",                  /* not PTX */
        "//\n.version 8.5\n.target sm_90\n.func f()\n{\n}\n",                /* no entry */
        "//\n.version 8.5\n.target sm_90\n.visible .entry cut(\n\t.param .u64 a\n",   /* cut short */
        "//\n.version 8.5\n.target sm_90\n.visible .entry body_lost()\n.reqntid 1, 1, 1\n",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        assert_null(clscan__ptx_with_cap((const unsigned char *)refused[i], strlen(refused[i]), 80, &size));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_strings), cmocka_unit_test(test_version_and_sizes),
        cmocka_unit_test(test_spec_parsing),   cmocka_unit_test(test_spec_matching),
        cmocka_unit_test(test_defines_and_keys), cmocka_unit_test(test_policy),
        cmocka_unit_test(test_block_sum_levels), cmocka_unit_test(test_launch_geometry),
        cmocka_unit_test(test_geometry_limits),  cmocka_unit_test(test_subgroup_pick),
        cmocka_unit_test(test_pad_rows),         cmocka_unit_test(test_ptx_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
