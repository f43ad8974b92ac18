/* Host-only logic, no OpenCL device touched: status and version strings, type sizes, the device-spec
 * grammar and its matching, the generated defines, cache keys, the policy and block-sum levels. */
#include "internal.h"
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
    assert_int_equal(clscan_type_size((clscan_type)6), 0);
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
    clscan__config cfg = {CLSCAN_UINT64, CLSCAN_MIN, CLSCAN_WG_BLELLOCH, 128, 4, 0, CLSCAN__SG_NONE, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    char buf[1024];
    clscan__write_defines(&cfg, buf, sizeof buf);
    assert_non_null(strstr(buf, "#define CLSCAN_TYPE_UINT64\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_OP_MIN\n"));
    assert_non_null(strstr(buf, "#define WG_ALGO_BLELLOCH\n"));
    assert_non_null(strstr(buf, "#define WG_SIZE 128\n"));
    assert_non_null(strstr(buf, "#define ITEMS 4\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_SG_LOCAL\n"));
    assert_non_null(strstr(buf, "#define SP_ATOMIC64\n"));
    assert_null(strstr(buf, "CLSCAN_VEC_IO"));
    assert_null(strstr(buf, "SP_FORCE_FALLBACK"));
    assert_null(strstr(buf, "CLSCAN_ITEMS_STREAM"));
    assert_null(strstr(buf, "CLSCAN_VEC4"));
    assert_null(strstr(buf, "SAT_BAND"));
    assert_null(strstr(buf, "SP_VOLATILE_READS"));
    clscan__config cfg2 = {CLSCAN_FLOAT, CLSCAN_ADD, CLSCAN_WG_SUBGROUP, 256, 8, 1, CLSCAN__SG_NVIDIA_PTX, 1, 1, 1, 1, 8, 0, 0, 0, 0, 32, 1};
    clscan__write_defines(&cfg2, buf, sizeof buf);
    assert_non_null(strstr(buf, "#define WG_ALGO_SUBGROUP\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_SG_NVIDIA_PTX\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_VEC_IO\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_ITEMS_STREAM\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_VEC4\n"));
    assert_non_null(strstr(buf, "#define CLSCAN_PAYLOAD_BYTES 8\n"));
    assert_non_null(strstr(buf, "#define SAT_BAND 32\n#define SP_VOLATILE_READS\n"));
    assert_null(strstr(buf, "SORT_KEY"));
    assert_non_null(strstr(buf, "#define SP_FORCE_FALLBACK\n"));
    cfg2.atomics64 = 0;                        /* no 64-bit atomics: 32-bit status words */
    clscan__write_defines(&cfg2, buf, sizeof buf);
    assert_null(strstr(buf, "SP_ATOMIC64"));
    /* A sort program: key width and kind, values, digit bits, count width. */
    clscan__config cfg3 = {CLSCAN_UINT64, CLSCAN_ADD, CLSCAN_WG_HILLIS_STEELE, 256, 16, 0, CLSCAN__SG_NONE, 0, 0, 0, 0, 0,
                           1 + CLSCAN_DOUBLE, 4, 8, 1, 0, 0};
    clscan__write_defines(&cfg3, buf, sizeof buf);
    assert_non_null(strstr(buf, "#define SORT_KEY_BYTES 8\n#define SORT_KEY_FLOAT\n#define SORT_VALUE_BYTES 4\n"
                                "#define RADIX_BITS 8\n#define SORT_HIST64\n"));
    cfg3.sort_key = 1 + CLSCAN_INT32, cfg3.hist64 = 0;
    clscan__write_defines(&cfg3, buf, sizeof buf);
    assert_non_null(strstr(buf, "#define SORT_KEY_BYTES 4\n#define SORT_KEY_SIGNED\n"));
    assert_null(strstr(buf, "SORT_HIST64"));

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
    clscan__tuning t4 = clscan__policy_tuning(&gpu, CLSCAN_INT32), t8 = clscan__policy_tuning(&gpu, CLSCAN_DOUBLE);
    assert_true(t4.wg_size >= 32 && (t4.wg_size & (t4.wg_size - 1)) == 0);
    assert_true(t4.items > 1);                   /* several elements per work-item */
    assert_int_equal((size_t)t8.items * t8.wg_size * 2, (size_t)t4.items * t4.wg_size);   /* same tile bytes */
    assert_true(clscan__policy_tuning(&cpu, CLSCAN_FLOAT).items > 1);
    assert_false(t4.stream);                     /* GPUs hold items in registers; CPUs stream them */
    assert_true(clscan__policy_tuning(&cpu, CLSCAN_FLOAT).stream);
    for (int s = CLSCAN_STRATEGY_AUTO; s <= CLSCAN_STRATEGY_SINGLE_PASS; s++)
        for (int w = CLSCAN_WG_AUTO; w <= CLSCAN_WG_SUBGROUP; w++)
            assert_true(clscan__algorithm_implemented((clscan_strategy)s, (clscan_wg_algorithm)w));
    assert_false(clscan__algorithm_implemented((clscan_strategy)(CLSCAN_STRATEGY_SINGLE_PASS + 1), CLSCAN_WG_AUTO));
    for (size_t n = 1; n < ((size_t)1 << 40); n *= 7) {
        assert_int_not_equal(clscan__policy_strategy(&gpu, CLSCAN_INT32, n), CLSCAN_STRATEGY_AUTO);
        assert_int_not_equal(clscan__policy_strategy(&cpu, CLSCAN_DOUBLE, n), CLSCAN_STRATEGY_AUTO);
    }
    /* Sub-group scans only where the device shuffles in hardware. */
    assert_int_equal(clscan__policy_wg(&gpu, CLSCAN_INT32, 1000), CLSCAN_WG_HILLIS_STEELE);
    gpu.subgroups = CLSCAN__SG_NVIDIA_PTX;
    assert_int_equal(clscan__policy_wg(&gpu, CLSCAN_INT32, 1000), CLSCAN_WG_SUBGROUP);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_strings), cmocka_unit_test(test_version_and_sizes),
        cmocka_unit_test(test_spec_parsing),   cmocka_unit_test(test_spec_matching),
        cmocka_unit_test(test_defines_and_keys), cmocka_unit_test(test_policy),
        cmocka_unit_test(test_block_sum_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
