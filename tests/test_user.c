/* Operators registered in OpenCL C (clscan_register_op) and registered types (clscan_register_type).
 * Scans and reductions with operators that are not commutative, each against the same operator written
 * in C: affine maps x -> m x + c (mod 2^16, packed in a uint; mod 2^32, packed in a ulong) and 2 x 2
 * matrix products (mod 2^8, four bytes of a uint), through every strategy x work-group algorithm,
 * inclusive and exclusive, at sizes around every tile boundary: any reordering of operands fails them.
 * A commutative "a + b" on int32 against the built-in ADD. Then what registration refuses: code that
 * does not compile (the log naming the user's own lines), a size the device disagrees with, reserved
 * names, NULL arguments, an operator of another type or context; each leaves the context working.
 * $CLSCAN_TEST_SEED replays a run; the quick tier (tier.h) runs the affine uint maps under AUTO and each
 * strategy with Hillis-Steele (the other work-group algorithms, and reductions on small tiles, in the
 * full tier), the matrices under AUTO, sizes up to three tiles; the full one every case through every
 * pair. */
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

REF_FIXTURE_THEN("test_user", register_all)

/* ---- the operators, in OpenCL C and in C ---------------------------------------------------------- */
static uint32_t affine16(uint32_t a, uint32_t b)   /* b after a: x -> bm (am x + ac) + bc, mod 2^16 */
{
    uint32_t am = a >> 16, ac = a & 0xffffu, bm = b >> 16, bc = b & 0xffffu;
    return ((bm * am) & 0xffffu) << 16 | ((bm * ac + bc) & 0xffffu);
}
static const char affine16_cl[] = "(((b >> 16) * (a >> 16)) & 0xffffu) << 16 | (((b >> 16) * (a & 0xffffu) + (b & 0xffffu)) & 0xffffu)";

static uint32_t matmul8(uint32_t a, uint32_t b)   /* a then b: the product a b of 2 x 2 matrices, mod 2^8 */
{
    uint32_t a00 = a & 255u, a01 = a >> 8 & 255u, a10 = a >> 16 & 255u, a11 = a >> 24;
    uint32_t b00 = b & 255u, b01 = b >> 8 & 255u, b10 = b >> 16 & 255u, b11 = b >> 24;
    return ((a00 * b00 + a01 * b10) & 255u) | ((a00 * b01 + a01 * b11) & 255u) << 8 |
           ((a10 * b00 + a11 * b10) & 255u) << 16 | ((a10 * b01 + a11 * b11) & 255u) << 24;
}
static const char matmul8_preamble[] =
    "uint mat_mul(uint a, uint b)\n"
    "{\n"
    "    uint a00 = a & 255u, a01 = a >> 8 & 255u, a10 = a >> 16 & 255u, a11 = a >> 24;\n"
    "    uint b00 = b & 255u, b01 = b >> 8 & 255u, b10 = b >> 16 & 255u, b11 = b >> 24;\n"
    "    return ((a00 * b00 + a01 * b10) & 255u) | ((a00 * b01 + a01 * b11) & 255u) << 8 |\n"
    "           ((a10 * b00 + a11 * b10) & 255u) << 16 | ((a10 * b01 + a11 * b11) & 255u) << 24;\n"
    "}\n";

typedef enum { AFFINE16, MATMUL8, AFFINE32, ADD32, CASES } op_case;
static const char *const case_names[] = {"affine maps mod 2^16", "2x2 matrices mod 2^8", "affine maps mod 2^32",
                                         "\"a + b\" on int32"};
static const clscan_type case_types[] = {CLSCAN_UINT32, CLSCAN_UINT32, CLSCAN_UINT64, CLSCAN_INT32};
static clscan_op ops[CASES];

static uint64_t combine(op_case c, uint64_t a, uint64_t b)
{
    switch (c) {
    case AFFINE16: return affine16((uint32_t)a, (uint32_t)b);
    case MATMUL8: return matmul8((uint32_t)a, (uint32_t)b);
    case AFFINE32: return ref_affine32(a, b);   /* the same mod 2^32, in a ulong */
    default: return (uint32_t)((uint32_t)a + (uint32_t)b);
    }
}

static uint64_t identity_of(op_case c)
{
    return c == AFFINE16 ? 0x10000u : c == MATMUL8 ? 0x01000001u : c == AFFINE32 ? (uint64_t)1 << 32 : 0;
}

/* The group's fixture (REF_FIXTURE_THEN): 0, or -1 with the reason on stderr. */
static int register_all(void)
{
    const uint32_t id16 = (uint32_t)identity_of(AFFINE16), idm = (uint32_t)identity_of(MATMUL8);
    const uint64_t id32 = identity_of(AFFINE32);
    const int32_t zero = 0;
    const int ok = clscan_register_op(ctx, CLSCAN_UINT32, affine16_cl, &id16, NULL, 0, &ops[AFFINE16]) == CLSCAN_SUCCESS &&
           clscan_register_op(ctx, CLSCAN_UINT32, "mat_mul(a, b)", &idm, matmul8_preamble, 0, &ops[MATMUL8]) ==
               CLSCAN_SUCCESS &&
           (!ctx->info.int64 ||
            clscan_register_op(ctx, CLSCAN_UINT64, REF_AFFINE32_CL, &id32, NULL, 0, &ops[AFFINE32]) == CLSCAN_SUCCESS) &&
           clscan_register_op(ctx, CLSCAN_INT32, "a + b", &zero, NULL, CLSCAN_OP_COMMUTATIVE, &ops[ADD32]) ==
               CLSCAN_SUCCESS;
    if (!ok)
        fprintf(stderr, "registration failed: %s\n", clscan_last_error(ctx));
    return ok ? 0 : -1;
}

/* ---- data and references ---------------------------------------------------------------------------- */
/* Elements that keep products from collapsing: odd multipliers (invertible mod 2^k), any addends. */
static uint64_t element(op_case c)
{
    uint64_t r = ref_next(&rng);
    switch (c) {
    case AFFINE16: return (uint32_t)r | 0x10000u;
    case MATMUL8: return (uint32_t)r | 0x01000001u;   /* odd diagonal: not always invertible, never all zero */
    case AFFINE32: return r | (uint64_t)1 << 32;
    default: return (uint32_t)r;
    }
}

static void put(void *data, size_t i, size_t w, uint64_t v) { memcpy((char *)data + i * w, &v, w); }
static uint64_t get(const void *data, size_t i, size_t w)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)data + i * w, w);
    return v;
}

/* 1 when got is the scan of in by case c from init; else the first wrong element is printed. */
static int check_scan(op_case c, const void *in, const void *got, size_t n, int exclusive, uint64_t init,
                      const char *what)
{
    const size_t w = clscan_type_size(case_types[c]);
    uint64_t acc = init;
    for (size_t i = 0; i < n; i++) {
        uint64_t before = acc;
        acc = combine(c, acc, get(in, i, w));
        uint64_t want = exclusive ? before : acc;
        if (get(got, i, w) != want) {
            print_error("%s, %s, n=%zu: element %zu is %#llx, want %#llx\n", case_names[c], what, n, i,
                        (unsigned long long)get(got, i, w), (unsigned long long)want);
            return 0;
        }
    }
    return 1;
}

/* ---- scans and reductions --------------------------------------------------------------------------- */
/* seed 0: a plain scan; 1: from an initial value on the host; 2: from one on the device (init_buf). */
static int scan_one(op_case c, size_t n, int exclusive, int in_place, int seed, const char *what)
{
    const size_t w = clscan_type_size(case_types[c]), bytes = n * w;
    void *in = malloc(bytes + 8), *got = malloc(bytes + 8);
    for (size_t i = 0; i < n; i++)
        put(in, i, w, element(c));
    const uint64_t init = seed ? element(c) : identity_of(c);
    cl_mem a = ref_buffer(ctx, bytes, in), b = in_place ? a : ref_buffer(ctx, bytes, NULL);
    cl_mem init_buf = seed == 2 ? ref_buffer(ctx, w, &init) : NULL;   /* little-endian: w bytes of init */
    clscan_status st;
    if (seed)
        st = exclusive ? clscan_exclusive_scan_init(ctx, a, b, n, case_types[c], ops[c], init_buf ? NULL : &init, init_buf)
                       : clscan_inclusive_scan_init(ctx, a, b, n, case_types[c], ops[c], init_buf ? NULL : &init, init_buf);
    else
        st = exclusive ? clscan_exclusive_scan(ctx, a, b, n, case_types[c], ops[c])
                       : clscan_inclusive_scan(ctx, a, b, n, case_types[c], ops[c]);
    int ok = st == CLSCAN_SUCCESS && ref_read(ctx, b, bytes, got) && check_scan(c, in, got, n, exclusive, init, what);
    if (st != CLSCAN_SUCCESS)
        print_error("%s, %s, n=%zu: %s: %s\n", case_names[c], what, n, clscan_status_string(st), clscan_last_error(ctx));
    if (!in_place)
        clReleaseMemObject(b);
    if (init_buf)
        clReleaseMemObject(init_buf);
    clReleaseMemObject(a);
    free(in), free(got);
    return ok;
}

static int reduce_one(op_case c, size_t n)
{
    const size_t w = clscan_type_size(case_types[c]), bytes = n * w;
    void *in = malloc(bytes + 8);
    uint64_t want = identity_of(c), got = 0;
    for (size_t i = 0; i < n; i++) {
        put(in, i, w, element(c));
        want = combine(c, want, get(in, i, w));
    }
    cl_mem a = ref_buffer(ctx, bytes, in);
    clscan_status st = clscan_reduce(ctx, a, n, case_types[c], ops[c], &got);
    int ok = st == CLSCAN_SUCCESS && got == want;
    if (!ok)
        print_error("%s, reduce, n=%zu: %s %s, got %#llx, want %#llx\n", case_names[c], n, clscan_status_string(st),
                    clscan_last_error(ctx), (unsigned long long)got, (unsigned long long)want);
    clReleaseMemObject(a);
    free(in);
    return ok;
}

/* Sizes around the tile of the type in force, up to three tiles (the quick tier) or past tile^2. */
static size_t sizes_for(clscan_type type, size_t *sizes)
{
    const clscan__tuning t = clscan__scan_tile(ctx, type);
    const size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items, k0 = 10;
    const size_t list[] = {0, 1, 2, 31, 33, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1,
                           1 + ref_next(&rng) % 30000, 100003};
    size_t k = 0;
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        if (!ref_quick() || i < k0 + 2 || list[i] < 40000)
            sizes[k++] = list[i];
    return k;
}

/* Every strategy x work-group pair (AUTO first), inclusive and exclusive, in place every other size. */
static void scan_pairs(op_case c, int every_pair)
{
    if (c == AFFINE32 && !ctx->info.int64)
        skip();
    size_t sizes[16], count = sizes_for(case_types[c], sizes);
    int failures = 0;
    for (int pair = 0; pair < (every_pair ? REF_PAIRS : 1); pair++) {
        clscan_strategy s;
        clscan_wg_algorithm wg;
        ref_pair(pair, &s, &wg);
        if (ref_quick() && pair && wg != CLSCAN_WG_HILLIS_STEELE)   /* quick: each strategy, one algorithm */
            continue;
        char what[64];
        assert_int_equal(clscan_set_algorithm(ctx, s, wg), CLSCAN_SUCCESS);
        for (size_t i = 0; i < count; i++)
            for (int excl = 0; excl < 2; excl++) {
                const int seed = (int)((i + (size_t)excl) % 3);   /* none, from the host, from the device */
                snprintf(what, sizeof what, "%s strategy %d wg %d%s", excl ? "exclusive" : "inclusive", (int)s, (int)wg,
                         seed == 1 ? " init on the host" : seed == 2 ? " init on the device" : "");
                failures += !scan_one(c, sizes[i], excl, i % 2, seed, what);
            }
    }
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    for (size_t i = 0; i < count; i++)
        failures += !reduce_one(c, sizes[i]);
    assert_int_equal(failures, 0);
}

static void test_affine16(void **state) { (void)state; scan_pairs(AFFINE16, 1); }
static void test_matmul8(void **state) { (void)state; scan_pairs(MATMUL8, !ref_quick()); }
/* The quick tier leaves these two to the full one (their paths are affine16's, at other types). */
static void test_affine32(void **state)
{
    (void)state;
    if (ref_quick())
        skip();
    scan_pairs(AFFINE32, 1);
}
static void test_add32(void **state)
{
    (void)state;
    if (ref_quick())
        skip();
    scan_pairs(ADD32, 1);
}

/* The forced fallback: every look-back recomputes its predecessor's tile, in order. */
static void test_affine16_fallback(void **state)
{
    (void)state;
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    size_t sizes[16], count = sizes_for(CLSCAN_UINT32, sizes);
    int failures = 0;
    for (size_t i = 0; i < count; i++)
        failures += !scan_one(AFFINE16, sizes[i], (int)(i % 2), 0, (int)(i % 3), "forced fallback");
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    assert_int_equal(failures, 0);
}

/* Small tiles (8 x 4): more tiles than groups, so each group folds a run of several, which must keep
 * their order (regression: docs/reliability.md). */
static void test_affine16_reduce_small_tiles(void **state)
{
    (void)state;
    if (ref_quick())   /* a program of its own; the full tier runs it */
        skip();
    const size_t sizes[] = {1, 31, 33, 257, 1000, 4099, 20000 + ref_next(&rng) % 10000};
    int failures = 0;
    test_set_tile(ctx, 8, 4);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        failures += !reduce_one(AFFINE16, sizes[i]);
    test_set_tile(ctx, 0, 0);
    assert_int_equal(failures, 0);
}

/* ---- what registration refuses ------------------------------------------------------------------------ */
/* The context still scans right after a refusal. */
static void still_works(void)
{
    assert_true(scan_one(AFFINE16, 1000, 0, 0, 0, "after a refusal"));
}

static void test_refusals(void **state)
{
    (void)state;
    const uint32_t id = 0;
    clscan_op op = (clscan_op)0;
    clscan_type t = (clscan_type)0;
    /* A combine that does not compile: the log names the user's line. */
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "a + no_such_name", &id, NULL, 0, &op), CLSCAN_BUILD_FAILED);
    assert_non_null(strstr(clscan_last_error(ctx), "combine:1"));
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "helper(a, b)", &id, "uint helper(uint a, uint b)\n{\n  return a +;\n}\n",
                                        0, &op), CLSCAN_BUILD_FAILED);
    assert_non_null(strstr(clscan_last_error(ctx), "preamble:3"));
    still_works();
    /* Reserved names, unknown flags, NULL arguments, unknown types. */
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "clscan_user_identity()", &id, NULL, 0, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "a + b", &id, "#define CLSCAN_T int\n", 0, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "a + b", &id, NULL, 2u, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, NULL, &id, NULL, 0, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "", &id, NULL, 0, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "a + b", NULL, NULL, 0, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(ctx, CLSCAN_UINT32, "a + b", &id, NULL, 0, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(ctx, (clscan_type)77, "a + b", &id, NULL, 0, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_op(NULL, CLSCAN_UINT32, "a + b", &id, NULL, 0, &op), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal((int)op, 0);   /* nothing was registered */
    still_works();
    /* Types: a size the device disagrees with, a declaration that does not compile, reserved names. */
    assert_int_equal(clscan_register_type(ctx, "pair", "typedef struct { float v; uint i; } pair;", 12, &t),
                     CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "8 bytes"));
    assert_int_equal(clscan_register_type(ctx, "pair", "typedef struct { float v; no_such_type i; } pair;", 8, &t),
                     CLSCAN_BUILD_FAILED);
    assert_non_null(strstr(clscan_last_error(ctx), "declaration:1"));
    assert_int_equal(clscan_register_type(ctx, "clscan_pair", "typedef struct { float v; } clscan_pair;", 4, &t),
                     CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_type(ctx, "pair pair", NULL, 4, &t), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_type(ctx, NULL, NULL, 4, &t), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_type(ctx, "float2", NULL, 0, &t), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_register_type(ctx, "float2", NULL, 8, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal((int)t, 0);
    still_works();
}

/* An operator with another type or another context; a registered type with a built-in operator, as a
 * sort key, or in another context (tests/test_user_types.c runs what registered types are taken by). */
static void test_wrong_type_or_context(void **state)
{
    (void)state;
    cl_mem a = ref_buffer(ctx, 4096, NULL), b = ref_buffer(ctx, 4096, NULL);
    uint64_t result = 0;
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, 100, CLSCAN_INT32, ops[AFFINE16]), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "registered for uint"));
    assert_int_equal(clscan_reduce(ctx, a, 100, CLSCAN_FLOAT, ops[MATMUL8], &result), CLSCAN_INVALID_ARGUMENT);
    clscan_context *other = ref_context();
    assert_non_null(other);
    assert_int_equal(clscan_inclusive_scan(other, a, b, 100, CLSCAN_UINT32, ops[AFFINE16]), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(other), "not registered with this context"));
    clscan_type pair = (clscan_type)0;
    assert_int_equal(clscan_register_type(ctx, "pair", "typedef struct { float v; uint i; } pair;", 8, &pair), CLSCAN_SUCCESS);
    assert_int_equal(clscan_context_type_size(ctx, pair), 8);
    assert_int_equal(clscan_context_type_size(other, pair), 0);
    assert_int_equal(clscan_context_type_size(ctx, CLSCAN_INT16), 2);
    assert_int_equal(clscan_inclusive_scan(other, a, b, 100, pair, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, 100, pair, CLSCAN_ADD), CLSCAN_UNSUPPORTED);
    assert_int_equal(clscan_sort_by_key(ctx, a, b, 100, pair, CLSCAN_UINT32), CLSCAN_UNSUPPORTED);
    assert_int_equal(clscan_sort_by_key(other, a, b, 100, CLSCAN_UINT32, pair), CLSCAN_INVALID_ARGUMENT);
    clscan_context_release(other);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    still_works();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_affine16), cmocka_unit_test(test_matmul8),          cmocka_unit_test(test_affine32),
        cmocka_unit_test(test_add32),    cmocka_unit_test(test_affine16_fallback),
        cmocka_unit_test(test_affine16_reduce_small_tiles), cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_wrong_type_or_context),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
