/* Segmented scans (clscan_segmented_*_scan, by heads) and scans by key (clscan_*_scan_by_key) against a
 * CPU reference: every segment checked as a scan of its own (tests/ref.c: integers exactly with
 * wrap-around, floats within their bound). Heads of every density (none but the first, all,
 * alternating, 1%, half, any non-zero byte) and runs of length tile - 1, tile, tile + 1 and longer
 * than many tiles; sizes around every tile boundary; inclusive and exclusive in turn, every third call
 * in place; outputs poisoned, inputs checked untouched. By key: keys of 1, 4 and 8 bytes, float keys
 * (by bits: -0.0 and +0.0 differ) and a registered 12-byte struct. A registered operator that is not
 * commutative (affine maps mod 2^32) against the same in C. The look-back forced onto its fallback,
 * the other item mode, the portable paths; bad arguments. $CLSCAN_TEST_SEED replays. The quick tier
 * builds 12 programs of these (seconds each on PoCL): by heads, add at int32 and int8 and an operator
 * each at int32, float and uint64; by key, uint32 and struct keys with add; the registered operator by
 * heads; each other path once. The full tier: every type x operator, every path both ways. */
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

static clscan_type key12;    /* a registered 12-byte struct */
static clscan_op affine;     /* affine maps mod 2^32 on uint64, not commutative */
REF_FIXTURE_THEN("test_segscan", register_key12_affine)

static int register_key12_affine(void)
{
    return ref_register_key12_affine(ctx, &key12, &affine);
}

/* ---- heads ------------------------------------------------------------------------------------------- */
enum pattern { FIRST_ONLY, ALL, ALTERNATING, SPARSE, HALF, RUN_TILE_LESS, RUN_TILE, RUN_TILE_MORE, LONG_RUNS, PATTERNS };
static const char *const pattern_names[] = {"first only", "all", "alternating", "1%", "half", "runs tile-1",
                                            "runs tile", "runs tile+1", "runs of 5 tiles"};

/* h[i] != 0 where a segment starts (h[0] may be anything: element 0 always starts one); heads are
 * any non-zero byte. */
static void make_heads(unsigned char *h, size_t n, enum pattern p, size_t tile)
{
    const size_t run = p == RUN_TILE_LESS ? tile - 1 : p == RUN_TILE ? tile : p == RUN_TILE_MORE ? tile + 1 : 5 * tile + 3;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = ref_next(&rng);
        unsigned char head = 0;
        switch (p) {
        case FIRST_ONLY: head = 0; break;
        case ALL: head = 1; break;
        case ALTERNATING: head = i % 2 == 0; break;
        case SPARSE: head = r % 100 == 0; break;
        case HALF: head = r % 2; break;
        default: head = run > 0 && i % run == 0; break;
        }
        h[i] = head ? (unsigned char)(1 + (r >> 8) % 255) : 0;
    }
    if (n > 0 && p == FIRST_ONLY)
        h[0] = (unsigned char)(ref_next(&rng) % 2);   /* element 0 starts a segment either way */
}

/* Keys of kb bytes whose runs of equal bits are the segments of h: a new key differs from the one
 * before it in one byte at least. */
static void keys_from_heads(unsigned char *keys, const unsigned char *h, size_t n, size_t kb)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char *k = keys + i * kb;
        if (i == 0 || h[i]) {
            for (size_t b = 0; b < kb; b++)
                k[b] = (unsigned char)ref_next(&rng);
            if (i > 0 && memcmp(k, k - kb, kb) == 0)
                k[ref_next(&rng) % kb] ^= 1;
        } else {
            memcpy(k, k - kb, kb);
        }
    }
}

/* ---- one run ----------------------------------------------------------------------------------------- */
typedef struct run_case {
    clscan_type type;
    clscan_op op;               /* built-in, or `affine` */
    int by_key;
    clscan_type key_type;
    size_t key_bytes;
    int user;                   /* op is `affine` */
} run_case;

/* The reference of every segment of in given heads h, checked against got. */
static int check_segments(const run_case *c, const unsigned char *in, const unsigned char *h, const unsigned char *got,
                          size_t n, int exclusive, char *msg, size_t len)
{
    const size_t elem = clscan_type_size(c->type);
    size_t start = 0;
    for (size_t i = 1; i <= n; i++) {
        if (i < n && !h[i])
            continue;
        if (c->user) {
            uint64_t acc = (uint64_t)1 << 32;
            for (size_t k = start; k < i; k++) {
                uint64_t x, g;
                memcpy(&x, in + k * 8, 8), memcpy(&g, got + k * 8, 8);
                const uint64_t before = acc;
                acc = ref_affine32(acc, x);
                if (g != (exclusive ? before : acc)) {
                    snprintf(msg, len, "element %zu: %016llx, want %016llx", k, (unsigned long long)g,
                             (unsigned long long)(exclusive ? before : acc));
                    return 0;
                }
            }
        } else if (!ref_check_scan(in + start * elem, got + start * elem, i - start, c->type, c->op, exclusive, msg, len)) {
            size_t used = strlen(msg);
            snprintf(msg + used, len - used, " (in the segment from %zu)", start);
            return 0;
        }
        start = i;
    }
    return 1;
}

/* Random values for the case: those of ref_fill, or odd-multiplier affine maps. */
static void fill_values(const run_case *c, unsigned char *in, size_t n)
{
    if (c->user) {
        for (size_t i = 0; i < n; i++) {
            uint64_t v = ref_next(&rng) | (uint64_t)1 << 32;
            memcpy(in + i * 8, &v, 8);
        }
        return;
    }
    ref_fill(in, n, c->type, c->op, &rng);
}

static int run_one(const run_case *c, size_t n, enum pattern p, size_t tile, unsigned char *in, unsigned char *h,
                   unsigned char *keys, unsigned char *got)
{
    static unsigned calls;
    const unsigned call = calls++;
    const int exclusive = call & 1, in_place = call % 3 == 2;
    const size_t elem = clscan_type_size(c->type), bytes = n * elem, kbytes = n * (c->by_key ? c->key_bytes : 1);
    fill_values(c, in, n);
    make_heads(h, n, p, tile);
    if (c->by_key)
        keys_from_heads(keys, h, n, c->key_bytes);
    const unsigned char *marks = c->by_key ? keys : h;
    cl_mem a = ref_buffer(ctx, bytes ? bytes : 8, in), m = ref_buffer(ctx, kbytes ? kbytes : 8, marks);
    cl_mem o = in_place ? a : ref_buffer(ctx, bytes ? bytes : 8, NULL);
    clscan_status st;
    if (c->by_key)
        st = exclusive ? clscan_exclusive_scan_by_key(ctx, m, c->key_type, a, o, n, c->type, c->op)
                       : clscan_inclusive_scan_by_key(ctx, m, c->key_type, a, o, n, c->type, c->op);
    else
        st = exclusive ? clscan_segmented_exclusive_scan(ctx, a, m, o, n, c->type, c->op)
                       : clscan_segmented_inclusive_scan(ctx, a, m, o, n, c->type, c->op);
    char what[160], msg[512] = "";
    snprintf(what, sizeof what, "%s %s %s%s n=%zu %s%s", c->by_key ? "by key" : "heads",
             c->user ? "affine" : ref_type_name(c->type), c->user ? "" : ref_op_name(c->op),
             exclusive ? " exclusive" : " inclusive", n, pattern_names[p], in_place ? " in place" : "");
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s: %s: %s", what, clscan_status_string(st), clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, o, bytes, got), 1);
    int ok = check_segments(c, in, h, got, n, exclusive, msg, sizeof msg);
    if (!ok)
        print_error("%s: %s\n", what, msg);
    unsigned char *after = malloc(kbytes + bytes + 1);
    assert_int_equal(ref_read(ctx, m, kbytes, after), 1);
    if (memcmp(after, marks, kbytes) != 0) {
        print_error("%s: %s changed\n", what, c->by_key ? "keys" : "heads");
        ok = 0;
    }
    if (!in_place) {
        assert_int_equal(ref_read(ctx, a, bytes, after), 1);
        if (memcmp(after, in, bytes) != 0) {
            print_error("%s: in changed\n", what);
            ok = 0;
        }
        clReleaseMemObject(o);
    }
    free(after);
    clReleaseMemObject(a);
    clReleaseMemObject(m);
    return ok;
}

/* Every pattern at every size around the tiles of the program in force for the case. */
static void run_sizes(const run_case *c)
{
    clscan__tuning t = clscan__segscan_tile(ctx, c->type, c->by_key ? c->key_bytes : 0);
    const size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items;
    const size_t sizes[] = {1, 2, 3, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1, 10007,
                            ref_quick() ? 20011 : (1u << 20) + 123, 1 + ref_next(&rng) % 200000};
    size_t max = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        max = sizes[i] > max ? sizes[i] : max;
    const size_t kb = c->by_key ? c->key_bytes : 1;
    unsigned char *in = malloc(max * 8 + 8), *h = malloc(max + 1), *keys = malloc(max * kb + 8), *got = malloc(max * 8 + 8);
    int failures = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int p = 0; p < PATTERNS; p++)
            if (sizes[i] > 0)
                failures += !run_one(c, sizes[i], (enum pattern)p, tile, in, h, keys, got);
    free(in), free(h), free(keys), free(got);
    assert_int_equal(failures, 0);
}

/* ---- the tests --------------------------------------------------------------------------------------- */
static const clscan_op all_ops[] = {CLSCAN_ADD, CLSCAN_MUL, CLSCAN_MIN, CLSCAN_MAX};

/* What the quick tier runs by heads: add at int32 and int8, min at int32, mul at float, max at uint64
 * (a program each, seconds of building on PoCL); the full tier every type x operator. */
static int quick_heads(clscan_type type, clscan_op op)
{
    return (op == CLSCAN_ADD && (type == CLSCAN_INT32 || type == CLSCAN_INT8)) ||
           (op == CLSCAN_MIN && type == CLSCAN_INT32) || (op == CLSCAN_MUL && type == CLSCAN_FLOAT) ||
           (op == CLSCAN_MAX && type == CLSCAN_UINT64);
}

static void heads_type(clscan_type type)
{
    if (!clscan__device_supports_type(&ctx->info, type))
        skip();
    for (int o = 0; o < 4; o++)
        if (!ref_quick() || quick_heads(type, all_ops[o])) {
            const run_case c = {type, all_ops[o], 0, CLSCAN_UINT8, 0, 0};
            run_sizes(&c);
        }
}

#define TYPE_TEST(T)                                                                                    \
    static void test_segmented_##T(void **state)                                                        \
    {                                                                                                   \
        (void)state;                                                                                    \
        heads_type(CLSCAN_##T);                                                                         \
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

/* By key: uint32 keys with int32 values under every operator; keys of 1, 2 and 8 bytes, float keys and
 * the registered struct. The quick tier: uint32 keys with add, and the struct. */
static void test_by_key(void **state)
{
    (void)state;
    for (int o = 0; o < 4; o++)
        if (!ref_quick() || all_ops[o] == CLSCAN_ADD) {
            const run_case c = {CLSCAN_INT32, all_ops[o], 1, CLSCAN_UINT32, 4, 0};
            run_sizes(&c);
        }
    const run_case others[] = {{CLSCAN_INT32, CLSCAN_ADD, 1, key12, 12, 0},
                               {CLSCAN_INT32, CLSCAN_ADD, 1, CLSCAN_UINT8, 1, 0},
                               {CLSCAN_FLOAT, CLSCAN_ADD, 1, CLSCAN_FLOAT, 4, 0},
                               {CLSCAN_INT64, CLSCAN_ADD, 1, CLSCAN_UINT64, 8, 0},
                               {CLSCAN_DOUBLE, CLSCAN_MAX, 1, CLSCAN_INT16, 2, 0}};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (clscan__device_supports_type(&ctx->info, others[i].type) &&
            clscan__device_supports_type(&ctx->info, others[i].key_type) && (i < 1 || !ref_quick()))
            run_sizes(&others[i]);
}

/* Float keys by bits: -0.0 and +0.0 start separate segments, a NaN equals the same NaN. */
static void test_by_key_float_bits(void **state)
{
    (void)state;
    const float keys[8] = {0.0f, -0.0f, -0.0f, NAN, NAN, 1.0f, 1.0f, 0.0f};
    const int32_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, want[8] = {1, 2, 5, 4, 9, 6, 13, 8};
    int32_t got[8];
    cl_mem k = ref_buffer(ctx, sizeof keys, keys), a = ref_buffer(ctx, sizeof in, in), o = ref_buffer(ctx, sizeof in, NULL);
    assert_int_equal(clscan_inclusive_scan_by_key(ctx, k, CLSCAN_FLOAT, a, o, 8, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    assert_memory_equal(got, want, sizeof want);
    clReleaseMemObject(k), clReleaseMemObject(a), clReleaseMemObject(o);
}

/* A registered operator whose operands must keep their order, by heads and by key. */
static void test_segmented_registered_op(void **state)
{
    (void)state;
    if (!ctx->info.int64)
        skip();
    const run_case heads = {CLSCAN_UINT64, affine, 0, CLSCAN_UINT8, 0, 1}, by_key = {CLSCAN_UINT64, affine, 1, CLSCAN_UINT32, 4, 1};
    run_sizes(&heads);
    if (!ref_quick())
        run_sizes(&by_key);
}

/* The paths AUTO does not take here: every look-back forced onto its fallback (counted), the other
 * item mode, the portable paths. The quick tier: the fallback by heads, the other item mode by key
 * (keys staged in local memory on CPUs too), the portable float sum. */
static void test_segmented_other_paths(void **state)
{
    (void)state;
    unsigned long before = 0, after = 0;
    const run_case heads = {CLSCAN_INT32, CLSCAN_ADD, 0, CLSCAN_UINT8, 0, 0}, by_key = {CLSCAN_INT32, CLSCAN_ADD, 1, CLSCAN_UINT32, 4, 0};
    assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    run_sizes(&heads);
    if (!ref_quick())
        run_sizes(&by_key);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
    print_message("[ fallback ] %lu look-back fallbacks\n", after - before);
    assert_true(after > before);
    if (!ref_quick()) {   /* the look-back's fold the policy does not pick: by one work-item, or by all */
        test_other_fold(ctx, CLSCAN__PROGRAM_SEGSCAN);
        run_sizes(&heads);
        run_sizes(&by_key);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SP_FOLD, 0);
    }
    const int stream = clscan__segscan_tile(ctx, CLSCAN_INT32, 0).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    if (stream)
        test_set_tile(ctx, 64, 16);   /* 16 items: the heads' vector loads too */
    if (!ref_quick())
        run_sizes(&heads);
    run_sizes(&by_key);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);
    const run_case portable = {CLSCAN_FLOAT, CLSCAN_ADD, 0, CLSCAN_UINT8, 0, 0};
    run_sizes(&portable);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
}

/* ---- segmented reduction over offsets ---------------------------------------------------------------- */
enum layout { RANDOM_SHORT, RANDOM_LONG, EMPTY_EDGES, ALL_EMPTY, ONE_SEGMENT, TILE_SIZED, INNER, CUT, LAYOUTS };
static const char *const layout_names[] = {"random lengths ~8 (some empty)", "random lengths ~300",
                                           "empty first, last and consecutive", "all empty", "one segment",
                                           "lengths tile-1, tile, tile+1", "elements before and after",
                                           "offsets past the end"};

/* Offsets (segs + 1) over n elements in the layout; returns segs. off holds room for n + 8. */
static size_t make_offsets(uint64_t *off, size_t n, enum layout l, size_t tile)
{
    size_t segs = 0, pos = 0;
    const size_t lens[3] = {tile - 1, tile, tile + 1};
    off[0] = 0;
    switch (l) {
    case ALL_EMPTY:
        segs = 1 + ref_next(&rng) % 5;
        for (size_t s = 0; s <= segs; s++)
            off[s] = n / 2;
        return segs;
    case ONE_SEGMENT:
        off[1] = n;
        return 1;
    case EMPTY_EDGES:
        off[segs++] = 0, off[segs++] = 0;                      /* two empty first */
        while (pos < n) {
            pos += 1 + ref_next(&rng) % 40;
            off[segs++] = pos < n ? pos : n;
            if (ref_next(&rng) % 4 == 0) {
                off[segs] = off[segs - 1];                       /* consecutive empty ones */
                segs++;
            }
        }
        off[segs] = n, off[segs + 1] = n;                       /* and empty last */
        return segs + 1;
    default:
        break;
    }
    size_t start = l == INNER ? n / 7 : 0, end = l == INNER ? n - n / 9 : n;
    off[0] = start, pos = start;
    while (pos < end && segs < n + 4) {
        size_t len = l == RANDOM_SHORT ? ref_next(&rng) % 16 : l == TILE_SIZED ? lens[segs % 3] : 1 + ref_next(&rng) % 600;
        pos = pos + len < end ? pos + len : end;
        off[++segs] = pos;
    }
    if (segs == 0)
        off[++segs] = end;
    if (l == CUT) {
        off[segs] = n + 1 + ref_next(&rng) % 1000;              /* past the buffer: cut to its end */
        off[segs + 1] = UINT64_MAX;
        segs++;
    }
    return segs;
}

/* Segment s of the reference: offsets cut to n, empty when it ends before it starts. */
static void bounds(const uint64_t *off, size_t s, size_t n, size_t *start, size_t *end)
{
    *start = off[s] < n ? (size_t)off[s] : n;
    size_t e = off[s + 1] < n ? (size_t)off[s + 1] : n;
    *end = e > *start ? e : *start;
}

static int reduce_one(const run_case *c, size_t n, enum layout l, size_t tile, unsigned char *in, uint64_t *off,
                      unsigned char *got)
{
    const size_t elem = clscan_type_size(c->type), segs = make_offsets(off, n, l, tile);
    fill_values(c, in, n);
    cl_mem a = ref_buffer(ctx, n * elem, in), o = ref_buffer(ctx, (segs + 1) * 8, off);
    cl_mem r = ref_buffer(ctx, segs * elem, NULL);
    clscan_status st = clscan_segmented_reduce(ctx, a, o, r, segs, c->type, c->op);
    char what[160], msg[512] = "";
    snprintf(what, sizeof what, "segmented_reduce %s %s n=%zu segs=%zu %s", c->user ? "affine" : ref_type_name(c->type),
             c->user ? "" : ref_op_name(c->op), n, segs, layout_names[l]);
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s: %s: %s", what, clscan_status_string(st), clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, r, segs * elem, got), 1);
    int ok = 1;
    for (size_t s = 0; s < segs && ok; s++) {
        size_t start, end;
        bounds(off, s, n, &start, &end);
        if (c->user) {
            uint64_t acc = (uint64_t)1 << 32, g;
            for (size_t k = start; k < end; k++) {
                uint64_t x;
                memcpy(&x, in + k * 8, 8);
                acc = ref_affine32(acc, x);
            }
            memcpy(&g, got + s * 8, 8);
            if (g != acc)
                ok = 0, snprintf(msg, sizeof msg, "segment %zu [%zu, %zu): %016llx, want %016llx", s, start, end,
                                 (unsigned long long)g, (unsigned long long)acc);
        } else if (!ref_check_reduce(in + start * elem, got + s * elem, end - start, c->type, c->op, msg, sizeof msg)) {
            size_t used = strlen(msg);
            snprintf(msg + used, sizeof msg - used, " (segment %zu, [%zu, %zu))", s, start, end);
            ok = 0;
        }
    }
    if (!ok)
        print_error("%s: %s\n", what, msg);
    unsigned char *after = malloc(n * elem + 1);
    assert_int_equal(ref_read(ctx, a, n * elem, after), 1);
    if (memcmp(after, in, n * elem) != 0)
        print_error("%s: in changed\n", what), ok = 0;
    free(after);
    clReleaseMemObject(a), clReleaseMemObject(o), clReleaseMemObject(r);
    return ok;
}

static void reduce_sizes(const run_case *c)
{
    clscan__tuning t = clscan__segreduce_tile(ctx, c->type);
    const size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items;
    const size_t sizes[] = {1, 2, wg + 1, tile - 1, tile, tile + 1, 3 * tile + 1, 10007,
                            ref_quick() ? 20011 : (1u << 20) + 123, 1 + ref_next(&rng) % 200000};
    size_t max = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        max = sizes[i] > max ? sizes[i] : max;
    unsigned char *in = malloc(max * 8 + 8), *got = malloc((max + 8) * 8);
    uint64_t *off = malloc((max + 8) * 8);
    int failures = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int l = 0; l < LAYOUTS; l++)
            failures += !reduce_one(c, sizes[i], (enum layout)l, tile, in, off, got);
    free(in), free(got), free(off);
    assert_int_equal(failures, 0);
}

/* Every type x operator (the quick tier: add at int32, mul at float); the registered affine maps. */
static void test_segmented_reduce(void **state)
{
    (void)state;
    static const clscan_type all_types[] = {CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64, CLSCAN_UINT64, CLSCAN_FLOAT,
                                            CLSCAN_DOUBLE, CLSCAN_INT8, CLSCAN_UINT8, CLSCAN_INT16, CLSCAN_UINT16};
    for (size_t ti = 0; ti < 10; ti++)
        for (int o = 0; o < 4; o++) {
            const clscan_type type = all_types[ti];
            const clscan_op op = all_ops[o];
            const int quick = (op == CLSCAN_ADD && type == CLSCAN_INT32) || (op == CLSCAN_MUL && type == CLSCAN_FLOAT);
            if ((quick || !ref_quick()) && clscan__device_supports_type(&ctx->info, type)) {
                const run_case c = {type, op, 0, CLSCAN_UINT8, 0, 0};
                reduce_sizes(&c);
            }
        }
    if (ctx->info.int64) {
        const run_case user = {CLSCAN_UINT64, affine, 0, CLSCAN_UINT8, 0, 1};
        reduce_sizes(&user);
    }
}

/* The forced fallback (counted) and the other item mode at int32; the portable paths in the full tier. */
static void test_segmented_reduce_other_paths(void **state)
{
    (void)state;
    const run_case c = {CLSCAN_INT32, CLSCAN_ADD, 0, CLSCAN_UINT8, 0, 0};
    unsigned long before = 0, after = 0;
    assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    reduce_sizes(&c);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
    print_message("[ fallback ] %lu look-back fallbacks\n", after - before);
    assert_true(after > before);
    if (!ref_quick()) {   /* the look-back's other fold */
        test_other_fold(ctx, CLSCAN__PROGRAM_SEGREDUCE);
        reduce_sizes(&c);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SP_FOLD, 0);
    }
    const int stream = clscan__segreduce_tile(ctx, CLSCAN_INT32).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    if (stream)
        test_set_tile(ctx, 64, 16);
    reduce_sizes(&c);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    if (!ref_quick()) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);
        reduce_sizes(&c);
        clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
    }
}

/* Offsets that decrease, or point anywhere: the call succeeds, reads and writes nothing out of bounds
 * (Oclgrind's group checks that), and never hangs; the segments it makes sense of are right. */
static void test_segmented_reduce_bad_offsets(void **state)
{
    (void)state;
    enum { N = 5000, SEGS = 64 };
    int32_t in[N], got[SEGS];
    uint64_t off[SEGS + 1];
    for (size_t i = 0; i < N; i++)
        in[i] = 1;
    for (size_t s = 0; s <= SEGS; s++)
        off[s] = ref_next(&rng) % (2 * N);
    cl_mem a = ref_buffer(ctx, sizeof in, in), o = ref_buffer(ctx, sizeof off, off), r = ref_buffer(ctx, sizeof got, NULL);
    assert_int_equal(clscan_segmented_reduce(ctx, a, o, r, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, r, sizeof got, got), 1);
    for (size_t s = 0; s < SEGS; s++) {   /* a sum of ones is at most n; an empty one is 0 */
        size_t start, end;
        bounds(off, s, N, &start, &end);
        if (end == start)
            assert_int_equal(got[s], 0);
        assert_true(ref_is_poison(&got[s], sizeof got[s]) || (got[s] >= 0 && got[s] <= N));
    }
    clReleaseMemObject(a), clReleaseMemObject(o), clReleaseMemObject(r);
}

/* Bad arguments of the segmented reduction: a status and a message, out untouched. */
static void test_segmented_reduce_bad_arguments(void **state)
{
    (void)state;
    enum { N = 1000, SEGS = 10 };
    int32_t in[N], got[SEGS];
    uint64_t off[SEGS + 1];
    for (size_t i = 0; i < N; i++)
        in[i] = (int32_t)i;
    for (size_t s = 0; s <= SEGS; s++)
        off[s] = s * 100;
    cl_mem a = ref_buffer(ctx, sizeof in, in), o = ref_buffer(ctx, sizeof off, off), r = ref_buffer(ctx, sizeof got, NULL);
    cl_mem short_o = ref_buffer(ctx, sizeof off - 8, off), short_r = ref_buffer(ctx, sizeof got - 4, NULL);
    assert_int_equal(clscan_segmented_reduce(NULL, a, o, r, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_segmented_reduce(ctx, NULL, o, r, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_segmented_reduce(ctx, a, NULL, r, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "offsets"));
    assert_int_equal(clscan_segmented_reduce(ctx, a, short_o, r, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "offsets"));
    assert_int_equal(clscan_segmented_reduce(ctx, a, o, short_r, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_segmented_reduce(ctx, a, o, a, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_segmented_reduce(ctx, a, o, o, SEGS / 2, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_segmented_reduce(ctx, a, o, r, SEGS, (clscan_type)42, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_segmented_reduce(ctx, a, o, r, SIZE_MAX, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(ref_read(ctx, r, sizeof got, got), 1);
    assert_true(ref_is_poison(got, sizeof got));
    assert_int_equal(clscan_segmented_reduce(ctx, NULL, NULL, NULL, 0, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(clscan_segmented_reduce(ctx, a, o, r, SEGS, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, r, sizeof got, got), 1);
    for (size_t s = 0; s < SEGS; s++)
        assert_int_equal(got[s], (int32_t)(100 * 100 * s + 4950));
    clReleaseMemObject(a), clReleaseMemObject(o), clReleaseMemObject(r);
    clReleaseMemObject(short_o), clReleaseMemObject(short_r);
}

/* Bad arguments: a status and a message, out untouched, the context still working. */
static void test_segmented_bad_arguments(void **state)
{
    (void)state;
    enum { N = 1000 };
    int32_t in[N], got[N];
    unsigned char heads[N];
    uint32_t keys[N];
    for (size_t i = 0; i < N; i++)
        in[i] = 1, heads[i] = i % 10 == 0, keys[i] = (uint32_t)(i / 10);
    cl_mem a = ref_buffer(ctx, sizeof in, in), h = ref_buffer(ctx, N, heads), k = ref_buffer(ctx, sizeof keys, keys);
    cl_mem o = ref_buffer(ctx, sizeof in, NULL), short_h = ref_buffer(ctx, N - 1, heads), short_k = ref_buffer(ctx, sizeof keys - 4, keys);
    assert_int_equal(clscan_segmented_inclusive_scan(NULL, a, h, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_segmented_inclusive_scan(ctx, a, NULL, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "heads"));
    assert_int_equal(clscan_segmented_exclusive_scan(ctx, a, short_h, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "heads"));
    assert_int_equal(clscan_segmented_inclusive_scan(ctx, a, h, h, N / 4, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_segmented_inclusive_scan(ctx, a, h, o, N, (clscan_type)42, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_segmented_inclusive_scan(ctx, a, h, o, N, CLSCAN_INT32, (clscan_op)42), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_inclusive_scan_by_key(ctx, NULL, CLSCAN_UINT32, a, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "keys"));
    assert_int_equal(clscan_inclusive_scan_by_key(ctx, short_k, CLSCAN_UINT32, a, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_exclusive_scan_by_key(ctx, k, (clscan_type)42, a, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_exclusive_scan_by_key(ctx, k, CLSCAN_UINT32, a, k, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    assert_true(ref_is_poison(got, sizeof got));
    /* n == 0 touches no buffer; then real calls work on the same context. */
    assert_int_equal(clscan_segmented_inclusive_scan(ctx, NULL, NULL, NULL, 0, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(clscan_exclusive_scan_by_key(ctx, NULL, CLSCAN_UINT32, NULL, NULL, 0, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(clscan_segmented_inclusive_scan(ctx, a, h, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(got[i], (int32_t)(i % 10 + 1));
    assert_int_equal(clscan_exclusive_scan_by_key(ctx, k, CLSCAN_UINT32, a, o, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, o, sizeof got, got), 1);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(got[i], (int32_t)(i % 10));
    clReleaseMemObject(a), clReleaseMemObject(h), clReleaseMemObject(k), clReleaseMemObject(o);
    clReleaseMemObject(short_h), clReleaseMemObject(short_k);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_segmented_bad_arguments), cmocka_unit_test(test_by_key_float_bits),
        cmocka_unit_test(test_segmented_INT32), cmocka_unit_test(test_segmented_UINT32),
        cmocka_unit_test(test_segmented_INT64), cmocka_unit_test(test_segmented_UINT64),
        cmocka_unit_test(test_segmented_FLOAT), cmocka_unit_test(test_segmented_DOUBLE),
        cmocka_unit_test(test_segmented_INT8), cmocka_unit_test(test_segmented_UINT8),
        cmocka_unit_test(test_segmented_INT16), cmocka_unit_test(test_segmented_UINT16),
        cmocka_unit_test(test_by_key), cmocka_unit_test(test_segmented_registered_op),
        cmocka_unit_test(test_segmented_other_paths), cmocka_unit_test(test_segmented_reduce_bad_arguments),
        cmocka_unit_test(test_segmented_reduce_bad_offsets), cmocka_unit_test(test_segmented_reduce),
        cmocka_unit_test(test_segmented_reduce_other_paths),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
