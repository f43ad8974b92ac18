/* Every kernel path on small inputs, for running under Oclgrind (`oclgrind --data-races
 * --uninitialized`, see tests/oclgrind.cmake): each strategy x work-group algorithm of the scans, each
 * strategy from an initial value on the host and on the device (written by clscan_reduce_async), the
 * compaction's count left on the device (clscan_compact_async), the
 * single-pass look-back with its fallback forced, in place and out of place, reduce, both compaction
 * paths, both sorts and sort_by_key, the summed-area tables in both shapes, and a registered operator
 * that is not commutative under each strategy and in a reduction. Sizes 1, a work-group + 1 and
 * 3 tiles + 5, with small tiles (64 x 4) so the simulator finishes quickly. Every result is also
 * checked here against the CPU; the checker's verdict is its log (empty or not).
 * Segmented scans by heads and by key, in place and out of place, the segmented reduction and the runs
 * (reduce by key, lengths, unique), their fallbacks forced; the partition with the compaction.
 * argmin and argmax of floats with NaNs.
 * Histograms, even and by edges, with bins in local memory (16) and in global memory (8200), and edges
 * that do not increase (the search must stay in bounds); bytes counted by value, in one band and two;
 * int32 by the 32-bit rule and int64 by the 128-bit one.
 * Usage: oclgrind_paths scan|scan8|fallback|reduce|compact|sort|sat|user|segmented|arg|hist [[!]part of case names].
 * $CLSCAN_TEST_SEED replays. */
#include "prims/prims.h"
#include "ref.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WG 64
#define ITEMS 4
static const size_t sizes[] = {1, WG + 1, 3 * WG * ITEMS + 5};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static clscan_context *ctx;
static uint64_t rng;
static int failures;
/* argv[2]: run only the cases whose name contains it, or with a leading '!' only those whose name
 * does not (tests/CMakeLists.txt runs the out-of-place cases with concurrent work-groups). */
static const char *only = "";

static int skipped(const char *what)
{
    return only[0] == '!' ? strstr(what, only + 1) != NULL : strstr(what, only) == NULL;
}

/* An output buffer poisoned by a write: Oclgrind 21.10 counts memory set by clEnqueueFillBuffer (what
 * ref_buffer poisons with) as uninitialized, which would hide real reports among false ones. */
static cl_mem poisoned(size_t bytes)
{
    unsigned char *poison = malloc(bytes ? bytes : 1);
    memset(poison, REF_POISON, bytes ? bytes : 1);
    cl_mem m = ref_buffer(ctx, bytes ? bytes : 1, poison);
    free(poison);
    return m;
}

static void fail(const char *what, size_t n, const char *detail)
{
    fprintf(stderr, "FAIL %s n=%zu: %s\n", what, n, detail);
    failures++;
}

/* A status check: on failure the reason goes to stderr and the case counts as failed. */
static int ok_status(clscan_status st, const char *what, size_t n)
{
    if (st != CLSCAN_SUCCESS)
        fail(what, n, clscan_last_error(ctx));
    return st == CLSCAN_SUCCESS;
}

static void scan_case(size_t n, clscan_type type, clscan_op op, int exclusive, int in_place, const char *what)
{
    if (skipped(what))
        return;
    const size_t bytes = n * clscan_type_size(type);
    void *in = malloc(bytes), *got = malloc(bytes);
    ref_fill(in, n, type, op, &rng);
    cl_mem a = ref_buffer(ctx, bytes, in), b = in_place ? a : poisoned(bytes);
    clscan_status st = exclusive ? clscan_exclusive_scan(ctx, a, b, n, type, op)
                                 : clscan_inclusive_scan(ctx, a, b, n, type, op);
    char msg[256] = "";
    if (ok_status(st, what, n) && (!ref_read(ctx, b, bytes, got) ||
                                   !ref_check_scan(in, got, n, type, op, exclusive, msg, sizeof msg)))
        fail(what, n, msg);
    if (!in_place)
        clReleaseMemObject(b);
    clReleaseMemObject(a);
    free(in);
    free(got);
}

/* An int32 add scan from an initial value: from the host, or (on_device) element 0 of a buffer that
 * clscan_reduce_async wrote just before (the sum of two parts). Checked as test_scan does, against the
 * plain inclusive scan of x = {init, in...}. */
static void init_case(size_t n, int exclusive, int on_device, const char *what)
{
    if (skipped(what))
        return;
    int32_t *x = malloc((n + 1) * sizeof *x), *got = malloc((n + 1) * sizeof *got), part[2];
    ref_fill(x, n + 1, CLSCAN_INT32, CLSCAN_ADD, &rng);
    ref_fill(part, 1, CLSCAN_INT32, CLSCAN_ADD, &rng);
    part[1] = (int32_t)((uint32_t)x[0] - (uint32_t)part[0]);
    cl_mem parts = ref_buffer(ctx, sizeof part, part), a = ref_buffer(ctx, n * sizeof *x, x + 1);
    cl_mem b = poisoned(n * sizeof *x), init_buf = on_device ? poisoned(sizeof *x) : NULL;
    clscan_status st = CLSCAN_SUCCESS;
    if (on_device)
        st = clscan_reduce_async(ctx, parts, 2, CLSCAN_INT32, CLSCAN_ADD, init_buf);
    if (st == CLSCAN_SUCCESS)
        st = exclusive ? clscan_exclusive_scan_init(ctx, a, b, n, CLSCAN_INT32, CLSCAN_ADD, on_device ? NULL : x, init_buf)
                       : clscan_inclusive_scan_init(ctx, a, b, n, CLSCAN_INT32, CLSCAN_ADD, on_device ? NULL : x, init_buf);
    got[0] = x[0];   /* inclusive: the outputs follow init */
    char msg[256] = "";
    if (ok_status(st, what, n) && (!ref_read(ctx, b, n * sizeof *x, got + !exclusive) ||
                                   !ref_check_scan(x, got, exclusive ? n : n + 1, CLSCAN_INT32, CLSCAN_ADD, 0, msg,
                                                   sizeof msg)))
        fail(what, n, msg);
    if (init_buf)
        clReleaseMemObject(init_buf);
    clReleaseMemObject(parts);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(x);
    free(got);
}

/* Each strategy x work-group algorithm, then AUTO, int32 add both ways and once in place. */
static void group_scan(void)
{
    const clscan_strategy strategies[] = {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_STRATEGY_REDUCE_THEN_SCAN,
                                          CLSCAN_STRATEGY_SINGLE_PASS};
    const clscan_wg_algorithm algos[] = {CLSCAN_WG_HILLIS_STEELE, CLSCAN_WG_BLELLOCH, CLSCAN_WG_SUBGROUP};
    for (size_t s = 0; s < 3; s++)
        for (size_t w = 0; w < 3; w++) {
            clscan_set_algorithm(ctx, strategies[s], algos[w]);
            for (size_t i = 0; i < NSIZES; i++)
                scan_case(sizes[i], CLSCAN_INT32, CLSCAN_ADD, (int)(i & 1), 0, "scan");
        }
    for (size_t s = 0; s < 3; s++) {   /* initial values, from the host and the device by turns */
        clscan_set_algorithm(ctx, strategies[s], CLSCAN_WG_AUTO);
        for (size_t i = 0; i < NSIZES; i++)
            init_case(sizes[i], (int)(i & 1), (int)((i >> 1) & 1), "scan from an initial value");
    }
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    for (size_t i = 0; i < NSIZES; i++)
        scan_case(sizes[i], CLSCAN_INT32, CLSCAN_ADD, 0, 1, "scan in place");
}

/* 8-byte elements (two status pieces) and the other operators, through AUTO. */
static void group_scan8(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        scan_case(sizes[i], CLSCAN_INT64, CLSCAN_MAX, 1, 0, "int64 max");
        scan_case(sizes[i], CLSCAN_DOUBLE, CLSCAN_ADD, 0, 0, "double add");
        scan_case(sizes[i], CLSCAN_UINT32, CLSCAN_MUL, 0, 0, "uint32 mul");
        scan_case(sizes[i], CLSCAN_FLOAT, CLSCAN_MIN, 1, 0, "float min");
    }
}

/* The single-pass fallback forced on: scan (out of place, then with the tiles numbered by group,
 * NVIDIA's small scans; in place by one group that takes every tile), then the portable paths. In
 * place, a group that recomputes a tile another group has overwritten races with it by design
 * (docs/reliability.md): with a group a tile even work-groups one after another would. */
static void group_fallback(void)
{
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_AUTO);
    for (size_t i = 0; i < NSIZES; i++) {
        scan_case(sizes[i], CLSCAN_INT32, CLSCAN_ADD, 0, 0, "forced fallback");
        scan_case(sizes[i], CLSCAN_INT64, CLSCAN_ADD, 1, 0, "forced fallback int64");
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_BY_ID, 1);
    for (size_t i = 0; i < NSIZES; i++)
        scan_case(sizes[i], CLSCAN_INT32, CLSCAN_ADD, 1, 0, "forced fallback, tiles by group");
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_BY_ID, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, 1);
    for (size_t i = 0; i < NSIZES; i++)
        scan_case(sizes[i], CLSCAN_INT32, CLSCAN_ADD, 0, 1, "forced fallback in place");
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 1);
    for (size_t i = 0; i < NSIZES; i++)
        scan_case(sizes[i], CLSCAN_INT32, CLSCAN_ADD, 0, 0, "portable");
    clscan_tuning_set(ctx, CLSCAN_TUNE_PORTABLE, 0);
}

static void group_reduce(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        const clscan_type types[] = {CLSCAN_INT32, CLSCAN_UINT64, CLSCAN_FLOAT};
        for (size_t t = 0; t < 3; t++) {
            const size_t n = sizes[i], bytes = n * clscan_type_size(types[t]);
            void *in = malloc(bytes);
            ref_fill(in, n, types[t], CLSCAN_ADD, &rng);
            cl_mem a = ref_buffer(ctx, bytes, in);
            unsigned char result[8];
            char msg[256] = "";
            if (ok_status(clscan_reduce(ctx, a, n, types[t], CLSCAN_ADD, result), "reduce", n) &&
                !ref_check_reduce(in, result, n, types[t], CLSCAN_ADD, msg, sizeof msg))
                fail("reduce", n, msg);
            clReleaseMemObject(a);
            free(in);
        }
    }
}

/* Random int32 elements, about a third of the flags set (to any non-zero byte): the kept ones in
 * order, and the count. */
/* A compaction (partition: the stable partition) of int32, about one element in three flagged by any
 * non-zero byte; async: the count left on the device (the _async form) and read from there. */
static void select_case(size_t n, int async, int partition, const char *what)
{
    if (skipped(what))
        return;
    int32_t *in = malloc(n * 4), *got = malloc(n * 4);
    unsigned char *flags = malloc(n);
    size_t want = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        in[i] = (int32_t)ref_next(&rng);
        flags[i] = (unsigned char)(ref_next(&rng) % 3 == 0 ? 1 + ref_next(&rng) % 255 : 0);
        want += flags[i] != 0;
    }
    cl_mem a = ref_buffer(ctx, n * 4, in), f = ref_buffer(ctx, n, flags), out = poisoned(n * 4);
    cl_mem count_buf = async ? poisoned(sizeof(cl_ulong)) : NULL;
    clscan_status st;
    if (partition)
        st = async ? clscan_partition_async(ctx, a, f, out, n, CLSCAN_INT32, count_buf)
                   : clscan_partition(ctx, a, f, out, n, CLSCAN_INT32, &count);
    else
        st = async ? clscan_compact_async(ctx, a, f, out, n, CLSCAN_INT32, count_buf)
                   : clscan_compact(ctx, a, f, out, n, CLSCAN_INT32, &count);
    cl_ulong on_device = 0;
    if (async && st == CLSCAN_SUCCESS && ref_read(ctx, count_buf, sizeof on_device, &on_device))
        count = (size_t)on_device;
    if (ok_status(st, what, n) && ref_read(ctx, out, n * 4, got)) {
        /* the kept elements in order from 0; a partition's others in order after them */
        size_t front = 0, back = want;
        int bad = count != want;
        for (size_t i = 0; i < n && !bad; i++) {
            const size_t at = flags[i] ? front++ : back++;
            bad |= (flags[i] || partition) && got[at] != in[i];
        }
        if (bad)
            fail(what, n, partition ? "partition differs" : "kept elements or count differ");
    }
    if (count_buf)
        clReleaseMemObject(count_buf);
    clReleaseMemObject(a), clReleaseMemObject(f), clReleaseMemObject(out);
    free(in), free(got), free(flags);
}

/* Single-pass (AUTO), its fallback forced, and the three-launch path (block-sum); the partition. */
static void group_compact(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        select_case(sizes[i], 0, 0, "compact single-pass");
        select_case(sizes[i], 1, 0, "compact single-pass, the count on the device");
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    for (size_t i = 0; i < NSIZES; i++)
        select_case(sizes[i], 0, 0, "compact forced fallback");
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_AUTO);
    for (size_t i = 0; i < NSIZES; i++) {
        select_case(sizes[i], 0, 0, "compact three launches");
        select_case(sizes[i], 1, 0, "compact three launches, the count on the device");
    }
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    for (size_t i = 0; i < NSIZES; i++)
        select_case(sizes[i], (int)(i & 1), 1, "partition");
}

/* A segmented scan of random int32 by heads (about one element in five) or by uint32 keys (runs of
 * those segments), inclusive or exclusive, in place or not, against a loop. */
static void segmented_case(size_t n, int by_key, int exclusive, int in_place, const char *what)
{
    if (skipped(what))
        return;
    int32_t *in = malloc(n * 4), *got = malloc(n * 4);
    unsigned char *heads = malloc(n);
    uint32_t *keys = malloc(n * 4), key = 0;
    for (size_t i = 0; i < n; i++) {
        in[i] = (int32_t)ref_next(&rng);
        heads[i] = (unsigned char)(ref_next(&rng) % 5 == 0 ? 1 + ref_next(&rng) % 255 : 0);
        key += heads[i] != 0;
        keys[i] = key;
    }
    cl_mem a = ref_buffer(ctx, n * 4, in), m = by_key ? ref_buffer(ctx, n * 4, keys) : ref_buffer(ctx, n, heads);
    cl_mem out = in_place ? a : poisoned(n * 4);
    clscan_status st;
    if (by_key)
        st = exclusive ? clscan_exclusive_scan_by_key(ctx, m, CLSCAN_UINT32, a, out, n, CLSCAN_INT32, CLSCAN_ADD)
                       : clscan_inclusive_scan_by_key(ctx, m, CLSCAN_UINT32, a, out, n, CLSCAN_INT32, CLSCAN_ADD);
    else
        st = exclusive ? clscan_segmented_exclusive_scan(ctx, a, m, out, n, CLSCAN_INT32, CLSCAN_ADD)
                       : clscan_segmented_inclusive_scan(ctx, a, m, out, n, CLSCAN_INT32, CLSCAN_ADD);
    if (ok_status(st, what, n) && ref_read(ctx, out, n * 4, got)) {
        uint32_t run = 0;
        int bad = 0;
        for (size_t i = 0; i < n; i++) {
            const uint32_t before = i == 0 || heads[i] ? 0u : run;
            run = before + (uint32_t)in[i];
            bad |= (uint32_t)got[i] != (exclusive ? before : run);
        }
        if (bad)
            fail(what, n, "segmented scan differs");
    }
    if (!in_place)
        clReleaseMemObject(out);
    clReleaseMemObject(a);
    clReleaseMemObject(m);
    free(in), free(got), free(heads), free(keys);
}

/* A segmented reduction over random offsets (empty segments, lengths to 40, the last offset past the
 * end: cut), against a loop. */
static void segmented_reduce_case(size_t n, const char *what)
{
    if (skipped(what))
        return;
    int32_t *in = malloc(n * 4), *got = malloc((n + 2) * 4);
    uint64_t *off = malloc((n + 3) * 8);
    size_t segs = 0, pos = 0;
    off[0] = 0;
    while (pos < n) {
        pos += ref_next(&rng) % 40;
        off[++segs] = pos < n ? pos : n;
    }
    off[segs] = n + 7;
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)ref_next(&rng);
    cl_mem a = ref_buffer(ctx, n * 4, in), o = ref_buffer(ctx, (segs + 1) * 8, off), out = poisoned(segs * 4);
    clscan_status st = clscan_segmented_reduce(ctx, a, o, out, segs, CLSCAN_INT32, CLSCAN_ADD);
    if (ok_status(st, what, n) && ref_read(ctx, out, segs * 4, got)) {
        int bad = 0;
        for (size_t s = 0; s < segs; s++) {
            const size_t start = off[s] < n ? off[s] : n, end = off[s + 1] < n ? off[s + 1] : n;
            uint32_t sum = 0;
            for (size_t k = start; k < end; k++)
                sum += (uint32_t)in[k];
            bad |= (uint32_t)got[s] != sum;
        }
        if (bad)
            fail(what, n, "segment sums differ");
    }
    clReleaseMemObject(a), clReleaseMemObject(o), clReleaseMemObject(out);
    free(in), free(got), free(off);
}

/* Runs of uint32 keys (a new key with chance 1/3): reduce_by_key of int32 (fn 0), run-length encoding
 * (1) or unique (2), the run count on the device every other size; against a loop. */
static void runs_case(size_t n, int fn, int async, const char *what)
{
    if (skipped(what))
        return;
    int32_t *in = malloc(n * 4), *got = malloc(n * 4), *kgot = malloc(n * 4);
    uint32_t *keys = malloc(n * 4);
    uint64_t *lengths = malloc(n * 8);
    for (size_t i = 0; i < n; i++) {
        in[i] = (int32_t)ref_next(&rng);
        keys[i] = i == 0 ? 5u : keys[i - 1] + (ref_next(&rng) % 3 == 0);
    }
    cl_mem k = ref_buffer(ctx, n * 4, keys), v = ref_buffer(ctx, n * 4, in), ko = poisoned(n * 4);
    cl_mem vo = fn == 1 ? poisoned(n * 8) : poisoned(n * 4), cb = async ? poisoned(8) : NULL;
    size_t runs = 0;
    cl_ulong on_device = 0;
    clscan_status st;
    if (fn == 0)
        st = async ? clscan_reduce_by_key_async(ctx, k, v, ko, vo, n, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, cb)
                   : clscan_reduce_by_key(ctx, k, v, ko, vo, n, CLSCAN_UINT32, CLSCAN_INT32, CLSCAN_ADD, &runs);
    else if (fn == 1)
        st = async ? clscan_run_length_encode_async(ctx, k, ko, vo, n, CLSCAN_UINT32, cb)
                   : clscan_run_length_encode(ctx, k, ko, vo, n, CLSCAN_UINT32, &runs);
    else
        st = async ? clscan_unique_async(ctx, k, ko, n, CLSCAN_UINT32, cb) : clscan_unique(ctx, k, ko, n, CLSCAN_UINT32, &runs);
    if (async && st == CLSCAN_SUCCESS && ref_read(ctx, cb, sizeof on_device, &on_device))
        runs = (size_t)on_device;
    if (ok_status(st, what, n) && ref_read(ctx, ko, n * 4, kgot) &&
        (fn == 2 || ref_read(ctx, vo, fn == 1 ? n * 8 : n * 4, fn == 1 ? (void *)lengths : (void *)got))) {
        size_t r = 0, start = 0;
        int bad = 0;
        for (size_t i = 1; i <= n; i++) {
            if (i < n && keys[i] == keys[i - 1])
                continue;
            uint32_t sum = 0;
            for (size_t j = start; j < i; j++)
                sum += (uint32_t)in[j];
            bad |= r >= runs || (uint32_t)kgot[r] != keys[start] || (fn == 0 && (uint32_t)got[r] != sum) ||
                   (fn == 1 && lengths[r] != i - start);
            r++, start = i;
        }
        if (bad || r != runs)
            fail(what, n, "runs differ");
    }
    clReleaseMemObject(k), clReleaseMemObject(v), clReleaseMemObject(ko), clReleaseMemObject(vo);
    if (cb)
        clReleaseMemObject(cb);
    free(in), free(got), free(kgot), free(keys), free(lengths);
}

/* By heads and by key, inclusive and exclusive in turn, in place and not; the segmented reduction; the
 * runs; then all with every look-back's fallback forced. */
static void group_segmented(void)
{
    for (int fallback = 0; fallback < 2; fallback++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, fallback);
        for (size_t i = 0; i < NSIZES; i++)
            for (int by_key = 0; by_key < 2; by_key++) {
                segmented_case(sizes[i], by_key, (int)(i & 1), 0, fallback ? "segmented forced fallback" : "segmented");
                segmented_case(sizes[i], by_key, (int)(~i & 1), 1,
                               fallback ? "segmented forced fallback, in place" : "segmented, in place");
            }
        for (size_t i = 0; i < NSIZES; i++)
            segmented_reduce_case(sizes[i], fallback ? "segmented reduce forced fallback" : "segmented reduce");
        for (size_t i = 0; i < NSIZES; i++)
            for (int fn = 0; fn < 3; fn++)
                runs_case(sizes[i], fn, (int)(i & 1), fallback ? "runs forced fallback" : "runs");
        /* unique and run-length encoding as GPUs run them: held items, the kept elements staged */
        clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 1);
        for (size_t i = 0; i < NSIZES; i++)
            for (int fn = 1; fn < 3; fn++)
                runs_case(sizes[i], fn, (int)(~i & 1), fallback ? "runs held forced fallback" : "runs held");
        clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
}

/* argmin and argmax of random floats with NaNs and ties, against a loop. */
static void arg_case(size_t n, int max, const char *what)
{
    if (skipped(what))
        return;
    float *in = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        in[i] = ref_next(&rng) % 9 == 0 ? NAN : (float)(ref_next(&rng) % 50);
    size_t want = 0, index = 0;
    for (size_t i = 1; i < n; i++)
        if (!isnan(in[i]) && (isnan(in[want]) || (max ? in[i] > in[want] : in[i] < in[want])))
            want = i;
    cl_mem a = ref_buffer(ctx, n * 4, in);
    float value = 0;
    clscan_status st = max ? clscan_argmax(ctx, a, n, CLSCAN_FLOAT, &index, &value)
                           : clscan_argmin(ctx, a, n, CLSCAN_FLOAT, &index, &value);
    if (ok_status(st, what, n) && (index != want || memcmp(&value, &in[want], 4) != 0))
        fail(what, n, "index or value differ");
    clReleaseMemObject(a);
    free(in);
}

static void group_arg(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        arg_case(sizes[i], 0, "argmin");
        arg_case(sizes[i], 1, "argmax");
    }
}

/* A histogram's call and its counts c against want (where compare): a failure if either is wrong. */
static void hist_check(clscan_status st, cl_mem c, const uint64_t *want, size_t bins, int compare, const char *what,
                       size_t n)
{
    uint64_t *got = malloc(bins * 8);
    if (ok_status(st, what, n) && (!ref_read(ctx, c, bins * 8, got) || (compare && memcmp(got, want, bins * 8))))
        fail(what, n, "counts differ");
    free(got);
}

/* A histogram of random floats (NaNs and values outside too) over [-1, 1) or 17 random edges, against a
 * loop; shuffled edges only run (their counts are some counts). */
static void hist_case(size_t n, size_t bins, int range, int shuffled, const char *what)
{
    if (skipped(what))
        return;
    float *in = malloc(n * 4), *edges = malloc((bins + 1) * 4);
    for (size_t b = 0; b <= bins; b++)
        edges[b] = shuffled ? (float)(ref_next(&rng) % 200) / 100 - 1 : -1 + 2 * (float)b / (float)bins;
    for (size_t i = 0; i < n; i++)
        in[i] = ref_next(&rng) % 9 == 0 ? NAN : (float)(ref_next(&rng) % 250) / 100 - 1.25f;
    uint64_t *want = calloc(bins, 8);
    const float lower = -1, upper = 1, scale = (float)bins / (upper - lower);
    for (size_t i = 0; i < n && !shuffled; i++) {
        if (!(in[i] >= -1 && in[i] < 1))
            continue;
        size_t b = 0;
        if (range)
            while (!(in[i] < edges[b + 1]))
                b++;
        else {
            const float d = in[i] - lower, f = d * scale;
            b = d == 0 ? 0 : f < (float)bins ? (size_t)f : bins - 1;
            b = b < bins - 1 ? b : bins - 1;
        }
        want[b]++;
    }
    cl_mem a = ref_buffer(ctx, n * 4, in), e = ref_buffer(ctx, (bins + 1) * 4, edges), c = poisoned(bins * 8);
    clscan_status st = range ? clscan_histogram_range(ctx, a, n, CLSCAN_FLOAT, e, bins, c)
                             : clscan_histogram_even(ctx, a, n, CLSCAN_FLOAT, &lower, &upper, bins, c);
    hist_check(st, c, want, bins, !shuffled, what, n);
    clReleaseMemObject(a), clReleaseMemObject(e), clReleaseMemObject(c);
    free(in), free(edges), free(want);
}

/* A histogram of random bytes over [3, 250), counted by value in held items (the GPUs' way), against
 * a loop. */
static void hist_bytes_case(size_t n, size_t bins, const char *what)
{
    if (skipped(what))
        return;
    unsigned char *in = malloc(n);
    for (size_t i = 0; i < n; i++)
        in[i] = (unsigned char)ref_next(&rng);
    uint64_t *want = calloc(bins, 8);
    const unsigned char lower = 3, upper = 250;
    for (size_t i = 0; i < n; i++)
        if (in[i] >= lower && in[i] < upper)
            want[(size_t)(in[i] - lower) * bins / (upper - lower)]++;
    cl_mem a = ref_buffer(ctx, n, in), c = poisoned(bins * 8);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 1);
    clscan_status st = clscan_histogram_even(ctx, a, n, CLSCAN_UINT8, &lower, &upper, bins, c);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    hist_check(st, c, want, bins, 1, what, n);
    clReleaseMemObject(a), clReleaseMemObject(c);
    free(in), free(want);
}

/* A histogram of random int64 over [lower, upper) spread so wide that (x - lower) * bins needs more
 * than 64 bits (the rule's 128-bit split, clscan_hist_scale), and of int32 (the 32-bit rule), against a
 * loop in 128-bit arithmetic. */
static void hist_int_case(size_t n, size_t bins, int wide, const char *what)
{
    if (skipped(what))
        return;
    const int64_t lower = wide ? INT64_MIN / 2 - 12345 : -1000, upper = wide ? INT64_MAX / 3 : 1001;
    const size_t elem = wide ? 8 : 4;
    unsigned char *in = malloc(n * elem);
    uint64_t *want = calloc(bins, 8);
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = ref_next(&rng);
        const int64_t x = wide ? (int64_t)r : (int64_t)(r % 2400) - 1200;
        if (wide)
            memcpy(in + i * 8, &x, 8);
        else {
            const int32_t x32 = (int32_t)x;
            memcpy(in + i * 4, &x32, 4);
        }
        if (x >= lower && x < upper) {
            const unsigned __int128 d = (unsigned __int128)((uint64_t)x - (uint64_t)lower);
            want[(size_t)(d * bins / ((uint64_t)upper - (uint64_t)lower))]++;
        }
    }
    const int32_t lower32 = (int32_t)lower, upper32 = (int32_t)upper;
    cl_mem a = ref_buffer(ctx, n * elem, in), c = poisoned(bins * 8);
    clscan_status st = wide ? clscan_histogram_even(ctx, a, n, CLSCAN_INT64, &lower, &upper, bins, c)
                            : clscan_histogram_even(ctx, a, n, CLSCAN_INT32, &lower32, &upper32, bins, c);
    hist_check(st, c, want, bins, 1, what, n);
    clReleaseMemObject(a), clReleaseMemObject(c);
    free(in), free(want);
}

static void group_hist(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        hist_case(sizes[i], 16, 0, 0, "histogram even, local bins");
        hist_case(sizes[i], 16, 1, 0, "histogram range, local bins");
        hist_case(sizes[i], 8200, 0, 0, "histogram even, bands of local bins");
        hist_case(sizes[i], 8200, 1, 0, "histogram range, bands of local bins");
    }
    /* Oclgrind's 32 KiB hold 7680 bins a band: 8200 take two bands, 70000 more than a launch takes */
    hist_case(sizes[NSIZES - 1], 70000, 0, 0, "histogram even, global bins");
    hist_case(sizes[NSIZES - 1], 70000, 1, 0, "histogram range, global bins");
    hist_case(sizes[NSIZES - 1], 16, 1, 1, "histogram range, shuffled edges, local bins");
    hist_case(sizes[NSIZES - 1], 8200, 1, 1, "histogram range, shuffled edges, bands of local bins");
    hist_case(sizes[NSIZES - 1], 70000, 1, 1, "histogram range, shuffled edges, global bins");
    /* Integers: the 32-bit rule in local bins and in bands, the 128-bit split */
    hist_int_case(sizes[NSIZES - 1], 16, 0, "histogram int32, local bins");
    hist_int_case(sizes[NSIZES - 1], 8200, 0, "histogram int32, bands of local bins");
    hist_int_case(sizes[NSIZES - 1], 1000, 1, "histogram int64, 128-bit rule");
    /* Bytes by value: 16 copies of the values' counters in Oclgrind's 32 KiB leave 3584 bins a band */
    for (size_t i = 0; i < NSIZES; i++) {
        hist_bytes_case(sizes[i], 256, "histogram bytes by value, local bins");
        hist_bytes_case(sizes[i], 5000, "histogram bytes by value, bands of local bins");
    }
    /* Every group adding into one row (GPUs' choice up to 4096 bins), forced: its atomics, the last
     * group's move. */
    clscan_tuning_set(ctx, CLSCAN_TUNE_HIST_MERGE, 1);
    hist_bytes_case(sizes[NSIZES - 1], 256, "histogram bytes by value, local bins merged");
    hist_case(sizes[NSIZES - 1], 16, 0, 0, "histogram even, local bins merged");
    hist_case(sizes[NSIZES - 1], 8200, 1, 0, "histogram range, bands of local bins merged");
    clscan_tuning_set(ctx, CLSCAN_TUNE_HIST_MERGE, 0);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* uint32 keys with values = their first position: keys sorted, and equal keys keep their order. The
 * keys vary in three digits (passes A -> B -> C -> A), or in one (A -> B, then sort_home). */
static void sort_case(size_t n, int by_key, int one_digit, const char *what)
{
    if (skipped(what))
        return;
    uint32_t *keys = malloc(n * 4), *vals = malloc(n * 4), *want = malloc(n * 4), *got = malloc(n * 4),
             *gotv = malloc(n * 4);
    for (size_t i = 0; i < n; i++) {
        keys[i] = one_digit ? 0x5a000000u | (uint32_t)(ref_next(&rng) % 97) << 8
                            : (uint32_t)(ref_next(&rng) % 97) << 20 | (uint32_t)(ref_next(&rng) % 5);
        vals[i] = (uint32_t)i;
    }
    memcpy(want, keys, n * 4);
    qsort(want, n, 4, cmp_u32);
    cl_mem k = ref_buffer(ctx, n * 4, keys), v = ref_buffer(ctx, n * 4, vals);
    clscan_status st = by_key ? clscan_sort_by_key(ctx, k, v, n, CLSCAN_UINT32, CLSCAN_UINT32)
                              : clscan_sort(ctx, k, n, CLSCAN_UINT32);
    if (ok_status(st, what, n) && ref_read(ctx, k, n * 4, got) && ref_read(ctx, v, n * 4, gotv)) {
        int bad = memcmp(got, want, n * 4) != 0;
        for (size_t i = 0; by_key && !bad && i < n; i++)   /* each value names a key equal to its own, in order */
            bad = gotv[i] >= n || keys[gotv[i]] != got[i] || (i > 0 && got[i] == got[i - 1] && gotv[i] <= gotv[i - 1]);
        if (bad)
            fail(what, n, "not the stable sorted order");
    }
    clReleaseMemObject(k);
    clReleaseMemObject(v);
    free(keys), free(vals), free(want), free(got), free(gotv);
}

/* clscan_sort_indices (argsort) or clscan_sort_ex by key of uint32 keys, descending by bits [b, e) of
 * the keys: checked as the positions of the stable order of that field, reversed. */
static void sort_options_case(size_t n, int indices, unsigned b, unsigned e, const char *what)
{
    if (skipped(what))
        return;
    const clscan_sort_options o = {1, b, e};
    const uint32_t mask = (uint32_t)(((uint64_t)1 << (e - b)) - 1);
    uint32_t *keys = malloc(n * 4), *vals = malloc(n * 4), *got = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        keys[i] = (uint32_t)ref_next(&rng), vals[i] = (uint32_t)i;
    cl_mem k = ref_buffer(ctx, n * 4, keys), v = ref_buffer(ctx, n * 4, indices ? NULL : vals);
    clscan_status st = indices ? clscan_sort_indices(ctx, k, v, n, CLSCAN_UINT32, &o)
                               : clscan_sort_ex(ctx, k, v, n, CLSCAN_UINT32, CLSCAN_UINT32, &o);
    if (ok_status(st, what, n) && ref_read(ctx, v, n * 4, got)) {
        int bad = 0;
        for (size_t i = 0; !bad && i < n; i++) {
            const uint32_t f = got[i] < n ? keys[got[i]] >> b & mask : 0, g = i > 0 ? keys[got[i - 1]] >> b & mask : 0;
            bad = got[i] >= n || (i > 0 && (g < f || (g == f && got[i - 1] >= got[i])));
        }
        if (bad)
            fail(what, n, "not the stable descending order of the field");
    }
    clReleaseMemObject(k);
    clReleaseMemObject(v);
    free(keys), free(vals), free(got);
}

/* The multi-bit LSD sort, sort_by_key (also with a single pass and its copy home), sort_ex and
 * sort_indices descending by ranges of bits (overlapping digits, one bit: the split), the 1-bit
 * split reference path, and the one-sweep passes (also forced to their fallback). */
static void group_sort(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        sort_case(sizes[i], 0, 0, "sort keys");
        sort_case(sizes[i], 1, 0, "sort_by_key");
        sort_case(sizes[i], 1, 1, "sort_by_key one digit");
        sort_options_case(sizes[i], 1, 4, 27, "sort_indices descending, bits [4, 27)");
        sort_options_case(sizes[i], 0, 9, 10, "sort_ex descending, bit 9");
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_RADIX_BITS, 1);
    for (size_t i = 0; i < NSIZES; i++)
        sort_case(sizes[i], 1, 0, "sort_by_key split");
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_RADIX_BITS, 0);
    /* The one-sweep passes, waiting on their predecessors and with every look-back counting them. */
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_ONESWEEP, 1);
    for (int forced = 0; forced < 2; forced++) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, forced);
        for (size_t i = 0; i < NSIZES; i++) {
            sort_case(sizes[i], 0, 0, forced ? "sort one sweep, forced fallback" : "sort one sweep");
            sort_case(sizes[i], 1, 1, forced ? "sort_by_key one sweep one digit, forced fallback"
                                             : "sort_by_key one sweep one digit");
        }
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, 1);   /* groups take tile after tile */
    sort_case(sizes[NSIZES - 1], 1, 0, "sort_by_key one sweep, a group a compute unit");
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_GROUPS, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SORT_ONESWEEP, 0);
}

static void sat_case(size_t w, size_t h, int in_place, const char *what)
{
    if (skipped(what))
        return;
    const size_t n = w * h;
    int32_t *in = malloc(n * 4), *got = malloc(n * 4), *want = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(ref_next(&rng) % 1000) - 500;
    for (size_t y = 0; y < h; y++) {
        uint32_t run = 0;   /* the row so far, then plus the table's row above */
        for (size_t x = 0; x < w; x++) {
            run += (uint32_t)in[y * w + x];
            want[y * w + x] = (int32_t)(run + (y ? (uint32_t)want[(y - 1) * w + x] : 0u));
        }
    }
    cl_mem a = ref_buffer(ctx, n * 4, in), b = in_place ? a : poisoned(n * 4);
    if (ok_status(clscan_summed_area_table(ctx, a, b, w, h, CLSCAN_INT32), what, n) && ref_read(ctx, b, n * 4, got) &&
        memcmp(got, want, n * 4) != 0)
        fail(what, n, "table differs");
    if (!in_place)
        clReleaseMemObject(b);
    clReleaseMemObject(a);
    free(in), free(got), free(want);
}

/* The device's shape (bands of rows on a GPU: single-pass, then three passes), the other shape, in
 * place, and forced fallbacks. */
static void group_sat(void)
{
    const size_t shapes[][2] = {{1, 1}, {WG + 1, 3}, {37, 3 * 16 + 5}};
    for (int band = 0; band >= -1; band--) {
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, band ? -3 : 0);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, 1);
        for (size_t i = 0; i < 3; i++) {
            sat_case(shapes[i][0], shapes[i][1], 0, band ? "sat other shape" : "sat");
            sat_case(shapes[i][0], shapes[i][1], 1, band ? "sat other shape in place" : "sat in place");
        }
        clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
        sat_case(37, 3 * 16 + 5, 0, "sat forced fallback");
        sat_case(37, 3 * 16 + 5, 1, "sat forced fallback in place");
        clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
        clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, 2);
        for (size_t i = 0; !band && i < 3; i++) {
            sat_case(shapes[i][0], shapes[i][1], 0, "sat three passes");
            sat_case(shapes[i][0], shapes[i][1], 1, "sat three passes in place");
        }
    }
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_PATH, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SAT_BAND, 0);
}

/* Affine maps x -> m x + c mod 2^16 as m << 16 | c, b after a (test_user.c's): any reordering of operands
 * shows. Multipliers odd, so that products do not collapse to 0. */
static uint32_t affine16(uint32_t a, uint32_t b)
{
    uint32_t am = a >> 16, ac = a & 0xffffu, bm = b >> 16, bc = b & 0xffffu;
    return ((bm * am) & 0xffffu) << 16 | ((bm * ac + bc) & 0xffffu);
}
static const char affine16_cl[] =
    "(((b >> 16) * (a >> 16)) & 0xffffu) << 16 | (((b >> 16) * (a & 0xffffu) + (b & 0xffffu)) & 0xffffu)";
#define AFFINE16_IDENTITY 0x10000u

/* A scan (or, reduce set, a reduction) of n affine maps through the registered op, against the CPU. */
static void user_case(clscan_op op, size_t n, int exclusive, int reduce, const char *what)
{
    if (skipped(what))
        return;
    uint32_t *in = malloc(n * 4), *got = malloc(n * 4), acc = AFFINE16_IDENTITY, result = 0;
    for (size_t i = 0; i < n; i++)
        in[i] = (uint32_t)ref_next(&rng) | 0x10000u;
    cl_mem a = ref_buffer(ctx, n * 4, in), b = reduce ? NULL : poisoned(n * 4);
    clscan_status st = reduce      ? clscan_reduce(ctx, a, n, CLSCAN_UINT32, op, &result)
                       : exclusive ? clscan_exclusive_scan(ctx, a, b, n, CLSCAN_UINT32, op)
                                   : clscan_inclusive_scan(ctx, a, b, n, CLSCAN_UINT32, op);
    if (ok_status(st, what, n) && (reduce || ref_read(ctx, b, n * 4, got))) {
        int right = 1;
        for (size_t i = 0; i < n; i++) {
            const uint32_t before = acc;
            acc = affine16(acc, in[i]);
            right &= reduce || got[i] == (exclusive ? before : acc);
        }
        if (!right || (reduce && result != acc))
            fail(what, n, reduce ? "the reduction differs" : "a scanned element differs");
    }
    if (b)
        clReleaseMemObject(b);
    clReleaseMemObject(a);
    free(in), free(got);
}

/* A registered operator that is not commutative (its operands must keep their order everywhere): a
 * scan under each strategy, inclusive and exclusive in turn, and a reduction. */
static void group_user(void)
{
    const uint32_t identity = AFFINE16_IDENTITY;
    clscan_op op = CLSCAN_ADD;
    if (!ok_status(clscan_register_op(ctx, CLSCAN_UINT32, affine16_cl, &identity, NULL, 0, &op), "register", 0))
        return;
    const clscan_strategy strategies[] = {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_STRATEGY_REDUCE_THEN_SCAN,
                                          CLSCAN_STRATEGY_SINGLE_PASS};
    for (size_t s = 0; s < 3; s++) {
        clscan_set_algorithm(ctx, strategies[s], CLSCAN_WG_AUTO);
        for (size_t i = 0; i < NSIZES; i++)
            user_case(op, sizes[i], (int)((i + s) & 1), 0, "user scan");
    }
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    for (size_t i = 0; i < NSIZES; i++)
        user_case(op, sizes[i], 0, 1, "user reduce");
}

int main(int argc, char **argv)
{
    static const struct { const char *name; void (*run)(void); } groups[] = {
        {"scan", group_scan},       {"scan8", group_scan8}, {"fallback", group_fallback}, {"reduce", group_reduce},
        {"compact", group_compact}, {"sort", group_sort},   {"sat", group_sat},           {"user", group_user},
        {"segmented", group_segmented}, {"arg", group_arg}, {"hist", group_hist},
    };
    const char *which = argc > 1 ? argv[1] : "";
    only = argc > 2 ? argv[2] : "";
    rng = ref_seed("oclgrind_paths");
    ctx = ref_context();
    if (!ctx)
        return 1;
    test_set_tile(ctx, WG, ITEMS);
    /* Oclgrind 21.10 reports memory of a buffer created after another was released as uninitialized
     * even once a kernel has written all of it (docs/reliability.md has a ten-line reproduction), so
     * every scratch buffer is made, when first needed, past what these sizes need, and never re-created. */
    if (clscan_tuning_set(ctx, CLSCAN_TUNE_SCRATCH_BYTES, 1L << 20) != CLSCAN_SUCCESS)
        return 1;
    int found = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (!strcmp(which, groups[g].name))
            groups[g].run(), found = 1;
    clscan_context_release(ctx);
    if (!found)
        fprintf(stderr, "usage: oclgrind_paths scan|scan8|fallback|reduce|compact|sort|sat|user|segmented|arg|hist\n");
    printf("oclgrind_paths %s: %d failure(s)\n", which, failures);
    return !found || failures != 0;
}
