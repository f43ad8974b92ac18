/* clscan_argmin and clscan_argmax against a loop on the CPU: every type (the quick tier: int32, uint8,
 * float), random values, many ties (the first index wins), floats with NaNs here and
 * there, at the front, everywhere (index 0), and -0.0 against +0.0 and the infinities; sizes around a
 * work-group and a 4-element vector and beyond; the value given back equal to in[index] (bits). Then
 * bad arguments: a status and a message, *index and *value untouched, the context still working.
 * $CLSCAN_TEST_SEED replays. */
#include "prims/prims.h"
#include "ref.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

REF_FIXTURE("test_arg")

/* Element i as a double, and whether it is a NaN (integers never). */
static double as_double(const void *data, size_t i, clscan_type type)
{
    switch (type) {
    case CLSCAN_INT8: return ((const int8_t *)data)[i];
    case CLSCAN_UINT8: return ((const uint8_t *)data)[i];
    case CLSCAN_INT16: return ((const int16_t *)data)[i];
    case CLSCAN_UINT16: return ((const uint16_t *)data)[i];
    case CLSCAN_INT32: return ((const int32_t *)data)[i];
    case CLSCAN_UINT32: return ((const uint32_t *)data)[i];
    case CLSCAN_FLOAT: return ((const float *)data)[i];
    case CLSCAN_DOUBLE: return ((const double *)data)[i];
    default: return 0;   /* 64-bit integers: compared exactly below */
    }
}

/* Whether element i comes before element j in the order argmin (max = 0) or argmax takes. */
static int before(const void *data, size_t i, size_t j, clscan_type type, int max)
{
    if (type == CLSCAN_INT64 || type == CLSCAN_UINT64) {
        int64_t a = ((const int64_t *)data)[i], b = ((const int64_t *)data)[j];
        uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
        int lt = type == CLSCAN_INT64 ? a < b : ua < ub, gt = type == CLSCAN_INT64 ? a > b : ua > ub;
        return max ? gt : lt;
    }
    double a = as_double(data, i, type), b = as_double(data, j, type);
    if (isnan(a) || isnan(b))
        return !isnan(a) && isnan(b);
    return max ? a > b : a < b;
}

static size_t reference(const void *data, size_t n, clscan_type type, int max)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (before(data, i, best, type, max))
            best = i;
    return best;
}

enum pattern { RANDOM, TIES, NANS, NAN_FIRST, ALL_NAN, ZEROS_INF, PATTERNS };
static const char *const pattern_names[] = {"random", "ties", "NaNs here and there", "NaNs first", "all NaN",
                                            "signed zeros and infinities"};

static void fill(unsigned char *data, size_t n, clscan_type type, enum pattern p)
{
    const size_t elem = clscan_type_size(type);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = ref_next(&rng);
        if (p == TIES)
            r %= 3;   /* a few values, each many times */
        if (type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE) {
            double v = (double)(int64_t)(r % 2000001) - 1000000.0;
            if (p == TIES)
                v = (double)r;
            if ((p == NANS && r % 7 == 0) || (p == NAN_FIRST && i < n / 2) || p == ALL_NAN)
                v = NAN;
            if (p == ZEROS_INF)
                v = r % 4 == 0 ? 0.0 : r % 4 == 1 ? -0.0 : r % 4 == 2 ? INFINITY : -INFINITY;
            if (type == CLSCAN_FLOAT) {
                float f = (float)v;
                memcpy(data + i * elem, &f, 4);
            } else
                memcpy(data + i * elem, &v, 8);
        } else
            memcpy(data + i * elem, &r, elem);
    }
}

static int arg_one(size_t n, clscan_type type, int max, enum pattern p, unsigned char *data)
{
    const size_t elem = clscan_type_size(type);
    fill(data, n, type, p);
    cl_mem a = ref_buffer(ctx, n * elem, data);
    size_t index = (size_t)-1;
    unsigned char value[8];
    memset(value, REF_POISON, sizeof value);
    static unsigned calls;
    const int with_value = calls++ % 4 != 3;   /* every fourth call without the value */
    clscan_status st = max ? clscan_argmax(ctx, a, n, type, &index, with_value ? value : NULL)
                           : clscan_argmin(ctx, a, n, type, &index, with_value ? value : NULL);
    clReleaseMemObject(a);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s %s n=%zu %s: %s: %s", max ? "argmax" : "argmin", ref_type_name(type), n, pattern_names[p],
                 clscan_status_string(st), clscan_last_error(ctx));
    const size_t want = reference(data, n, type, max);
    int ok = index == want && (!with_value ? ref_is_poison(value, sizeof value) : memcmp(value, data + want * elem, elem) == 0);
    if (!ok)
        print_error("%s %s n=%zu %s: index %zu, want %zu%s\n", max ? "argmax" : "argmin", ref_type_name(type), n,
                    pattern_names[p], index, want, index == want ? " (the value differs)" : "");
    return ok;
}

static void arg_type(clscan_type type)
{
    if (!clscan__device_supports_type(&ctx->info, type))
        skip();
    const size_t wg = clscan__scan_tile(ctx, type).wg_size;
    const size_t sizes[] = {1, 2, 3, 4, 5, wg - 1, 4 * wg + 1, 10007, ref_quick() ? 40013 : (1u << 21) + 7,
                            1 + ref_next(&rng) % 300000};
    const int is_float = type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE;
    unsigned char *data = malloc(((1u << 21) + 300008) * 8);
    int failures = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int p = 0; p < PATTERNS; p++)
            if (p <= TIES || is_float)
                for (int max = 0; max < 2; max++)
                    failures += !arg_one(sizes[i], type, max, (enum pattern)p, data);
    free(data);
    assert_int_equal(failures, 0);
}

#define TYPE_TEST(T, QUICK)                                                                             \
    static void test_arg_##T(void **state)                                                              \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (ref_quick() && !(QUICK))                                                                    \
            skip();                                                                                     \
        arg_type(CLSCAN_##T);                                                                           \
    }
TYPE_TEST(INT32, 1)
TYPE_TEST(UINT32, 0)
TYPE_TEST(INT64, 0)
TYPE_TEST(UINT64, 0)
TYPE_TEST(FLOAT, 1)
TYPE_TEST(DOUBLE, 0)
TYPE_TEST(INT8, 0)
TYPE_TEST(UINT8, 1)
TYPE_TEST(INT16, 0)
TYPE_TEST(UINT16, 0)

static void test_arg_bad_arguments(void **state)
{
    (void)state;
    int32_t in[100];
    for (int i = 0; i < 100; i++)
        in[i] = 50 - i;
    cl_mem a = ref_buffer(ctx, sizeof in, in);
    size_t index = 77;
    int32_t value = 88;
    clscan_type pair = CLSCAN_INT32;
    assert_int_equal(clscan_register_type(ctx, "test_pair", "typedef struct { int a, b; } test_pair;", 8, &pair),
                     CLSCAN_SUCCESS);
    assert_int_equal(clscan_argmin(NULL, a, 100, CLSCAN_INT32, &index, &value), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_argmin(ctx, a, 0, CLSCAN_INT32, &index, &value), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "n == 0"));
    assert_int_equal(clscan_argmax(ctx, a, 100, CLSCAN_INT32, NULL, &value), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "index"));
    assert_int_equal(clscan_argmax(ctx, NULL, 100, CLSCAN_INT32, &index, &value), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_argmax(ctx, a, 101, CLSCAN_INT32, &index, &value), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_argmin(ctx, a, 100, (clscan_type)42, &index, &value), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_argmin(ctx, a, 50, pair, &index, &value), CLSCAN_UNSUPPORTED);
    assert_non_null(strstr(clscan_last_error(ctx), "registered"));
    assert_int_equal(index, 77);
    assert_int_equal(value, 88);
    assert_int_equal(clscan_argmin(ctx, a, 100, CLSCAN_INT32, &index, &value), CLSCAN_SUCCESS);
    assert_int_equal(index, 99);
    assert_int_equal(value, -49);
    assert_int_equal(clscan_argmax(ctx, a, 100, CLSCAN_INT32, &index, NULL), CLSCAN_SUCCESS);
    assert_int_equal(index, 0);
    clReleaseMemObject(a);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arg_bad_arguments),
        cmocka_unit_test(test_arg_INT32), cmocka_unit_test(test_arg_UINT32),
        cmocka_unit_test(test_arg_INT64), cmocka_unit_test(test_arg_UINT64),
        cmocka_unit_test(test_arg_FLOAT), cmocka_unit_test(test_arg_DOUBLE),
        cmocka_unit_test(test_arg_INT8), cmocka_unit_test(test_arg_UINT8),
        cmocka_unit_test(test_arg_INT16), cmocka_unit_test(test_arg_UINT16),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
