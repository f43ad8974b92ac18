/* clscan_sort and clscan_sort_by_key against a stable CPU sort (qsort with the index as tie-break) whose
 * order is written here from the contract, not from the kernels' bit transform: integers by value,
 * floats -inf < ... < -0.0 < +0.0 < ... < +inf < NaN, NaNs among themselves by their bits as unsigned.
 * Keys and values are compared bitwise, so random values check stability. Patterns: random, few
 * distinct keys, all equal (no pass runs), sorted, reversed, keys differing in one or three digits
 * only (skipped passes; one pass, copied home; three, A to B to C to A; two for 64-bit keys), and
 * specials (+-0, +-inf, NaNs of both signs, denormals, extremes); sizes around every tile boundary;
 * both paths (multi-bit LSD, 1-bit split) and other digit widths; bad arguments. $CLSCAN_TEST_SEED
 * replays. The quick tier (tier.h) sorts by key at fewer pairs of types and takes fewer digit widths. */
#include "prims/prims.h"
#include "ref.h"
#include "tier.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

REF_FIXTURE("test_sort")

/* ---- the reference order ---------------------------------------------------------------------- */
static uint64_t key_bits(const unsigned char *keys, size_t i, size_t width)
{
    uint64_t v = 0;
    memcpy(&v, keys + i * width, width);   /* little-endian host: the low bytes */
    return v;
}

/* -1, 0, 1 as a sorts before, with or after b in the contract's order. */
static int key_order(clscan_type type, const unsigned char *a, const unsigned char *b)
{
    switch (type) {
    case CLSCAN_INT8: { int8_t x, y; memcpy(&x, a, 1), memcpy(&y, b, 1); return (x > y) - (x < y); }
    case CLSCAN_UINT8: { uint8_t x, y; memcpy(&x, a, 1), memcpy(&y, b, 1); return (x > y) - (x < y); }
    case CLSCAN_INT16: { int16_t x, y; memcpy(&x, a, 2), memcpy(&y, b, 2); return (x > y) - (x < y); }
    case CLSCAN_UINT16: { uint16_t x, y; memcpy(&x, a, 2), memcpy(&y, b, 2); return (x > y) - (x < y); }
    case CLSCAN_INT32: { int32_t x, y; memcpy(&x, a, 4), memcpy(&y, b, 4); return (x > y) - (x < y); }
    case CLSCAN_UINT32: { uint32_t x, y; memcpy(&x, a, 4), memcpy(&y, b, 4); return (x > y) - (x < y); }
    case CLSCAN_INT64: { int64_t x, y; memcpy(&x, a, 8), memcpy(&y, b, 8); return (x > y) - (x < y); }
    case CLSCAN_UINT64: { uint64_t x, y; memcpy(&x, a, 8), memcpy(&y, b, 8); return (x > y) - (x < y); }
    default: break;
    }
    double x, y;
    uint64_t bx = 0, by = 0;
    if (type == CLSCAN_FLOAT) {
        float fx, fy;
        memcpy(&fx, a, 4), memcpy(&fy, b, 4), memcpy(&bx, a, 4), memcpy(&by, b, 4);
        x = fx, y = fy;
    } else
        memcpy(&x, a, 8), memcpy(&y, b, 8), memcpy(&bx, a, 8), memcpy(&by, b, 8);
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y) ? (bx > by) - (bx < by) : isnan(x) ? 1 : -1;
    if (x == y)   /* equal numbers: only +-0 differ, and -0.0 goes first */
        return (signbit(y) != 0) - (signbit(x) != 0);
    return x < y ? -1 : 1;
}

static const unsigned char *cmp_keys;
static clscan_type cmp_type;

static int index_order(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb, w = clscan_type_size(cmp_type);
    int c = key_order(cmp_type, cmp_keys + a * w, cmp_keys + b * w);
    return c ? c : (a > b) - (a < b);   /* the original position breaks ties: stable */
}

/* perm[k]: the input position of the k-th smallest key. */
static void ref_sort_order(const unsigned char *keys, size_t n, clscan_type type, size_t *perm)
{
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    cmp_keys = keys, cmp_type = type;
    qsort(perm, n, sizeof *perm, index_order);
}

/* ---- key patterns ------------------------------------------------------------------------------ */
/* PATTERNS: those every sort test runs; the options tests add two values and 0.2-entropy keys (each
 * bit set with probability 1/32: the AND of five random words). */
enum pattern { RANDOM, FEW, EQUAL, SORTED, REVERSED, ONE_DIGIT, THREE_DIGITS, SPECIALS, PATTERNS, TWO = PATTERNS, SPARSE };
static const char *const pattern_names[] = {"random", "few distinct", "all equal", "sorted", "reversed",
                                            "one digit varies", "three digits vary", "specials", "two values",
                                            "0.2-entropy"};

static uint64_t special_key(clscan_type type, uint64_t r)
{
    static const uint32_t f32[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                                   0x7f800001u, 0xffbfffffu, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,
                                   0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu};
    static const uint64_t f64[] = {0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                   0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
                                   0xfff7ffffffffffffull, 1, 0x8000000000000001ull, 0x000fffffffffffffull,
                                   0x800fffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                                   0x7fefffffffffffffull, 0xffefffffffffffffull};
    static const uint64_t ints[] = {0, 1, 0xffffffffffffffffull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                    0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 2, 0x7f, 0x80, 0x7fff, 0x8000};
    if (r % 4 == 0)
        return r >> 8;                  /* and some ordinary keys among them */
    if (type == CLSCAN_FLOAT)
        return f32[(r >> 2) % 16];
    if (type == CLSCAN_DOUBLE)
        return f64[(r >> 2) % 16];
    return ints[(r >> 2) % (sizeof ints / sizeof ints[0])];
}

static void make_keys(unsigned char *keys, size_t n, clscan_type type, enum pattern p)
{
    size_t w = clscan_type_size(type);
    uint64_t base = ref_next(&rng), few[5];
    for (int i = 0; i < 5; i++)
        few[i] = ref_next(&rng);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = ref_next(&rng), k = r;
        switch (p) {
        case FEW: k = few[r % 5]; break;
        case TWO: k = few[r & 1]; break;
        case SPARSE: k = r & ref_next(&rng) & ref_next(&rng) & ref_next(&rng) & ref_next(&rng); break;
        case EQUAL: k = base; break;
        case ONE_DIGIT: k = base ^ ((r & 0xff) << (w > 1 ? 8 : 0)); break;
        case THREE_DIGITS: k = base ^ (r & (w == 4 ? 0xff00ff0full : 0x0f0000ff00000000ull)); break;
        case SPECIALS: k = special_key(type, r); break;
        default: break;
        }
        memcpy(keys + i * w, &k, w);
    }
    if (p == SORTED || p == REVERSED) {
        size_t *perm = malloc((n ? n : 1) * sizeof *perm);
        unsigned char *copy = malloc(n * w + 1);
        memcpy(copy, keys, n * w);
        ref_sort_order(copy, n, type, perm);
        for (size_t k = 0; k < n; k++)
            memcpy(keys + (p == SORTED ? k : n - 1 - k) * w, copy + perm[k] * w, w);
        free(perm);
        free(copy);
    }
}

/* ---- one sort ---------------------------------------------------------------------------------- */
/* Sorts n keys (and values when by_key) of the pattern; 1 when keys and values match the reference
 * bit for bit. */
static int sort_one(size_t n, clscan_type kt, int by_key, clscan_type vt, enum pattern p)
{
    size_t kw = clscan_type_size(kt), vw = clscan_type_size(vt);
    unsigned char *keys = malloc(n * kw + 8), *vals = malloc(n * vw + 8);
    unsigned char *got_k = malloc(n * kw + 8), *got_v = malloc(n * vw + 8);
    size_t *perm = malloc((n + 1) * sizeof *perm);
    make_keys(keys, n, kt, p);
    for (size_t i = 0; i < n * vw; i++)
        vals[i] = (unsigned char)ref_next(&rng);
    cl_mem k = ref_buffer(ctx, n ? n * kw : 8, keys), v = ref_buffer(ctx, n ? n * vw : 8, vals);
    clscan_status st = by_key ? clscan_sort_by_key(ctx, k, v, n, kt, vt) : clscan_sort(ctx, k, n, kt);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s keys n=%zu %s: %s: %s", ref_type_name(kt), n, pattern_names[p], clscan_status_string(st),
                 clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, k, n * kw, got_k), 1);
    assert_int_equal(ref_read(ctx, v, n * vw, got_v), 1);
    ref_sort_order(keys, n, kt, perm);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        ok = memcmp(got_k + i * kw, keys + perm[i] * kw, kw) == 0;
        if (ok && by_key)
            ok = memcmp(got_v + i * vw, vals + perm[i] * vw, vw) == 0;
        else if (ok)
            ok = memcmp(got_v + i * vw, vals + i * vw, vw) == 0;   /* clscan_sort leaves it alone */
        if (!ok)
            print_error("%s keys%s%s n=%zu %s: position %zu: key %#llx want %#llx\n", ref_type_name(kt),
                        by_key ? ", values " : "", by_key ? ref_type_name(vt) : "", n, pattern_names[p], i,
                        (unsigned long long)key_bits(got_k, i, kw), (unsigned long long)key_bits(keys, perm[i], kw));
    }
    clReleaseMemObject(k);
    clReleaseMemObject(v);
    free(keys), free(vals), free(got_k), free(got_v), free(perm);
    return ok;
}

/* Sizes around the tile of this key width (as the policy gives it), plus a large and a random one. */
static size_t sort_sizes(clscan_type kt, size_t *sizes, int large)
{
    clscan__sort_tuning t = clscan__table_sort(&ctx->info, clscan_type_size(kt));
    size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items, count = 0;
    const size_t list[] = {0, 1, 2, 3, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1, 10007,
                           1 + ref_next(&rng) % 100000, ref_quick() ? 20011 : (1u << 20) + 123};
    for (size_t i = 0; i < sizeof list / sizeof list[0] - (large ? 0 : 1); i++)
        sizes[count++] = list[i];
    return count;
}

static int sort_all(clscan_type kt, int by_key, clscan_type vt, int large)
{
    size_t sizes[16], count = sort_sizes(kt, sizes, large);
    int failures = 0;
    for (size_t i = 0; i < count; i++)
        for (int p = 0; p < PATTERNS; p++)
            failures += !sort_one(sizes[i], kt, by_key, vt, (enum pattern)p);
    return failures;
}

static int supported(clscan_type t)
{
    return clscan_type_size(t) != 8 || ctx->info.int64;
}

#define TYPE_TEST(T)                                                                                    \
    static void test_sort_##T(void **state)                                                             \
    {                                                                                                   \
        (void)state;                                                                                    \
        if (!supported(CLSCAN_##T))                                                                     \
            skip();                                                                                     \
        assert_int_equal(sort_all(CLSCAN_##T, 0, CLSCAN_UINT32, 1), 0);                                 \
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

/* The quick tier (tier.h) sorts by key at each pair of key and value widths once, and takes one digit
 * width of each of the other paths. */
static int by_key_in_tier(clscan_type kt, clscan_type vt)
{
    const int narrow_k = clscan_type_size(kt) < 4, narrow_v = clscan_type_size(vt) < 4;
    /* The full tier: every pair of the 32- and 64-bit types; an 8- or 16-bit key with uint32 values, a
     * uint32 key with each 8- or 16-bit value, and the two narrow pairs of the quick tier. */
    if (!ref_quick())
        return (!narrow_k && !narrow_v) || (narrow_k && vt == CLSCAN_UINT32) || (narrow_v && kt == CLSCAN_UINT32) ||
               (kt == CLSCAN_INT8 && vt == CLSCAN_UINT16) || (kt == CLSCAN_UINT16 && vt == CLSCAN_INT8);
    return (kt == CLSCAN_UINT32 && vt == CLSCAN_UINT32) || (kt == CLSCAN_FLOAT && vt == CLSCAN_INT64) ||
           (kt == CLSCAN_INT64 && vt == CLSCAN_FLOAT) || (kt == CLSCAN_DOUBLE && vt == CLSCAN_UINT64) ||
           (kt == CLSCAN_INT8 && vt == CLSCAN_UINT16) || (kt == CLSCAN_UINT16 && vt == CLSCAN_INT8);
}

/* Every key type with every value type (uint32 pairs at every size, the rest without the large one). */
static void test_sort_by_key(void **state)
{
    (void)state;
    int failures = 0;
    for (int kt = CLSCAN_INT32; kt <= CLSCAN_UINT16; kt++)
        for (int vt = CLSCAN_INT32; vt <= CLSCAN_UINT16; vt++)
            if (supported((clscan_type)kt) && supported((clscan_type)vt) &&
                by_key_in_tier((clscan_type)kt, (clscan_type)vt))
                failures += sort_all((clscan_type)kt, 1, (clscan_type)vt, kt == CLSCAN_UINT32 && vt == CLSCAN_UINT32);
    assert_int_equal(failures, 0);
}

/* The scatter shape the policy does not pick here: a work-group ranking its tile in local memory (GPUs)
 * where the policy runs one work-item a tile (CPUs), and the other way round; every digit width. */
static int other_shape(void)
{
    /* CPUs: a small group; GPUs: a group of one. Both: a group of 256 with 4 keys a work-item (on CPUs
     * the portable ranking as GPUs without ballots run it, on NVIDIA the ballots with short rows). */
    const int cpu_shape = clscan__table_sort(&ctx->info, 4).wg_size == 1;
    const unsigned shapes[][2] = {{cpu_shape ? 64 : 1, cpu_shape ? 4 : 512}, {256, 4}}, bits[] = {8, 2, 4};
    int failures = 0;
    for (size_t sh = 0; sh < 2; sh++) {
        const unsigned wg = shapes[sh][0], items = shapes[sh][1];
        const size_t tile = (size_t)wg * items, sizes[] = {2, wg + 1, tile - 1, tile + 1, 3 * tile + 5, 10007};
        test_set_tile(ctx, wg, items);
        for (size_t b = 0; b < (ref_quick() ? 1 : sizeof bits / sizeof bits[0]); b++) {   /* quick: 8 bits alone */
            clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_RADIX_BITS, bits[b]);
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                for (int p = 0; p < PATTERNS; p++) {
                    failures += !sort_one(sizes[i], CLSCAN_FLOAT, 1, CLSCAN_UINT32, (enum pattern)p);
                    if (supported(CLSCAN_INT64))
                        failures += !sort_one(sizes[i], CLSCAN_INT64, 1, CLSCAN_DOUBLE, (enum pattern)p);
                }
        }
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_RADIX_BITS, 0);
    test_set_tile(ctx, 0, 0);
    return failures;
}

/* The 1-bit split reference path, and other digit widths of the multi-bit path. */
static void test_sort_other_paths(void **state)
{
    (void)state;
    const unsigned bits[] = {1, 2, 4};
    int failures = 0;
    for (size_t b = 0; b < (ref_quick() ? 1 : sizeof bits / sizeof bits[0]); b++) {   /* quick: the split alone */
        clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_RADIX_BITS, bits[b]);
        const size_t sizes[] = {1, 2, 1000, 10007};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int p = 0; p < PATTERNS; p++) {
                failures += !sort_one(sizes[i], CLSCAN_FLOAT, 1, CLSCAN_UINT32, (enum pattern)p);
                failures += !sort_one(sizes[i], CLSCAN_INT32, 0, CLSCAN_UINT32, (enum pattern)p);
                if (supported(CLSCAN_DOUBLE) && bits[b] != 2)
                    failures += !sort_one(sizes[i], CLSCAN_DOUBLE, 1, CLSCAN_INT64, (enum pattern)p);
            }
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_RADIX_BITS, 0);
    failures += other_shape();
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);   /* the group scan without sub-group shuffles */
    failures += sort_all(CLSCAN_UINT32, 1, CLSCAN_FLOAT, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
    assert_int_equal(failures, 0);
}

/* Whether sizes[0 .. n) holds s. */
static int has_size(const size_t *sizes, size_t n, size_t s)
{
    for (size_t i = 0; i < n; i++)
        if (sizes[i] == s)
            return 1;
    return 0;
}

/* Whatever the table picks: three launches a pass; one-sweep passes, a group a tile, with every
 * look-back taking its fallback, and with a group a compute unit taking tile after tile. In groups of
 * 256 with 4 keys a work-item where the table runs one work-item a tile (CPUs: the portable ranking),
 * else in the table's shape (NVIDIA: the ballots). Sizes around the tile (and the table's one-sweep
 * tiles) and of many tiles, keys of 1 to 8 bytes, by key and alone (the quick tier: float keys by key,
 * no forced fallback), every pattern. */
static int sweep_modes(void)
{
    const clscan__sort_tuning t = clscan__table_sort(&ctx->info, 4);
    const int cpu_shape = t.wg_size == 1;
    const size_t tile = cpu_shape ? 1024 : (size_t)t.wg_size * t.items;
    /* Forced one sweep takes the table's own tiles of keys alone and of pairs at every size. */
    const size_t keys = cpu_shape || !t.sweep_items ? tile : (size_t)t.wg_size * t.sweep_items;
    const size_t pairs = cpu_shape || !t.pairs_items ? tile : (size_t)t.wg_size * t.pairs_items;
    const size_t all[] = {2, 257, tile - 1, tile, tile + 1, 3 * tile + 5, 10007, ref_quick() ? 20011 : 70001,
                          keys + 1, pairs - 1, pairs + 1};
    size_t sizes[sizeof all / sizeof all[0]], count = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)   /* each once: the tiles may be one */
        if (!has_size(sizes, count, all[i]))
            sizes[count++] = all[i];
    const long modes[][3] = {{-1, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 0, 1}};   /* onesweep, force_fallback, sp_groups */
    int failures = 0;
    if (cpu_shape)
        test_set_tile(ctx, 256, 4);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        if (ref_quick() && modes[m][1])   /* the forced fallback, a program of its own: the full tier */
            continue;
        clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_ONESWEEP, modes[m][0]);
        clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, modes[m][1]);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, modes[m][2]);
        for (size_t i = 0; i < count; i++)
            for (int p = 0; p < PATTERNS; p++) {
                /* A type other_shape sorts (its program built already), and more in the full tier: on
                 * PoCL each forced-fallback program costs seconds of compiling. */
                failures += !sort_one(sizes[i], CLSCAN_FLOAT, 1, CLSCAN_UINT32, (enum pattern)p);
                if (!ref_quick()) {
                    if (supported(CLSCAN_INT64))
                        failures += !sort_one(sizes[i], CLSCAN_INT64, 1, CLSCAN_DOUBLE, (enum pattern)p);
                    failures += !sort_one(sizes[i], CLSCAN_UINT32, 0, CLSCAN_UINT32, (enum pattern)p);
                    failures += !sort_one(sizes[i], CLSCAN_INT8, 1, CLSCAN_UINT16, (enum pattern)p);
                }
            }
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_ONESWEEP, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, 0);
    test_set_tile(ctx, 0, 0);
    return failures;
}

/* GPU shapes: one sweep in groups of 256 with 32 keys a work-item (keys alone: 8192 a tile; pairs as
 * many as fit local memory), around the tile and of many tiles. Tables take tiles that large only
 * since the group scan's scratch shares the tile's room; this runs them wherever a tile runs in a group. */
static int large_tiles(void)
{
    if (clscan__table_sort(&ctx->info, 4).wg_size == 1)
        return 0;
    const size_t sizes[] = {8191, 8193, 3 * 8192 + 5, ref_quick() ? 20011 : 70001};
    int failures = 0;
    test_set_tile(ctx, 256, 32);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_ONESWEEP, 1);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int p = 0; p < (ref_quick() ? 1 : PATTERNS); p++) {
            failures += !sort_one(sizes[i], CLSCAN_UINT32, 0, CLSCAN_UINT32, (enum pattern)p);
            failures += !sort_one(sizes[i], CLSCAN_FLOAT, 1, CLSCAN_UINT32, (enum pattern)p);
        }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_ONESWEEP, 0);
    test_set_tile(ctx, 0, 0);
    return failures;
}

static void test_sort_sweep(void **state)
{
    (void)state;
    assert_int_equal(sweep_modes() + large_tiles(), 0);
}

static int uint_order(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Random uint32 keys alone sorted descending by clscan_sort_ex, against the host's ascending order
 * read backwards. */
static int descending_one(size_t n)
{
    uint32_t *keys = malloc(n * 4), *got = malloc(n * 4);
    make_keys((unsigned char *)keys, n, CLSCAN_UINT32, RANDOM);
    cl_mem k = ref_buffer(ctx, n * 4, keys);
    const clscan_sort_options o = {1, 0, 0};
    clscan_status st = clscan_sort_ex(ctx, k, NULL, n, CLSCAN_UINT32, CLSCAN_UINT32, &o);
    if (st != CLSCAN_SUCCESS)
        fail_msg("uint32 keys descending n=%zu: %s: %s", n, clscan_status_string(st), clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, k, n * 4, got), 1);
    qsort(keys, n, 4, uint_order);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        if (!(ok = got[i] == keys[n - 1 - i]))
            print_error("uint32 keys descending n=%zu: position %zu: key %#x want %#x\n", n, i, got[i],
                        keys[n - 1 - i]);
    clReleaseMemObject(k);
    free(keys), free(got);
    return ok;
}

/* Where the table sorts keys alone in one sweep from a size on (NVIDIA), or keys alone or pairs in tiles
 * of their own from a size on: just below that size and above it; 4-byte keys ascending and descending. The
 * full tier: each sort (of some 2^22 to 2^24 keys on NVIDIA) is checked against a host sort. */
static void test_sort_sweep_sizes(void **state)
{
    (void)state;
    const clscan__sort_tuning t = clscan__table_sort(&ctx->info, 4), t8 = clscan__table_sort(&ctx->info, 8);
    const int four = t.sweep_from && (t.onesweep & CLSCAN__SWEEP_KEYS);
    const int eight = t8.tile_from && t8.sweep_items && (t8.onesweep & CLSCAN__SWEEP_KEYS);
    const int pairs = t.pairs_from && t.pairs_items && (t.onesweep & CLSCAN__SWEEP_PAIRS);
    if (ref_quick() || (!four && !eight && !pairs))
        skip();
    int failures = 0;
    if (four) {
        const size_t tile = (size_t)t.wg_size * (t.sweep_items ? t.sweep_items : t.items), from = t.sweep_from;
        failures += !sort_one(from - 1, CLSCAN_UINT32, 0, CLSCAN_UINT32, RANDOM);
        failures += !sort_one(from + tile + 1, CLSCAN_UINT32, 0, CLSCAN_UINT32, RANDOM);
        failures += !sort_one(from + 3, CLSCAN_FLOAT, 0, CLSCAN_UINT32, SPECIALS);
        failures += !descending_one(from + 5);
    }
    if (eight) {
        const size_t tile = (size_t)t8.wg_size * t8.sweep_items, from = t8.tile_from;
        failures += !sort_one(from - 1, CLSCAN_UINT64, 0, CLSCAN_UINT32, RANDOM);
        failures += !sort_one(from + tile + 1, CLSCAN_INT64, 0, CLSCAN_UINT32, RANDOM);
        failures += !sort_one(from + 7, CLSCAN_DOUBLE, 0, CLSCAN_UINT32, SPECIALS);
    }
    if (pairs) {
        const size_t tile = (size_t)t.wg_size * t.pairs_items, from = t.pairs_from;
        failures += !sort_one(from - 1, CLSCAN_UINT32, 1, CLSCAN_UINT32, RANDOM);
        failures += !sort_one(from + tile + 1, CLSCAN_UINT32, 1, CLSCAN_UINT32, RANDOM);
        failures += !sort_one(from + 3, CLSCAN_FLOAT, 1, CLSCAN_FLOAT, SPECIALS);
    }
    assert_int_equal(failures, 0);
}

/* Bad arguments: the right status and message, keys and values untouched, the context still works. */
static void test_sort_bad_arguments(void **state)
{
    (void)state;
    enum { N = 1000 };
    uint32_t keys[N], vals[N], got[N];
    for (size_t i = 0; i < N; i++)
        keys[i] = (uint32_t)(N - i), vals[i] = (uint32_t)i;
    cl_mem k = ref_buffer(ctx, sizeof keys, keys), v = ref_buffer(ctx, sizeof vals, vals);
    cl_mem short_k = ref_buffer(ctx, sizeof keys - 4, keys);
    cl_mem ro = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof keys,
                               keys, NULL);
    assert_int_equal(clscan_sort(NULL, k, N, CLSCAN_UINT32), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort(ctx, NULL, N, CLSCAN_UINT32), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "keys"));
    assert_int_equal(clscan_sort(ctx, short_k, N, CLSCAN_UINT32), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort(ctx, k, N / 2 + 1, CLSCAN_UINT64), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort(ctx, k, N, (clscan_type)10), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort(ctx, ro, N, CLSCAN_UINT32), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "READ_ONLY"));
    assert_int_equal(clscan_sort_by_key(ctx, k, NULL, N, CLSCAN_UINT32, CLSCAN_UINT32), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "values"));
    assert_int_equal(clscan_sort_by_key(ctx, k, short_k, N, CLSCAN_UINT32, CLSCAN_UINT32), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort_by_key(ctx, k, v, N, CLSCAN_UINT32, (clscan_type)-1), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort_by_key(ctx, k, k, N, CLSCAN_UINT32, CLSCAN_UINT32), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(ref_read(ctx, k, sizeof got, got), 1);
    assert_memory_equal(got, keys, sizeof keys);
    assert_int_equal(ref_read(ctx, v, sizeof got, got), 1);
    assert_memory_equal(got, vals, sizeof vals);
    /* n == 0 touches no buffer (a bad type is still refused); then a real call works. */
    assert_int_equal(clscan_sort(ctx, NULL, 0, CLSCAN_FLOAT), CLSCAN_SUCCESS);
    assert_int_equal(clscan_sort_by_key(ctx, NULL, NULL, 0, CLSCAN_FLOAT, CLSCAN_DOUBLE), CLSCAN_SUCCESS);
    assert_int_equal(clscan_sort_by_key(ctx, NULL, NULL, 0, CLSCAN_FLOAT, (clscan_type)11), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort_by_key(ctx, k, v, N, CLSCAN_UINT32, CLSCAN_UINT32), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, k, sizeof got, got), 1);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(got[i], i + 1);
    assert_int_equal(ref_read(ctx, v, sizeof got, got), 1);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(got[i], N - 1 - i);
    clReleaseMemObject(k), clReleaseMemObject(v), clReleaseMemObject(short_k), clReleaseMemObject(ro);
}

/* ---- options: descending, ranges of bits, argsort ----------------------------------------------- */
/* The key's unsigned image as the contract names it for ranges: unsigned as is, signed with the sign
 * bit flipped, floats by the usual flip (negatives complemented, the sign set on the others). */
static uint64_t contract_image(clscan_type type, const unsigned char *key)
{
    const size_t w = clscan_type_size(type);
    const uint64_t sign = (uint64_t)1 << (8 * w - 1), all = w == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * w)) - 1;
    uint64_t b = 0;
    memcpy(&b, key, w);
    if (type == CLSCAN_INT8 || type == CLSCAN_INT16 || type == CLSCAN_INT32 || type == CLSCAN_INT64)
        return b ^ sign;
    if (type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE)
        return (b & sign) ? ~b & all : b | sign;
    return b;
}

static clscan_sort_options cmp_options;

/* The order under cmp_options: (0, 0) the contract's order of every key, else the range's field of the
 * contract image; descending reverses either; the position breaks ties (stable). */
static int option_order(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb, w = clscan_type_size(cmp_type);
    const clscan_sort_options *o = &cmp_options;
    int c;
    if (o->begin_bit == 0 && o->end_bit == 0)
        c = key_order(cmp_type, cmp_keys + a * w, cmp_keys + b * w);
    else {
        const unsigned width = o->end_bit - o->begin_bit;
        const uint64_t mask = width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
        const uint64_t x = contract_image(cmp_type, cmp_keys + a * w) >> o->begin_bit & mask;
        const uint64_t y = contract_image(cmp_type, cmp_keys + b * w) >> o->begin_bit & mask;
        c = (x > y) - (x < y);
    }
    c = o->descending ? -c : c;
    return c ? c : (a > b) - (a < b);
}

/* One clscan_sort_ex (values: each key's position, as uint32) or clscan_sort_indices of n keys of the
 * pattern under o; 1 when the keys (sort_ex: moved, sort_indices: untouched) and the values or indices
 * match the reference. */
static int options_one(size_t n, clscan_type kt, enum pattern p, const clscan_sort_options *o, int indices)
{
    const size_t kw = clscan_type_size(kt);
    unsigned char *keys = malloc(n * kw + 8), *got_k = malloc(n * kw + 8);
    uint32_t *pos = malloc(n * 4 + 8), *got_v = malloc(n * 4 + 8);
    size_t *perm = malloc((n + 1) * sizeof *perm);
    make_keys(keys, n, kt, p);
    memset(pos, 0, n * 4 + 8);
    for (size_t i = 0; i < n; i++)
        pos[i] = (uint32_t)i, perm[i] = i;
    /* sort_indices' indices poisoned, sort_ex's values each key's position */
    cl_mem k = ref_buffer(ctx, n ? n * kw : 8, keys), v = ref_buffer(ctx, n ? n * 4 : 8, indices ? NULL : pos);
    clscan_status st = indices ? clscan_sort_indices(ctx, k, v, n, kt, o) : clscan_sort_ex(ctx, k, v, n, kt, CLSCAN_UINT32, o);
    char what[160];
    snprintf(what, sizeof what, "%s %s n=%zu %s %s bits [%u, %u)", indices ? "sort_indices" : "sort_ex",
             ref_type_name(kt), n, pattern_names[p], o->descending ? "descending" : "ascending", o->begin_bit,
             o->end_bit);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s: %s: %s", what, clscan_status_string(st), clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, k, n * kw, got_k), 1);
    assert_int_equal(ref_read(ctx, v, n * 4, got_v), 1);
    cmp_keys = keys, cmp_type = kt, cmp_options = *o;
    qsort(perm, n, sizeof *perm, option_order);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        ok = got_v[i] == perm[i] && memcmp(got_k + i * kw, keys + (indices ? i : perm[i]) * kw, kw) == 0;
        if (!ok)
            print_error("%s: position %zu: value %u want %zu\n", what, i, got_v[i], perm[i]);
    }
    clReleaseMemObject(k), clReleaseMemObject(v);
    free(keys), free(got_k), free(pos), free(got_v), free(perm);
    return ok;
}

/* Ranges of every shape for a key of `bits` bits: a digit, one across digits, from a digit to the top,
 * the whole key as a range, 3 bits (digits narrower than the table's), one bit (the split), empty. */
static size_t option_ranges(unsigned bits, clscan_sort_options *out)
{
    const unsigned r[][2] = {{0, 0}, {0, 8}, {4, 12}, {8, bits}, {0, bits}, {5, 8}, {bits - 1, bits}, {6, 6}};
    size_t count = 0;
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        if (r[i][1] <= bits && r[i][0] <= r[i][1])
            out[count++] = (clscan_sort_options){0, r[i][0], r[i][1]};
    return count;
}

static int options_type(clscan_type kt, int indices)
{
    const unsigned bits = 8 * (unsigned)clscan_type_size(kt);
    clscan__sort_tuning t = clscan__table_sort(&ctx->info, clscan_type_size(kt));
    const size_t tile = (size_t)t.wg_size * t.items, sizes[] = {0, 1, 2, tile - 1, tile + 1, 10007};
    const enum pattern patterns[] = {RANDOM, FEW, SPECIALS, EQUAL, TWO, SPARSE};
    clscan_sort_options ranges[8];
    const size_t count = option_ranges(bits, ranges);
    int failures = 0;
    for (int desc = 0; desc < 2; desc++)
        for (size_t r = 0; r < count; r++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                for (size_t q = 0; q < (ref_quick() && i < 5 ? 1u : sizeof patterns / sizeof patterns[0]); q++) {
                    clscan_sort_options o = ranges[r];
                    o.descending = desc;
                    failures += !options_one(sizes[i], kt, patterns[q], &o, indices);
                }
    return failures;
}

/* clscan_sort_ex descending and by ranges of bits, against the contract's order; the quick tier at
 * uint32, int32, float and uint8, the full tier at every type. */
static void test_sort_options(void **state)
{
    (void)state;
    const clscan_type quick[] = {CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_FLOAT, CLSCAN_UINT8};
    int failures = 0;
    for (int kt = CLSCAN_INT32; kt <= CLSCAN_UINT16; kt++) {
        int in_tier = !ref_quick();
        for (size_t q = 0; q < sizeof quick / sizeof quick[0]; q++)
            in_tier |= quick[q] == (clscan_type)kt;
        if (in_tier && supported((clscan_type)kt))
            failures += options_type((clscan_type)kt, 0);
    }
    assert_int_equal(failures, 0);
}

/* clscan_sort_indices: the stable order's positions, the keys untouched; the quick tier at uint32, float
 * and int64. */
static void test_sort_indices(void **state)
{
    (void)state;
    int failures = 0;
    for (int kt = CLSCAN_INT32; kt <= CLSCAN_UINT16; kt++) {
        const int in_tier = !ref_quick() || kt == CLSCAN_UINT32 || kt == CLSCAN_FLOAT || kt == CLSCAN_INT64;
        if (in_tier && supported((clscan_type)kt))
            failures += options_type((clscan_type)kt, 1);
    }
    assert_int_equal(failures, 0);
}

/* clscan_sort_ex moving values of width vw (a built-in type or a registered one) with float keys,
 * descending by bits [4, 30) of their image: each value must land where its key does. */
static int options_values(size_t n, clscan_type vt, size_t vw)
{
    const clscan_sort_options o = {1, 4, 30};
    unsigned char *keys = malloc(n * 4 + 8), *vals = malloc(n * vw + 8), *got = malloc(n * vw + 8);
    size_t *perm = malloc((n + 1) * sizeof *perm);
    make_keys(keys, n, CLSCAN_FLOAT, SPECIALS);
    for (size_t i = 0; i < n * vw; i++)
        vals[i] = (unsigned char)ref_next(&rng);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    cl_mem k = ref_buffer(ctx, n * 4 + 8, keys), v = ref_buffer(ctx, n * vw + 8, vals);
    clscan_status st = clscan_sort_ex(ctx, k, v, n, CLSCAN_FLOAT, vt, &o);
    if (st != CLSCAN_SUCCESS)
        fail_msg("sort_ex float keys, %zu-byte values, n=%zu: %s: %s", vw, n, clscan_status_string(st),
                 clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, v, n * vw, got), 1);
    cmp_keys = keys, cmp_type = CLSCAN_FLOAT, cmp_options = o;
    qsort(perm, n, sizeof *perm, option_order);
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++)
        if (!(ok = memcmp(got + i * vw, vals + perm[i] * vw, vw) == 0))
            print_error("sort_ex float keys, %zu-byte values, n=%zu: value %zu misplaced\n", vw, n, i);
    clReleaseMemObject(k), clReleaseMemObject(v);
    free(keys), free(vals), free(got), free(perm);
    return ok;
}

/* Values of every built-in type and of registered structs of 3, 12 and 24 bytes (arrays of uchar, uint
 * and ulong), moved by clscan_sort_ex under options; the quick tier: uint64 and the 12-byte struct. */
static void test_sort_options_values(void **state)
{
    (void)state;
    static const char *const names[] = {"sortv3", "sortv12", "sortv24"};
    static const char *const decls[] = {"typedef struct { uchar b[3]; } sortv3;", "typedef struct { uint w[3]; } sortv12;",
                                        "typedef struct { ulong w[3]; } sortv24;"};
    static const size_t sizes[] = {3, 12, 24};
    clscan__sort_tuning t = clscan__table_sort(&ctx->info, 4);
    const size_t n_list[] = {(size_t)t.wg_size * t.items + 1, 10007};
    int failures = 0;
    for (int vt = CLSCAN_INT32; vt <= CLSCAN_UINT16; vt++)
        for (size_t i = 0; i < 2 && supported((clscan_type)vt) && (!ref_quick() || vt == CLSCAN_UINT64); i++)
            failures += !options_values(n_list[i], (clscan_type)vt, clscan_type_size((clscan_type)vt));
    for (size_t r = ref_quick() ? 1 : 0; r < (ref_quick() ? 2u : 3u) && supported(CLSCAN_UINT64); r++) {
        clscan_type t_user = (clscan_type)0;
        if (clscan_register_type(ctx, names[r], decls[r], sizes[r], &t_user) != CLSCAN_SUCCESS)
            fail_msg("registering %s: %s", names[r], clscan_last_error(ctx));
        for (size_t i = 0; i < 2; i++)
            failures += !options_values(n_list[i], t_user, sizes[r]);
    }
    assert_int_equal(failures, 0);
}

/* Options and argsort refused: ranges outside the key, indices that cannot hold n or overlap the keys,
 * more than 2^32 keys; nothing written, the context working after. */
static void test_sort_options_bad(void **state)
{
    (void)state;
    enum { N = 1000 };
    uint32_t keys[N], poison[N], got[N];
    for (size_t i = 0; i < N; i++)
        keys[i] = (uint32_t)(N - i), poison[i] = 0xdeadbeefu;
    cl_mem k = ref_buffer(ctx, sizeof keys, keys), ix = ref_buffer(ctx, sizeof poison, poison);
    cl_mem short_ix = ref_buffer(ctx, sizeof poison - 4, poison);
    const clscan_sort_options backwards = {0, 9, 8}, past = {0, 0, 33}, past64 = {1, 60, 65};
    assert_int_equal(clscan_sort_ex(ctx, k, NULL, N, CLSCAN_UINT32, CLSCAN_UINT32, &backwards), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "[9, 8)"));
    assert_int_equal(clscan_sort_ex(ctx, k, NULL, N, CLSCAN_UINT32, CLSCAN_UINT32, &past), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort_ex(ctx, k, NULL, N / 2, CLSCAN_UINT64, CLSCAN_UINT32, &past64), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort_indices(ctx, k, ix, N, CLSCAN_UINT32, &past), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort_indices(ctx, k, NULL, N, CLSCAN_UINT32, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "indices"));
    assert_int_equal(clscan_sort_indices(ctx, k, short_ix, N, CLSCAN_UINT32, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_sort_indices(ctx, k, k, N, CLSCAN_UINT32, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_sort_indices(ctx, k, ix, (size_t)1 << 33, CLSCAN_UINT8, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "2^32"));
    assert_int_equal(clscan_sort_indices(NULL, k, ix, N, CLSCAN_UINT32, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(ref_read(ctx, k, sizeof got, got), 1);
    assert_memory_equal(got, keys, sizeof keys);
    assert_int_equal(ref_read(ctx, ix, sizeof got, got), 1);
    assert_memory_equal(got, poison, sizeof poison);
    /* n == 0 writes nothing; then argsort works: keys N, N-1, ..., 1 sort to the positions N-1 .. 0. */
    assert_int_equal(clscan_sort_indices(ctx, NULL, NULL, 0, CLSCAN_UINT32, NULL), CLSCAN_SUCCESS);
    assert_int_equal(clscan_sort_indices(ctx, k, ix, N, CLSCAN_UINT32, NULL), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, ix, sizeof got, got), 1);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(got[i], N - 1 - i);
    clReleaseMemObject(k), clReleaseMemObject(ix), clReleaseMemObject(short_ix);
}

/* argv[1], when given, is a cmocka name pattern: ctest runs the full tier in parts side by side. */
int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_INT32), cmocka_unit_test(test_sort_UINT32),
        cmocka_unit_test(test_sort_INT64), cmocka_unit_test(test_sort_UINT64),
        cmocka_unit_test(test_sort_FLOAT), cmocka_unit_test(test_sort_DOUBLE),
        cmocka_unit_test(test_sort_INT8), cmocka_unit_test(test_sort_UINT8),
        cmocka_unit_test(test_sort_INT16), cmocka_unit_test(test_sort_UINT16),
        cmocka_unit_test(test_sort_by_key), cmocka_unit_test(test_sort_other_paths),
        cmocka_unit_test(test_sort_bad_arguments), cmocka_unit_test(test_sort_options),
        cmocka_unit_test(test_sort_indices), cmocka_unit_test(test_sort_options_values),
        cmocka_unit_test(test_sort_options_bad), cmocka_unit_test(test_sort_sweep),
        cmocka_unit_test(test_sort_sweep_sizes),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests(tests, setup, teardown);
}
