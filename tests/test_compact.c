/* clscan_compact (clscan_compact_async at every other call, its count read from the device) against a
 * CPU filter: every type (the program moves 4- and 8-byte patterns), flag densities none / all /
 * alternating / sparse / half / dense with flag values other than 1, sizes around every tile boundary;
 * the output past the count must keep its poison, input and flags must stay untouched, and order is
 * checked element by element (stability). Also the item mode the policy does not pick, the portable
 * sub-group path and 32-bit status words, the single-pass look-back forced onto its fallback, the
 * three-launch path of the other strategies, and bad arguments. $CLSCAN_TEST_SEED replays. The quick
 * tier (tier.h) leaves out two of the other paths' variants. */
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

REF_FIXTURE("test_compact")

enum density { NONE, ALL, ALTERNATING, SPARSE, HALF, DENSE, DENSITIES };

static void make_flags(unsigned char *f, size_t n, enum density d)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = ref_next(&rng);
        switch (d) {
        case NONE: f[i] = 0; break;
        case ALL: f[i] = 1; break;
        case ALTERNATING: f[i] = i % 2 == 0; break;
        case SPARSE: f[i] = r % 100 == 0; break;
        case HALF: f[i] = r % 2; break;
        default: f[i] = r % 10 ? (unsigned char)(1 + r % 255) : 0; break;   /* any non-zero byte keeps */
        }
    }
}

/* One compaction; 1 when the count, the kept elements in order, the untouched tail and inputs hold. */
static int compact_one(size_t n, clscan_type type, enum density d, unsigned char *in, unsigned char *flags,
                       unsigned char *got)
{
    size_t elem = clscan_type_size(type), bytes = n * elem;
    ref_fill(in, n, type, CLSCAN_ADD, &rng);
    make_flags(flags, n, d);
    cl_mem a = ref_buffer(ctx, bytes ? bytes : 8, in), f = ref_buffer(ctx, n ? n : 1, flags);
    cl_mem o = ref_buffer(ctx, bytes ? bytes : 8, NULL);
    size_t count = (size_t)-1;
    /* Every other call: clscan_compact_async, its count read from a poisoned device buffer. */
    static unsigned calls;
    const int async = calls++ & 1;
    cl_mem count_buf = async ? ref_buffer(ctx, sizeof(cl_ulong), NULL) : NULL;
    clscan_status st = async ? clscan_compact_async(ctx, a, f, o, n, type, count_buf)
                             : clscan_compact(ctx, a, f, o, n, type, &count);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s%s n=%zu density %d: %s: %s", async ? "async " : "", ref_type_name(type), n, (int)d,
                 clscan_status_string(st), clscan_last_error(ctx));
    if (async) {
        cl_ulong on_device = 0;
        assert_int_equal(ref_read(ctx, count_buf, sizeof on_device, &on_device), 1);
        clReleaseMemObject(count_buf);
        count = (size_t)on_device;
    }
    int ok = 1;
    size_t k = 0;
    assert_int_equal(ref_read(ctx, o, bytes, got), 1);
    for (size_t i = 0; i < n && ok; i++)
        if (flags[i]) {
            ok = k < count && memcmp(got + k * elem, in + i * elem, elem) == 0;
            if (!ok)
                print_error("%s n=%zu density %d: kept element %zu (input %zu) wrong\n", ref_type_name(type), n,
                            (int)d, k, i);
            k++;
        }
    if (ok && count != k) {
        print_error("%s n=%zu density %d: count %zu, want %zu\n", ref_type_name(type), n, (int)d, count, k);
        ok = 0;
    }
    if (ok && !ref_is_poison(got + k * elem, bytes - k * elem)) {
        print_error("%s n=%zu density %d: written past the count\n", ref_type_name(type), n, (int)d);
        ok = 0;
    }
    unsigned char *after = malloc(bytes + n + 1);
    assert_int_equal(ref_read(ctx, a, bytes, after), 1);
    assert_int_equal(ref_read(ctx, f, n, after + bytes), 1);
    ok = ok && memcmp(after, in, bytes) == 0 && memcmp(after + bytes, flags, n) == 0;
    free(after);
    clReleaseMemObject(a);
    clReleaseMemObject(f);
    clReleaseMemObject(o);
    return ok;
}

static void compact_sizes(clscan_type type)
{
    clscan__tuning t = clscan__compact_tile(ctx, type);
    size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items;
    const size_t sizes[] = {0, 1, 2, 3, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1,
                            10007, ref_quick() ? 20011 : (1u << 20) + 123, 1 + ref_next(&rng) % 200000};
    size_t max = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        max = sizes[i] > max ? sizes[i] : max;
    unsigned char *in = malloc(max * 8 + 8), *flags = malloc(max + 1), *got = malloc(max * 8 + 8);
    int failures = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int d = 0; d < DENSITIES; d++)
            failures += !compact_one(sizes[i], type, (enum density)d, in, flags, got);
    free(in);
    free(flags);
    free(got);
    assert_int_equal(failures, 0);
}

#define TYPE_TEST(T)                                                                                    \
    static void test_compact_##T(void **state)                                                          \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (!clscan__device_supports_type(&ctx->info, CLSCAN_##T))                                      \
            skip();                                                                                     \
        compact_sizes(CLSCAN_##T);                                                                      \
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

/* The item mode the policy does not pick (with a GPU-shaped tile on CPUs), for both element widths
 * (the wider one with the look-back fallback forced), runs of two flag mask words, the other
 * single-pass launch size and look-back fold, and the portable group scan (which also loads flags
 * byte by byte). */
static void test_compact_other_paths(void **state)
{
    (void)state;
    int stream = clscan__scan_tile(ctx, CLSCAN_INT32).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    if (stream)
        test_set_tile(ctx, 64, 16);   /* 16 items: the vector flag loads too */
    compact_sizes(CLSCAN_INT32);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);   /* this shape's look-back fallback too */
    if (clscan__device_supports_type(&ctx->info, CLSCAN_INT64) && !ref_quick())   /* quick: not this one */
        compact_sizes(CLSCAN_INT64);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    /* Runs of 64 items held in registers: two flag mask words a work-item. */
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 1);
    test_set_tile(ctx, 32, 64);
    if (!ref_quick())
        compact_sizes(CLSCAN_UINT32);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    /* The single-pass launch size the policy does not pick (a group a compute unit, or a tile), with
     * the look-back's other fold (by one work-item, or by all). */
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, clscan__table_sp_groups_per_cu(&ctx->info) ? -1 : 1);
    test_other_fold(ctx, CLSCAN__PROGRAM_COMPACT);
    compact_sizes(CLSCAN_INT32);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_FOLD, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);
    compact_sizes(CLSCAN_FLOAT);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
}

/* Every look-back of the single pass meets its nearest tile unpublished and counts that tile's flags
 * itself; the fallback counter shows the path ran. Then the count, scan, scatter launches that the
 * block-sum and reduce-then-scan strategies take. */
static void test_compact_fallback_and_three_launches(void **state)
{
    (void)state;
    unsigned long before = 0, after = 0;
    assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    compact_sizes(CLSCAN_INT32);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
    print_message("[ fallback ] %lu look-back fallbacks\n", after - before);
    assert_true(after > before);
    const clscan_strategy others[] = {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_STRATEGY_REDUCE_THEN_SCAN};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(clscan_set_algorithm(ctx, others[i], CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
        assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
        compact_sizes(i == 0 || !clscan__device_supports_type(&ctx->info, CLSCAN_UINT64) ? CLSCAN_UINT32 : CLSCAN_UINT64);
        assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
        assert_int_equal(after, before);   /* nothing looked back */
    }
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
}

/* Bad arguments: the right status and message, count and out untouched, the context still works. */
static void test_compact_bad_arguments(void **state)
{
    (void)state;
    size_t n = 1000, count = 77;
    int32_t in[1000];
    unsigned char flags[1000];
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)i, flags[i] = i % 3 == 0;
    cl_mem a = ref_buffer(ctx, sizeof in, in), f = ref_buffer(ctx, n, flags), o = ref_buffer(ctx, sizeof in, NULL);
    cl_mem short_f = ref_buffer(ctx, n - 1, flags), short_o = ref_buffer(ctx, sizeof in - 4, NULL);
    assert_int_equal(clscan_compact(NULL, a, f, o, n, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact(ctx, a, f, o, n, CLSCAN_INT32, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "count"));
    assert_int_equal(clscan_compact(ctx, NULL, f, o, n, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact(ctx, a, NULL, o, n, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact(ctx, a, f, NULL, n, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact(ctx, a, short_f, o, n, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "flags"));
    assert_int_equal(clscan_compact(ctx, a, f, short_o, n, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact(ctx, a, f, o, n, (clscan_type)42, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact(ctx, a, f, a, n, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_compact(ctx, a, f, f, n / 4, CLSCAN_INT32, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact(ctx, a, f, o, n / 2 + 1, CLSCAN_INT64, &count), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(count, 77);
    int32_t got[1000];
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    assert_true(ref_is_poison(got, sizeof got));
    /* n == 0 touches no buffer; then a real call works on the same context. */
    assert_int_equal(clscan_compact(ctx, NULL, NULL, NULL, 0, CLSCAN_INT32, &count), CLSCAN_SUCCESS);
    assert_int_equal(count, 0);
    assert_int_equal(clscan_compact(ctx, a, f, o, n, CLSCAN_INT32, &count), CLSCAN_SUCCESS);
    assert_int_equal(count, 334);
    assert_int_equal(ref_read(ctx, o, count * 4, got), 1);
    for (size_t k = 0; k < count; k++)
        assert_int_equal(got[k], (int32_t)(3 * k));
    clReleaseMemObject(a), clReleaseMemObject(f), clReleaseMemObject(o);
    clReleaseMemObject(short_f), clReleaseMemObject(short_o);
}

/* clscan_compact_async: a count buffer too small, missing or overlapping another is refused with
 * nothing written; n == 0 writes 0. */
static void test_compact_async_bad_arguments(void **state)
{
    (void)state;
    size_t n = 1000;
    int32_t in[1000], got[1000];
    unsigned char flags[1000];
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)i, flags[i] = i % 3 == 0;
    cl_mem a = ref_buffer(ctx, sizeof in, in), f = ref_buffer(ctx, n, flags), o = ref_buffer(ctx, sizeof in, NULL);
    cl_mem c = ref_buffer(ctx, 8, NULL), small = ref_buffer(ctx, 4, NULL);
    assert_int_equal(clscan_compact_async(NULL, a, f, o, n, CLSCAN_INT32, c), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact_async(ctx, a, f, o, n, CLSCAN_INT32, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "count"));
    assert_int_equal(clscan_compact_async(ctx, a, f, o, n, CLSCAN_INT32, small), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "count"));
    assert_int_equal(clscan_compact_async(ctx, a, f, o, n, CLSCAN_INT32, o), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_compact_async(ctx, a, f, o, n, CLSCAN_INT32, f), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact_async(ctx, a, f, o, n, CLSCAN_INT32, a), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_compact_async(ctx, a, f, a, n, CLSCAN_INT32, c), CLSCAN_INVALID_ARGUMENT);
    cl_ulong count = 0;
    assert_int_equal(ref_read(ctx, c, sizeof count, &count), 1);
    assert_true(ref_is_poison(&count, sizeof count));
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    assert_true(ref_is_poison(got, sizeof got));
    assert_int_equal(clscan_compact_async(ctx, NULL, NULL, NULL, 0, CLSCAN_INT32, c), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, c, sizeof count, &count), 1);
    assert_int_equal(count, 0);
    assert_int_equal(clscan_compact_async(ctx, a, f, o, n, CLSCAN_INT32, c), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, c, sizeof count, &count), 1);
    assert_int_equal(count, 334);
    clReleaseMemObject(a), clReleaseMemObject(f), clReleaseMemObject(o);
    clReleaseMemObject(c), clReleaseMemObject(small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact_async_bad_arguments),
        cmocka_unit_test(test_compact_INT32), cmocka_unit_test(test_compact_UINT32),
        cmocka_unit_test(test_compact_INT64), cmocka_unit_test(test_compact_UINT64),
        cmocka_unit_test(test_compact_FLOAT), cmocka_unit_test(test_compact_DOUBLE),
        cmocka_unit_test(test_compact_INT8), cmocka_unit_test(test_compact_UINT8),
        cmocka_unit_test(test_compact_INT16), cmocka_unit_test(test_compact_UINT16),
        cmocka_unit_test(test_compact_other_paths), cmocka_unit_test(test_compact_fallback_and_three_launches),
        cmocka_unit_test(test_compact_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
