/* clscan_reduce against the CPU reference, and clscan_reduce_async against clscan_reduce's bits: every
 * type x operator, at sizes around every boundary of the tiling in force (work-group, tile, 3 tiles,
 * several passes of partials), in the paths AUTO takes and in the portable and other-item-mode paths;
 * the input must stay untouched and *result is poisoned first. Bad arguments leave *result and the
 * context as they were. $CLSCAN_TEST_SEED replays. The quick tier (tier.h) runs the other paths at one
 * type each. */
#include "prims/prims.h"
#include "ref.h"
#include "tier.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

REF_FIXTURE("test_reduce")

/* One reduction of fresh random data; 1 when it matches and the input is unchanged. */
static int reduce_one(size_t n, clscan_type type, clscan_op op, void *in, void *after)
{
    size_t bytes = n * clscan_type_size(type);
    ref_fill(in, n, type, op, &rng);
    cl_mem buf = ref_buffer(ctx, bytes ? bytes : 8, in);
    assert_non_null(buf);
    unsigned char result[8];
    memset(result, REF_POISON, sizeof result);
    clscan_status st = clscan_reduce(ctx, buf, n, type, op, result);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s %s n=%zu: %s: %s", ref_type_name(type), ref_op_name(op), n, clscan_status_string(st),
                 clscan_last_error(ctx));
    char msg[256] = "";
    int ok = ref_check_reduce(in, result, n, type, op, msg, sizeof msg);
    if (!ok)
        print_error("reduce %s %s n=%zu: %s\n", ref_type_name(type), ref_op_name(op), n, msg);
    /* clscan_reduce_async into a poisoned buffer: the same bits (float sums fold in a fixed order). */
    const size_t elem = clscan_type_size(type);
    unsigned char on_device[8];
    cl_mem res = ref_buffer(ctx, elem, NULL);
    assert_non_null(res);
    st = clscan_reduce_async(ctx, buf, n, type, op, res);
    if (st != CLSCAN_SUCCESS)
        fail_msg("async %s %s n=%zu: %s: %s", ref_type_name(type), ref_op_name(op), n, clscan_status_string(st),
                 clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, res, elem, on_device), 1);
    clReleaseMemObject(res);
    if (memcmp(on_device, result, elem) != 0) {
        print_error("reduce_async %s %s n=%zu: not clscan_reduce's value\n", ref_type_name(type), ref_op_name(op), n);
        ok = 0;
    }
    assert_int_equal(ref_read(ctx, buf, bytes, after), 1);
    clReleaseMemObject(buf);
    return ok && memcmp(in, after, bytes) == 0;
}

/* 1 while a path other than AUTO's runs (the integers' fixed stride): its operators are tier_path_op's. */
static int path_pass;

/* Sizes around the tiling in force for the type (including enough tiles for two passes of partials),
 * for the operators from first to last. */
static void reduce_sizes(clscan_type type, clscan_op first, clscan_op last)
{
    clscan__tuning t = clscan__scan_tile(ctx, type);
    size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items;
    size_t groups = (size_t)ctx->info.compute_units * 8;   /* reduce.c's cap on the first pass */
    const size_t sizes[] = {0, 1, 2, 3, 31, 33, wg - 1, wg, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1,
                            3 * tile + 1, groups * tile + 5, 10007, ref_quick() ? 20011 : (1u << 20) + 123,
                            1 + ref_next(&rng) % 300000, 1 + ref_next(&rng) % 3000};
    size_t max = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        max = sizes[i] > max ? sizes[i] : max;
    void *in = malloc(max * 8 + 8), *after = malloc(max * 8 + 8);
    assert_non_null(in);
    assert_non_null(after);
    int failures = 0;
    for (int op = first; op <= (int)last; op++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            failures += (path_pass ? tier_path_op(type, (clscan_op)op) : tier_op(type, (clscan_op)op, 1)) &&
                        !reduce_one(sizes[i], type, (clscan_op)op, in, after);
    free(in);
    free(after);
    assert_int_equal(failures, 0);
}

/* Every operator on the path AUTO takes (integers also with the fixed stride of tiles that floats
 * take, there with tier_path_op's operators); add alone on the portable path (scalar loads) and in the
 * item mode the policy does not pick, with 16-element tiles (many partials, several passes). Each
 * extra path is a program build per type, which PoCL makes slowly: the quick tier (tier.h) runs each
 * extra path at one type. */
static void all_paths(clscan_type type)
{
    reduce_sizes(type, CLSCAN_ADD, CLSCAN_MAX);
    if (type != CLSCAN_FLOAT && type != CLSCAN_DOUBLE) {   /* integers take tiles as they go; floats stride */
        clscan_tuning_set(ctx, CLSCAN_TUNE_REDUCE_STRIDED, 1);
        path_pass = 1;
        if (tier_type(type, CLSCAN_INT64))
            reduce_sizes(type, CLSCAN_ADD, CLSCAN_MAX);
        path_pass = 0;
        clscan_tuning_set(ctx, CLSCAN_TUNE_REDUCE_STRIDED, 0);
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);
    if (tier_type(type, CLSCAN_INT32))
        reduce_sizes(type, CLSCAN_ADD, CLSCAN_ADD);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, clscan__scan_tile(ctx, type).stream ? 1 : 2);
    test_set_tile(ctx, 8, 2);
    if (tier_type(type, CLSCAN_UINT32))
        reduce_sizes(type, CLSCAN_ADD, CLSCAN_ADD);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
}

#define TYPE_TEST(T)                                                                                    \
    static void test_reduce_##T(void **state)                                                           \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (!clscan__device_supports_type(&ctx->info, CLSCAN_##T))                                      \
            skip();                                                                                     \
        all_paths(CLSCAN_##T);                                                                          \
    }
TYPE_TEST(INT32)
TYPE_TEST(UINT32)
TYPE_TEST(INT64)
TYPE_TEST(UINT64)
TYPE_TEST(FLOAT)
TYPE_TEST(DOUBLE)
TYPE_TEST(INT8)
TYPE_TEST(UINT8)
TYPE_TEST(INT16)
TYPE_TEST(UINT16)

/* A float sum comes back with the same bits every time (design.md): many groups, many tiles each. */
static void test_reduce_float_repeatable(void **state)
{
    (void)state;
    clscan__tuning t = clscan__scan_tile(ctx, CLSCAN_FLOAT);
    const size_t n = (size_t)ctx->info.compute_units * 8 * t.wg_size * t.items * 3 + 77;
    float *in = malloc(n * sizeof *in);
    assert_non_null(in);
    ref_fill(in, n, CLSCAN_FLOAT, CLSCAN_ADD, &rng);
    cl_mem buf = ref_buffer(ctx, n * sizeof *in, in);
    assert_non_null(buf);
    float first = 0, again = 0;
    assert_int_equal(clscan_reduce(ctx, buf, n, CLSCAN_FLOAT, CLSCAN_ADD, &first), CLSCAN_SUCCESS);
    for (int k = 0; k < 20; k++) {
        memset(&again, REF_POISON, sizeof again);
        assert_int_equal(clscan_reduce(ctx, buf, n, CLSCAN_FLOAT, CLSCAN_ADD, &again), CLSCAN_SUCCESS);
        assert_memory_equal(&first, &again, sizeof first);
    }
    clReleaseMemObject(buf);
    free(in);
}

/* A running total that never visits the host: chunk A reduced into a buffer, chunk B scanned from it
 * (clscan_inclusive_scan_init reading the buffer the reduction wrote just before), against the scan
 * of A and B together. */
static void test_reduce_async_chain(void **state)
{
    (void)state;
    const size_t a = 70001, b = 50003;
    int64_t *all = malloc((a + b) * sizeof *all), *got = malloc(b * sizeof *got);
    assert_true(all && got);
    ref_fill(all, a + b, CLSCAN_INT64, CLSCAN_ADD, &rng);
    cl_mem chunk_a = ref_buffer(ctx, a * sizeof *all, all), chunk_b = ref_buffer(ctx, b * sizeof *all, all + a);
    cl_mem total = ref_buffer(ctx, sizeof *all, NULL), out = ref_buffer(ctx, b * sizeof *all, NULL);
    assert_true(chunk_a && chunk_b && total && out);
    assert_int_equal(clscan_reduce_async(ctx, chunk_a, a, CLSCAN_INT64, CLSCAN_ADD, total), CLSCAN_SUCCESS);
    assert_int_equal(clscan_inclusive_scan_init(ctx, chunk_b, out, b, CLSCAN_INT64, CLSCAN_ADD, NULL, total),
                     CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, out, b * sizeof *got, got), 1);
    uint64_t acc = 0;
    for (size_t i = 0; i < a + b; i++) {
        acc += (uint64_t)all[i];
        if (i >= a)
            assert_int_equal((uint64_t)got[i - a], acc);
    }
    clReleaseMemObject(chunk_a);
    clReleaseMemObject(chunk_b);
    clReleaseMemObject(total);
    clReleaseMemObject(out);
    free(all);
    free(got);
}

/* clscan_reduce_async's bad arguments: a status and a message, result as it was; n == 0 writes the
 * identity. */
static void test_reduce_async_bad_arguments(void **state)
{
    (void)state;
    int32_t data[100];
    for (int i = 0; i < 100; i++)
        data[i] = i;
    cl_mem buf = ref_buffer(ctx, sizeof data, data), res = ref_buffer(ctx, 4, NULL), small = ref_buffer(ctx, 2, NULL);
    assert_true(buf && res && small);
    assert_int_equal(clscan_reduce_async(NULL, buf, 100, CLSCAN_INT32, CLSCAN_ADD, res), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce_async(ctx, buf, 100, CLSCAN_INT32, CLSCAN_ADD, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "result"));
    assert_int_equal(clscan_reduce_async(ctx, buf, 100, CLSCAN_INT32, CLSCAN_ADD, small), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "result"));
    assert_int_equal(clscan_reduce_async(ctx, buf, 100, CLSCAN_INT32, CLSCAN_ADD, buf), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_reduce_async(ctx, buf, 101, CLSCAN_INT32, CLSCAN_ADD, res), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce_async(ctx, buf, 100, (clscan_type)99, CLSCAN_ADD, res), CLSCAN_INVALID_ARGUMENT);
    int32_t value = 0;
    assert_int_equal(ref_read(ctx, res, 4, &value), 1);
    assert_true(ref_is_poison(&value, 4));
    assert_int_equal(clscan_reduce_async(ctx, NULL, 0, CLSCAN_INT32, CLSCAN_MUL, res), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, res, 4, &value), 1);
    assert_int_equal(value, 1);
    assert_int_equal(clscan_reduce_async(ctx, buf, 100, CLSCAN_INT32, CLSCAN_ADD, res), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, res, 4, &value), 1);
    assert_int_equal(value, 4950);
    int32_t after[100];
    assert_int_equal(ref_read(ctx, buf, sizeof after, after), 1);
    assert_memory_equal(after, data, sizeof data);
    clReleaseMemObject(buf);
    clReleaseMemObject(res);
    clReleaseMemObject(small);
}

/* Every bad argument: the right status, a message, *result untouched, and the next call works. */
static void test_reduce_bad_arguments(void **state)
{
    (void)state;
    int32_t data[100], result = 12345;
    for (int i = 0; i < 100; i++)
        data[i] = i;
    cl_mem buf = ref_buffer(ctx, sizeof data, data);
    assert_int_equal(clscan_reduce(NULL, buf, 100, CLSCAN_INT32, CLSCAN_ADD, &result), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce(ctx, buf, 100, CLSCAN_INT32, CLSCAN_ADD, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "result"));
    assert_int_equal(clscan_reduce(ctx, buf, 100, (clscan_type)99, CLSCAN_ADD, &result), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce(ctx, buf, 100, CLSCAN_INT32, (clscan_op)-1, &result), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce(ctx, buf, 101, CLSCAN_INT32, CLSCAN_ADD, &result), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce(ctx, buf, 51, CLSCAN_INT64, CLSCAN_ADD, &result), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce(ctx, NULL, 100, CLSCAN_INT32, CLSCAN_ADD, &result), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce(ctx, buf, SIZE_MAX / 2, CLSCAN_INT32, CLSCAN_ADD, &result), CLSCAN_INVALID_ARGUMENT);
    assert_true(clscan_last_error(ctx)[0] != '\0');
    assert_int_equal(result, 12345);
    /* n == 0 needs no buffer; then a real call still works. */
    assert_int_equal(clscan_reduce(ctx, NULL, 0, CLSCAN_INT32, CLSCAN_MUL, &result), CLSCAN_SUCCESS);
    assert_int_equal(result, 1);
    assert_int_equal(clscan_reduce(ctx, buf, 100, CLSCAN_INT32, CLSCAN_ADD, &result), CLSCAN_SUCCESS);
    assert_int_equal(result, 4950);
    int32_t after[100];
    assert_int_equal(ref_read(ctx, buf, sizeof after, after), 1);
    assert_memory_equal(after, data, sizeof data);
    clReleaseMemObject(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduce_INT32), cmocka_unit_test(test_reduce_UINT32),
        cmocka_unit_test(test_reduce_INT64), cmocka_unit_test(test_reduce_UINT64),
        cmocka_unit_test(test_reduce_FLOAT), cmocka_unit_test(test_reduce_DOUBLE),
        cmocka_unit_test(test_reduce_INT8), cmocka_unit_test(test_reduce_UINT8),
        cmocka_unit_test(test_reduce_INT16), cmocka_unit_test(test_reduce_UINT16),
        cmocka_unit_test(test_reduce_float_repeatable), cmocka_unit_test(test_reduce_bad_arguments),
        cmocka_unit_test(test_reduce_async_chain), cmocka_unit_test(test_reduce_async_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
