/* clscan_histogram_even and clscan_histogram_range (histogram.cl): the host's part of the even split (the
 * float scale and the integer range, computed here so that the device only multiplies), the choice between
 * local counts per work-group and one global row per launch, and the fold into the caller's ulong counts.
 * Also the checked, validated pieces clscan_mpi's histogram runs between its agreements (prims.h). */
#include "prims.h"
#include "../../cl/core/sizes.clh"   /* the kernels' own formulas (a path from here: no include dir) */
#include <math.h>
#include <string.h>

/* GPUs count in local memory (uint each) as many bins as fit beside HIST_LOCAL_SPARE bytes, in up to
 * HIST_MAX_BANDS bands of them, a group a band of a share: each element's bin is found once a band,
 * and a band costs about what a histogram whose bins all fit does (H100, 2^28 floats: 0.41 ms a band,
 * 0.43 for 256 bins), so that past about nine bands one global row is faster (3.9 ms). Measured there
 * (bench/notebook.md): 65536 bins in 6 bands 2.46 ms, in 8 bands 3.20, in 16 bands 5.11; 24581 bins in
 * 3 bands 1.29 ms, all against 3.9 in the global row. */
#define HIST_LOCAL_SPARE 2048
#define HIST_MAX_BANDS 8
/* GPUs' 8-bit elements: counters of each value, at most, and the local memory they leave for the bins
 * at least (value_copies). H100, 2^28 bytes over 256 bins: 1, 4 and 32 copies 0.16-0.17, 0.16 and
 * 0.136 ms, against 0.277 counting by bin through the table. */
#define HIST_MOST_COPIES 32
#define HIST_VALUES_BESIDE 16384
/* Elements one uint counter may see: a local group's share, or one global launch; shares are multiples
 * of HIST_ALIGN elements, so that every share starts on a 16-byte vector (histogram.cl). */
#define HIST_MAX_SHARE 0xFFFFFFF0ull
#define HIST_ALIGN 16
/* Work-groups a compute unit (as the reductions); counting bytes by value, six: groups of 33 KiB, six of
 * which fill an H100's 228 KiB, so that the shares run in one wave (H100, 2^28 bytes over 256 bins: 4,
 * 6, 8, 12, 24 and 48 groups 0.127, 0.116-0.121, 0.139-0.141, 0.122-0.127, 0.129 and 0.140-0.147 ms;
 * eight leave a third of the slots idle in a second wave). */
#define HIST_GROUPS_PER_CU 8
#define HIST_VALUE_GROUPS_PER_CU 6
/* GPUs' groups add into one row (run_local) up to this many bins; past them the atomics cost more than
 * a second launch that folds the groups' rows (H100, floats over 65536 bins in bands: 2^20 0.097 ms
 * merged against 0.035, 2^24 0.25 against 0.21, 2^28 level). */
#define HIST_MERGE_BINS 4096

/* What the kernels take to find a bin: the even split's bounds, scale (floats), range = upper - lower
 * (integers, as ulong) with the reciprocal that divides by it (magic) and whether every product
 * d * bins fits in 32 bits (narrow), and whether the float range is halved; or the edges. */
typedef struct hist_rule {
    cl_mem edges;   /* NULL: even */
    unsigned char lower[8], upper[8], scale[8];
    cl_ulong range, magic;
    cl_uint halves, narrow;
} hist_rule;

/* An integer element widened to 64 bits with its sign (so that differences wrap to distances). */
static uint64_t widen(const void *p, clscan_type type)
{
    switch (type) {
    case CLSCAN_INT8: return (uint64_t)(int64_t) * (const int8_t *)p;
    case CLSCAN_UINT8: return *(const uint8_t *)p;
    case CLSCAN_INT16: return (uint64_t)(int64_t) * (const int16_t *)p;
    case CLSCAN_UINT16: return *(const uint16_t *)p;
    case CLSCAN_INT32: return (uint64_t)(int64_t) * (const int32_t *)p;
    case CLSCAN_UINT32: return *(const uint32_t *)p;
    case CLSCAN_INT64: return (uint64_t) * (const int64_t *)p;
    default: return *(const uint64_t *)p;
    }
}

/* Whether lower < upper in the type (signed types compare with their sign). */
static int int_below(uint64_t lower, uint64_t upper, clscan_type type)
{
    const int is_signed = type == CLSCAN_INT8 || type == CLSCAN_INT16 || type == CLSCAN_INT32 || type == CLSCAN_INT64;
    return is_signed ? (int64_t)lower < (int64_t)upper : lower < upper;
}

/* The bounds of the even split: both given, finite, lower < upper (NaN compares false). */
static clscan_status check_bounds(clscan_context *ctx, const char *name, clscan_type type, const void *lower,
                                  const void *upper)
{
    if (!lower || !upper)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: %s is NULL", name, !lower ? "lower" : "upper");
    int ok = 1, finite = 1;
    if (type == CLSCAN_FLOAT) {
        float l, u;
        memcpy(&l, lower, 4), memcpy(&u, upper, 4);
        ok = l < u, finite = isfinite(l) && isfinite(u);
    } else if (type == CLSCAN_DOUBLE) {
        double l, u;
        memcpy(&l, lower, 8), memcpy(&u, upper, 8);
        ok = l < u, finite = isfinite(l) && isfinite(u);
    } else
        ok = int_below(widen(lower, type), widen(upper, type), type);
    if (!ok)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: lower must be below upper (neither NaN)", name);
    if (!finite)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: lower and upper must be finite (an infinite range has "
                            "no even split)", name);
    return CLSCAN_SUCCESS;
}

/* What both functions check: a built-in type, bins > 0, in and counts readable and writable at their
 * sizes, not overlapping. */
static clscan_status check_common(clscan_context *ctx, const char *name, cl_mem in, size_t n, clscan_type type,
                                  size_t bins, cl_mem counts)
{
    if (clscan__is_user_value((unsigned)type) && clscan__user_type_of(ctx, type))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s: a registered type has no bins; built-in types only", name);
    clscan_status st = clscan__check_type_op(ctx, n, type, CLSCAN_ADD);
    if (st == CLSCAN_SUCCESS && bins == 0)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: bins == 0", name);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, in, "in", n, clscan_type_size(type), 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, counts, "counts", bins, sizeof(cl_ulong), 0, 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, in, n * clscan_type_size(type), counts, bins * sizeof(cl_ulong), 0);
    return st;
}

clscan_status clscan__check_histogram_even(clscan_context *ctx, const char *name, cl_mem in, size_t n,
                                           clscan_type type, const void *lower, const void *upper, size_t bins,
                                           cl_mem counts)
{
    clscan_status st = check_common(ctx, name, in, n, type, bins, counts);
    return st == CLSCAN_SUCCESS ? check_bounds(ctx, name, type, lower, upper) : st;
}

static clscan_status check_range(clscan_context *ctx, const char *name, cl_mem in, size_t n, clscan_type type,
                                 cl_mem edges, size_t bins, cl_mem counts)
{
    clscan_status st = check_common(ctx, name, in, n, type, bins, counts);
    const size_t elem = clscan_type_size(type);
    if (st == CLSCAN_SUCCESS && bins == SIZE_MAX)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: bins + 1 edges overflow size_t", name);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, edges, "edges", bins + 1, elem, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, edges, (bins + 1) * elem, counts, bins * sizeof(cl_ulong), 0);
    return st;
}

/* The even split's rule: floats get scale = (T)bins / (upper - lower) rounded in the type, halving both
 * sides where the difference overflows; integers the range as ulong. */
static hist_rule even_rule(clscan_type type, const void *lower, const void *upper, size_t bins)
{
    hist_rule r;
    memset(&r, 0, sizeof r);
    const size_t elem = clscan_type_size(type);
    memcpy(r.lower, lower, elem), memcpy(r.upper, upper, elem);
    if (type == CLSCAN_FLOAT) {
        float l, u, s;
        memcpy(&l, lower, 4), memcpy(&u, upper, 4);
        r.halves = isinf(u - l);
        s = r.halves ? (float)bins / (u * 0.5f - l * 0.5f) : (float)bins / (u - l);
        memcpy(r.scale, &s, 4);
    } else if (type == CLSCAN_DOUBLE) {
        double l, u, s;
        memcpy(&l, lower, 8), memcpy(&u, upper, 8);
        r.halves = isinf(u - l);
        s = r.halves ? (double)bins / (u * 0.5 - l * 0.5) : (double)bins / (u - l);
        memcpy(r.scale, &s, 8);
    } else {
        /* floor((2^w - 1) / range), w = 32 where d * bins < 2^32 for every d < range, else 64: the
         * kernel's quotient from a product's high half (histogram.cl, clscan_hist_scale). */
        r.range = widen(upper, type) - widen(lower, type);
        r.narrow = r.range <= UINT32_MAX && bins <= UINT32_MAX && (r.range - 1) * (uint64_t)bins <= UINT32_MAX;
        r.magic = (r.narrow ? UINT32_MAX : UINT64_MAX) / r.range;
    }
    return r;
}

/* The bins a group counts in local memory (its band: all of them, or an even part of them on GPUs), or 0
 * where they go to one global row: a band must fit beside HIST_LOCAL_SPARE bytes, and enough groups be
 * launched that each sees fewer than 2^32 elements. GPUs: the fewest even bands that fit. CPUs
 * (streamed items: a few groups, each a long share) one band: their atomics on one global row fight
 * over cache lines (PoCL, 2 cores, 2^22 floats over 65536 bins: 14-15 ms against a C loop's 8.5-9.4;
 * and where PoCL offers 512 KiB of local memory, whose quarter, the limit until 2026-11-29, held too
 * few bins: 76-81 ms in the global row against 3.9-6.6 in one band, the C loop 7.2-7.5). */
static size_t local_band(const clscan_context *ctx, const clscan__program *p, size_t n, size_t bins,
                         unsigned copies)
{
    const size_t values = CLSCAN_LOCAL_HIST_VALUES(copies) * sizeof(cl_uint);
    const size_t local = ctx->info.local_mem, taken = HIST_LOCAL_SPARE + values;
    const size_t spare = local > taken ? local - taken : 0;
    const size_t most = spare / sizeof(cl_uint);
    if (most == 0)
        return 0;
    const size_t bands = p->config.stream ? 1 : clscan__tiles(bins, most), band = clscan__tiles(bins, bands);
    const int fits = bands <= HIST_MAX_BANDS && band <= most &&
                     clscan__tiles(n, HIST_MAX_SHARE) * bands <= CLSCAN__MAX_GROUPS;
    return fits ? band : 0;
}

/* The kernel arguments from `in` to the bins, for an even or a range kernel: HIST_RULE_ARGS at most. */
#define HIST_RULE_ARGS 8
static size_t rule_args(const hist_rule *r, size_t elem, const cl_ulong *bins, clscan__arg *out)
{
    size_t k = 0;
    if (r->edges)
        out[k++] = CLSCAN__MEM(r->edges);
    else {
        out[k++] = (clscan__arg){elem, r->lower};
        out[k++] = (clscan__arg){elem, r->upper};
        out[k++] = (clscan__arg){elem, r->scale};
        out[k++] = CLSCAN__VAL(r->range);
        out[k++] = CLSCAN__VAL(r->magic);
        out[k++] = CLSCAN__VAL(r->halves);
        out[k++] = CLSCAN__VAL(r->narrow);
    }
    out[k++] = CLSCAN__VAL(*bins);
    return k;
}

/* counts = carry (if carried) + the sum of n_rows rows of bins uints. */
static clscan_status fold(clscan_context *ctx, const clscan__program *p, cl_mem rows, size_t n_rows, size_t bins,
                          cl_mem carry, cl_mem counts)
{
    cl_ulong rows64 = n_rows, bins64 = bins;
    cl_uint carried = carry != NULL;
    const clscan__arg args[] = {CLSCAN__MEM(rows),  CLSCAN__VAL(rows64),  CLSCAN__VAL(bins64),
                                CLSCAN__MEM(carry), CLSCAN__VAL(carried), CLSCAN__MEM(counts)};
    return clscan__launch(ctx, p, "clscan_hist_fold", CLSCAN__ARGS(args), clscan__tiles(bins, p->config.wg_size));
}

/* Local counts in bands of `band` bins: shares enough that each has fewer than 2^32 elements, each at
 * least a few bins' worth (a group zeroes and writes its band), with their bands at most
 * HIST_GROUPS_PER_CU groups a compute unit (HIST_VALUE_GROUPS_PER_CU counting bytes by value: copies),
 * a group a band of a share; a row of the scratch a share, which the fold sums, one work-item a bin
 * down the rows. On GPUs, with few bins and fewer than 2^32 elements in all (merge), every group adds
 * its band to one row instead, atomically, and the last group moves it into counts: one launch
 * (histogram.cl). The row is kept zero between calls, so no fill comes first. H100, bytes over 256
 * bins: 2^16 0.015-0.017 ms against 0.020 with the fold, 2^20 0.017-0.019 against 0.029-0.034, 2^28
 * 0.111-0.114 against 0.149-0.151; with the row zeroed by a fill and read by a fold, as before, 2^20
 * 0.025-0.029 and 2^28 0.115-0.118 (bench/notebook.md). CPUs keep the fold: few groups, each of a
 * long share. */
static clscan_status run_local(clscan_context *ctx, const clscan__program *p, cl_mem in, size_t n,
                               const hist_rule *r, size_t bins, size_t band, unsigned copies, cl_mem counts)
{
    const size_t wg = p->config.wg_size, cus = ctx->info.compute_units ? ctx->info.compute_units : 1;
    const size_t per_cu = copies ? HIST_VALUE_GROUPS_PER_CU : HIST_GROUPS_PER_CU;
    const size_t bands = clscan__tiles(bins, band), most = clscan__tiles(per_cu * cus, bands);
    /* CPUs: shares of 16 times the bins, so that few groups zero, write and fold many bins. */
    const size_t per_bin = p->config.stream ? 16 : 2, least = clscan__tiles(n, HIST_MAX_SHARE);
    const size_t share = 16 * wg > per_bin * band ? 16 * wg : per_bin * band;
    size_t shares = clscan__tiles(n, share);
    shares = shares < most ? shares : most;
    shares = shares > least ? shares : least;
    const long asked = clscan__tuned(ctx, CLSCAN_TUNE_HIST_MERGE);   /* the tests' way onto both paths */
    const cl_uint merge = n <= HIST_MAX_SHARE &&
                          (asked ? asked > 0 : !p->config.stream && bins <= HIST_MERGE_BINS);
    cl_mem rows = NULL;
    /* merged: a sink, a ticket and the row (histogram.cl) */
    clscan_status st = merge ? clscan__scratch_zeroed(ctx, "histogram merged row", (2 + bins) * sizeof(cl_uint), &rows)
                             : clscan__scratch(ctx, "histogram rows", shares * bins * sizeof(cl_uint), &rows);
    cl_ulong n64 = n, per_group = clscan__tiles(clscan__tiles(n, shares), HIST_ALIGN) * HIST_ALIGN, bins64 = bins;
    clscan__arg args[3 + HIST_RULE_ARGS + 6] = {CLSCAN__MEM(in), CLSCAN__VAL(n64), CLSCAN__VAL(per_group)};
    size_t k = 3 + rule_args(r, p->config.elem, &bins64, args + 3);
    /* CPUs: a local row a work-item, counted without atomics, where the group's rows take at most a
     * quarter of the local memory. PoCL, 2 cores, 2^22 over 256 bins: bytes 4.9 -> 1.5 ms, int64 6.3 ->
     * 3.7; floats and doubles took twice as long so in groups of 16 (5.1 -> 10.6 ms) and keep the
     * atomics there. But CPUs count in groups of one work-item (src/tuning/histogram.c), whose row is
     * the group's whatever its size: 65536 bins of floats in 512 KiB of local memory took 15 ms with
     * the atomics, 3.9-6.6 without (PoCL, 2 cores, 2^22). */
    const cl_uint own = p->config.stream && (wg == 1 || (!clscan__type_is_float(p->config.type) &&
                                                         wg * band * sizeof(cl_uint) <= ctx->info.local_mem / 4));
    const cl_uint band32 = (cl_uint)band;
    args[k++] = CLSCAN__VAL(own);
    args[k++] = CLSCAN__VAL(band32);
    args[k++] = CLSCAN__VAL(merge);
    args[k++] = CLSCAN__MEM(rows);
    args[k++] = CLSCAN__MEM(counts);
    args[k++] = (clscan__arg){(own ? wg : 1) * band * sizeof(cl_uint), NULL};   /* the group's local counts */
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch_into(ctx, p, r->edges ? "clscan_hist_range_local" : "clscan_hist_even_local", args, k,
                                 shares * bands, merge ? counts : NULL);   /* counts only merged */
    return st == CLSCAN_SUCCESS && !merge ? fold(ctx, p, rows, shares, bins, NULL, counts) : st;
}

/* One global row per launch of fewer than 2^32 elements, folded into counts; with more launches than
 * one, the sums so far wait in scratch (carry) and the last fold writes counts. */
static clscan_status run_global(clscan_context *ctx, const clscan__program *p, cl_mem in, size_t n,
                                const hist_rule *r, size_t bins, cl_mem counts)
{
    const size_t wg = p->config.wg_size, cus = ctx->info.compute_units ? ctx->info.compute_units : 1;
    const size_t launches = clscan__tiles(n, HIST_MAX_SHARE);
    cl_mem row = NULL, sums = NULL;
    clscan_status st = clscan__scratch(ctx, "histogram rows", bins * sizeof(cl_uint), &row);
    if (st == CLSCAN_SUCCESS && launches > 1)
        st = clscan__scratch(ctx, "histogram sums", bins * sizeof(cl_ulong), &sums);
    cl_ulong bins64 = bins;
    for (size_t l = 0; st == CLSCAN_SUCCESS && l < launches; l++) {
        cl_ulong from = (cl_ulong)l * HIST_MAX_SHARE, count = n - from < HIST_MAX_SHARE ? n - from : HIST_MAX_SHARE;
        clscan__arg args[3 + HIST_RULE_ARGS + 1] = {CLSCAN__MEM(in), CLSCAN__VAL(from), CLSCAN__VAL(count)};
        size_t k = 3 + rule_args(r, p->config.elem, &bins64, args + 3);
        args[k++] = CLSCAN__MEM(row);
        size_t groups = clscan__tiles((size_t)count, 16 * wg);
        groups = groups < HIST_GROUPS_PER_CU * cus ? groups : HIST_GROUPS_PER_CU * cus;
        st = clscan__fill_zero(ctx, row, bins * sizeof(cl_uint));
        if (st == CLSCAN_SUCCESS)
            st = clscan__launch(ctx, p, r->edges ? "clscan_hist_range_global" : "clscan_hist_even_global", args, k,
                                groups);
        if (st == CLSCAN_SUCCESS)
            st = fold(ctx, p, row, 1, bins, l > 0 ? sums : NULL, l + 1 == launches ? counts : sums);
    }
    return st;
}

/* How many counters of each of the 256 values a group of a GPU takes (histogram.cl: 8-bit elements
 * count by value, each work-item in copy lane % copies, so that a warp's atomics never meet in a
 * bank), 0 elsewhere: HIST_MOST_COPIES where that leaves HIST_VALUES_BESIDE bytes of the local
 * memory for the bins (the H100's 48 KiB), else the largest power of two that does (Oclgrind's 32 KiB:
 * 16). */
static unsigned value_copies(const clscan_context *ctx, const clscan__config *cfg)
{
    if (cfg->stream || cfg->elem != 1)
        return 0;
    unsigned copies = HIST_MOST_COPIES;
    while (copies > 1 && CLSCAN_LOCAL_HIST_VALUES(copies) * sizeof(cl_uint) + HIST_VALUES_BESIDE > ctx->info.local_mem)
        copies /= 2;
    return copies;
}

/* Validated, lock held. n == 0 writes zeros (a fold of no rows): a histogram of nothing. */
static clscan_status hist_run(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, const hist_rule *r,
                              size_t bins, cl_mem counts)
{
    clscan__config cfg =
        clscan__config_with(ctx, CLSCAN__PROGRAM_HIST, type, CLSCAN_ADD, n, clscan__hist_tile(ctx, type));
    if ((uint64_t)bins > UINT32_MAX)   /* bins numbered in ulong (histogram.cl); else in uint */
        clscan__config_define(&cfg, "CLSCAN_HIST_WIDE_BINS", NULL);
    const unsigned copies = value_copies(ctx, &cfg);
    if (copies)
        clscan__config_define_uint(&cfg, "CLSCAN_HIST_COPIES", copies);
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    if (n == 0)
        return fold(ctx, p, NULL, 0, bins, NULL, counts);
    const size_t band = local_band(ctx, p, n, bins, copies);
    return band ? run_local(ctx, p, in, n, r, bins, band, copies, counts) : run_global(ctx, p, in, n, r, bins, counts);
}

clscan_status clscan__histogram_even_run(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, const void *lower,
                                         const void *upper, size_t bins, cl_mem counts)
{
    const hist_rule r = even_rule(type, lower, upper, bins);
    return hist_run(ctx, in, n, type, &r, bins, counts);
}

clscan_status clscan_histogram_even(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, const void *lower,
                                    const void *upper, size_t bins, cl_mem counts)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_histogram_even(ctx, "clscan_histogram_even", in, n, type, lower, upper, bins,
                                                    counts);
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, counts, NULL);
        st = clscan__histogram_even_run(ctx, in, n, type, lower, upper, bins, counts);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_histogram_range(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, cl_mem edges,
                                     size_t bins, cl_mem counts)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = check_range(ctx, "clscan_histogram_range", in, n, type, edges, bins, counts);
    if (st == CLSCAN_SUCCESS) {
        hist_rule r;
        memset(&r, 0, sizeof r);
        r.edges = edges;
        clscan__outputs(ctx, counts, NULL);
        st = hist_run(ctx, in, n, type, &r, bins, counts);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
