/* Selection and runs (0.2): clscan_reduce_by_key, clscan_run_length_encode, clscan_unique and
 * clscan_partition, with their _async twins, against a CPU reference: runs found on the host by the keys'
 * bits, each run's reduction checked by tests/ref.c (integers exactly with wrap-around, floats within
 * their bound), lengths and keys exactly, the partition element by element, the outputs past the count
 * left poisoned, the inputs untouched. Keys with runs of length 1, 2, tile - 1, tile, tile + 1, longer
 * than many tiles, random; sizes around every tile boundary; every other call through the _async form
 * with the count read from its buffer. Keys of 1, 4, 8 bytes, float keys (by bits) and a registered
 * 12-byte struct; a registered operator that is not commutative (affine maps mod 2^32). The look-back
 * forced onto its fallback, the other item mode and the 64-bit run count; bad arguments; every _async
 * form of 0.2 shown not to
 * wait (it returns while a gate holds the queue's work). $CLSCAN_TEST_SEED replays. The quick tier:
 * reduce by uint32 and by struct key of int32 add, by uint32 key of the affine maps; lengths and unique
 * by uint32 key; partitions of int32, bytes and the struct (the compaction's programs, from the cache
 * after test_compact_quick); the fallback, the other item mode and the 64-bit count by uint32 key of
 * int32 add. */
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
REF_FIXTURE_THEN("test_runs", register_key12_affine)

static int register_key12_affine(void)
{
    return ref_register_key12_affine(ctx, &key12, &affine);
}

/* ---- keys -------------------------------------------------------------------------------------------- */
enum pattern { ONE_RUN, SINGLES, PAIRS, RANDOM, RUN_TILE_LESS, RUN_TILE, RUN_TILE_MORE, LONG_RUNS, PATTERNS };
static const char *const pattern_names[] = {"one run", "runs of 1", "runs of 2", "random runs", "runs tile-1",
                                            "runs tile", "runs tile+1", "runs of 5 tiles"};

/* Keys of kb bytes in runs of the pattern: a new run's key differs from the one before in a byte at
 * least (random runs: a new key with chance 1/3, so runs of one happen too). */
static void make_keys(unsigned char *keys, size_t n, size_t kb, enum pattern p, size_t tile)
{
    const size_t run = p == SINGLES ? 1 : p == PAIRS ? 2 : p == RUN_TILE_LESS ? tile - 1 : p == RUN_TILE ? tile
                     : p == RUN_TILE_MORE ? tile + 1 : 5 * tile + 3;
    for (size_t i = 0; i < n; i++) {
        unsigned char *k = keys + i * kb;
        const int head = i == 0 || (p == RANDOM ? ref_next(&rng) % 3 == 0 : p != ONE_RUN && i % run == 0);
        if (!head) {
            memcpy(k, k - kb, kb);
            continue;
        }
        for (size_t b = 0; b < kb; b++)
            k[b] = (unsigned char)ref_next(&rng);
        if (i > 0 && memcmp(k, k - kb, kb) == 0)
            k[ref_next(&rng) % kb] ^= 1;
    }
}

/* The runs' starts on the host (by bits), starts[runs] = n; returns runs. */
static size_t host_runs(const unsigned char *keys, size_t n, size_t kb, size_t *starts)
{
    size_t runs = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || memcmp(keys + i * kb, keys + (i - 1) * kb, kb) != 0)
            starts[runs++] = i;
    starts[runs] = n;
    return runs;
}

/* ---- one run of a function ---------------------------------------------------------------------------- */
typedef enum which { REDUCE, LENGTHS, UNIQUE } which;
static const char *const which_names[] = {"reduce_by_key", "run_length_encode", "unique"};

typedef struct runs_case {
    which fn;
    clscan_type key_type;
    size_t kb;
    clscan_type type;   /* values (REDUCE) */
    clscan_op op;       /* built-in, or `affine` */
    int user;           /* op is `affine` */
} runs_case;

/* Run r's values combined, checked against got (the affine maps in C, the rest by ref.c). */
static int check_run(const runs_case *c, const unsigned char *in, size_t from, size_t to, const unsigned char *got,
                     char *msg, size_t len)
{
    if (!c->user)
        return ref_check_reduce(in + from * clscan_type_size(c->type), got, to - from, c->type, c->op, msg, len);
    uint64_t acc = (uint64_t)1 << 32, g;
    for (size_t k = from; k < to; k++) {
        uint64_t x;
        memcpy(&x, in + k * 8, 8);
        acc = ref_affine32(acc, x);
    }
    memcpy(&g, got, 8);
    if (g != acc)
        snprintf(msg, len, "%016llx, want %016llx", (unsigned long long)g, (unsigned long long)acc);
    return g == acc;
}

/* Everything about one call's outputs: the count, each run's key, value or length, the rest poisoned. */
static int check_outputs(const runs_case *c, const unsigned char *keys, const unsigned char *in, size_t n,
                         size_t count, const unsigned char *keys_got, const unsigned char *vals_got, const char *what)
{
    const size_t vb = c->fn == REDUCE ? clscan_type_size(c->type) : 8;
    size_t *starts = malloc((n + 1) * sizeof *starts);
    const size_t runs = host_runs(keys, n, c->kb, starts);
    int ok = count == runs;
    if (!ok)
        print_error("%s: %zu runs, want %zu\n", what, count, runs);
    char msg[256] = "";
    for (size_t r = 0; ok && r < runs; r++) {
        uint64_t length;
        if (memcmp(keys_got + r * c->kb, keys + starts[r] * c->kb, c->kb) != 0) {
            print_error("%s: run %zu (from %zu): wrong key\n", what, r, starts[r]);
            ok = 0;
        } else if (c->fn == LENGTHS && (memcpy(&length, vals_got + r * 8, 8), length != starts[r + 1] - starts[r])) {
            print_error("%s: run %zu: length %llu, want %zu\n", what, r, (unsigned long long)length, starts[r + 1] - starts[r]);
            ok = 0;
        } else if (c->fn == REDUCE && !check_run(c, in, starts[r], starts[r + 1], vals_got + r * vb, msg, sizeof msg)) {
            print_error("%s: run %zu [%zu, %zu): %s\n", what, r, starts[r], starts[r + 1], msg);
            ok = 0;
        }
    }
    if (ok && !ref_is_poison(keys_got + runs * c->kb, (n - runs) * c->kb)) {
        print_error("%s: keys written past the runs\n", what);
        ok = 0;
    }
    if (ok && c->fn != UNIQUE && !ref_is_poison(vals_got + runs * vb, (n - runs) * vb)) {
        print_error("%s: values written past the runs\n", what);
        ok = 0;
    }
    free(starts);
    return ok;
}

/* Calls the case's function (the _async form when async: the count from a device buffer). */
static clscan_status call_runs(const runs_case *c, cl_mem k, cl_mem v, cl_mem ko, cl_mem vo, size_t n, int async,
                               size_t *count)
{
    cl_mem cb = async ? ref_buffer(ctx, 8, NULL) : NULL;
    clscan_status st;
    switch (c->fn) {
    case REDUCE:
        st = async ? clscan_reduce_by_key_async(ctx, k, v, ko, vo, n, c->key_type, c->type, c->op, cb)
                   : clscan_reduce_by_key(ctx, k, v, ko, vo, n, c->key_type, c->type, c->op, count);
        break;
    case LENGTHS:
        st = async ? clscan_run_length_encode_async(ctx, k, ko, vo, n, c->key_type, cb)
                   : clscan_run_length_encode(ctx, k, ko, vo, n, c->key_type, count);
        break;
    default:
        st = async ? clscan_unique_async(ctx, k, ko, n, c->key_type, cb) : clscan_unique(ctx, k, ko, n, c->key_type, count);
        break;
    }
    if (async) {
        uint64_t got = 0;
        if (st == CLSCAN_SUCCESS && ref_read(ctx, cb, 8, &got) != 1)
            st = CLSCAN_OPENCL_ERROR;
        *count = (size_t)got;
        clReleaseMemObject(cb);
    }
    return st;
}

static int runs_one(const runs_case *c, size_t n, enum pattern p, size_t tile, unsigned char *keys, unsigned char *in,
                    unsigned char *keys_got, unsigned char *vals_got)
{
    static unsigned calls;
    const int async = calls++ % 2;
    const size_t vb = c->fn == REDUCE ? clscan_type_size(c->type) : 8;
    make_keys(keys, n, c->kb, p, tile);
    if (c->user)
        for (size_t i = 0; i < n; i++) {
            uint64_t x = ref_next(&rng) | (uint64_t)1 << 32;
            memcpy(in + i * 8, &x, 8);
        }
    else if (c->fn == REDUCE)
        ref_fill(in, n, c->type, c->op, &rng);
    cl_mem k = ref_buffer(ctx, n * c->kb, keys), v = c->fn == REDUCE ? ref_buffer(ctx, n * vb, in) : NULL;
    cl_mem ko = ref_buffer(ctx, n * c->kb, NULL), vo = c->fn == UNIQUE ? NULL : ref_buffer(ctx, n * vb, NULL);
    size_t count = 0;
    const clscan_status st = call_runs(c, k, v, ko, vo, n, async, &count);
    char what[200];
    snprintf(what, sizeof what, "%s key %s%s%s%s n=%zu %s%s", which_names[c->fn], ref_type_name(c->key_type),
             c->fn == REDUCE ? " values " : "", c->fn != REDUCE ? "" : c->user ? "affine" : ref_type_name(c->type),
             c->fn == REDUCE && !c->user ? ref_op_name(c->op) : "", n, pattern_names[p], async ? " async" : "");
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s: %s: %s", what, clscan_status_string(st), clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, ko, n * c->kb, keys_got), 1);
    if (vo)
        assert_int_equal(ref_read(ctx, vo, n * vb, vals_got), 1);
    int ok = check_outputs(c, keys, in, n, count, keys_got, vals_got, what);
    unsigned char *after = malloc(n * (c->kb > vb ? c->kb : vb));
    assert_int_equal(ref_read(ctx, k, n * c->kb, after), 1);
    ok = ok && memcmp(after, keys, n * c->kb) == 0;
    if (v) {
        assert_int_equal(ref_read(ctx, v, n * vb, after), 1);
        ok = ok && memcmp(after, in, n * vb) == 0;
    }
    if (!ok)
        print_error("%s: failed (or an input changed)\n", what);
    free(after);
    clReleaseMemObject(k), clReleaseMemObject(ko);
    if (v)
        clReleaseMemObject(v);
    if (vo)
        clReleaseMemObject(vo);
    return ok;
}

/* Every pattern at every size around the tiles of the program in force for the case. */
static void runs_sizes(const runs_case *c)
{
    const clscan_type vt = c->fn == REDUCE ? c->type : c->fn == LENGTHS ? CLSCAN_UINT64 : CLSCAN_UINT32;
    clscan__tuning t = clscan__runs_tile(ctx, vt, c->kb);
    const size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items;
    const size_t sizes[] = {1, 2, 3, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1, 10007,
                            ref_quick() ? 20011 : (1u << 20) + 123, 1 + ref_next(&rng) % 200000};
    size_t max = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        max = sizes[i] > max ? sizes[i] : max;
    unsigned char *keys = malloc(max * c->kb), *in = malloc(max * 8), *kg = malloc(max * c->kb), *vg = malloc(max * 8);
    int failures = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int p = 0; p < PATTERNS; p++)
            failures += !runs_one(c, sizes[i], (enum pattern)p, tile, keys, in, kg, vg);
    free(keys), free(in), free(kg), free(vg);
    assert_int_equal(failures, 0);
}

static int supported(const runs_case *c)
{
    return clscan__device_supports_type(&ctx->info, c->key_type) &&
           (c->fn != REDUCE || clscan__device_supports_type(&ctx->info, c->type)) && (!c->user || ctx->info.int64);
}

/* ---- the tests: runs ---------------------------------------------------------------------------------- */
static void test_reduce_by_key(void **state)
{
    (void)state;
    const runs_case cases[] = {
        {REDUCE, CLSCAN_UINT32, 4, CLSCAN_INT32, CLSCAN_ADD, 0}, {REDUCE, 0, 12, CLSCAN_INT32, CLSCAN_ADD, 0},
        {REDUCE, CLSCAN_UINT32, 4, CLSCAN_UINT64, 0, 1},        {REDUCE, CLSCAN_UINT32, 4, CLSCAN_INT32, CLSCAN_MIN, 0},
        {REDUCE, CLSCAN_UINT32, 4, CLSCAN_FLOAT, CLSCAN_ADD, 0}, {REDUCE, CLSCAN_UINT8, 1, CLSCAN_INT64, CLSCAN_MAX, 0},
        {REDUCE, CLSCAN_UINT64, 8, CLSCAN_DOUBLE, CLSCAN_ADD, 0}, {REDUCE, CLSCAN_FLOAT, 4, CLSCAN_UINT16, CLSCAN_MUL, 0},
        {REDUCE, CLSCAN_INT16, 2, CLSCAN_INT8, CLSCAN_ADD, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        runs_case c = cases[i];
        if (c.kb == 12)
            c.key_type = key12;
        if (c.user)
            c.op = affine;
        if (supported(&c) && (i < 3 || !ref_quick()))
            runs_sizes(&c);
    }
}

/* Lengths and unique, each at uint32 keys in the quick tier and at 1, 8 and 12 bytes too in the full. */
static void lengths_or_unique(which fn)
{
    const runs_case cases[] = {{fn, CLSCAN_UINT32, 4, 0, 0, 0}, {fn, CLSCAN_UINT8, 1, 0, 0, 0}, {fn, 0, 12, 0, 0, 0},
                               {fn, CLSCAN_DOUBLE, 8, 0, 0, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        runs_case c = cases[i];
        if (c.kb == 12)
            c.key_type = key12;
        if (supported(&c) && (i < 1 || !ref_quick()))
            runs_sizes(&c);
    }
}

static void test_run_length_encode(void **state)
{
    (void)state;
    lengths_or_unique(LENGTHS);
}

static void test_unique(void **state)
{
    (void)state;
    lengths_or_unique(UNIQUE);
}

/* Float keys by bits: -0.0 and +0.0 are different runs, a NaN equals the same NaN. */
static void test_runs_float_bits(void **state)
{
    (void)state;
    const float keys[8] = {0.0f, -0.0f, -0.0f, NAN, NAN, 1.0f, 1.0f, 0.0f};
    const uint64_t want[5] = {1, 2, 2, 2, 1};
    uint64_t got[8];
    float uniq[8];
    size_t runs = 0;
    cl_mem k = ref_buffer(ctx, sizeof keys, keys), u = ref_buffer(ctx, sizeof uniq, NULL), l = ref_buffer(ctx, sizeof got, NULL);
    assert_int_equal(clscan_run_length_encode(ctx, k, u, l, 8, CLSCAN_FLOAT, &runs), CLSCAN_SUCCESS);
    assert_int_equal(runs, 5);
    assert_int_equal(ref_read(ctx, l, sizeof got, got), 1);
    assert_memory_equal(got, want, sizeof want);
    clReleaseMemObject(k), clReleaseMemObject(u), clReleaseMemObject(l);
}

/* fmin and fmax let a number win over a NaN, and a run's reduction starts from the identity, as every
 * reduction does: a run of NaNs alone reduces to +inf (MIN) or -inf (MAX), not to NaN (the fuzzer's
 * find, reduce by key of doubles under MAX). Run r is 1 + r % 7 long; every third run holds only NaNs,
 * the others NaNs and r once; then runs of one NaN each (every element a head); in both item modes. */
static int nan_runs(clscan_op op)
{
    enum { N = 3 * 4096 + 5, ONES_FROM = 9000 };
    uint32_t *keys = malloc(N * sizeof *keys);
    float *values = malloc(N * sizeof *values), *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    size_t r = 0, runs = 0;
    for (size_t i = 0; i < N; r++) {
        const size_t len = i < ONES_FROM ? 1 + r % 7 : 1;
        const int numbers = i < ONES_FROM && r % 3 != 0;
        for (size_t j = 0; j < len && i < N; j++, i++)
            keys[i] = (uint32_t)r, values[i] = numbers && j == len / 2 ? (float)r : NAN;
        want[r] = numbers ? (float)r : op == CLSCAN_MAX ? -INFINITY : INFINITY;
    }
    cl_mem k = ref_buffer(ctx, N * 4, keys), v = ref_buffer(ctx, N * 4, values);
    cl_mem ko = ref_buffer(ctx, N * 4, NULL), vo = ref_buffer(ctx, N * 4, NULL);
    int ok = clscan_reduce_by_key(ctx, k, v, ko, vo, N, CLSCAN_UINT32, CLSCAN_FLOAT, op, &runs) == CLSCAN_SUCCESS &&
             runs == r && ref_read(ctx, vo, runs * 4, got) == 1;
    for (size_t i = 0; ok && i < runs; i++)
        if (!(got[i] == want[i])) {
            print_error("%s: run %zu reduces to %g, want %g\n", op == CLSCAN_MAX ? "max" : "min", i, got[i], want[i]);
            ok = 0;
        }
    clReleaseMemObject(k), clReleaseMemObject(v), clReleaseMemObject(ko), clReleaseMemObject(vo);
    free(keys), free(values), free(want), free(got);
    return ok;
}

static void test_runs_nan_values(void **state)
{
    (void)state;
    const int stream = clscan__runs_tile(ctx, CLSCAN_FLOAT, 4).stream;
    for (int mode = 0; mode < 2; mode++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, mode ? (stream ? 1 : 2) : 0);
        assert_true(nan_runs(CLSCAN_MAX));
        assert_true(nan_runs(CLSCAN_MIN));
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
}

/* The paths AUTO does not take here: every look-back forced onto its fallback (counted; the lengths'
 * fallback counts ones too, unique's compares keys, and with held items run-length encoding's, a
 * compaction's, finds the last head too), the other item mode, the 64-bit run count, and unique under
 * block-sum, the compaction's three launches, in both item modes. */
static void test_runs_other_paths(void **state)
{
    (void)state;
    unsigned long before = 0, after = 0;
    const runs_case reduce = {REDUCE, CLSCAN_UINT32, 4, CLSCAN_INT32, CLSCAN_ADD, 0}, lengths = {LENGTHS, CLSCAN_UINT32, 4, 0, 0, 0},
                    keys_only = {UNIQUE, CLSCAN_UINT32, 4, 0, 0, 0};
    assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    runs_sizes(&reduce);
    runs_sizes(&keys_only);
    if (!ref_quick())
        runs_sizes(&lengths);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 1);   /* held items: run-length encoding as a compaction */
    runs_sizes(&lengths);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
    print_message("[ fallback ] %lu look-back fallbacks\n", after - before);
    assert_true(after > before);
    if (!ref_quick()) {   /* the look-back's other fold: the runs' program, and unique's (the compaction's) */
        test_other_fold(ctx, CLSCAN__PROGRAM_RUNS);
        runs_sizes(&reduce);
        test_other_fold(ctx, CLSCAN__PROGRAM_COMPACT);
        runs_sizes(&keys_only);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SP_FOLD, 0);
    }
    /* The other item mode, and with it (one program the quick tier builds for both) the 64-bit run count
     * of past 2^32 elements; the full tier each on its own too, small tiles (many of them). */
    const int stream = clscan__runs_tile(ctx, CLSCAN_INT32, 4).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    clscan_tuning_set(ctx, CLSCAN_TUNE_RUNS_COUNT64, ref_quick());
    if (stream)
        test_set_tile(ctx, 64, 16);
    runs_sizes(&reduce);
    if (!ref_quick())
        runs_sizes(&lengths), runs_sizes(&keys_only);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_RUNS_COUNT64, 0);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    for (int mode = 0; mode < 2; mode++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, mode ? (stream ? 1 : 2) : 0);
        runs_sizes(&keys_only);
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    if (ref_quick())
        return;
    clscan_tuning_set(ctx, CLSCAN_TUNE_RUNS_COUNT64, 1);
    test_set_tile(ctx, 64, 4);
    runs_sizes(&reduce);
    runs_sizes(&keys_only);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_RUNS_COUNT64, 0);
}

static void test_runs_bad_arguments(void **state)
{
    (void)state;
    enum { N = 1000 };
    uint32_t keys[N];
    int32_t vals[N], got[N];
    for (size_t i = 0; i < N; i++)
        keys[i] = (uint32_t)(i / 10), vals[i] = 1;
    cl_mem k = ref_buffer(ctx, sizeof keys, keys), v = ref_buffer(ctx, sizeof vals, vals);
    cl_mem ko = ref_buffer(ctx, sizeof keys, NULL), vo = ref_buffer(ctx, sizeof vals, NULL);
    cl_mem lo = ref_buffer(ctx, N * 8, NULL), cb = ref_buffer(ctx, 8, NULL), short_o = ref_buffer(ctx, sizeof keys - 4, NULL);
    size_t runs = 7;
    assert_int_equal(clscan_reduce_by_key(NULL, k, v, ko, vo, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce_by_key(ctx, k, v, ko, vo, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, NULL),
                     CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce_by_key(ctx, k, NULL, ko, vo, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "values"));
    assert_int_equal(clscan_reduce_by_key(ctx, k, v, short_o, vo, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "keys_out"));
    assert_int_equal(clscan_reduce_by_key(ctx, k, v, ko, v, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_reduce_by_key(ctx, k, v, ko, vo, N, (clscan_type)42, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce_by_key(ctx, k, v, ko, vo, N, CLSCAN_UINT32, CLSCAN_INT32, (clscan_op)42, &runs),
                     CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce_by_key(ctx, k, v, ko, vo, N, key12, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_INVALID_ARGUMENT);   /* 12-byte keys: more than the keys buffer holds */
    assert_int_equal(clscan_reduce_by_key_async(ctx, k, v, ko, vo, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, NULL),
                     CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_reduce_by_key_async(ctx, k, v, ko, vo, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, vo),
                     CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_run_length_encode(ctx, k, ko, NULL, N, CLSCAN_UINT32, &runs), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "lengths_out"));
    assert_int_equal(clscan_run_length_encode(ctx, k, ko, vo, N, CLSCAN_UINT32, &runs), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_unique(ctx, k, k, N, CLSCAN_UINT32, &runs), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_unique_async(ctx, k, ko, N, CLSCAN_UINT32, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_partition(ctx, v, NULL, vo, N, CLSCAN_INT32, &runs), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_partition(ctx, v, k, v, N, CLSCAN_INT32, &runs), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_partition_async(ctx, v, k, vo, N, CLSCAN_INT32, v), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(runs, 7);
    assert_int_equal(ref_read(ctx, ko, sizeof got, got), 1);
    assert_true(ref_is_poison(got, sizeof got));
    assert_int_equal(ref_read(ctx, vo, sizeof got, got), 1);
    assert_true(ref_is_poison(got, sizeof got));
    /* n == 0: count 0, no buffer touched; then real calls work on the same context. */
    assert_int_equal(clscan_reduce_by_key(ctx, NULL, NULL, NULL, NULL, 0, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_SUCCESS);
    assert_int_equal(runs, 0);
    uint64_t c = 99;
    assert_int_equal(clscan_unique_async(ctx, NULL, NULL, 0, CLSCAN_UINT32, cb), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, cb, 8, &c), 1);
    assert_int_equal(c, 0);
    assert_int_equal(clscan_reduce_by_key(ctx, k, v, ko, vo, N, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, &runs),
                     CLSCAN_SUCCESS);
    assert_int_equal(runs, N / 10);
    assert_int_equal(ref_read(ctx, vo, sizeof got, got), 1);
    for (size_t i = 0; i < N / 10; i++)
        assert_int_equal(got[i], 10);
    assert_int_equal(clscan_run_length_encode_async(ctx, k, ko, lo, N, CLSCAN_UINT32, cb), CLSCAN_SUCCESS);
    assert_int_equal(ref_read(ctx, cb, 8, &c), 1);
    assert_int_equal(c, N / 10);
    /* Keys and values may be one buffer: both are only read (each run r sums ten copies of r). */
    assert_int_equal(clscan_reduce_by_key(ctx, k, k, ko, vo, N, CLSCAN_UINT32, CLSCAN_UINT32, CLSCAN_ADD, &runs),
                     CLSCAN_SUCCESS);
    assert_int_equal(runs, N / 10);
    assert_int_equal(ref_read(ctx, vo, sizeof got, got), 1);
    for (size_t i = 0; i < N / 10; i++)
        assert_int_equal(got[i], 10 * (int32_t)i);
    clReleaseMemObject(k), clReleaseMemObject(v), clReleaseMemObject(ko), clReleaseMemObject(vo);
    clReleaseMemObject(lo), clReleaseMemObject(cb), clReleaseMemObject(short_o);
}

/* ---- partition ------------------------------------------------------------------------------------------ */
enum density { NONE, EVERY, ALTERNATE, PERCENT, HALF, DENSITIES };
static const char *const density_names[] = {"none", "all", "alternating", "1%", "half"};

static int partition_one(clscan_type type, size_t elem, size_t n, enum density d, unsigned char *in,
                         unsigned char *flags, unsigned char *got)
{
    static unsigned calls;
    const int async = calls++ % 2;
    for (size_t i = 0; i < n * elem; i++)
        in[i] = (unsigned char)ref_next(&rng);
    size_t kept_want = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = ref_next(&rng);
        flags[i] = d == NONE ? 0 : d == EVERY ? (unsigned char)(1 + r % 255) : d == ALTERNATE ? i % 2 == 0
                 : d == PERCENT ? r % 100 == 0 : (unsigned char)(r % 2 ? 1 + (r >> 8) % 255 : 0);
        kept_want += flags[i] != 0;
    }
    cl_mem a = ref_buffer(ctx, n * elem, in), f = ref_buffer(ctx, n, flags), o = ref_buffer(ctx, n * elem, NULL);
    cl_mem cb = ref_buffer(ctx, 8, NULL);
    size_t kept = 0;
    uint64_t kept_dev = 0;
    clscan_status st = async ? clscan_partition_async(ctx, a, f, o, n, type, cb) : clscan_partition(ctx, a, f, o, n, type, &kept);
    if (st == CLSCAN_SUCCESS && async)
        st = ref_read(ctx, cb, 8, &kept_dev) == 1 ? CLSCAN_SUCCESS : CLSCAN_OPENCL_ERROR, kept = (size_t)kept_dev;
    char what[120];
    snprintf(what, sizeof what, "partition %zu-byte n=%zu %s%s", elem, n, density_names[d], async ? " async" : "");
    if (st != CLSCAN_SUCCESS)
        fail_msg("%s: %s: %s", what, clscan_status_string(st), clscan_last_error(ctx));
    assert_int_equal(ref_read(ctx, o, n * elem, got), 1);
    int ok = kept == kept_want;
    size_t front = 0, back = kept_want;
    for (size_t i = 0; ok && i < n; i++) {
        const size_t at = flags[i] ? front++ : back++;
        if (memcmp(got + at * elem, in + i * elem, elem) != 0) {
            print_error("%s: element %zu (flag %d) not at %zu\n", what, i, flags[i], at);
            ok = 0;
        }
    }
    if (kept != kept_want)
        print_error("%s: count %zu, want %zu\n", what, kept, kept_want);
    clReleaseMemObject(a), clReleaseMemObject(f), clReleaseMemObject(o), clReleaseMemObject(cb);
    return ok;
}

static void partition_sizes(clscan_type type)
{
    const size_t elem = clscan_context_type_size(ctx, type);
    clscan__tuning t = clscan__compact_tile(ctx, type);
    const size_t wg = t.wg_size, tile = (size_t)t.wg_size * t.items;
    const size_t sizes[] = {1, 2, 3, wg - 1, wg + 1, tile - 1, tile, tile + 1, 3 * tile - 1, 3 * tile + 1, 10007,
                            ref_quick() ? 20011 : (1u << 20) + 123, 1 + ref_next(&rng) % 200000};
    size_t max = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        max = sizes[i] > max ? sizes[i] : max;
    unsigned char *in = malloc(max * elem), *flags = malloc(max), *got = malloc(max * elem);
    int failures = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int d = 0; d < DENSITIES; d++)
            failures += !partition_one(type, elem, sizes[i], (enum density)d, in, flags, got);
    free(in), free(flags), free(got);
    assert_int_equal(failures, 0);
}

/* Every width a partition moves: int32, bytes, the 12-byte struct; the full tier 2 and 8 bytes and the
 * other item mode too. */
static void test_partition(void **state)
{
    (void)state;
    partition_sizes(CLSCAN_INT32);
    partition_sizes(CLSCAN_UINT8);
    partition_sizes(key12);
    if (ref_quick())
        return;
    partition_sizes(CLSCAN_INT16);
    if (ctx->info.int64)
        partition_sizes(CLSCAN_INT64);
    const int stream = clscan__compact_tile(ctx, CLSCAN_INT32).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    if (stream)
        test_set_tile(ctx, 64, 16);
    partition_sizes(CLSCAN_INT32);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
}

/* ---- the _async forms do not block ------------------------------------------------------------------ */
/* Calls fn twice: once to build its program and scratch, then behind a gate (a marker on the context's
 * queue waiting on a user event): the call must return while its work cannot have started, which a
 * marker enqueued after it shows (not complete); a call that waited would never return (the test's
 * timeout). Then the gate opens and check() sees the results. */
typedef struct async_bufs {
    cl_mem keys, values, flags, out, out2, count, init;
} async_bufs;

static void gated(const char *what, clscan_status (*fn)(const async_bufs *), const async_bufs *b)
{
    cl_command_queue q = clscan_context_queue(ctx);
    assert_int_equal(fn(b), CLSCAN_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(clscan_context_cl_context(ctx), &err), before = NULL, after = NULL;
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 1, &gate, &before), CL_SUCCESS);
    const clscan_status st = fn(b);
    assert_int_equal(clEnqueueMarkerWithWaitList(q, 0, NULL, &after), CL_SUCCESS);
    cl_int status = CL_COMPLETE;
    assert_int_equal(clGetEventInfo(after, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    print_message("[ async    ] %s: returned %s with the queue's work %s\n", what, clscan_status_string(st),
                  status == CL_COMPLETE ? "done (it waited)" : "still pending");
    assert_int_equal(st, CLSCAN_SUCCESS);
    assert_true(status != CL_COMPLETE);
    clReleaseEvent(gate), clReleaseEvent(before), clReleaseEvent(after);
}

enum { AN = 100000 };   /* keys i / 10, values 1, flags every third */
static clscan_status a_reduce_by_key(const async_bufs *b)
{
    return clscan_reduce_by_key_async(ctx, b->keys, b->values, b->out2, b->out, AN, CLSCAN_UINT32, CLSCAN_INT32,
                                      CLSCAN_ADD, b->count);
}
static clscan_status a_lengths(const async_bufs *b)
{
    return clscan_run_length_encode_async(ctx, b->keys, b->out2, b->out, AN, CLSCAN_UINT32, b->count);
}
static clscan_status a_unique(const async_bufs *b) { return clscan_unique_async(ctx, b->keys, b->out2, AN, CLSCAN_UINT32, b->count); }
static clscan_status a_partition(const async_bufs *b)
{
    return clscan_partition_async(ctx, b->values, b->flags, b->out, AN, CLSCAN_INT32, b->count);
}
static clscan_status a_compact(const async_bufs *b)
{
    return clscan_compact_async(ctx, b->values, b->flags, b->out, AN, CLSCAN_INT32, b->count);
}
static clscan_status a_reduce(const async_bufs *b) { return clscan_reduce_async(ctx, b->values, AN, CLSCAN_INT32, CLSCAN_ADD, b->init); }
static clscan_status a_scan_init(const async_bufs *b)   /* from the value a_reduce left on the device */
{
    return clscan_exclusive_scan_init(ctx, b->values, b->out, AN, CLSCAN_INT32, CLSCAN_ADD, NULL, b->init);
}

static uint64_t read_count(const async_bufs *b)
{
    uint64_t c = 0;
    assert_int_equal(ref_read(ctx, b->count, 8, &c), 1);
    return c;
}

static void test_async_does_not_block(void **state)
{
    (void)state;
    static uint32_t keys[AN];
    static int32_t values[AN], got[AN];
    static unsigned char flags[AN];
    static uint64_t lengths[AN];
    for (size_t i = 0; i < AN; i++)
        keys[i] = (uint32_t)(i / 10), values[i] = 1, flags[i] = i % 3 == 0;
    const async_bufs b = {ref_buffer(ctx, sizeof keys, keys), ref_buffer(ctx, sizeof values, values),
                          ref_buffer(ctx, sizeof flags, flags), ref_buffer(ctx, AN * 8, NULL),
                          ref_buffer(ctx, AN * 8, NULL), ref_buffer(ctx, 8, NULL), ref_buffer(ctx, 4, NULL)};
    gated("reduce_by_key_async", a_reduce_by_key, &b);
    assert_int_equal(read_count(&b), AN / 10);
    assert_int_equal(ref_read(ctx, b.out, AN / 10 * 4, got), 1);
    for (size_t r = 0; r < AN / 10; r++)
        assert_int_equal(got[r], 10);
    gated("run_length_encode_async", a_lengths, &b);
    assert_int_equal(read_count(&b), AN / 10);
    assert_int_equal(ref_read(ctx, b.out, AN / 10 * 8, lengths), 1);
    for (size_t r = 0; r < AN / 10; r++)
        assert_int_equal(lengths[r], 10);
    gated("unique_async", a_unique, &b);
    assert_int_equal(read_count(&b), AN / 10);
    assert_int_equal(ref_read(ctx, b.out2, AN / 10 * 4, got), 1);
    for (size_t r = 0; r < AN / 10; r++)
        assert_int_equal((uint32_t)got[r], r);
    gated("partition_async", a_partition, &b);
    assert_int_equal(read_count(&b), (AN + 2) / 3);
    gated("compact_async", a_compact, &b);
    assert_int_equal(read_count(&b), (AN + 2) / 3);
    gated("reduce_async", a_reduce, &b);
    gated("exclusive_scan_init from a device value", a_scan_init, &b);
    assert_int_equal(ref_read(ctx, b.out, AN * 4, got), 1);
    for (size_t i = 0; i < AN; i++)
        assert_int_equal(got[i], (int32_t)(AN + i));
    clReleaseMemObject(b.keys), clReleaseMemObject(b.values), clReleaseMemObject(b.flags), clReleaseMemObject(b.out);
    clReleaseMemObject(b.out2), clReleaseMemObject(b.count), clReleaseMemObject(b.init);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_bad_arguments), cmocka_unit_test(test_runs_float_bits),
        cmocka_unit_test(test_runs_nan_values),
        cmocka_unit_test(test_reduce_by_key),      cmocka_unit_test(test_run_length_encode),
        cmocka_unit_test(test_unique),             cmocka_unit_test(test_runs_other_paths),
        cmocka_unit_test(test_partition),          cmocka_unit_test(test_async_does_not_block),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
