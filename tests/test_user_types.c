/* Registered struct types (clscan_register_type): combined by registered operators in scans and
 * reductions, and moved by compaction and as sort_by_key values. Five structs combined, each against
 * the same operator written in C on a C struct of the same layout: the first smallest element with its
 * index (8 bytes; ties make it order-sensitive), the largest with the smallest index on ties (a total
 * order, registered as commutative: examples/argmax_struct.c's), a segmented sum whose head flag leaves internal padding
 * (8 bytes), 2 x 2 matrix products mod 2^32 (16 bytes) and those with a 64-bit count (24 bytes, the
 * look-back's widest slots). No other is registered as commutative, so any reordering of their operands fails.
 * Fields are compared, never padding. Moves go through types of 3, 8, 12, 16, 24 and 40 bytes and are
 * compared byte for byte, padding included. Then what is refused: a built-in operator on a struct, an
 * operator of another type, a struct past the scan's element limit, struct keys in a sort.
 * $CLSCAN_TEST_SEED replays a run. The quick tier (tier.h) runs the argmax under AUTO, a compaction of
 * 24-byte structs and the refusals; the full one every struct through every strategy x work-group pair
 * (the 24-byte one also single-pass on the portable path, 16-bit status pieces, and with the forced
 * fallback), every move size and the sorts. */
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

REF_FIXTURE_THEN("test_user_types", register_cases)

/* ---- the combined structs, in OpenCL C and in C ----------------------------------------------------- */
typedef struct { float value; uint32_t index; } argmin_t;   /* also examples/argmax_struct.c's value_at */
typedef struct { uint8_t head; uint32_t sum; } seg_t;      /* 3 bytes of padding after head */
typedef struct { uint32_t m[4]; } mat2_t;                  /* row-major 2 x 2 */
typedef struct { uint32_t m[4]; uint64_t count; } matc_t;  /* 4 bytes of padding after m */

static const char argmin_decl[] = "typedef struct { float value; uint index; } argmin_t;";
/* examples/argmax_struct.c's type and operator, letter for letter: the example then finds the quick
 * tier's program in the cache. */
static const char argmax_decl[] = "typedef struct { float value; uint index; } value_at;";
static const char argmax_combine[] = "(b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a";
static const char seg_decl[] = "typedef struct { uchar head; uint sum; } seg_t;";
static const char mat2_decl[] = "typedef struct { uint m[4]; } mat2_t;";
static const char matc_decl[] = "typedef struct { uint m[4]; ulong count; } matc_t;";

static const char seg_preamble[] =
    "seg_t seg_add(seg_t a, seg_t b)\n"
    "{\n"
    "    seg_t r;\n"
    "    r.head = a.head | b.head;\n"
    "    r.sum = b.head ? b.sum : a.sum + b.sum;\n"
    "    return r;\n"
    "}\n";
#define MAT_MUL_CL                                                                                   \
    "void mat_mul(const uint *a, const uint *b, uint *r)\n"                                           \
    "{\n"                                                                                             \
    "    r[0] = a[0] * b[0] + a[1] * b[2];\n"                                                         \
    "    r[1] = a[0] * b[1] + a[1] * b[3];\n"                                                         \
    "    r[2] = a[2] * b[0] + a[3] * b[2];\n"                                                         \
    "    r[3] = a[2] * b[1] + a[3] * b[3];\n"                                                         \
    "}\n"
static const char mat2_preamble[] = MAT_MUL_CL "mat2_t mat2_mul(mat2_t a, mat2_t b) { mat2_t r; mat_mul(a.m, b.m, r.m); return r; }\n";
static const char matc_preamble[] = MAT_MUL_CL "matc_t matc_mul(matc_t a, matc_t b)\n"
                                    "{\n    matc_t r;\n    mat_mul(a.m, b.m, r.m);\n    r.count = a.count + b.count;\n    return r;\n}\n";

static void mat_mul(const uint32_t *a, const uint32_t *b, uint32_t *r)
{
    r[0] = a[0] * b[0] + a[1] * b[2];
    r[1] = a[0] * b[1] + a[1] * b[3];
    r[2] = a[2] * b[0] + a[3] * b[2];
    r[3] = a[2] * b[1] + a[3] * b[3];
}

typedef enum { ARGMIN, ARGMAX, SEG, MAT2, MATC, CASES } combine_case;
typedef struct combine_spec {
    const char *name, *type_name, *decl, *preamble, *combine;
    size_t size;
    unsigned flags;
} combine_spec;
static const combine_spec specs[CASES] = {
    {"argmin {float, uint}", "argmin_t", argmin_decl, NULL, "b.value < a.value ? b : a", sizeof(argmin_t), 0},
    {"argmax {float, uint}, commutative", "value_at", argmax_decl, NULL, argmax_combine, sizeof(argmin_t),
     CLSCAN_OP_COMMUTATIVE},
    {"segmented sum {uchar, uint}", "seg_t", seg_decl, seg_preamble, "seg_add(a, b)", sizeof(seg_t), 0},
    {"2x2 matrices {uint[4]}", "mat2_t", mat2_decl, mat2_preamble, "mat2_mul(a, b)", sizeof(mat2_t), 0},
    {"2x2 matrices and a count {uint[4], ulong}", "matc_t", matc_decl, matc_preamble, "matc_mul(a, b)", sizeof(matc_t), 0},
};
static clscan_type types[CASES];
static clscan_op ops[CASES];

/* a then b, into r (which may be a or b). */
static void combine(combine_case c, const void *a, const void *b, void *r)
{
    switch (c) {
    case ARGMIN: {
        argmin_t x, y;
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        memcpy(r, y.value < x.value ? &y : &x, sizeof x);
        break;
    }
    case ARGMAX: {
        argmin_t x, y;
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        memcpy(r, y.value > x.value || (y.value == x.value && y.index < x.index) ? &y : &x, sizeof x);
        break;
    }
    case SEG: {
        seg_t x, y, z;
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        memset(&z, 0, sizeof z);
        z.head = x.head | y.head, z.sum = y.head ? y.sum : x.sum + y.sum;
        memcpy(r, &z, sizeof z);
        break;
    }
    case MAT2: {
        mat2_t x, y, z;
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        mat_mul(x.m, y.m, z.m);
        memcpy(r, &z, sizeof z);
        break;
    }
    default: {
        matc_t x, y, z;
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        memset(&z, 0, sizeof z);
        mat_mul(x.m, y.m, z.m);
        z.count = x.count + y.count;
        memcpy(r, &z, sizeof z);
        break;
    }
    }
}

static void identity(combine_case c, void *out)
{
    memset(out, 0, specs[c].size);
    if (c == ARGMIN || c == ARGMAX) {
        const argmin_t id = {c == ARGMIN ? INFINITY : -INFINITY, UINT32_MAX};
        memcpy(out, &id, sizeof id);
    } else if (c == MAT2 || c == MATC) {
        const uint32_t one[4] = {1, 0, 0, 1};
        memcpy(out, one, sizeof one);
    }
}

/* Element i: argmin values on a grid of 1/16 in [-1, 1] (ties are many, and the first must win), one
 * head in eight, matrices with odd diagonals and an even corner. */
static void element(combine_case c, size_t i, void *out)
{
    const uint64_t r = ref_next(&rng);
    memset(out, 0, specs[c].size);
    if (c == ARGMIN || c == ARGMAX) {
        const argmin_t e = {(float)((int)(r % 33) - 16) / 16.0f, (uint32_t)i};
        memcpy(out, &e, sizeof e);
    } else if (c == SEG) {
        seg_t e;
        memset(&e, 0x5a, sizeof e);   /* padding that is not 0 */
        e.head = (r & 7) == 0, e.sum = (uint32_t)(r >> 32);
        memcpy(out, &e, sizeof e);
    } else {
        matc_t e;
        for (int k = 0; k < 4; k++)   /* odd determinant: invertible mod 2^32, products never collapse */
            e.m[k] = ((uint32_t)(r >> (8 * k)) * 2654435761u | (k == 0 || k == 3)) & (k == 1 ? ~1u : ~0u);
        e.count = r >> 7;
        memcpy(out, &e, specs[c].size);   /* mat2_t is matc_t's first 16 bytes */
    }
}

/* Whether two elements are equal field by field. */
static int same(combine_case c, const void *a, const void *b)
{
    switch (c) {
    case ARGMIN:
    case ARGMAX: return memcmp(a, b, sizeof(argmin_t)) == 0;   /* no padding: bits, so -0 and 0 differ */
    case SEG: {
        seg_t x, y;
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        return x.head == y.head && x.sum == y.sum;
    }
    case MAT2: return memcmp(a, b, sizeof(mat2_t)) == 0;
    default: {
        matc_t x, y;
        memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
        return memcmp(x.m, y.m, sizeof x.m) == 0 && x.count == y.count;
    }
    }
}

/* The group's fixture (REF_FIXTURE_THEN): every case's type and operator registered. */
static int register_cases(void)
{
    for (int c = 0; c < CASES; c++) {
        unsigned char id[64];
        identity((combine_case)c, id);
        clscan_status st = clscan_register_type(ctx, specs[c].type_name, specs[c].decl, specs[c].size, &types[c]);
        if (st == CLSCAN_SUCCESS)
            st = clscan_register_op(ctx, types[c], specs[c].combine, id, specs[c].preamble, specs[c].flags, &ops[c]);
        if (st != CLSCAN_SUCCESS) {
            fprintf(stderr, "registering %s failed: %s\n", specs[c].name, clscan_last_error(ctx));
            return -1;
        }
    }
    return 0;
}


/* ---- scans and reductions ------------------------------------------------------------------------- */
static int check_scan(combine_case c, const unsigned char *in, const unsigned char *got, size_t n, int exclusive,
                      const char *what)
{
    const size_t w = specs[c].size;
    unsigned char acc[64], before[64];
    identity(c, acc);
    for (size_t i = 0; i < n; i++) {
        memcpy(before, acc, w);
        combine(c, acc, in + i * w, acc);
        if (!same(c, got + i * w, exclusive ? before : acc)) {
            print_error("%s, %s, n=%zu: element %zu differs\n", specs[c].name, what, n, i);
            return 0;
        }
    }
    return 1;
}

static int scan_one(combine_case c, size_t n, int exclusive, int in_place, const char *what)
{
    const size_t w = specs[c].size, bytes = n * w;
    unsigned char *in = malloc(bytes + 1), *got = malloc(bytes + 1);
    for (size_t i = 0; i < n; i++)
        element(c, i, in + i * w);
    cl_mem a = ref_buffer(ctx, bytes, in), b = in_place ? a : ref_buffer(ctx, bytes, NULL);
    clscan_status st = exclusive ? clscan_exclusive_scan(ctx, a, b, n, types[c], ops[c])
                                 : clscan_inclusive_scan(ctx, a, b, n, types[c], ops[c]);
    int ok = st == CLSCAN_SUCCESS && ref_read(ctx, b, bytes, got) && check_scan(c, in, got, n, exclusive, what);
    if (st != CLSCAN_SUCCESS)
        print_error("%s, %s, n=%zu: %s: %s\n", specs[c].name, what, n, clscan_status_string(st), clscan_last_error(ctx));
    if (!in_place)
        clReleaseMemObject(b);
    clReleaseMemObject(a);
    free(in), free(got);
    return ok;
}

static int reduce_one(combine_case c, size_t n)
{
    const size_t w = specs[c].size, bytes = n * w;
    unsigned char *in = malloc(bytes + 1), want[64], got[64];
    identity(c, want);
    memset(got, REF_POISON, sizeof got);
    for (size_t i = 0; i < n; i++) {
        element(c, i, in + i * w);
        combine(c, want, in + i * w, want);
    }
    cl_mem a = ref_buffer(ctx, bytes, in);
    clscan_status st = clscan_reduce(ctx, a, n, types[c], ops[c], got);
    int ok = st == CLSCAN_SUCCESS && same(c, got, want);
    if (!ok)
        print_error("%s, reduce, n=%zu: %s %s\n", specs[c].name, n, clscan_status_string(st),
                    st == CLSCAN_SUCCESS ? "wrong value" : clscan_last_error(ctx));
    clReleaseMemObject(a);
    free(in);
    return ok;
}

/* Sizes around the tile in force for type, up to three tiles (the quick tier) or past them. */
static size_t sizes_for(clscan__tuning t, size_t *sizes)
{
    const size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items;
    const size_t list[] = {0, 1, 2, 33, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1,
                           1 + ref_next(&rng) % 30000, 70001};
    size_t k = 0;
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        if (!ref_quick() || i < 11)
            sizes[k++] = list[i];
    return k;
}

/* AUTO, then (every_pair) each strategy x work-group pair; inclusive and exclusive, in place every other
 * size; then reductions. */
static void scan_pairs(combine_case c, int every_pair)
{
    size_t sizes[16], count = sizes_for(clscan__scan_tile(ctx, types[c]), sizes);
    int failures = 0;
    for (int pair = 0; pair < (every_pair ? REF_PAIRS : 1); pair++) {
        clscan_strategy s;
        clscan_wg_algorithm wg;
        ref_pair(pair, &s, &wg);
        char what[64];
        assert_int_equal(clscan_set_algorithm(ctx, s, wg), CLSCAN_SUCCESS);
        for (size_t i = 0; i < count; i++)
            for (int excl = 0; excl < 2; excl++) {
                snprintf(what, sizeof what, "%s strategy %d wg %d", excl ? "exclusive" : "inclusive", (int)s, (int)wg);
                failures += !scan_one(c, sizes[i], excl, i % 2, what);
            }
    }
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    for (size_t i = 0; i < count; i++)
        failures += !reduce_one(c, sizes[i]);
    assert_int_equal(failures, 0);
}

static void test_argmax(void **state) { (void)state; scan_pairs(ARGMAX, !ref_quick()); }
/* The quick tier leaves these to the full one: the 24-byte struct runs there on the portable path. */
static void full_only(combine_case c)
{
    if (ref_quick())
        skip();
    scan_pairs(c, 1);
}
static void test_argmin(void **state) { (void)state; full_only(ARGMIN); }
static void test_seg(void **state) { (void)state; full_only(SEG); }
static void test_mat2(void **state) { (void)state; full_only(MAT2); }
static void test_matc(void **state) { (void)state; full_only(MATC); }

/* The portable path (16-bit pieces in 32-bit status words where 64-bit atomics would be used) and the
 * forced fallback, at the widest struct. */
static void test_matc_portable_fallback(void **state)
{
    (void)state;
    if (ref_quick())
        skip();
    size_t sizes[16], count = sizes_for(clscan__scan_tile(ctx, types[MATC]), sizes);
    int failures = 0;
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    for (int fallback = 0; fallback < 2; fallback++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, !fallback);
        clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, fallback);
        for (size_t i = 0; i < count; i++)
            failures += !scan_one(MATC, sizes[i], (int)(i % 2), 0, fallback ? "forced fallback" : "portable");
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    assert_int_equal(failures, 0);
}

/* ---- moves: compaction and sort values ------------------------------------------------------------ */
static const size_t move_sizes[] = {3, 8, 12, 16, 24, 40};
static const char *const move_decls[] = {
    "typedef struct { uchar b[3]; } bytes3;", NULL, "typedef struct { uint w[3]; } words12;", NULL, NULL,
    "typedef struct { ulong w[5]; } words40;"};
static const char *const move_names[] = {"bytes3", "seg_t", "words12", "mat2_t", "matc_t", "words40"};

/* The registered type of move size k (the combined structs serve for 8, 16 and 24 bytes). */
static clscan_type move_type(size_t k)
{
    if (!move_decls[k])
        return types[move_sizes[k] == 8 ? SEG : move_sizes[k] == 16 ? MAT2 : MATC];
    clscan_type t = (clscan_type)0;
    clscan_status st = clscan_register_type(ctx, move_names[k], move_decls[k], move_sizes[k], &t);
    if (st != CLSCAN_SUCCESS)
        fail_msg("registering %s: %s", move_names[k], clscan_last_error(ctx));
    return t;
}

static void random_bytes(unsigned char *p, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        p[i] = (unsigned char)ref_next(&rng);
}

static int compact_one(clscan_type t, size_t w, size_t n)
{
    unsigned char *in = malloc(n * w + 1), *flags = malloc(n + 1), *got = malloc(n * w + 1), *want = malloc(n * w + 1);
    random_bytes(in, n * w);
    size_t kept = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        flags[i] = (ref_next(&rng) % 3) == 0 ? (unsigned char)(1 + i % 255) : 0;
        if (flags[i])
            memcpy(want + kept++ * w, in + i * w, w);
    }
    cl_mem a = ref_buffer(ctx, n * w, in), f = ref_buffer(ctx, n, flags), b = ref_buffer(ctx, n * w, NULL);
    clscan_status st = clscan_compact(ctx, a, f, b, n, t, &count);
    int ok = st == CLSCAN_SUCCESS && count == kept && ref_read(ctx, b, n * w, got) && memcmp(got, want, kept * w) == 0 &&
             ref_is_poison(got + kept * w, (n - kept) * w);
    if (!ok)
        print_error("compaction of %zu-byte structs, n=%zu: %s %s (count %zu, want %zu)\n", w, n,
                    clscan_status_string(st), st == CLSCAN_SUCCESS ? "wrong elements" : clscan_last_error(ctx), count,
                    kept);
    clReleaseMemObject(a), clReleaseMemObject(f), clReleaseMemObject(b);
    free(in), free(flags), free(got), free(want);
    return ok;
}

/* Stable order of keys by insertion (keys are few-valued, so stability shows). */
static void stable_order(const uint32_t *keys, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        for (; j > 0 && keys[order[j - 1]] > keys[i]; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
}

static int sort_one(clscan_type t, size_t w, size_t n)
{
    uint32_t *keys = malloc(n * 4 + 4), *got_keys = malloc(n * 4 + 4);
    unsigned char *values = malloc(n * w + 1), *got = malloc(n * w + 1);
    size_t *order = malloc(n * sizeof *order + 1);
    random_bytes(values, n * w);
    for (size_t i = 0; i < n; i++)
        keys[i] = (uint32_t)(ref_next(&rng) % 64) << 20;
    stable_order(keys, n, order);
    cl_mem k = ref_buffer(ctx, n * 4, keys), v = ref_buffer(ctx, n * w, values);
    clscan_status st = clscan_sort_by_key(ctx, k, v, n, CLSCAN_UINT32, t);
    int ok = st == CLSCAN_SUCCESS && ref_read(ctx, k, n * 4, got_keys) && ref_read(ctx, v, n * w, got);
    for (size_t i = 0; ok && i < n; i++)
        ok = got_keys[i] == keys[order[i]] && memcmp(got + i * w, values + order[i] * w, w) == 0;
    if (!ok)
        print_error("sort_by_key with %zu-byte struct values, n=%zu: %s %s\n", w, n, clscan_status_string(st),
                    st == CLSCAN_SUCCESS ? "wrong order" : clscan_last_error(ctx));
    clReleaseMemObject(k), clReleaseMemObject(v);
    free(keys), free(got_keys), free(values), free(got), free(order);
    return ok;
}

/* Every move size in the full tier (compaction by one launch and by three, sort values); the quick tier
 * one compaction. */
static void test_moves(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t k = 0; k < sizeof move_sizes / sizeof move_sizes[0]; k++) {
        const size_t w = move_sizes[k];
        const int compact_here = !ref_quick() || w == 24, sort_here = !ref_quick();
        if (!compact_here && !sort_here)
            continue;
        const clscan_type t = move_type(k);
        size_t sizes[16], count = sizes_for(clscan__compact_tile(ctx, t), sizes);
        for (int three = 0; compact_here && three < (ref_quick() ? 1 : 2); three++) {
            clscan_set_algorithm(ctx, three ? CLSCAN_STRATEGY_BLOCK_SUM : CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
            for (size_t i = 1; i < count; i++)
                failures += !compact_one(t, w, sizes[i]);
        }
        clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
        const size_t sort_sizes[] = {2, 1000, 4097, 20000};
        for (size_t i = 0; sort_here && i < sizeof sort_sizes / sizeof sort_sizes[0]; i++)
            failures += !sort_one(t, w, sort_sizes[i]);
    }
    assert_int_equal(failures, 0);
}

/* ---- refusals --------------------------------------------------------------------------------------- */
static void test_refusals(void **state)
{
    (void)state;
    cl_mem a = ref_buffer(ctx, 1 << 16, NULL), b = ref_buffer(ctx, 1 << 16, NULL);
    unsigned char value[64];
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, 100, types[ARGMIN], CLSCAN_MIN), CLSCAN_UNSUPPORTED);
    assert_non_null(strstr(clscan_last_error(ctx), "argmin_t"));
    assert_int_equal(clscan_reduce(ctx, a, 100, types[ARGMIN], CLSCAN_ADD, value), CLSCAN_UNSUPPORTED);
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, 100, types[ARGMIN], (clscan_op)99), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, 100, types[ARGMIN], ops[SEG]), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "registered for seg_t"));
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, 100, CLSCAN_UINT64, ops[SEG]), CLSCAN_INVALID_ARGUMENT);
    /* A struct past the scans' limit: moved, not combined. */
    clscan_type big = (clscan_type)0;
    clscan_op big_op = (clscan_op)0;
    unsigned char zero[256] = {0};
    assert_int_equal(clscan_register_type(ctx, "big_t", "typedef struct { uint w[64]; } big_t;", 256, &big),
                     CLSCAN_SUCCESS);
    assert_int_equal(clscan_register_op(ctx, big, "a", zero, NULL, 0, &big_op), CLSCAN_SUCCESS);
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, 100, big, big_op), CLSCAN_UNSUPPORTED);
    assert_non_null(strstr(clscan_last_error(ctx), "256 bytes"));
    size_t count = 0;
    cl_mem flags = ref_buffer(ctx, 100, zero);
    if (!ref_quick()) {   /* a program of its own */
        assert_int_equal(clscan_compact(ctx, a, flags, b, 100, big, &count), CLSCAN_SUCCESS);
        assert_int_equal(count, 0);
    }
    /* Struct keys have no order; tables take built-in types. */
    assert_int_equal(clscan_sort_by_key(ctx, a, b, 100, types[SEG], CLSCAN_UINT32), CLSCAN_UNSUPPORTED);
    assert_int_equal(clscan_sort(ctx, a, 100, types[SEG]), CLSCAN_UNSUPPORTED);
    assert_int_equal(clscan_summed_area_table(ctx, a, b, 10, 10, types[SEG]), CLSCAN_UNSUPPORTED);
    clReleaseMemObject(flags), clReleaseMemObject(a), clReleaseMemObject(b);
    assert_true(scan_one(ARGMAX, 1000, 0, 0, "after a refusal"));
}

/* argv[1], argv[2]: run only the tests whose names match, skip those that match. */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (argc > 2)
        cmocka_set_skip_filter(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_argmax), cmocka_unit_test(test_argmin), cmocka_unit_test(test_seg),
        cmocka_unit_test(test_mat2),
        cmocka_unit_test(test_matc),   cmocka_unit_test(test_matc_portable_fallback),
        cmocka_unit_test(test_moves),  cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
