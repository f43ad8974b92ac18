/* clscan-bench's rows for functions of 0.2 (segmented and by-key scans, the segmented reduction over
 * n / 256 segments of random lengths, argmin and argmax, reduce_by_key, run-length encoding, unique and
 * the partition of half, runs of 8 on average, histogram_even of uniform bytes, int32 and floats over
 * 256 bins and of the floats over 65536), at int32 values and uint32 keys: each timed like the scans
 * (median of runs calls + clFinish after a warm-up), its output poisoned before and checked after
 * against its single-thread C loop, which is timed too.
 * Each row's rate counts its own bytes read plus written; "roof" is that rate over the copy roof the
 * caller measured in the same run. */
#include "bench_family.h"
#include "bench_data.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The data: int32 values, heads with a segment start every 8 elements on average, keys whose runs are
 * those segments. */
typedef struct family {
    clscan_context *ctx;
    size_t n;
    cl_mem values, heads, keys, out, offsets, out2, half;   /* out2: n cl_ulong (keys out, lengths) */
    int32_t *host_values, *ref, *got;
    unsigned char *host_heads, *host_half;   /* half: the partition's flags, half of them set */
    uint32_t *host_keys;
    uint64_t *host_offsets;         /* segs + 1, for the segmented reduction */
    size_t segs;
    int exclusive, by_key;
    size_t index;                   /* argmin / argmax: the device's answer, and the C loop's */
    int32_t value;
    size_t want;
    int runs_fn;                    /* 0 reduce_by_key, 1 run-length encoding, 2 unique, 3 partition */
    size_t runs;                    /* their count: the device's (the C loop's in want) */
    uint32_t *ref_keys;             /* the C loop's keys out; lengths in ref_lengths */
    uint64_t *ref_lengths;
    cl_mem floats, bytes, counts;   /* histograms: uniform floats in [-1, 1), bytes, the device's counts */
    float *host_floats;
    uint8_t *host_bytes;
    uint64_t *hist_want, *hist_got;
    size_t bins;
    clscan_type hist_type;          /* int32: the values over [-1000, 1001); uint8 over [0, 255); float [-1, 1) */
} family;

static int run_device(const family *f)
{
    clscan_status st;
    if (f->by_key)
        st = f->exclusive ? clscan_exclusive_scan_by_key(f->ctx, f->keys, CLSCAN_UINT32, f->values, f->out, f->n, CLSCAN_INT32, CLSCAN_ADD)
                          : clscan_inclusive_scan_by_key(f->ctx, f->keys, CLSCAN_UINT32, f->values, f->out, f->n, CLSCAN_INT32, CLSCAN_ADD);
    else
        st = f->exclusive ? clscan_segmented_exclusive_scan(f->ctx, f->values, f->heads, f->out, f->n, CLSCAN_INT32, CLSCAN_ADD)
                          : clscan_segmented_inclusive_scan(f->ctx, f->values, f->heads, f->out, f->n, CLSCAN_INT32, CLSCAN_ADD);
    return st == CLSCAN_SUCCESS && clscan_finish(f->ctx) == CLSCAN_SUCCESS;
}

/* The C loop: by heads or by key changes, into ref (wrapping adds through uint32). */
static int run_cpu(const family *f)
{
    uint32_t run = 0;
    for (size_t i = 0; i < f->n; i++) {
        const int head = i == 0 || (f->by_key ? f->host_keys[i] != f->host_keys[i - 1] : f->host_heads[i] != 0);
        const uint32_t before = head ? 0u : run;
        run = before + (uint32_t)f->host_values[i];
        f->ref[i] = (int32_t)(f->exclusive ? before : run);
    }
    return 1;
}

static int reduce_device(const family *f)
{
    return clscan_segmented_reduce(f->ctx, f->values, f->offsets, f->out, f->segs, CLSCAN_INT32, CLSCAN_ADD) ==
               CLSCAN_SUCCESS && clscan_finish(f->ctx) == CLSCAN_SUCCESS;
}

static int reduce_cpu(const family *f)
{
    for (size_t s = 0; s < f->segs; s++) {
        uint32_t sum = 0;
        for (uint64_t i = f->host_offsets[s]; i < f->host_offsets[s + 1]; i++)
            sum += (uint32_t)f->host_values[i];
        f->ref[s] = (int32_t)sum;
    }
    return 1;
}

/* argmin (exclusive == 0) or argmax (exclusive == 1) of the values. */
static int arg_device(const family *f)
{
    family *g = (family *)f;   /* the answer lands in the step's own fields */
    return (f->exclusive ? clscan_argmax(f->ctx, f->values, f->n, CLSCAN_INT32, &g->index, &g->value)
                         : clscan_argmin(f->ctx, f->values, f->n, CLSCAN_INT32, &g->index, &g->value)) == CLSCAN_SUCCESS;
}

static int arg_cpu(const family *f)
{
    family *g = (family *)f;
    const int32_t *v = f->host_values;
    size_t best = 0;
    if (f->exclusive) {
        for (size_t i = 1; i < f->n; i++)
            best = v[i] > v[best] ? i : best;
    } else {
        for (size_t i = 1; i < f->n; i++)
            best = v[i] < v[best] ? i : best;
    }
    g->want = best;
    return 1;
}

/* reduce_by_key, run-length encoding or unique of the keys, or the partition of the values by the heads. */
static int runs_device(const family *f)
{
    family *g = (family *)f;   /* the count lands in the step's own field */
    clscan_status st;
    switch (f->runs_fn) {
    case 0:
        st = clscan_reduce_by_key(f->ctx, f->keys, f->values, f->out2, f->out, f->n, CLSCAN_UINT32, CLSCAN_INT32,
                                  CLSCAN_ADD, &g->runs);
        break;
    case 1: st = clscan_run_length_encode(f->ctx, f->keys, f->out, f->out2, f->n, CLSCAN_UINT32, &g->runs); break;
    case 2: st = clscan_unique(f->ctx, f->keys, f->out, f->n, CLSCAN_UINT32, &g->runs); break;
    default: st = clscan_partition(f->ctx, f->values, f->half, f->out, f->n, CLSCAN_INT32, &g->runs); break;
    }
    return st == CLSCAN_SUCCESS;
}

/* The C loops of the same: keys into ref_keys, sums into ref, lengths into ref_lengths; partition into ref. */
static int runs_cpu(const family *f)
{
    family *g = (family *)f;
    size_t r = 0;
    if (f->runs_fn == 3) {
        size_t front = 0, back = 0;
        for (size_t i = 0; i < f->n; i++)
            back += f->host_half[i] != 0;
        g->want = back;
        for (size_t i = 0; i < f->n; i++)
            f->ref[f->host_half[i] ? front++ : back++] = f->host_values[i];
        return 1;
    }
    uint32_t sum = 0;
    for (size_t i = 0, start = 0; i < f->n; i++) {
        if (i > 0 && f->host_keys[i] != f->host_keys[i - 1]) {
            f->ref_keys[r] = f->host_keys[start], f->ref[r] = (int32_t)sum, f->ref_lengths[r] = i - start;
            r++, start = i, sum = 0;
        }
        sum += (uint32_t)f->host_values[i];
        if (i + 1 == f->n)
            f->ref_keys[r] = f->host_keys[start], f->ref[r] = (int32_t)sum, f->ref_lengths[r] = f->n - start, r++;
    }
    g->want = r;
    return 1;
}

/* The device's outputs of runs_fn against the C loop's. */
static int runs_right(const family *f, cl_command_queue q)
{
    const size_t r = f->runs;
    if (r != f->want)
        return 0;
    if (f->runs_fn == 3)
        return clEnqueueReadBuffer(q, f->out, CL_TRUE, 0, f->n * 4, f->got, 0, NULL, NULL) == CL_SUCCESS &&
               memcmp(f->got, f->ref, f->n * 4) == 0;
    cl_mem keys_out = f->runs_fn == 0 ? f->out2 : f->out;
    uint64_t *other = malloc(r * 8 + 8);
    int ok = other && clEnqueueReadBuffer(q, keys_out, CL_TRUE, 0, r * 4, f->got, 0, NULL, NULL) == CL_SUCCESS &&
             memcmp(f->got, f->ref_keys, r * 4) == 0;
    if (ok && f->runs_fn == 0)
        ok = clEnqueueReadBuffer(q, f->out, CL_TRUE, 0, r * 4, other, 0, NULL, NULL) == CL_SUCCESS &&
             memcmp(other, f->ref, r * 4) == 0;
    if (ok && f->runs_fn == 1)
        ok = clEnqueueReadBuffer(q, f->out2, CL_TRUE, 0, r * 8, other, 0, NULL, NULL) == CL_SUCCESS &&
             memcmp(other, f->ref_lengths, r * 8) == 0;
    free(other);
    return ok;
}

/* The histograms' bounds and bins (HIST_MOST at most). */
#define HIST_MOST 65536
static const int32_t hist_lo = -1000, hist_hi = 1001;
static const float hist_flo = -1, hist_fhi = 1;
static const uint8_t hist_blo = 0, hist_bhi = 255;

static int hist_device(const family *f)
{
    const int fl = f->hist_type == CLSCAN_FLOAT, by = f->hist_type == CLSCAN_UINT8;
    const cl_mem in = fl ? f->floats : by ? f->bytes : f->values;
    const void *lower = fl ? (const void *)&hist_flo : by ? (const void *)&hist_blo : (const void *)&hist_lo;
    const void *upper = fl ? (const void *)&hist_fhi : by ? (const void *)&hist_bhi : (const void *)&hist_hi;
    return clscan_histogram_even(f->ctx, in, f->n, f->hist_type, lower, upper, f->bins, f->counts) == CLSCAN_SUCCESS &&
           clscan_finish(f->ctx) == CLSCAN_SUCCESS;
}

/* The documented rule: integers floor((x - lower) * bins / (upper - lower)); floats (x - lower) * scale,
 * scale = (float)bins / (upper - lower), capped at the last bin. */
static int hist_cpu(const family *f)
{
    uint64_t *c = f->hist_want;
    memset(c, 0, f->bins * 8);
    if (f->hist_type == CLSCAN_FLOAT) {
        const float scale = (float)f->bins / (hist_fhi - hist_flo);
        for (size_t i = 0; i < f->n; i++) {
            const float x = f->host_floats[i], d = x - hist_flo, v = d * scale;
            if (x >= hist_flo && x < hist_fhi) {
                const size_t b = d == 0 ? 0 : v < (float)f->bins ? (size_t)v : f->bins - 1;
                c[b < f->bins - 1 ? b : f->bins - 1]++;
            }
        }
    } else if (f->hist_type == CLSCAN_UINT8) {
        for (size_t i = 0; i < f->n; i++)
            if (f->host_bytes[i] < hist_bhi)
                c[(uint64_t)f->host_bytes[i] * f->bins / (hist_bhi - hist_blo)]++;
    } else {
        const uint64_t range = (uint64_t)(hist_hi - hist_lo);
        for (size_t i = 0; i < f->n; i++) {
            const int32_t x = f->host_values[i];
            if (x >= hist_lo && x < hist_hi)
                c[(uint64_t)(x - hist_lo) * f->bins / range]++;
        }
    }
    return 1;
}

static double median(int (*fn)(const family *), const family *f, int runs, double *t)
{
    for (int r = -2; r < runs; r++) {
        double t0 = clscan__bench_seconds();
        if (!fn(f)) {
            fprintf(stderr, "clscan-bench: a call failed: %s\n", clscan_last_error(f->ctx));
            return -1;
        }
        if (r >= 0)
            t[r] = clscan__bench_seconds() - t0;
    }
    return clscan__bench_median(t, runs);
}

static int poison_out(const family *f)
{
    const cl_uint p = 0xA5A5A5A5u;
    cl_command_queue q = clscan_context_queue(f->ctx);
    return clEnqueueFillBuffer(q, f->out, &p, sizeof p, 0, f->n * 4, 0, NULL, NULL) == CL_SUCCESS &&
           (!f->out2 || clEnqueueFillBuffer(q, f->out2, &p, sizeof p, 0, f->n * 8, 0, NULL, NULL) == CL_SUCCESS) &&
           clFinish(q) == CL_SUCCESS;
}

static void make_data(family *f)
{
    clscan__bench_family_data(f->n, f->host_values, f->host_heads, f->host_half, f->host_keys, f->segs, f->host_offsets);
}

static cl_mem upload(cl_context cl, size_t bytes, void *host)
{
    return clCreateBuffer(cl, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes, host, NULL);
}

int clscan__bench_family(clscan_context *ctx, size_t n, int runs, double *t, double launch_s, double roof,
                         clscan__bench_row_fn row, void *report)
{
    family f = {.ctx = ctx, .n = n, .segs = n / 256 ? n / 256 : 1};
    cl_context cl = clscan_context_cl_context(ctx);
    f.host_values = malloc(n * 4), f.ref = malloc(n * 4), f.got = malloc(n * 4);
    f.host_heads = malloc(n), f.host_keys = malloc(n * 4), f.host_offsets = malloc((f.segs + 1) * 8);
    f.ref_keys = malloc(n * 4), f.ref_lengths = malloc(n * 8), f.host_half = malloc(n);
    int wrong = 0;
    if (f.host_values && f.ref && f.got && f.host_heads && f.host_keys && f.host_offsets && f.ref_keys && f.ref_lengths && f.host_half) {
        make_data(&f);
        f.values = upload(cl, n * 4, f.host_values), f.heads = upload(cl, n, f.host_heads);
        f.keys = upload(cl, n * 4, f.host_keys), f.out = upload(cl, n * 4, NULL);
        f.offsets = upload(cl, (f.segs + 1) * 8, f.host_offsets);
        f.out2 = upload(cl, n * 8, NULL), f.half = upload(cl, n, f.host_half);
    }
    f.host_floats = malloc(n * 4), f.host_bytes = malloc(n);
    f.hist_want = malloc(HIST_MOST * 8), f.hist_got = malloc(HIST_MOST * 8);
    if (f.host_floats && f.host_bytes && f.hist_want && f.hist_got) {
        uint64_t x = CLSCAN__BENCH_SEED_KEYS;
        for (size_t i = 0; i < n; i++) {
            clscan__bench_next(&x);
            f.host_floats[i] = clscan__bench_unit_float(x), f.host_bytes[i] = clscan__bench_byte(x);
        }
        f.floats = upload(cl, n * 4, f.host_floats), f.bytes = upload(cl, n, f.host_bytes);
        f.counts = upload(cl, HIST_MOST * 8, NULL);
    }
    static const char *const names[2][2] = {{"segmented inclusive scan (heads)", "segmented exclusive scan (heads)"},
                                            {"inclusive scan_by_key (uint32)", "exclusive scan_by_key (uint32)"}};
    static const char *const loops[2] = {"C segmented scan loop, one thread", "C scan_by_key loop, one thread"};
    for (int k = 0; k < 4; k++) {
        f.by_key = k / 2, f.exclusive = k % 2;
        const double bytes = (double)n * (f.by_key ? 12 : 9);   /* heads or keys + values read, out written */
        double cpu = median(run_cpu, &f, runs < 3 ? runs : 3, t);
        if (!f.exclusive)
            row(report, n, "int32", loops[f.by_key], cpu, bytes, roof, launch_s, 1);
        int ok = f.out && poison_out(&f);
        double sec = ok ? median(run_device, &f, runs, t) : -1;
        ok = sec > 0 && clEnqueueReadBuffer(clscan_context_queue(ctx), f.out, CL_TRUE, 0, n * 4, f.got, 0, NULL, NULL) ==
                            CL_SUCCESS && memcmp(f.got, f.ref, n * 4) == 0;
        wrong += !ok;
        row(report, n, "int32", names[f.by_key][f.exclusive], sec, bytes, roof, launch_s, ok);
    }
    /* The segmented reduction: values and offsets read, results written. */
    const double bytes = (double)n * 4 + (double)(f.segs + 1) * 8 + (double)f.segs * 4;
    double cpu = median(reduce_cpu, &f, runs < 3 ? runs : 3, t);
    row(report, n, "int32", "C segmented reduce loop, one thread", cpu, bytes, roof, launch_s, 1);
    int ok = f.out && f.offsets && poison_out(&f);
    double sec = ok ? median(reduce_device, &f, runs, t) : -1;
    ok = sec > 0 && clEnqueueReadBuffer(clscan_context_queue(ctx), f.out, CL_TRUE, 0, f.segs * 4, f.got, 0, NULL, NULL) ==
                        CL_SUCCESS && memcmp(f.got, f.ref, f.segs * 4) == 0;
    wrong += !ok;
    row(report, n, "int32", "segmented_reduce (n/256 segments)", sec, bytes, roof, launch_s, ok);
    /* argmin and argmax: the values read (the result read back included in the time). */
    static const char *const arg_names[2] = {"argmin (bytes read)", "argmax (bytes read)"};
    for (int k = 0; k < 2; k++) {
        f.exclusive = k;
        cpu = median(arg_cpu, &f, runs < 3 ? runs : 3, t);
        if (k == 0)
            row(report, n, "int32", "C argmin loop, one thread", cpu, (double)n * 4, roof, launch_s, 1);
        sec = f.values ? median(arg_device, &f, runs, t) : -1;
        ok = sec > 0 && f.index == f.want && f.value == f.host_values[f.want];
        wrong += !ok;
        row(report, n, "int32", arg_names[k], sec, (double)n * 4, roof, launch_s, ok);
    }
    /* Runs of the keys and the partition by the heads: what each reads and writes (keys 4 bytes, values
     * 4, lengths 8, flags 1). The count read back is in the time. */
    static const char *const runs_names[4] = {"reduce_by_key (uint32 keys)", "run_length_encode (uint32)",
                                              "unique (uint32)", "partition (half flagged)"};
    static const char *const runs_loops[4] = {"C reduce_by_key loop, one thread", NULL, NULL,
                                              "C partition loop, one thread"};
    for (int k = 0; k < 4; k++) {
        f.runs_fn = k;
        cpu = median(runs_cpu, &f, runs < 3 ? runs : 3, t);
        const double r = (double)f.want, in_bytes = k == 3 ? (double)n * 5 : (double)n * (k == 0 ? 8 : 4);
        const double out_bytes = k == 3 ? (double)n * 4 : r * (k == 0 ? 8 : k == 1 ? 12 : 4);
        if (runs_loops[k])
            row(report, n, "int32", runs_loops[k], cpu, in_bytes + out_bytes, roof, launch_s, 1);
        ok = f.out && f.out2 && poison_out(&f);
        sec = ok ? median(runs_device, &f, runs, t) : -1;
        ok = sec > 0 && runs_right(&f, clscan_context_queue(ctx));
        wrong += !ok;
        row(report, n, "int32", runs_names[k], sec, in_bytes + out_bytes, roof, launch_s, ok);
    }
    if (f.out2) clReleaseMemObject(f.out2);
    if (f.half) clReleaseMemObject(f.half);
    /* Histograms: the elements read, the counts written. */
    static const struct { clscan_type type; size_t bins; const char *type_name; } hists[] = {
        {CLSCAN_UINT8, 256, "uint8"}, {CLSCAN_INT32, 256, "int32"}, {CLSCAN_FLOAT, 256, "float"},
        {CLSCAN_FLOAT, HIST_MOST, "float"}};
    for (size_t k = 0; k < sizeof hists / sizeof hists[0]; k++) {
        char hist_name[64], hist_loop[64];
        f.hist_type = hists[k].type, f.bins = hists[k].bins;
        snprintf(hist_name, sizeof hist_name, "histogram_even, %zu bins", f.bins);
        snprintf(hist_loop, sizeof hist_loop, "C histogram loop (%zu bins), one thread", f.bins);
        const double hist_bytes = (double)n * clscan_type_size(f.hist_type) + (double)f.bins * 8;
        cpu = f.hist_want ? median(hist_cpu, &f, runs < 3 ? runs : 3, t) : -1;
        row(report, n, hists[k].type_name, hist_loop, cpu, hist_bytes, roof, launch_s, cpu > 0);
        sec = f.counts && f.floats && f.bytes ? median(hist_device, &f, runs, t) : -1;
        ok = sec > 0 && clEnqueueReadBuffer(clscan_context_queue(ctx), f.counts, CL_TRUE, 0, f.bins * 8, f.hist_got, 0,
                                            NULL, NULL) == CL_SUCCESS && memcmp(f.hist_got, f.hist_want, f.bins * 8) == 0;
        wrong += !ok;
        row(report, n, hists[k].type_name, hist_name, sec, hist_bytes, roof, launch_s, ok);
    }
    if (f.floats) clReleaseMemObject(f.floats);
    if (f.bytes) clReleaseMemObject(f.bytes);
    if (f.counts) clReleaseMemObject(f.counts);
    free(f.host_floats), free(f.host_bytes), free(f.hist_want), free(f.hist_got);
    if (f.values) clReleaseMemObject(f.values);
    if (f.heads) clReleaseMemObject(f.heads);
    if (f.keys) clReleaseMemObject(f.keys);
    if (f.out) clReleaseMemObject(f.out);
    if (f.offsets) clReleaseMemObject(f.offsets);
    free(f.host_values), free(f.ref), free(f.got), free(f.host_heads), free(f.host_keys), free(f.host_offsets);
    free(f.ref_keys), free(f.ref_lengths), free(f.host_half);
    return wrong;
}
