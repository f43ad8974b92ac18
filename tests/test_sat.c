/* clscan_summed_area_table against a CPU reference (the recurrence S = in + up + left - diagonal, in
 * the unsigned type for integers, so wrap-around matches, and in long double for floats, within
 * terms * eps * the sum of magnitudes): every type, 1x1, 1xN, Nx1, odd sizes, widths around the
 * work-group, tile and band, in place and not; the other item mode; the path the policy does not pick
 * (single-pass bands or a work-item a band), the CPU shape with short bands, the three passes' segments
 * of bands forced, the forced look-back fallback of both; bad arguments. $CLSCAN_TEST_SEED replays.
 * The quick tier (tier.h) runs int8, int32, uint64 and float (tier_add_type), and the
 * paths the policy does not pick at one type or pair of types. */
#include "prims/prims.h"
#include "ref.h"
#include "tier.h"
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

REF_FIXTURE("test_sat")

/* Element i of a buffer of type as long double (floats) or as its unsigned bits (integers). */
static long double as_real(const void *p, size_t i, clscan_type t)
{
    return t == CLSCAN_FLOAT ? ((const float *)p)[i] : ((const double *)p)[i];
}
static uint64_t as_bits(const void *p, size_t i, clscan_type t)
{
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)p + i * clscan_type_size(t), clscan_type_size(t));   /* little-endian host */
    return v;
}

/* 1 when got is the summed-area table of in; else 0 with the first wrong element printed. */
static int check_sat(const void *in, const void *got, size_t w, size_t h, clscan_type t)
{
    int is_float = t == CLSCAN_FLOAT || t == CLSCAN_DOUBLE;
    long double eps = t == CLSCAN_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    uint64_t mask = clscan_type_size(t) == 8 ? ~0ull : (1ull << (8 * clscan_type_size(t))) - 1;
    long double *s = calloc(w * h, sizeof *s), *m = calloc(w * h, sizeof *m);
    uint64_t *b = calloc(w * h, sizeof *b);
    int ok = 1;
    for (size_t y = 0; y < h && ok; y++)
        for (size_t x = 0; x < w && ok; x++) {
            size_t i = y * w + x;
#define AT(a, yy, xx) ((yy) < h && (xx) < w ? (a)[(yy) * w + (xx)] : 0)
            if (is_float) {
                s[i] = as_real(in, i, t) + AT(s, y - 1, x) + AT(s, y, x - 1) - AT(s, y - 1, x - 1);
                m[i] = fabsl(as_real(in, i, t)) + AT(m, y - 1, x) + AT(m, y, x - 1) - AT(m, y - 1, x - 1);
                long double terms = (long double)((x + 1) * (y + 1)), tol = (terms + 1) * eps * m[i];
                ok = fabsl(as_real(got, i, t) - s[i]) <= tol;
                if (!ok)
                    print_error("%s %zux%zu: [%zu][%zu] got %.17Lg, want %.17Lg\n", ref_type_name(t), w, h, y, x,
                                as_real(got, i, t), s[i]);
            } else {
                b[i] = (as_bits(in, i, t) + AT(b, y - 1, x) + AT(b, y, x - 1) - AT(b, y - 1, x - 1)) & mask;
                ok = as_bits(got, i, t) == b[i];
                if (!ok)
                    print_error("%s %zux%zu: [%zu][%zu] got %llu, want %llu\n", ref_type_name(t), w, h, y, x,
                                (unsigned long long)as_bits(got, i, t), (unsigned long long)b[i]);
            }
#undef AT
        }
    free(s), free(m), free(b);
    return ok;
}

static int sat_one(size_t w, size_t h, clscan_type t, int in_place)
{
    size_t n = w * h, bytes = n * clscan_type_size(t);
    void *in = malloc(bytes + 8), *got = malloc(bytes + 8);
    ref_fill(in, n, t, CLSCAN_ADD, &rng);
    cl_mem a = ref_buffer(ctx, bytes + 8, in), o = in_place ? a : ref_buffer(ctx, bytes + 8, NULL);
    clscan_status st = clscan_summed_area_table(ctx, a, o, w, h, t);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s %zux%zu: %s: %s", ref_type_name(t), w, h, clscan_status_string(st), clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, o, bytes, got), 1);
    int ok = check_sat(in, got, w, h, t);
    if (!in_place) {
        assert_int_equal(ref_read(ctx, a, bytes, got), 1);
        ok = ok && memcmp(got, in, bytes) == 0;
        clReleaseMemObject(o);
    }
    clReleaseMemObject(a);
    free(in), free(got);
    return ok;
}

static void sat_shapes(clscan_type t)
{
    clscan__tuning tu = clscan__scan_tile(ctx, t);
    size_t wg = tu.wg_size, tile = (size_t)tu.wg_size * tu.items;
    const size_t shapes[][2] = {{1, 1}, {1, 5000}, {5000, 1}, {tile + 1, 1}, {1, tile + 1}, {2, 2}, {37, 53},
                                {wg - 1, 3}, {wg + 1, 7}, {tile - 1, 3}, {tile + 1, 3}, {3, 1000}, {333, 444},
                                {wg, 31}, {wg + 1, 33}, {2 * wg, 65}, {wg - 1, 129},   /* bands of up to 32 rows */
                                {7, 257}};   /* the CPU shape's two bands of at least 128 rows */
    int failures = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int in_place = 0; in_place < 2; in_place++)
            failures += !sat_one(shapes[i][0], shapes[i][1], t, in_place);
    assert_int_equal(failures, 0);
}

#define TYPE_TEST(T)                                                                                    \
    static void test_sat_##T(void **state)                                                              \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (!clscan__device_supports_type(&ctx->info, CLSCAN_##T) || !tier_add_type(CLSCAN_##T))        \
            skip();                                                                                     \
        sat_shapes(CLSCAN_##T);                                                                         \
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

/* The item mode the policy does not pick (a GPU-shaped tile on CPUs). */
static void test_sat_other_items_mode(void **state)
{
    (void)state;
    int stream = clscan__scan_tile(ctx, CLSCAN_INT32).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    if (stream)
        test_set_tile(ctx, 64, 8);
    sat_shapes(CLSCAN_INT32);
    if (!ref_quick())
        sat_shapes(CLSCAN_FLOAT);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
}

/* The CPU shape (a work-item a band) with bands of 2, 3 and 32 rows for every type (tier_add_type), so that the
 * shapes have many bands that look back (on a GPU, work-items of one group waiting on each other). */
static void test_sat_cpu_shape_bands(void **state)
{
    (void)state;
    const int rows[] = {2, 3, 32};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (int t = CLSCAN_INT32; t <= CLSCAN_UINT16; t++)
            if (clscan__device_supports_type(&ctx->info, (clscan_type)t) && tier_add_type((clscan_type)t)) {
                clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, -rows[i]);
                sat_shapes((clscan_type)t);
            }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, 0);
}

/* The CPU shape again and again on one input (bands of its own height and of 3 rows, in place every
 * other time): a table that is right once and wrong later is a race between bands. */
static void test_sat_cpu_shape_repeated(void **state)
{
    (void)state;
    const int bands[] = {-1, -3};
    int failures = 0;
    for (size_t b = 0; b < sizeof bands / sizeof bands[0]; b++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, bands[b]);
        for (int run = 0; run < 50; run++)
            failures += !sat_one(61, 300, CLSCAN_INT32, run & 1);
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, 0);
    assert_int_equal(failures, 0);
}

/* The forced look-back fallback (every band b-1 added up from the input) in the single-pass bands
 * and in the CPU shape, each checked by the fallback counter, which must move. */
static void forced_fallback(int band)
{
    unsigned long before = 0, after = 0;
    assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, band);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, 1);   /* three passes never look back */
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    sat_shapes(CLSCAN_UINT32);
    if (!ref_quick())
        sat_shapes(CLSCAN_FLOAT);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, 0);
    assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
    print_message("[ fallback ] sat band %d: %lu fallbacks\n", band, after - before);
    assert_true(after > before);
}

/* Both GPU strategies (single-pass and three passes), whichever the policy picks for a shape; three
 * passes again with segments of one band and of three (the last segment of most shapes short), with
 * their middle work in two launches, and with the table pass in tiles of one row (each reading one
 * row of its band's carries); both again with the 64-bit element offsets. */
static void gpu_paths(clscan_type a, clscan_type b)
{
    for (int path = 1; path <= 2; path++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, path);
        sat_shapes(a);
        if (b != a)
            sat_shapes(b);
    }
    const int segments[] = {1, 3};
    for (size_t i = 0; i < sizeof segments / sizeof segments[0]; i++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_SEGMENT, segments[i]);
        sat_shapes(b);
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_SEGMENT, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, 2);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_SEPARATE, 1);   /* the middle work in two launches, as for many chunk totals */
    sat_shapes(b);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_SEPARATE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_TILE, 1);
    if (!ref_quick())   /* the quick tier: not the table tiles of one row, nor the 64-bit offsets */
        sat_shapes(a);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_TILE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_WIDE, 1);   /* the 64-bit offsets of images past 2^32 elements */
    for (int path = 1; path <= 2; path++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, path);
        if (!ref_quick())
            sat_shapes(a);
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_WIDE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, 0);
}

/* The paths the policy does not pick: the GPU bands on CPUs (every band height, on a GPU-sized
 * work-group too), both GPU strategies on GPUs, the CPU shape on GPUs; then both look-backs with the
 * fallback forced. */
static void test_sat_other_path(void **state)
{
    (void)state;
    const int cpu = clscan__sat_band(ctx, clscan__scan_tile(ctx, CLSCAN_INT32), 4) == 0;
    /* An 8-byte floating type where the device has one (rusticl offers no fp64 unless asked). */
    clscan_type wide = clscan__device_supports_type(&ctx->info, CLSCAN_DOUBLE) ? CLSCAN_DOUBLE : CLSCAN_INT64;
    if (ref_quick())   /* a program of its own; the full tier takes it */
        wide = CLSCAN_INT32;
    if (cpu) {
        const int bands[] = {4, 1, 32};
        test_set_tile(ctx, 64, 8);
        for (size_t b = 0; b < (ref_quick() ? 1 : sizeof bands / sizeof bands[0]); b++) {   /* quick: 4 rows */
            clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, bands[b]);
            gpu_paths(CLSCAN_INT32, wide);
        }
        test_set_tile(ctx, 0, 0);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, 8);   /* the CPU's own work-group size for 4-byte types (16 for 8-byte ones) */
        if (!ref_quick())
            gpu_paths(CLSCAN_FLOAT, CLSCAN_UINT64);
    } else {
        gpu_paths(CLSCAN_INT32, CLSCAN_FLOAT);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, -1);
        sat_shapes(CLSCAN_INT32);
        sat_shapes(CLSCAN_FLOAT);
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, 0);
    forced_fallback(cpu ? 8 : 0);
    forced_fallback(-3);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);   /* status words read by atomics where the policy reads them volatile */
    sat_shapes(CLSCAN_INT32);
    if (!ref_quick())
        sat_shapes(CLSCAN_FLOAT);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
}

static void test_sat_bad_arguments(void **state)
{
    (void)state;
    int32_t data[60];
    for (int i = 0; i < 60; i++)
        data[i] = i;
    cl_mem a = ref_buffer(ctx, sizeof data, data), o = ref_buffer(ctx, sizeof data, NULL);
    assert_int_equal(clscan_summed_area_table(NULL, a, o, 6, 10, CLSCAN_INT32), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_summed_area_table(ctx, NULL, o, 6, 10, CLSCAN_INT32), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_summed_area_table(ctx, a, NULL, 6, 10, CLSCAN_INT32), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_summed_area_table(ctx, a, o, 7, 10, CLSCAN_INT32), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_summed_area_table(ctx, a, o, 6, 10, CLSCAN_INT64), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_summed_area_table(ctx, a, o, SIZE_MAX / 2, 3, CLSCAN_INT32), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overflows"));
    assert_int_equal(clscan_summed_area_table(ctx, a, o, 6, 10, (clscan_type)17), CLSCAN_INVALID_ARGUMENT);
    int32_t got[60];
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    assert_true(ref_is_poison(got, sizeof got));
    assert_int_equal(clscan_summed_area_table(ctx, NULL, NULL, 0, 10, CLSCAN_INT32), CLSCAN_SUCCESS);
    assert_int_equal(clscan_summed_area_table(ctx, a, o, 6, 10, CLSCAN_INT32), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    assert_true(check_sat(data, got, 6, 10, CLSCAN_INT32));
    clReleaseMemObject(a), clReleaseMemObject(o);
}

/* argv[1], when given, is a cmocka name pattern: ctest runs the full tier in parts side by side; argv[2]
 * one of names to leave out. */
int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sat_INT32), cmocka_unit_test(test_sat_UINT32), cmocka_unit_test(test_sat_INT64),
        cmocka_unit_test(test_sat_UINT64), cmocka_unit_test(test_sat_FLOAT), cmocka_unit_test(test_sat_DOUBLE),
        cmocka_unit_test(test_sat_INT8), cmocka_unit_test(test_sat_UINT8),
        cmocka_unit_test(test_sat_INT16), cmocka_unit_test(test_sat_UINT16),
        cmocka_unit_test(test_sat_other_items_mode), cmocka_unit_test(test_sat_other_path),
        cmocka_unit_test(test_sat_cpu_shape_bands), cmocka_unit_test(test_sat_cpu_shape_repeated),
        cmocka_unit_test(test_sat_bad_arguments),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (argc > 2)
        cmocka_set_skip_filter(argv[2]);
    return cmocka_run_group_tests(tests, setup, teardown);
}
