/* Races in single-pass: many back-to-back scans of the same input at awkward sizes, each output
 * poisoned first and checked whole; and as many back-to-back sorts by key. A result that is right once and wrong later is a race between
 * work-groups (look-back, status words, tile counter, epochs). Integers must match exactly every time.
 * $CLSCAN_RACE_RUNS sets the runs per case (default 1000 on a GPU, 200 elsewhere). The quick tier (tier.h)
 * runs int32 alone. */
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

static unsigned runs;
REF_FIXTURE_THEN("test_race", set_runs)

static int set_runs(void)
{
    const char *env = getenv("CLSCAN_RACE_RUNS");
    runs = env && atoi(env) > 0 ? (unsigned)atoi(env) : (ctx->info.type & CL_DEVICE_TYPE_GPU) ? 1000 : 200;
    printf("[ runs     ] %u per case\n", runs);
    return 0;
}

/* runs scans of one random input; returns how many outputs differed from the reference. In place,
 * each run first copies the input over the output buffer, else the output is poisoned. */
static unsigned race(size_t n, clscan_type type, int exclusive, int in_place)
{
    size_t bytes = n * clscan_type_size(type);
    void *in = malloc(bytes), *got = malloc(bytes);
    assert_non_null(in);
    assert_non_null(got);
    ref_fill(in, n, type, CLSCAN_ADD, &rng);
    cl_mem a = ref_buffer(ctx, bytes, in), b = ref_buffer(ctx, bytes, NULL);
    unsigned bad = 0;
    const unsigned char poison = REF_POISON;
    for (unsigned r = 0; r < runs; r++) {
        cl_int err = in_place ? clEnqueueCopyBuffer(ctx->queue, a, b, 0, 0, bytes, 0, NULL, NULL)
                              : clEnqueueFillBuffer(ctx->queue, b, &poison, 1, 0, bytes, 0, NULL, NULL);
        assert_int_equal(err, CL_SUCCESS);
        cl_mem src = in_place ? b : a;
        clscan_status st = exclusive ? clscan_exclusive_scan(ctx, src, b, n, type, CLSCAN_ADD)
                                     : clscan_inclusive_scan(ctx, src, b, n, type, CLSCAN_ADD);
        assert_int_equal(st, CLSCAN_SUCCESS);
        assert_int_equal(ref_read(ctx, b, bytes, got), 1);
        char msg[256] = "";
        if (!ref_check_scan(in, got, n, type, CLSCAN_ADD, exclusive, msg, sizeof msg)) {
            if (bad++ < 3)
                print_error("run %u, %s n=%zu%s: %s\n", r, ref_type_name(type), n, in_place ? " in place" : "", msg);
        }
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
    free(got);
    return bad;
}

static void race_sizes(clscan_wg_algorithm wg)
{
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_SINGLE_PASS, wg), CLSCAN_SUCCESS);
    unsigned bad = 0;
    const size_t big = ref_quick() ? (1u << 16) + 123 : (1u << 20) + 123;
    const clscan_type types[] = {CLSCAN_INT32, CLSCAN_INT64, CLSCAN_FLOAT};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (!clscan__device_supports_type(&ctx->info, types[i]) || !tier_type(types[i], CLSCAN_INT32))
            continue;
        clscan__tuning t = clscan__scan_tile(ctx, types[i]);
        size_t tile = (size_t)t.wg_size * t.items;
        bad += race(big, types[i], 0, 0);
        bad += race(big, types[i], 1, 1);
        bad += race(3 * tile + 5, types[i], 1, 0);
    }
    assert_int_equal(bad, 0);
}

static void test_single_pass_races(void **state)
{
    (void)state;
    race_sizes(CLSCAN_WG_AUTO);
}

/* The same with every unfinished look-back on the fallback: the in-place recheck and the reduction
 * of a predecessor from the input race with that predecessor's own publication. */
static void test_fallback_races(void **state)
{
    (void)state;
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    race_sizes(CLSCAN_WG_HILLIS_STEELE);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
}

/* Back-to-back sorts by key (issue 30): uint32 keys with their positions as values, sorted again from
 * the same input every run and compared with a stable host sort; within a tile the ranking's warps
 * (ballots on NVIDIA) and its local counters are where a race would show. */
static int by_key_then_position(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

static void test_sort_races(void **state)
{
    (void)state;
    const size_t n = ref_quick() ? (1u << 16) + 123 : (1u << 20) + 123, bytes = n * sizeof(uint32_t);
    uint32_t *keys = malloc(bytes), *pos = malloc(bytes), *pairs = malloc(2 * bytes), *got_k = malloc(bytes),
             *got_v = malloc(bytes);
    assert_true(keys && pos && pairs && got_k && got_v);
    for (size_t i = 0; i < n; i++) {
        keys[i] = (uint32_t)ref_next(&rng) >> (i % 3 == 0 ? 16 : 0);   /* a third share their high half */
        pos[i] = (uint32_t)i;
        pairs[2 * i] = keys[i], pairs[2 * i + 1] = (uint32_t)i;
    }
    qsort(pairs, n, 2 * sizeof(uint32_t), by_key_then_position);
    cl_mem k0 = ref_buffer(ctx, bytes, keys), v0 = ref_buffer(ctx, bytes, pos);
    cl_mem k = ref_buffer(ctx, bytes, NULL), v = ref_buffer(ctx, bytes, NULL);
    unsigned bad = 0;
    for (unsigned r = 0; r < runs; r++) {
        assert_int_equal(clEnqueueCopyBuffer(ctx->queue, k0, k, 0, 0, bytes, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clEnqueueCopyBuffer(ctx->queue, v0, v, 0, 0, bytes, 0, NULL, NULL), CL_SUCCESS);
        clscan_status st = clscan_sort_by_key(ctx, k, v, n, CLSCAN_UINT32, CLSCAN_UINT32);
        if (st != CLSCAN_SUCCESS)
            fail_msg("sort_by_key n=%zu: %s: %s", n, clscan_status_string(st), clscan_last_error(ctx));
        assert_int_equal(ref_read(ctx, k, bytes, got_k), 1);
        assert_int_equal(ref_read(ctx, v, bytes, got_v), 1);
        for (size_t i = 0; i < n; i++)
            if (got_k[i] != pairs[2 * i] || got_v[i] != pairs[2 * i + 1]) {
                if (bad++ < 3)
                    print_error("run %u, sort_by_key n=%zu: position %zu holds (%u, %u), want (%u, %u)\n", r, n, i,
                                got_k[i], got_v[i], pairs[2 * i], pairs[2 * i + 1]);
                break;
            }
    }
    clReleaseMemObject(k0), clReleaseMemObject(v0), clReleaseMemObject(k), clReleaseMemObject(v);
    free(keys), free(pos), free(pairs), free(got_k), free(got_v);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_pass_races),
        cmocka_unit_test(test_fallback_races),
        cmocka_unit_test(test_sort_races),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
