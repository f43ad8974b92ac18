/* Scans against the CPU reference: every type x operator x inclusive/exclusive x in place or not,
 * for every strategy x work-group algorithm pair (and AUTO), at sizes around every boundary of the
 * tiling in force for the type (work-group, tile, multiples, tile^2 for two and three levels).
 * Also the portable paths alone (local-memory sub-groups, scalar tile loads), single-pass with
 * every look-back forced onto its fallback, and the item mode (registers or streamed) the policy
 * does not pick for the device. Outputs are poisoned before each run.
 * $CLSCAN_TEST_SEED replays a run. The quick tier (tier.h) runs every type and operator under AUTO and
 * each other configuration at one type; $CLSCAN_TEST_TIER=full runs all of them. */
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

REF_FIXTURE("test_scan")

/* No size above this (other_items_mode_pass and test_misc_subgroup_shapes lower it for small tiles). */
static size_t size_cap = SIZE_MAX;
/* 1 while a pass over a path other than the main one runs (path_matrix): its operators are
 * tier_path_op's. */
static int path_pass;

/* The boundary sizes for this type's tiling, plus fixed and random ones. */
static size_t test_sizes(clscan_type type, size_t *sizes, size_t cap)
{
    clscan__tuning t = clscan__scan_tile(ctx, type);
    size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items, k = 0;
    const size_t fixed[] = {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 10007, (1u << 20) + 123};
    /* tile^2 needs two block-sum levels, tested where it is small enough (above 2^21 a size of 2^21
     * would be one level like the others, at most of the suite's time: test_misc_deep_recursion
     * covers deep levels with small tiles). */
    const size_t around[] = {wg, tile, 2 * tile, 3 * tile, tile * tile};
    const size_t count = tile * tile <= ((size_t)1 << 21) ? 5 : 4;
    const size_t largest = ref_quick() ? (count == 5 ? tile * tile + 1 : 3 * tile + 1) : size_cap;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && k < cap; i++)
        if (fixed[i] <= largest)
            sizes[k++] = fixed[i];
    for (size_t i = 0; i < count && k + 3 <= cap; i++)
        for (int d = -1; d <= 1; d++)
            if (around[i] + (size_t)d <= largest)
                sizes[k++] = around[i] + (size_t)d;
    for (int i = 0; i < 3 && k < cap; i++)
        sizes[k++] = 1 + ref_next(&rng) % (ref_quick() ? 20000 : size_cap < 300000 ? size_cap : 300000);
    return k;
}

/* One scan on device buffers; returns 1 when it matches the reference. */
static int run_one(size_t n, clscan_type type, clscan_op op, int exclusive, int in_place, void *in, void *got)
{
    size_t bytes = n * clscan_type_size(type);
    ref_fill(in, n, type, op, &rng);
    cl_mem a = ref_buffer(ctx, bytes, in), b = in_place ? a : ref_buffer(ctx, bytes, NULL);
    assert_non_null(a);
    assert_non_null(b);
    clscan_status st = exclusive ? clscan_exclusive_scan(ctx, a, b, n, type, op)
                                 : clscan_inclusive_scan(ctx, a, b, n, type, op);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s %s n=%zu: %s: %s", ref_type_name(type), ref_op_name(op), n, clscan_status_string(st),
                 clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, b, bytes, got), 1);
    char msg[256] = "";
    int ok = ref_check_scan(in, got, n, type, op, exclusive, msg, sizeof msg);
    if (!ok)
        print_error("%s %s %s%s n=%zu: %s\n", exclusive ? "exclusive" : "inclusive", ref_type_name(type),
                    ref_op_name(op), in_place ? " in place" : "", n, msg);
    if (!in_place) {   /* the input must be untouched */
        void *after = malloc(bytes ? bytes : 1);
        assert_int_equal(ref_read(ctx, a, bytes, after), 1);
        ok = ok && memcmp(after, in, bytes) == 0;
        free(after);
        clReleaseMemObject(b);
    }
    clReleaseMemObject(a);
    return ok;
}

static void scan_matrix(clscan_type type, clscan_strategy strategy, clscan_wg_algorithm wg)
{
    assert_int_equal(clscan_set_algorithm(ctx, strategy, wg), CLSCAN_SUCCESS);
    size_t sizes[64], count = test_sizes(type, sizes, 64), max = 0;
    for (size_t i = 0; i < count; i++)
        max = sizes[i] > max ? sizes[i] : max;
    void *in = malloc(max * 8 + 8), *got = malloc(max * 8 + 8);
    assert_non_null(in);
    assert_non_null(got);
    int failures = 0;
    for (size_t i = 0; i < count; i++)
        for (int op = CLSCAN_ADD; op <= CLSCAN_MAX; op++)
            for (int mode = 0; mode < 4; mode++)
                failures += (path_pass ? tier_path_op(type, (clscan_op)op)
                                       : tier_scan_op(type, (clscan_op)op, strategy == CLSCAN_STRATEGY_AUTO)) &&
                            !run_one(sizes[i], type, (clscan_op)op, mode & 1, mode >> 1, in, got);
    free(in);
    free(got);
    assert_int_equal(failures, 0);
}

/* scan_matrix over a path other than the main one: tier_path_op's operators. */
static void path_matrix(clscan_type type, clscan_strategy strategy, clscan_wg_algorithm wg)
{
    path_pass = 1;
    scan_matrix(type, strategy, wg);
    path_pass = 0;
}

/* One scan with an initial value, from the host or (on_device) from a buffer a kernel writes just before
 * (a scan of one element); returns 1 when it matches the reference. The reference is the plain scan of
 * x = {init, in[0], ..., in[n-1]}: the inclusive scan with init is its elements 1..n, the exclusive one
 * its elements 0..n-1. x, got: n + 1 elements. */
static int run_one_init(size_t n, clscan_type type, clscan_op op, int exclusive, int in_place, int on_device,
                        void *x, void *got)
{
    const size_t elem = clscan_type_size(type), bytes = n * elem;
    ref_fill(x, n + 1, type, op, &rng);
    char *in = (char *)x + elem;
    cl_mem a = ref_buffer(ctx, bytes, in), b = in_place ? a : ref_buffer(ctx, bytes, NULL), init_buf = NULL;
    assert_true(a && b);
    if (on_device) {
        cl_mem src = ref_buffer(ctx, elem, x);
        init_buf = ref_buffer(ctx, elem, NULL);
        assert_true(src && init_buf);
        clscan_status st = clscan_inclusive_scan(ctx, src, init_buf, 1, type, op);
        if (st != CLSCAN_SUCCESS)
            fail_msg("init_buf %s %s: %s: %s", ref_type_name(type), ref_op_name(op), clscan_status_string(st),
                     clscan_last_error(ctx));
        clReleaseMemObject(src);
    }
    const void *init = on_device ? NULL : x;
    clscan_status st = exclusive ? clscan_exclusive_scan_init(ctx, a, b, n, type, op, init, init_buf)
                                 : clscan_inclusive_scan_init(ctx, a, b, n, type, op, init, init_buf);
    if (st != CLSCAN_SUCCESS)
        fail_msg("init %s %s n=%zu: %s: %s", ref_type_name(type), ref_op_name(op), n, clscan_status_string(st),
                 clscan_last_error(ctx));
    /* Inclusive: got follows init, so that got - elem is x's inclusive scan through n. */
    char *out = exclusive ? (char *)got : (char *)got + elem;
    memcpy(got, x, elem);
    assert_int_equal(ref_read(ctx, b, bytes, out), 1);
    char msg[256] = "";
    int ok = ref_check_scan(x, got, exclusive ? n : n + 1, type, op, 0, msg, sizeof msg);
    if (!ok)
        print_error("%s with init from the %s %s %s%s n=%zu: %s\n", exclusive ? "exclusive" : "inclusive",
                    on_device ? "device" : "host", ref_type_name(type), ref_op_name(op), in_place ? " in place" : "",
                    n, msg);
    if (!in_place) {   /* the input must be untouched */
        assert_int_equal(ref_read(ctx, a, bytes, out), 1);
        ok = ok && memcmp(out, in, bytes) == 0;
        clReleaseMemObject(b);
    }
    if (init_buf)
        clReleaseMemObject(init_buf);
    clReleaseMemObject(a);
    return ok;
}

/* Scans with an initial value at every size of the matrix, all four modes, the initial value from the
 * host and from the device at alternate sizes; the operators of the main path in the quick tier and
 * of tier_path_op in the full one (the seed is one more operand whatever the operator; test_user runs
 * it with operators that are not commutative). */
static void init_matrix(clscan_type type, clscan_strategy strategy)
{
    assert_int_equal(clscan_set_algorithm(ctx, strategy, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    size_t sizes[64], count = test_sizes(type, sizes, 64), max = 0;
    for (size_t i = 0; i < count; i++)
        max = sizes[i] > max ? sizes[i] : max;
    void *x = malloc(max * 8 + 8), *got = malloc(max * 8 + 8);
    assert_true(x && got);
    int failures = 0;
    for (size_t i = 0; i < count; i++)
        for (int op = CLSCAN_ADD; op <= CLSCAN_MAX; op++)
            for (int mode = 0; mode < 4; mode++)
                failures += (ref_quick() ? tier_scan_op(type, (clscan_op)op, strategy == CLSCAN_STRATEGY_AUTO)
                                         : tier_path_op(type, (clscan_op)op)) &&
                            !run_one_init(sizes[i], type, (clscan_op)op, mode & 1, mode >> 1, (int)(i + mode) & 1, x, got);
    free(x);
    free(got);
    assert_int_equal(failures, 0);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
}

/* The quick tier runs every type under AUTO, and each strategy with each work-group algorithm at one. */
static const clscan_type wg_quick_type[] = {CLSCAN_INT32, CLSCAN_INT32, CLSCAN_INT32, CLSCAN_DOUBLE};
#define SCAN_TEST(T, S, W)                                                                              \
    static void test_##T##_##S##_##W(void **state)                                                      \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (!clscan__device_supports_type(&ctx->info, CLSCAN_##T) ||                                    \
            (CLSCAN_WG_##W != CLSCAN_WG_AUTO && !tier_type(CLSCAN_##T, wg_quick_type[CLSCAN_WG_##W])) ||    \
            !tier_type_narrow(CLSCAN_##T))                                                              \
            skip();                                                                                     \
        scan_matrix(CLSCAN_##T, CLSCAN_STRATEGY_##S, CLSCAN_WG_##W);                                    \
    }
/* 8- and 16-bit: int8 through every strategy x work-group pair, all four under AUTO, int8 and uint16
 * (both signs, both widths) through the passes below: the pairs' code is the same at every width, and
 * the full tier is counted against CI's time. */
#define SCAN_TESTS(S, W) SCAN_TEST(INT32, S, W) SCAN_TEST(UINT32, S, W) SCAN_TEST(INT64, S, W)           \
                         SCAN_TEST(UINT64, S, W) SCAN_TEST(FLOAT, S, W) SCAN_TEST(DOUBLE, S, W)          \
                         SCAN_TEST(INT8, S, W)
SCAN_TESTS(BLOCK_SUM, HILLIS_STEELE)
SCAN_TESTS(BLOCK_SUM, BLELLOCH)
SCAN_TESTS(REDUCE_THEN_SCAN, HILLIS_STEELE)
SCAN_TESTS(REDUCE_THEN_SCAN, BLELLOCH)
SCAN_TESTS(SINGLE_PASS, HILLIS_STEELE)
SCAN_TESTS(SINGLE_PASS, BLELLOCH)
SCAN_TESTS(SINGLE_PASS, SUBGROUP)
SCAN_TESTS(REDUCE_THEN_SCAN, SUBGROUP)
SCAN_TESTS(BLOCK_SUM, SUBGROUP)
SCAN_TESTS(AUTO, AUTO)
SCAN_TEST(UINT8, AUTO, AUTO)
SCAN_TEST(INT16, AUTO, AUTO)
SCAN_TEST(UINT16, AUTO, AUTO)

/* The portable paths the vendor ones stand in for: on a device with hardware sub-groups or vector
 * tile loads these are not what AUTO runs, so they get their own pass. */
static void portable_pass(clscan_type type)
{
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);
    path_matrix(type, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_SUBGROUP);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
}

/* Single-pass with the fallback forced: every look-back that meets a tile without its inclusive
 * prefix reduces that tile from the input. The fallback counter shows the path really ran. */
static void forced_fallback_pass(clscan_type type)
{
    unsigned long before = 0, after = 0;
    assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    path_matrix(type, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_AUTO);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
    print_message("[ fallback ] %lu look-back fallbacks\n", after - before);
    assert_true(after > before);
}

/* The item mode the policy does not pick here (streamed on GPUs, held in registers on CPUs, there
 * with a GPU-shaped tile), through every kernel that reads or writes tiles. */
static void other_items_mode_pass(clscan_type type)
{
    int stream = clscan__scan_tile(ctx, type).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    /* Tiles of 512 on a CPU: up to two block-sum levels (512^2 + 1) is enough, and far quicker. 8- and
     * 16-bit elements take 32 items, held packed in words (CLSCAN_WG_PACKED) as on GPUs (8 would move
     * them as 8-wide vectors), through single-pass only: reduce-then-scan scans its tiles with the
     * same two halves, and the full tier's time is short. */
    const int narrow = clscan_type_size(type) < 4;
    if (stream)
        test_set_tile(ctx, 64, narrow ? 32 : 8), size_cap = 512 * 512 + 1;
    path_matrix(type, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_AUTO);
    if (!narrow)
        path_matrix(type, CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_AUTO);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    size_cap = SIZE_MAX;
}

/* Single-pass with the launch size and the look-back fold the policy does not pick here: one
 * work-group a compute unit, each taking tile after tile, or (where the policy keeps groups) a group a
 * tile; each window folded by every work-item, or (where the policy has all fold) by one; and the
 * tiles of a launch of a group a tile numbered by ticket or by group, whichever the policy does not. */
static void other_groups_pass(clscan_type type)
{
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, clscan__table_sp_groups_per_cu(&ctx->info) ? -1 : 1);
    /* The key reaches the program: a program of its own, not the policy's one again. */
    clscan__program *policy = NULL, *p = NULL;
    assert_int_equal(clscan__scan_program(ctx, type, CLSCAN_ADD, 1, &policy), CLSCAN_SUCCESS);
    const int fold_one = test_other_fold(ctx, CLSCAN__PROGRAM_SCAN);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_BY_ID, clscan__table_sp_by_id(&ctx->info) ? -1 : 1);
    assert_int_equal(clscan__scan_program(ctx, type, CLSCAN_ADD, 1, &p), CLSCAN_SUCCESS);
    assert_int_equal(p->config.sp_fold_one, fold_one);
    assert_int_equal(p->config.sp_by_id, !clscan__table_sp_by_id(&ctx->info));
    assert_ptr_not_equal(p, policy);
    scan_matrix(type, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_AUTO);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_FOLD, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_BY_ID, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, 0);
}

/* test_<T>_<X> runs X_pass for type T where the device holds it (the quick tier: at X_quick alone). */
static const clscan_type portable_quick = CLSCAN_UINT64, forced_fallback_quick = CLSCAN_INT32,
                         other_items_mode_quick = CLSCAN_INT64, other_groups_quick = CLSCAN_FLOAT;
#define PER_TYPE(T, X)                                                                                  \
    static void test_##T##_##X(void **state)                                                            \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (!clscan__device_supports_type(&ctx->info, CLSCAN_##T) || !tier_type(CLSCAN_##T, X##_quick)) \
            skip();                                                                                     \
        X##_pass(CLSCAN_##T);                                                                           \
    }
#define PER_TYPES(X) PER_TYPE(INT32, X) PER_TYPE(UINT32, X) PER_TYPE(INT64, X) PER_TYPE(UINT64, X)      \
                     PER_TYPE(FLOAT, X) PER_TYPE(DOUBLE, X) PER_TYPE(INT8, X) PER_TYPE(UINT16, X)
PER_TYPES(portable)
PER_TYPES(forced_fallback)
PER_TYPES(other_items_mode)
PER_TYPES(other_groups)

/* Initial values: every type under AUTO, and each strategy (its program the matrix's) at int32 and int8
 * in the quick tier, at every type in the full one. */
static const clscan_type init_quick_types[] = {CLSCAN_INT32, CLSCAN_INT8};
#define INIT_TEST(name, S)                                                                              \
    static void test_init_##name(void **state)                                                          \
    {                                                                                                   \
        (void)state;                                                                                    \
        for (int t = CLSCAN_INT32; t <= CLSCAN_UINT16; t++) {                                           \
            const clscan_type type = (clscan_type)t;                                                    \
            const int quick = CLSCAN_STRATEGY_##S == CLSCAN_STRATEGY_AUTO                               \
                                  ? tier_type_narrow(type)                                              \
                                  : type == init_quick_types[0] || type == init_quick_types[1];         \
            if (clscan__device_supports_type(&ctx->info, type) && (!ref_quick() || quick))              \
                init_matrix(type, CLSCAN_STRATEGY_##S);                                                 \
        }                                                                                               \
    }
INIT_TEST(auto, AUTO)   /* lower case: the full tier's filters by strategy do not take them */
INIT_TEST(block_sum, BLOCK_SUM)
INIT_TEST(reduce_then_scan, REDUCE_THEN_SCAN)
INIT_TEST(single_pass, SINGLE_PASS)

/* Small tiles force four block-sum levels at moderate n (reduce-then-scan: three, under its totals),
 * and give single-pass thousands of tiles with a look-back window of eight. */
static void test_misc_deep_recursion(void **state)
{
    (void)state;
    test_set_tile(ctx, 8, 2);   /* tile 16: 16^4 + 5 needs four levels of totals */
    size_t n = 16 * 16 * 16 * 16 + 5;
    void *in = malloc(n * 8), *got = malloc(n * 8);
    int failures = 0;
    for (int pair = 0; pair < 9; pair++) {
        if (ref_quick() && pair % 3 != 0)   /* the quick tier: each strategy with Hillis-Steele, int32 add */
            continue;
        clscan_strategy strategy = (clscan_strategy)(CLSCAN_STRATEGY_BLOCK_SUM + pair / 3);
        clscan_wg_algorithm wg = (clscan_wg_algorithm)(CLSCAN_WG_HILLIS_STEELE + pair % 3);
        assert_int_equal(clscan_set_algorithm(ctx, strategy, wg), CLSCAN_SUCCESS);
        failures += !run_one(n, CLSCAN_INT32, CLSCAN_ADD, 0, 0, in, got);
        failures += !ref_quick() && !run_one(n, CLSCAN_INT64, CLSCAN_MAX, 1, 1, in, got);
        failures += !ref_quick() && !run_one(n, CLSCAN_FLOAT, CLSCAN_ADD, 1, 0, in, got);
    }
    test_set_tile(ctx, 0, 0);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    free(in);
    free(got);
    assert_int_equal(failures, 0);
}

/* The sub-group work-group scan at group sizes around the sub-group width (8 on llvmpipe, 32 on
 * NVIDIA, 8 to 64 elsewhere): a group narrower than one sub-group (its only sub-group partial), one and
 * two sub-groups, as many sub-groups as a sub-group has lanes (their totals scanned by sub-groups) and
 * more (by one work-item). Under AUTO's strategies, every operator at int32 and float in the quick
 * tier (products: the KHR path's local-memory scan). Only where the device has a hardware sub-group
 * path, AUTO's or $CLSCAN_TUNING's: elsewhere this is the portable path the other tests run. */
static void test_misc_subgroup_shapes(void **state)
{
    (void)state;
    if (ctx->info.subgroups == CLSCAN__SG_NONE)
        skip();
    const unsigned groups[] = {4, 8, 16, 64, 128, 1024};
    size_cap = (size_t)1 << 16;   /* the full tier: tiles of 8 to 2048, every shape to 2^16 elements */
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        test_set_tile(ctx, groups[g], 2);
        /* A group larger than the kernels can take on this device (NVIDIA: 256, by their registers)
         * is CLSCAN_UNSUPPORTED, as the error tests check; its shape is left out here, and said so. */
        assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_SUBGROUP), CLSCAN_SUCCESS);
        const size_t probes[] = {3, 6 * (size_t)groups[g] + 1};   /* one tile (block-sum), three (single-pass) */
        int32_t *in = calloc(probes[1], sizeof *in), *out = calloc(probes[1], sizeof *out);
        assert_true(in && out);
        clscan_status st = CLSCAN_SUCCESS;
        for (size_t k = 0; k < 2 && st == CLSCAN_SUCCESS; k++)
            st = clscan_inclusive_scan_host(ctx, in, out, probes[k], CLSCAN_INT32, CLSCAN_ADD);
        free(in);
        free(out);
        if (st == CLSCAN_UNSUPPORTED) {
            print_message("[ skip     ] groups of %u: %s\n", groups[g], clscan_last_error(ctx));
            continue;
        }
        assert_int_equal(st, CLSCAN_SUCCESS);
        for (int type = CLSCAN_INT32; type <= CLSCAN_UINT16; type++)
            if (clscan__device_supports_type(&ctx->info, (clscan_type)type) &&
                (!ref_quick() || type == CLSCAN_INT32 || type == CLSCAN_FLOAT || type == CLSCAN_INT16))
                scan_matrix((clscan_type)type, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_SUBGROUP);
    }
    test_set_tile(ctx, 0, 0);
    size_cap = SIZE_MAX;
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
}

/* The host conveniences, in place and not, against the same reference. */
static void test_misc_host_api(void **state)
{
    (void)state;
    size_t n = 50000;
    int64_t *in = malloc(n * 8), *out = malloc(n * 8);
    for (int excl = 0; excl < 2; excl++) {
        char msg[256] = "";
        ref_fill(in, n, CLSCAN_INT64, CLSCAN_ADD, &rng);
        memset(out, REF_POISON, n * 8);
        assert_int_equal(excl ? clscan_exclusive_scan_host(ctx, in, out, n, CLSCAN_INT64, CLSCAN_ADD)
                              : clscan_inclusive_scan_host(ctx, in, out, n, CLSCAN_INT64, CLSCAN_ADD), CLSCAN_SUCCESS);
        assert_true(ref_check_scan(in, out, n, CLSCAN_INT64, CLSCAN_ADD, excl, msg, sizeof msg));
        int64_t *copy = malloc(n * 8);
        memcpy(copy, in, n * 8);
        assert_int_equal(excl ? clscan_exclusive_scan_host(ctx, copy, copy, n, CLSCAN_INT64, CLSCAN_ADD)
                              : clscan_inclusive_scan_host(ctx, copy, copy, n, CLSCAN_INT64, CLSCAN_ADD), CLSCAN_SUCCESS);
        assert_memory_equal(copy, out, n * 8);
        free(copy);
    }
    free(in);
    free(out);
}

/* argv[1], when given, is a cmocka name pattern: ctest runs the matrix in parts side by side; argv[2]
 * one of names to leave out. */
int main(int argc, char **argv)
{
#define ENTRY(T, S, W) cmocka_unit_test(test_##T##_##S##_##W)
#define ENTRIES(S, W) ENTRY(INT32, S, W), ENTRY(UINT32, S, W), ENTRY(INT64, S, W), ENTRY(UINT64, S, W), \
                      ENTRY(FLOAT, S, W), ENTRY(DOUBLE, S, W), ENTRY(INT8, S, W)
#define ONE(T, X) cmocka_unit_test(test_##T##_##X)
#define EACH_TYPE(X) ONE(INT32, X), ONE(UINT32, X), ONE(INT64, X), ONE(UINT64, X), ONE(FLOAT, X), ONE(DOUBLE, X), \
                     ONE(INT8, X), ONE(UINT16, X)
    const struct CMUnitTest tests[] = {
        ENTRIES(BLOCK_SUM, HILLIS_STEELE),        ENTRIES(BLOCK_SUM, BLELLOCH),
        ENTRIES(REDUCE_THEN_SCAN, HILLIS_STEELE), ENTRIES(REDUCE_THEN_SCAN, BLELLOCH),
        ENTRIES(SINGLE_PASS, HILLIS_STEELE),      ENTRIES(SINGLE_PASS, BLELLOCH),
        ENTRIES(SINGLE_PASS, SUBGROUP),           ENTRIES(REDUCE_THEN_SCAN, SUBGROUP),
        ENTRIES(BLOCK_SUM, SUBGROUP),             ENTRIES(AUTO, AUTO),
        ENTRY(UINT8, AUTO, AUTO),                 ENTRY(INT16, AUTO, AUTO),
        ENTRY(UINT16, AUTO, AUTO),
        EACH_TYPE(portable), EACH_TYPE(forced_fallback), EACH_TYPE(other_items_mode), EACH_TYPE(other_groups),
        cmocka_unit_test(test_init_auto), cmocka_unit_test(test_init_block_sum),
        cmocka_unit_test(test_init_reduce_then_scan), cmocka_unit_test(test_init_single_pass),
        cmocka_unit_test(test_misc_deep_recursion), cmocka_unit_test(test_misc_subgroup_shapes),
        cmocka_unit_test(test_misc_host_api),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (argc > 2)
        cmocka_set_skip_filter(argv[2]);
    return cmocka_run_group_tests(tests, setup, teardown);
}
