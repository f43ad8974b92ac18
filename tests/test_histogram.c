/* clscan_histogram_even and clscan_histogram_range against references on the CPU: integers exactly (a
 * 128-bit product, not the kernels' split), floats by the documented scale rule, the range by a binary
 * search of its own. Every type (the quick tier: int32, int64, float, uint8), bounds small, narrow (more
 * bins than values) and at the type's extremes, 1, 2, 7 and 256 bins in local memory, 65536 and 24581 in
 * bands of local memory on GPUs (the last band narrower; CPUs count them in one band or in global memory),
 * and 2^20 in global memory (the quick tier: 65536 and 24581, at int32 and float), values on edges, just
 * outside, NaN and the infinities, sizes 0, 1 and around a group's share, and in the item mode the
 * policy does not pick, and with every group adding into one row (forced; back to back, the bins
 * changing); counts poisoned before each run. Edges that do not increase, and bad arguments:
 * a status, nothing written, the context still working.
 * $CLSCAN_TEST_SEED replays. */
#include "prims/prims.h"
#include "ref.h"
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

REF_FIXTURE("test_histogram")
#define NONE UINT64_MAX

static int is_float(clscan_type t) { return t == CLSCAN_FLOAT || t == CLSCAN_DOUBLE; }
static int is_signed(clscan_type t)
{
    return t == CLSCAN_INT8 || t == CLSCAN_INT16 || t == CLSCAN_INT32 || t == CLSCAN_INT64;
}

/* ---- elements: integers widened with their sign to 64 bits, floats as double ---- */
static uint64_t get_int(const unsigned char *data, size_t i, clscan_type t)
{
    const size_t elem = clscan_type_size(t);
    uint64_t v = 0;
    memcpy(&v, data + i * elem, elem);   /* little-endian hosts */
    const unsigned bits = 8 * (unsigned)elem;
    if (is_signed(t) && bits < 64 && (v >> (bits - 1) & 1))
        v |= ~0ull << bits;
    return v;
}
static void put_int(unsigned char *data, size_t i, clscan_type t, uint64_t v)
{
    memcpy(data + i * clscan_type_size(t), &v, clscan_type_size(t));
}
static double get_real(const unsigned char *data, size_t i, clscan_type t)
{
    if (t == CLSCAN_FLOAT) {
        float f;
        memcpy(&f, data + i * 4, 4);
        return f;
    }
    double d;
    memcpy(&d, data + i * 8, 8);
    return d;
}
static void put_real(unsigned char *data, size_t i, clscan_type t, double v)
{
    if (t == CLSCAN_FLOAT) {
        float f = (float)v;
        memcpy(data + i * 4, &f, 4);
    } else
        memcpy(data + i * 8, &v, 8);
}
static int int_less(uint64_t a, uint64_t b, clscan_type t) { return is_signed(t) ? (int64_t)a < (int64_t)b : a < b; }

/* ---- references ---- */
/* The even split, integers: floor((x - lower) * bins / (upper - lower)) with a 128-bit product. */
static uint64_t even_int(uint64_t x, uint64_t lo, uint64_t hi, size_t bins, clscan_type t)
{
    if (int_less(x, lo, t) || !int_less(x, hi, t))
        return NONE;
    return (uint64_t)((unsigned __int128)(x - lo) * bins / (hi - lo));
}

/* The even split, floats: the documented rule, rounded in the type (FLT_EVAL_METHOD 0 on the hosts CI
 * runs, no contraction under -std=c11). */
#define EVEN_REAL(T, x, l, u, bins)                                                                    \
    do {                                                                                               \
        if (!((x) >= (l) && (x) < (u)))                                                                \
            return NONE;                                                                               \
        const int halves = isinf((u) - (l));                                                           \
        const T scale = halves ? (T)(bins) / ((u) * (T)0.5 - (l) * (T)0.5) : (T)(bins) / ((u) - (l));  \
        const T d = halves ? (x) * (T)0.5 - (l) * (T)0.5 : (x) - (l);                                  \
        const T f = d * scale;                                                                         \
        const uint64_t b = d == 0 ? 0 : f < (T)(bins) ? (uint64_t)f : (bins) - 1;                      \
        return b < (bins) - 1 ? b : (bins) - 1;                                                        \
    } while (0)
static uint64_t even_float(float x, float l, float u, size_t bins) { EVEN_REAL(float, x, l, u, bins); }
static uint64_t even_double(double x, double l, double u, size_t bins) { EVEN_REAL(double, x, l, u, bins); }

static uint64_t even_ref(const unsigned char *data, size_t i, clscan_type t, const unsigned char *bounds, size_t bins)
{
    if (t == CLSCAN_FLOAT)
        return even_float((float)get_real(data, i, t), (float)get_real(bounds, 0, t), (float)get_real(bounds, 1, t),
                          bins);
    if (t == CLSCAN_DOUBLE)
        return even_double(get_real(data, i, t), get_real(bounds, 0, t), get_real(bounds, 1, t), bins);
    return even_int(get_int(data, i, t), get_int(bounds, 0, t), get_int(bounds, 1, t), bins, t);
}

/* Whether element i of a is below element j of b in the type (NaN: never). */
static int below(const unsigned char *a, size_t i, const unsigned char *b, size_t j, clscan_type t)
{
    return is_float(t) ? get_real(a, i, t) < get_real(b, j, t) : int_less(get_int(a, i, t), get_int(b, j, t), t);
}

/* The range: the first edge above x by bisection over increasing edges; x's bin is the one before. */
static uint64_t range_ref(const unsigned char *data, size_t i, clscan_type t, const unsigned char *edges, size_t bins)
{
    if (is_float(t) && isnan(get_real(data, i, t)))
        return NONE;
    size_t lo = 0, hi = bins + 1;   /* the first edge above x lies in [lo, hi] */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (below(data, i, edges, mid, t))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo == 0 || lo == bins + 1 ? NONE : lo - 1;
}

/* ---- data ---- */
enum bounds { SMALL, NARROW, EXTREME, BOUNDS };
static const char *const bounds_names[] = {"small", "narrow", "extreme"};

/* lower and upper of the type into bounds[0], bounds[1]. */
static void make_bounds(clscan_type t, enum bounds which, unsigned char *bounds)
{
    const unsigned bits = 8 * (unsigned)clscan_type_size(t);
    if (t == CLSCAN_FLOAT || t == CLSCAN_DOUBLE) {
        const double big = t == CLSCAN_FLOAT ? FLT_MAX : DBL_MAX;
        put_real(bounds, 0, t, which == SMALL ? -1.5 : which == NARROW ? 1.0 : -big);
        put_real(bounds, 1, t, which == SMALL ? 2.25 : which == NARROW ? 1.0 + 1.0 / 64 : big);
        return;
    }
    const uint64_t max = is_signed(t) ? (~0ull >> (65 - bits)) : (~0ull >> (64 - bits));
    const uint64_t min = is_signed(t) ? ~max : 0;
    uint64_t lo = which == SMALL ? (is_signed(t) ? (uint64_t)-100 : 3) : which == NARROW ? 5 : min;
    uint64_t hi = which == SMALL ? (max < 1000 ? max - 5 : 1000) : which == NARROW ? 12 : max;
    put_int(bounds, 0, t, lo), put_int(bounds, 1, t, hi);
}

/* A value between lower and upper at fraction f (past them for f outside [0, 1]). */
static void put_between(unsigned char *data, size_t i, clscan_type t, const unsigned char *bounds, double f)
{
    if (is_float(t)) {
        const double l = get_real(bounds, 0, t), u = get_real(bounds, 1, t);
        put_real(data, i, t, l * (1 - f) + u * f);
        return;
    }
    const uint64_t lo = get_int(bounds, 0, t), range = get_int(bounds, 1, t) - lo;
    const long double r = range;   /* past the bounds: distances added to or taken from them (wrapping) */
    put_int(data, i, t, f < 0 ? lo - (uint64_t)(r * -f) : f > 1 ? lo + range + (uint64_t)(r * (f - 1))
                                                            : lo + (uint64_t)(r * f));
}

/* n elements around [lower, upper): inside, on the even split's edges, on given edges (if any), just
 * outside, anywhere, and for floats NaN, the infinities and signed zeros. */
static void fill(unsigned char *data, size_t n, clscan_type t, const unsigned char *bounds, size_t bins,
                 const unsigned char *edges)
{
    const size_t elem = clscan_type_size(t);
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = ref_next(&rng), kind = r % 16, b = (r >> 8) % (bins + 1);
        const double f = (double)(r >> 11) / 9007199254740992.0;
        if (kind < 6)
            put_between(data, i, t, bounds, f);
        else if (kind < 8)
            put_between(data, i, t, bounds, (double)b / (double)bins);
        else if (kind == 8 && edges)
            memcpy(data + i * elem, edges + b * elem, elem);
        else if (kind == 9)
            memcpy(data + i * elem, bounds + (r >> 7 & 1) * elem, elem);
        else if (kind == 10 && is_float(t)) {
            const double v = get_real(bounds, r >> 7 & 1, t);
            put_real(data, i, t, t == CLSCAN_FLOAT ? nextafterf((float)v, (r >> 6 & 1) ? INFINITY : -INFINITY)
                                                   : nextafter(v, (r >> 6 & 1) ? INFINITY : -INFINITY));
        } else if (kind == 10)
            put_int(data, i, t, get_int(bounds, r >> 7 & 1, t) + ((r >> 6 & 1) ? 1 : ~0ull));
        else if (kind == 11)
            put_between(data, i, t, bounds, -0.25 + 1.5 * f);
        else if (kind == 12 && is_float(t))
            put_real(data, i, t, (r >> 7) % 4 == 0 ? NAN : (r >> 7) % 4 == 1 ? INFINITY : (r >> 7) % 4 == 2 ? -INFINITY
                                                                                                      : -0.0);
        else
            memcpy(data + i * elem, &r, elem);   /* any bits: floats of any size, sometimes NaN */
    }
}

/* bins + 1 increasing edges between lower and upper (equal neighbours allowed: an empty bin). */
static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}
static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static void make_edges(unsigned char *edges, size_t bins, clscan_type t, const unsigned char *bounds)
{
    uint64_t *keys = malloc((bins + 1) * 8);
    for (size_t i = 0; i <= bins; i++) {
        const double f = (double)(ref_next(&rng) >> 11) / 9007199254740992.0;
        if (is_float(t)) {
            double l = get_real(bounds, 0, t), u = get_real(bounds, 1, t), v = l * (1 - f) + u * f;
            v = t == CLSCAN_FLOAT ? (double)(float)v : v;
            memcpy(&keys[i], &v, 8);
        } else
            keys[i] = (uint64_t)((long double)(get_int(bounds, 1, t) - get_int(bounds, 0, t)) * f);
    }
    qsort(keys, bins + 1, 8, is_float(t) ? cmp_double : cmp_u64);
    for (size_t i = 0; i <= bins; i++) {
        if (is_float(t)) {
            double v;
            memcpy(&v, &keys[i], 8);
            put_real(edges, i, t, v);
        } else
            put_int(edges, i, t, get_int(bounds, 0, t) + keys[i]);
    }
    free(keys);
}

/* ---- runs ---- */
/* One histogram of n elements into a poisoned counts buffer, against the reference. */
static int hist_one(clscan_type t, enum bounds which, size_t bins, size_t n, int range, unsigned char *data,
                    uint64_t *want, uint64_t *got)
{
    const size_t elem = clscan_type_size(t);
    unsigned char bounds[16];
    make_bounds(t, which, bounds);
    unsigned char *edges = range ? malloc((bins + 1) * elem) : NULL;
    if (range)
        make_edges(edges, bins, t, bounds);
    fill(data, n, t, bounds, bins, edges);
    memset(want, 0, bins * 8);
    for (size_t i = 0; i < n; i++) {
        const uint64_t b = range ? range_ref(data, i, t, edges, bins) : even_ref(data, i, t, bounds, bins);
        if (b != NONE)
            want[b]++;
    }
    cl_mem in = ref_buffer(ctx, n ? n * elem : 1, data), counts = ref_buffer(ctx, bins * 8, NULL);
    cl_mem e = range ? ref_buffer(ctx, (bins + 1) * elem, edges) : NULL;
    clscan_status st = range ? clscan_histogram_range(ctx, in, n, t, e, bins, counts)
                             : clscan_histogram_even(ctx, in, n, t, bounds, bounds + elem, bins, counts);
    const int read = st == CLSCAN_SUCCESS && ref_read(ctx, counts, bins * 8, got);
    clReleaseMemObject(in), clReleaseMemObject(counts);
    if (e)
        clReleaseMemObject(e);
    free(edges);
    const char *what = range ? "range" : "even";
    if (st != CLSCAN_SUCCESS || !read) {
        print_error("%s %s %s bins=%zu n=%zu: %s: %s\n", what, ref_type_name(t), bounds_names[which], bins, n,
                    clscan_status_string(st), clscan_last_error(ctx));
        return 0;
    }
    for (size_t b = 0; b < bins; b++)
        if (got[b] != want[b]) {
            print_error("%s %s %s bins=%zu n=%zu: bin %zu holds %llu, want %llu\n", what, ref_type_name(t),
                        bounds_names[which], bins, n, b, (unsigned long long)got[b], (unsigned long long)want[b]);
            return 0;
        }
    return 1;
}

/* Every bounds x bins x size of a type; big: the global-memory bin counts too. */
static void hist_type(clscan_type t, int big)
{
    if (!clscan__device_supports_type(&ctx->info, t))
        skip();
    const size_t wg = clscan__hist_tile(ctx, t).wg_size;
    const size_t sizes[] = {0, 1, 2, wg - 1, 16 * wg - 1, 16 * wg + 1, 10007, ref_quick() ? 40013 : (1u << 21) + 7,
                            1 + ref_next(&rng) % 300000};
    const size_t small_bins[] = {1, 2, 7, 256}, big_bins[] = {65536, 24581, 1u << 20};
    const size_t most = (1u << 21) + 300008;
    unsigned char *data = malloc(most * 8);
    uint64_t *want = malloc((1u << 20) * 8), *got = malloc((1u << 20) * 8);
    int failures = 0;
    for (int range = 0; range < 2; range++)
        for (int which = 0; which < BOUNDS; which++) {
            for (size_t b = 0; b < sizeof small_bins / sizeof small_bins[0]; b++)
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    failures += !hist_one(t, (enum bounds)which, small_bins[b], sizes[s], range, data, want, got);
            for (size_t b = 0; big && b < (ref_quick() ? 2u : 3u); b++)   /* 2^20 bins: the full tier */
                for (size_t s = 0; s < 2; s++)   /* a few elements, and many */
                    failures += !hist_one(t, (enum bounds)which, big_bins[b], s ? sizes[8] : 1000, range, data,
                                          want, got);
        }
    free(data), free(want), free(got);
    assert_int_equal(failures, 0);
}

/* Quick tier: int32 and float with the global-memory bins, int64 (the 128-bit split at the extremes)
 * and uint8 (more bins than values) with the local ones. */
#define TYPE_TEST(T, QUICK, QUICK_BIG)                                                                  \
    static void test_histogram_##T(void **state)                                                        \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (ref_quick() && !(QUICK))                                                                    \
            skip();                                                                                     \
        hist_type(CLSCAN_##T, !ref_quick() || (QUICK_BIG));                                             \
    }
TYPE_TEST(INT32, 1, 1)
TYPE_TEST(UINT32, 0, 0)
TYPE_TEST(INT64, 1, 0)
TYPE_TEST(UINT64, 0, 0)
TYPE_TEST(FLOAT, 1, 1)
TYPE_TEST(DOUBLE, 0, 0)
TYPE_TEST(INT8, 0, 0)
TYPE_TEST(UINT8, 1, 0)
TYPE_TEST(INT16, 0, 0)
TYPE_TEST(UINT16, 0, 0)

/* on: the item mode the policy does not pick (from the policy's own), with a GPU's tile where the
 * policy streams; off: the policy's again. */
static void other_items_mode(int on)
{
    if (!on) {
        test_set_tile(ctx, 0, 0);
        clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
        return;
    }
    const int stream = clscan__scan_tile(ctx, CLSCAN_INT32).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    if (stream)
        test_set_tile(ctx, 64, 8);
}

/* The item mode the policy does not pick, so that CPUs run the GPUs' counting too (16-byte vector
 * loads of 16, 8, 4 and 2 elements, CLSCAN_HIST_W in histogram.cl, and bytes counted by value; the quick
 * tier: bytes and int32). */
static void test_histogram_other_items_mode(void **state)
{
    (void)state;
    other_items_mode(1);
    const clscan_type types[] = {CLSCAN_UINT8, CLSCAN_INT32, CLSCAN_INT8, CLSCAN_INT16, CLSCAN_INT64, CLSCAN_FLOAT};
    for (size_t k = 0; k < (ref_quick() ? 2u : sizeof types / sizeof types[0]); k++) {
        /* the GPUs' bytes count by value: many bins too, in the full tier */
        const int bytes = types[k] == CLSCAN_UINT8 || types[k] == CLSCAN_INT8;
        if (clscan__device_supports_type(&ctx->info, types[k]))
            hist_type(types[k], k == 1 || (bytes && !ref_quick()));
    }
    /* 2^20 bins, even and by edges: in bands of local memory where the local memory holds a fifth of
     * them (PoCL's 1 MiB holds 65536 bins in one band), in one global row where it does not. */
    unsigned char *data = malloc(300000 * 4);
    uint64_t *want = malloc((1u << 20) * 8), *got = malloc((1u << 20) * 8);
    for (int range = 0; range < 2; range++)
        assert_true(hist_one(CLSCAN_INT32, SMALL, 1u << 20, 300000, range, data, want, got));
    free(data), free(want), free(got);
    other_items_mode(0);
}

/* Every group adding into one row (merge: chosen on GPUs up to 4096 bins, never on CPUs),
 * forced, for bytes, int32 and floats in both item modes; the quick tier: bytes and int32 in the
 * policy's mode. */
static void test_histogram_merged(void **state)
{
    (void)state;
    const clscan_type types[] = {CLSCAN_UINT8, CLSCAN_INT32, CLSCAN_FLOAT};
    clscan_tuning_set(ctx, CLSCAN_TUNE_HIST_MERGE, 1);
    for (int mode = 0; mode < (ref_quick() ? 1 : 2); mode++) {
        other_items_mode(mode);
        for (size_t k = 0; k < (ref_quick() ? 2u : sizeof types / sizeof types[0]); k++)
            if (clscan__device_supports_type(&ctx->info, types[k]))
                hist_type(types[k], 0);
    }
    other_items_mode(0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_HIST_MERGE, 0);
}

/* Merged calls back to back, their bins changing (2, 256, 7: a late add of one call lands in the next
 * one's row), every one checked: each must find the row and its ticket zero, as the last group of the
 * call before left them. The H100 lost counts to the next call when a group's adds were
 * not yet made as it took its ticket. 2^20 bytes, 300 calls (60 in the quick tier). */
static void test_histogram_merged_back_to_back(void **state)
{
    (void)state;
    const size_t n = 1u << 20, calls = ref_quick() ? 60 : 300, bins[] = {2, 256, 7};
    const unsigned char lower = 0, upper = 255;
    unsigned char *data = malloc(n);
    uint64_t want[3][256] = {{0}}, got[256];
    for (size_t i = 0; i < n; i++)
        data[i] = (unsigned char)(ref_next(&rng) >> 24);
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < n; i++)
            if (data[i] < upper)
                want[k][(uint64_t)data[i] * bins[k] / upper]++;
    cl_mem in = ref_buffer(ctx, n, data), counts = ref_buffer(ctx, sizeof got, NULL);
    clscan_tuning_set(ctx, CLSCAN_TUNE_HIST_MERGE, 1);
    size_t wrong = 0;
    for (size_t c = 0; c < calls; c++) {
        const size_t k = c % 3;
        clscan_status st = clscan_histogram_even(ctx, in, n, CLSCAN_UINT8, &lower, &upper, bins[k], counts);
        if (st != CLSCAN_SUCCESS || !ref_read(ctx, counts, bins[k] * 8, got) || memcmp(got, want[k], bins[k] * 8)) {
            if (wrong++ < 5)
                print_error("merged call %zu of %zu, %zu bins: %s\n", c, calls, bins[k],
                            st != CLSCAN_SUCCESS ? clscan_last_error(ctx) : "counts differ");
        }
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_HIST_MERGE, 0);
    clReleaseMemObject(in), clReleaseMemObject(counts);
    free(data);
    assert_int_equal(wrong, 0);
}

/* Edges that do not increase: some counts, no more than the elements, never a fault (Oclgrind checks
 * the accesses: tests/oclgrind_paths.c). */
static void test_histogram_unordered_edges(void **state)
{
    (void)state;
    const size_t n = 5000;
    int32_t in[5000], edges[65537];
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(ref_next(&rng) % 2000) - 1000;
    for (size_t bins = 1; bins <= 65536; bins *= 16) {
        for (size_t i = 0; i <= bins; i++)
            edges[i] = (int32_t)(ref_next(&rng) % 2000) - 1000;
        cl_mem a = ref_buffer(ctx, sizeof in, in), e = ref_buffer(ctx, (bins + 1) * 4, edges);
        cl_mem c = ref_buffer(ctx, bins * 8, NULL);
        assert_int_equal(clscan_histogram_range(ctx, a, n, CLSCAN_INT32, e, bins, c), CLSCAN_SUCCESS);
        uint64_t *got = malloc(bins * 8), sum = 0;
        assert_true(ref_read(ctx, c, bins * 8, got));
        for (size_t b = 0; b < bins; b++)
            sum += got[b];
        assert_true(sum <= n);
        free(got);
        clReleaseMemObject(a), clReleaseMemObject(e), clReleaseMemObject(c);
    }
}

/* Each call must fail with status and leave counts (poisoned) as it was. */
static void expect_fail(clscan_status got, clscan_status want, const char *message, cl_mem counts, size_t bins)
{
    assert_int_equal(got, want);
    if (message && !strstr(clscan_last_error(ctx), message))
        fail_msg("message \"%s\" lacks \"%s\"", clscan_last_error(ctx), message);
    unsigned char buf[64 * 8];
    assert_true(ref_read(ctx, counts, bins * 8, buf));
    assert_true(ref_is_poison(buf, bins * 8));
}

static void test_histogram_bad_arguments(void **state)
{
    (void)state;
    int32_t in[100], edges[9] = {0, 10, 20, 30, 40, 50, 60, 70, 80};
    for (int i = 0; i < 100; i++)
        in[i] = i;
    cl_mem a = ref_buffer(ctx, sizeof in, in), e = ref_buffer(ctx, sizeof edges, edges);
    cl_mem c = ref_buffer(ctx, 8 * 8, NULL), c8 = ref_buffer(ctx, 16 * 8, NULL);
    cl_int err = CL_SUCCESS;
    cl_mem ro = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_ONLY, 64, NULL, &err);
    cl_mem wo = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_WRITE_ONLY, sizeof in, NULL, &err);
    const cl_buffer_region region = {0, 64};   /* counts inside in: an overlap */
    cl_mem sub = clCreateSubBuffer(a, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    assert_int_equal(err, CL_SUCCESS);
    const int32_t lo = 0, hi = 80;
    const float fl = 0, fnan = NAN, finf = INFINITY;
    clscan_type pair = CLSCAN_INT32;
    assert_int_equal(clscan_register_type(ctx, "test_hist_pair", "typedef struct { int a, b; } test_hist_pair;", 8, &pair),
                     CLSCAN_SUCCESS);

    assert_int_equal(clscan_histogram_even(NULL, a, 100, CLSCAN_INT32, &lo, &hi, 8, c), CLSCAN_INVALID_ARGUMENT);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &lo, &hi, 0, c), CLSCAN_INVALID_ARGUMENT, "bins == 0", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &hi, &lo, 8, c), CLSCAN_INVALID_ARGUMENT, "below", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &lo, &lo, 8, c), CLSCAN_INVALID_ARGUMENT, "below", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_FLOAT, &fnan, &fl, 8, c), CLSCAN_INVALID_ARGUMENT, "NaN", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_FLOAT, &fl, &finf, 8, c), CLSCAN_INVALID_ARGUMENT, "finite", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, NULL, &hi, 8, c), CLSCAN_INVALID_ARGUMENT, "lower", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &lo, NULL, 8, c), CLSCAN_INVALID_ARGUMENT, "upper", c, 8);
    expect_fail(clscan_histogram_even(ctx, NULL, 100, CLSCAN_INT32, &lo, &hi, 8, c), CLSCAN_INVALID_ARGUMENT, "in", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 101, CLSCAN_INT32, &lo, &hi, 8, c), CLSCAN_INVALID_ARGUMENT, "in holds", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &lo, &hi, 9, c), CLSCAN_INVALID_ARGUMENT, "counts", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &lo, &hi, 8, ro), CLSCAN_INVALID_ARGUMENT, "READ_ONLY", c, 8);
    expect_fail(clscan_histogram_even(ctx, wo, 100, CLSCAN_INT32, &lo, &hi, 8, c), CLSCAN_INVALID_ARGUMENT, "WRITE_ONLY", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &lo, &hi, 8, sub), CLSCAN_INVALID_ARGUMENT, "overlap", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 100, (clscan_type)42, &lo, &hi, 8, c), CLSCAN_INVALID_ARGUMENT, "type", c, 8);
    expect_fail(clscan_histogram_even(ctx, a, 50, pair, &lo, &hi, 8, c), CLSCAN_UNSUPPORTED, "registered", c, 8);
    expect_fail(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, e, 0, c), CLSCAN_INVALID_ARGUMENT, "bins == 0", c, 8);
    expect_fail(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, e, 9, c), CLSCAN_INVALID_ARGUMENT, "counts", c, 8);
    expect_fail(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, NULL, 8, c), CLSCAN_INVALID_ARGUMENT, "edges", c, 8);
    expect_fail(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, e, 9, c8), CLSCAN_INVALID_ARGUMENT, "edges holds", c8, 16);
    expect_fail(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, wo, 8, c), CLSCAN_INVALID_ARGUMENT, "WRITE_ONLY", c, 8);
    expect_fail(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, a, 8, sub), CLSCAN_INVALID_ARGUMENT, "overlap", c, 8);
    expect_fail(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, e, 8, NULL), CLSCAN_INVALID_ARGUMENT, "counts", c, 8);
    expect_fail(clscan_histogram_range(ctx, a, 50, pair, e, 8, c), CLSCAN_UNSUPPORTED, "registered", c, 8);

    /* The context still works: 100 values over 8 bins of 10, and n == 0 writing zeros. */
    uint64_t got[8];
    assert_int_equal(clscan_histogram_even(ctx, a, 100, CLSCAN_INT32, &lo, &hi, 8, c), CLSCAN_SUCCESS);
    assert_true(ref_read(ctx, c, sizeof got, got));
    for (int b = 0; b < 8; b++)
        assert_int_equal(got[b], 10);
    assert_int_equal(clscan_histogram_range(ctx, a, 100, CLSCAN_INT32, e, 8, c), CLSCAN_SUCCESS);
    assert_true(ref_read(ctx, c, sizeof got, got));
    for (int b = 0; b < 8; b++)
        assert_int_equal(got[b], 10);
    assert_int_equal(clscan_histogram_even(ctx, a, 0, CLSCAN_INT32, &lo, &hi, 8, c), CLSCAN_SUCCESS);
    assert_true(ref_read(ctx, c, sizeof got, got));
    for (int b = 0; b < 8; b++)
        assert_int_equal(got[b], 0);
    clReleaseMemObject(sub), clReleaseMemObject(a), clReleaseMemObject(e), clReleaseMemObject(c);
    clReleaseMemObject(ro), clReleaseMemObject(wo), clReleaseMemObject(c8);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_histogram_bad_arguments), cmocka_unit_test(test_histogram_unordered_edges),
        cmocka_unit_test(test_histogram_INT32),        cmocka_unit_test(test_histogram_UINT32),
        cmocka_unit_test(test_histogram_INT64),        cmocka_unit_test(test_histogram_UINT64),
        cmocka_unit_test(test_histogram_FLOAT),        cmocka_unit_test(test_histogram_DOUBLE),
        cmocka_unit_test(test_histogram_INT8),         cmocka_unit_test(test_histogram_UINT8),
        cmocka_unit_test(test_histogram_INT16),        cmocka_unit_test(test_histogram_UINT16),
        cmocka_unit_test(test_histogram_other_items_mode),
        cmocka_unit_test(test_histogram_merged),        cmocka_unit_test(test_histogram_merged_back_to_back),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
