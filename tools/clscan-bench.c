/* clscan-bench: speed of the scans against the copy roof measured in the same run. For each size it
 * times clEnqueueCopyBuffer (bytes read + written) and, once, a trivial kernel launch; then, per type,
 * every strategy x work-group pair and AUTO, and a single-thread C loop. A figure is the median of
 * --runs timed calls (call + clFinish, wall clock) after a warm-up; every output is poisoned first
 * and checked after. Table on stdout; --csv, --json and --plot (PNG through gnuplot) on request;
 * --tune searches work-group size and items per work-item of the single-pass scan and compaction and
 * prints the fastest as policy row fields. */
#define _POSIX_C_SOURCE 200809L
#include "clscan/clscan.h"
#include "clscan/clscan_tuning.h"
#include "bench_family.h"
#include "bench_data.h"
#include "bench_mpi.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct pair { clscan_strategy strategy; clscan_wg_algorithm wg; const char *name; } pair;
static const pair pairs[] = {
    {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_HILLIS_STEELE, "block-sum/hillis-steele"},
    {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_BLELLOCH, "block-sum/blelloch"},
    {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_SUBGROUP, "block-sum/subgroup"},
    {CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_HILLIS_STEELE, "reduce-then-scan/hillis-steele"},
    {CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_BLELLOCH, "reduce-then-scan/blelloch"},
    {CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_SUBGROUP, "reduce-then-scan/subgroup"},
    {CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_HILLIS_STEELE, "single-pass/hillis-steele"},
    {CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_BLELLOCH, "single-pass/blelloch"},
    {CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_SUBGROUP, "single-pass/subgroup"},
    {CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO, "auto"},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

static const struct { clscan_type type; const char *name; } types[] = {
    {CLSCAN_INT32, "int32"}, {CLSCAN_UINT32, "uint32"}, {CLSCAN_INT64, "int64"},
    {CLSCAN_UINT64, "uint64"}, {CLSCAN_FLOAT, "float"}, {CLSCAN_DOUBLE, "double"},
    {CLSCAN_INT8, "int8"}, {CLSCAN_UINT8, "uint8"}, {CLSCAN_INT16, "int16"}, {CLSCAN_UINT16, "uint16"},
};
#define NTYPES (sizeof types / sizeof types[0])
#define C_LOOP_FULL_RUNS_UP_TO ((size_t)1 << 24)   /* above this, the C loop takes the median of 3 */

/* The groups of rows --ops picks (each with its C loop; the copy roof is always measured). */
static const char *const op_groups[] = {"scan", "user", "family", "reduce", "compact", "sat", "sort"};
enum { OPS_SCAN = 1, OPS_USER = 2, OPS_FAMILY = 4, OPS_REDUCE = 8, OPS_COMPACT = 16, OPS_SAT = 32, OPS_SORT = 64 };
#define NGROUPS (sizeof op_groups / sizeof op_groups[0])

typedef struct options {
    const char *device, *csv, *json, *plot, *replot;
    int min_log, max_log, runs, tune, auto_only, mpi;
    unsigned type_mask, ops;
} options;

typedef struct row {
    size_t n;
    const char *type, *algorithm;
    double ms, gbps, roof, launches;
    int verified;
} row;

/* Rows kept for JSON and the plot; CSV lines are written as rows come, so a run cut short keeps them. */
typedef struct report { row *rows; size_t count, cap; FILE *csv; const char *device, *driver; } report;

static int usage(FILE *f, int code)
{
    fprintf(f,
            "Usage: clscan-bench [--device SPEC] [--min-log K] [--max-log K] [--runs N] [--types LIST]\n"
            "                    [--auto-only] [--ops LIST] [--csv FILE] [--json FILE] [--plot FILE.png]\n"
            "                    [--tune]\n"
            "       clscan-bench --replot FILE.csv --plot FILE.png [--types TYPE]\n"
            "       mpirun -np R clscan-bench --mpi [--max-log K] [--runs N] [--device SPEC]\n"
            "Times inclusive add scans of n = 2^min-log .. 2^max-log (default 10..28, capped by device\n"
            "memory) for every strategy x work-group pair and AUTO (--auto-only: AUTO alone), for each type\n"
            "in LIST (comma-separated from int32,uint32,int64,uint64,float,double,int8,uint8,int16,\n"
            "uint16; default int32), against clEnqueueCopyBuffer of the same bytes (the copy roof, bytes\n"
            "read + written), one trivial kernel launch + clFinish, and a single-thread C loop, all in this\n"
            "run; for int32 the same scans again with \"a + b\" registered as an operator (clscan_register_op),\n"
            "and an argmin scan of 8-byte structs {float value; uint index;} (a registered type and\n"
            "operator, rows of type argmin) against the copy roof of its own bytes, and the 0.2 functions\n"
            "(segmented and by-key scans, segmented_reduce, argmin/argmax, reduce_by_key, run-length\n"
            "encoding, unique, partition; int32 values, uint32 keys, runs of 8, half flagged; histogram_even\n"
            "of uniform uint8, int32 and floats over 256 bins and floats over 65536), each rate from its\n"
            "own bytes read + written and next to its single-thread C loop; then clscan_reduce (add), whose\n"
            "rate counts bytes read only, clscan_compact (half the flags set) and clscan_summed_area_table\n"
            "(the n elements as a 2^ceil(k/2)-wide image), clscan_sort of random keys and (4-byte keys)\n"
            "clscan_sort_by_key with uint32 values, and (uint32) clscan_sort_ex descending and by bits\n"
            "[0, 16), whose rate is G keys/s and whose \"roof\" column is the copy's time over theirs;\n"
            "single-thread C loops of each, and qsort up to 2^24, as CPU baselines. --ops LIST keeps only\n"
            "those groups of rows (comma-separated from scan, user (a + b and argmin), family (the 0.2\n"
            "functions), reduce, compact, sat, sort; default all); the copy roof is always measured.\n"
            "Each figure is the median of\n"
            "--runs (default 20) calls + clFinish after a warm-up (the C loop: 3 runs above 2^24); every\n"
            "output is poisoned before and verified after. --plot draws GB/s against n per algorithm for\n"
            "the first type (needs gnuplot). --tune searches work-group size x items per work-item for\n"
            "the single-pass scan and the compaction at 2^max-log (GPUs: 64-1024 x 2-64, CPUs: 1-32 x\n"
            "256-16384) and prints the fastest as table rows to paste into src/tuning/ and as one JSON\n"
            "line. --device takes the CLSCAN_DEVICE forms. --replot draws the plot from a CSV this tool\n"
            "wrote (say, on a machine without gnuplot) and runs nothing. --mpi (builds with MPI only):\n"
            "every rank holds 2^K int32 (default K = 28) and times a copy, its one-device scan (AUTO and\n"
            "reduce-then-scan) and clscan_mpi_inclusive_scan over all ranks (the slowest rank's time), and\n"
            "the MPI step alone; one row a rank, the global result checked on every rank. Devices as\n"
            "clscan_mpi_context_create picks them, or --device on every rank. Exit status 1 when any\n"
            "call fails (CALL FAILED, its message on stderr) or any result is wrong (WRONG RESULT).\n");
    return code;
}

static const char *type_name_at(size_t i) { return types[i].name; }
static const char *group_name_at(size_t i) { return op_groups[i]; }

/* A comma-separated list of the names name_at(0 .. count-1) as a bit mask; 0 if one is unknown. */
static unsigned parse_list(const char *list, size_t count, const char *(*name_at)(size_t))
{
    unsigned mask = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        size_t i = 0;
        while (i < count && strcmp(tok, name_at(i)) != 0)
            i++;
        if (i == count)
            return 0;
        mask |= 1u << i;
    }
    return mask;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){NULL, NULL, NULL, NULL, NULL, 10, 28, 20, 0, 0, 0, 1, (1u << NGROUPS) - 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            exit(usage(stdout, 0));
        if (!strcmp(a, "--tune")) { o->tune = 1; continue; }
        if (!strcmp(a, "--auto-only")) { o->auto_only = 1; continue; }
        if (!strcmp(a, "--mpi")) { o->mpi = 1; continue; }
        if (!v)
            return 0;
        if (!strcmp(a, "--device")) o->device = v;
        else if (!strcmp(a, "--csv")) o->csv = v;
        else if (!strcmp(a, "--json")) o->json = v;
        else if (!strcmp(a, "--plot")) o->plot = v;
        else if (!strcmp(a, "--replot")) o->replot = v;
        else if (!strcmp(a, "--types")) o->type_mask = parse_list(v, NTYPES, type_name_at);
        else if (!strcmp(a, "--ops")) o->ops = parse_list(v, NGROUPS, group_name_at);
        else if (!strcmp(a, "--min-log")) o->min_log = atoi(v);
        else if (!strcmp(a, "--max-log")) o->max_log = atoi(v);
        else if (!strcmp(a, "--runs")) o->runs = atoi(v);
        else return 0;
        i++;
    }
    return o->runs > 0 && o->type_mask && o->ops && o->min_log >= 0 && o->max_log <= 40 && o->min_log <= o->max_log;
}

/* ---- what gets timed --------------------------------------------------------------------------- */
typedef struct step {
    clscan_context *ctx;
    cl_kernel noop;
    cl_mem in, out, flags;          /* flags: half set at random, for the compaction */
    size_t n;
    clscan_type type;
    clscan_op op;                   /* of the scans: CLSCAN_ADD, or user_add (int32 rows) */
    clscan_op user_add;             /* "a + b" registered on int32 (when int32 is benched) */
    clscan_type argmin;             /* {float value; uint index;} and the first smallest as an operator, */
    clscan_op argmin_op;            /* registered with int32 too */
    const void *host_in;
    void *host_ref;
    const unsigned char *host_flags;
    unsigned char *host_scratch;    /* n elements the C compaction loop writes */
    size_t *kept;                   /* where the compaction's count goes */
} step;

static int step_scan(const step *s)
{
    return clscan_inclusive_scan(s->ctx, s->in, s->out, s->n, s->type, s->op) == CLSCAN_SUCCESS &&
           clscan_finish(s->ctx) == CLSCAN_SUCCESS;
}

/* The reduction's result lands in host_ref's spare element past n (see main), so it is kept for checking. */
static int step_reduce(const step *s)
{
    size_t elem = clscan_type_size(s->type);
    return clscan_reduce(s->ctx, s->in, s->n, s->type, CLSCAN_ADD, (char *)s->host_ref + s->n * elem) == CLSCAN_SUCCESS;
}

static int step_compact(const step *s)
{
    return clscan_compact(s->ctx, s->in, s->flags, s->out, s->n, s->type, s->kept) == CLSCAN_SUCCESS;
}

static int step_copy(const step *s)
{
    cl_command_queue q = clscan_context_queue(s->ctx);
    return clEnqueueCopyBuffer(q, s->in, s->out, 0, 0, s->n * clscan_context_type_size(s->ctx, s->type), 0, NULL, NULL) ==
               CL_SUCCESS &&
           clFinish(q) == CL_SUCCESS;
}

static int step_launch(const step *s)
{
    cl_command_queue q = clscan_context_queue(s->ctx);
    size_t one = 1;
    return clEnqueueNDRangeKernel(q, s->noop, 1, NULL, &one, &one, 0, NULL, NULL) == CL_SUCCESS && clFinish(q) == CL_SUCCESS;
}

/* The CPU baseline; also leaves the reference result in host_ref (floats summed in double). */
#define C_LOOP(T, ACC)                                                     \
    do {                                                                   \
        const T *in = s->host_in;                                          \
        ACC acc = 0;                                                       \
        for (size_t i = 0; i < s->n; i++)                                  \
            ((ACC *)s->host_ref)[i] = acc += (ACC)in[i];                   \
    } while (0)
static int step_cpu(const step *s)
{
    switch (s->type) {
    case CLSCAN_INT8: case CLSCAN_UINT8: C_LOOP(uint8_t, uint8_t); break;
    case CLSCAN_INT16: case CLSCAN_UINT16: C_LOOP(uint16_t, uint16_t); break;
    case CLSCAN_INT32: case CLSCAN_UINT32: C_LOOP(uint32_t, uint32_t); break;
    case CLSCAN_INT64: case CLSCAN_UINT64: C_LOOP(uint64_t, uint64_t); break;
    case CLSCAN_FLOAT: C_LOOP(float, float); break;
    case CLSCAN_DOUBLE: C_LOOP(double, double); break;
    }
    return 1;
}

/* The straightforward single-thread C loops of the other primitives, as their CPU baselines. */
static volatile uint64_t sink;
#define C_REDUCE(T)                                                        \
    do {                                                                   \
        const T *in = s->host_in;                                          \
        T acc = 0;                                                         \
        for (size_t i = 0; i < s->n; i++)                                  \
            acc += in[i];                                                  \
        sink = (uint64_t)acc;                                              \
    } while (0)
static int step_cpu_reduce(const step *s)
{
    switch (s->type) {
    case CLSCAN_INT8: case CLSCAN_UINT8: C_REDUCE(uint8_t); break;
    case CLSCAN_INT16: case CLSCAN_UINT16: C_REDUCE(uint16_t); break;
    case CLSCAN_INT32: case CLSCAN_UINT32: C_REDUCE(uint32_t); break;
    case CLSCAN_INT64: case CLSCAN_UINT64: C_REDUCE(uint64_t); break;
    case CLSCAN_FLOAT: C_REDUCE(float); break;
    case CLSCAN_DOUBLE: C_REDUCE(double); break;
    }
    return 1;
}

/* Kept elements into host_scratch (a buffer of n elements). */
static int step_cpu_compact(const step *s)
{
    size_t elem = clscan_type_size(s->type), k = 0;
    const char *in = s->host_in;
    for (size_t i = 0; i < s->n; i++)
        if (s->host_flags[i])
            memcpy(s->host_scratch + k++ * elem, in + i * elem, elem);
    sink = k;
    return 1;
}

/* The summed-area table of the input seen as a width x (n / width) image. */
static size_t sat_width(size_t n)
{
    size_t w = 1;
    while (w * w < n)
        w *= 2;
    return w;
}

static int step_sat(const step *s)
{
    size_t w = sat_width(s->n);
    return clscan_summed_area_table(s->ctx, s->in, s->out, w, s->n / w, s->type) == CLSCAN_SUCCESS &&
           clscan_finish(s->ctx) == CLSCAN_SUCCESS;
}

/* Row by row: each row's running sum plus the finished row above; into host_ref (floats in their type). */
#define C_SAT(T)                                                                                        \
    do {                                                                                                \
        const T *in = s->host_in;                                                                       \
        T *out = s->host_ref;                                                                           \
        for (size_t y = 0; y < h; y++) {                                                                \
            T run = 0;                                                                                  \
            for (size_t x = 0; x < w; x++) {                                                            \
                run += in[y * w + x];                                                                   \
                out[y * w + x] = run + (y ? out[(y - 1) * w + x] : 0);                                  \
            }                                                                                           \
        }                                                                                               \
    } while (0)
static int step_cpu_sat(const step *s)
{
    size_t w = sat_width(s->n), h = s->n / w;
    switch (s->type) {
    case CLSCAN_INT8: case CLSCAN_UINT8: C_SAT(uint8_t); break;
    case CLSCAN_INT16: case CLSCAN_UINT16: C_SAT(uint16_t); break;
    case CLSCAN_INT32: case CLSCAN_UINT32: C_SAT(uint32_t); break;
    case CLSCAN_INT64: case CLSCAN_UINT64: C_SAT(uint64_t); break;
    case CLSCAN_FLOAT: C_SAT(float); break;
    case CLSCAN_DOUBLE: C_SAT(double); break;
    }
    return 1;
}

/* Against the C table: integers exactly; floats within 2 * terms * eps * the sum of magnitudes over
 * the rectangle (both sides round in their own order). */
static int sat_matches(const step *s, const void *got)
{
    size_t w = sat_width(s->n), h = s->n / w;
    if (s->type != CLSCAN_FLOAT && s->type != CLSCAN_DOUBLE)
        return memcmp(got, s->host_ref, s->n * clscan_type_size(s->type)) == 0;
    double eps = s->type == CLSCAN_FLOAT ? FLT_EPSILON : DBL_EPSILON, *mag = calloc(w, sizeof *mag);
    int ok = mag != NULL;
    for (size_t y = 0; y < h && ok; y++) {
        double run = 0;
        for (size_t x = 0; x < w && ok; x++) {
            size_t i = y * w + x;
            double v = s->type == CLSCAN_FLOAT ? ((const float *)s->host_in)[i] : ((const double *)s->host_in)[i];
            double g = s->type == CLSCAN_FLOAT ? ((const float *)got)[i] : ((const double *)got)[i];
            double r = s->type == CLSCAN_FLOAT ? ((const float *)s->host_ref)[i] : ((const double *)s->host_ref)[i];
            run += fabs(v);
            mag[x] += run;   /* the magnitudes over rows 0..y, columns 0..x */
            ok = fabs(g - r) <= 2.0 * (double)((x + 1) * (y + 1)) * eps * mag[x];
        }
    }
    free(mag);
    return ok;
}

/* Median seconds of runs timed calls after two untimed warm-ups (builds, caches); -1 if a call failed
 * (its message on stderr; the row then says CALL FAILED). */
static double median_time(int (*fn)(const step *), const step *s, int runs, double *t)
{
    for (int r = -2; r < runs; r++) {
        double t0 = clscan__bench_seconds();
        if (!fn(s)) {
            fprintf(stderr, "clscan-bench: a call failed: %s\n", clscan_last_error(s->ctx));
            return -1;
        }
        if (r >= 0)
            t[r] = clscan__bench_seconds() - t0;
    }
    return clscan__bench_median(t, runs);
}

/* ---- data and verification ---------------------------------------------------------------------- */
static void fill(void *data, size_t n, clscan_type type)
{
    uint64_t s = CLSCAN__BENCH_SEED_VALUES;
    for (size_t i = 0; i < n; i++) {
        int v = clscan__bench_value(clscan__bench_next(&s));
        switch (type) {
        case CLSCAN_INT8: case CLSCAN_UINT8: ((uint8_t *)data)[i] = (uint8_t)v; break;
        case CLSCAN_INT16: case CLSCAN_UINT16: ((uint16_t *)data)[i] = (uint16_t)v; break;
        case CLSCAN_INT32: case CLSCAN_UINT32: ((int32_t *)data)[i] = v; break;
        case CLSCAN_INT64: case CLSCAN_UINT64: ((int64_t *)data)[i] = (int64_t)v << 20; break;
        case CLSCAN_FLOAT: ((float *)data)[i] = (float)v / 1000.0f; break;
        case CLSCAN_DOUBLE: ((double *)data)[i] = v / 1000.0; break;
        }
    }
}

/* Integers exactly; floats within (i+1) * eps * sum|x| of the C loop (both orders round). */
static int matches(const step *s, const void *got)
{
    size_t bytes = s->n * clscan_type_size(s->type);
    if (s->type != CLSCAN_FLOAT && s->type != CLSCAN_DOUBLE)
        return memcmp(got, s->host_ref, bytes) == 0;
    double abs_sum = 0, eps = s->type == CLSCAN_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    for (size_t i = 0; i < s->n; i++) {
        double x = s->type == CLSCAN_FLOAT ? ((const float *)s->host_in)[i] : ((const double *)s->host_in)[i];
        double g = s->type == CLSCAN_FLOAT ? ((const float *)got)[i] : ((const double *)got)[i];
        double r = s->type == CLSCAN_FLOAT ? ((const float *)s->host_ref)[i] : ((const double *)s->host_ref)[i];
        abs_sum += fabs(x);
        if (!(fabs(g - r) <= 2.0 * (double)(i + 1) * eps * abs_sum))
            return 0;
    }
    return 1;
}

/* A 4-byte pattern in pieces of at most 256 MiB: on the H100 a single 1-byte-pattern fill of 2 GiB
 * or more did not finish within minutes. */
/* The reduction against the C loop's last element, with the bound matches() uses for it. */
static int reduce_matches(const step *s)
{
    size_t elem = clscan_type_size(s->type), last = s->n - 1;
    const char *ref = s->host_ref;
    if (s->type != CLSCAN_FLOAT && s->type != CLSCAN_DOUBLE)
        return memcmp(ref + last * elem, ref + s->n * elem, elem) == 0;
    double abs_sum = 0, eps = s->type == CLSCAN_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    for (size_t i = 0; i < s->n; i++)
        abs_sum += fabs(s->type == CLSCAN_FLOAT ? ((const float *)s->host_in)[i] : ((const double *)s->host_in)[i]);
    double want = s->type == CLSCAN_FLOAT ? ((const float *)ref)[last] : ((const double *)ref)[last];
    double got = s->type == CLSCAN_FLOAT ? ((const float *)ref)[s->n] : ((const double *)ref)[s->n];
    return fabs(got - want) <= 2.0 * (double)s->n * eps * abs_sum;
}

/* The kept elements, in order, and their count, against a filter on the host. */
static int compact_matches(const step *s, unsigned char *got)
{
    size_t elem = clscan_type_size(s->type), k = 0;
    if (clEnqueueReadBuffer(clscan_context_queue(s->ctx), s->out, CL_TRUE, 0, s->n * elem, got, 0, NULL, NULL) != CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->host_flags[i] && memcmp(got + k++ * elem, (const char *)s->host_in + i * elem, elem) != 0)
            return 0;
    return k == *s->kept;
}

static int poison(const step *s)
{
    const cl_uint p = 0xA5A5A5A5u;
    const size_t bytes = s->n * clscan_context_type_size(s->ctx, s->type), piece = (size_t)256 << 20;
    cl_command_queue q = clscan_context_queue(s->ctx);
    for (size_t off = 0; off < bytes; off += piece) {
        size_t len = bytes - off < piece ? bytes - off : piece;
        if (clEnqueueFillBuffer(q, s->out, &p, sizeof p, off, len, 0, NULL, NULL) != CL_SUCCESS)
            return 0;
    }
    return clFinish(q) == CL_SUCCESS;
}

static int verify(const step *s, void *got)
{
    size_t bytes = s->n * clscan_type_size(s->type);
    if (clEnqueueReadBuffer(clscan_context_queue(s->ctx), s->out, CL_TRUE, 0, bytes, got, 0, NULL, NULL) != CL_SUCCESS)
        return 0;
    return matches(s, got);
}

/* ---- output ------------------------------------------------------------------------------------ */
static void add_row(report *r, row x)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        row *rows = realloc(r->rows, cap * sizeof *rows);
        if (!rows)
            return;
        r->rows = rows, r->cap = cap;
    }
    r->rows[r->count++] = x;
    if (r->csv) {
        fprintf(r->csv, "\"%s\",\"%s\",%zu,%s,\"%s\",%.6f,%.2f,%.4f,%.3f,%d\n", r->device, r->driver, x.n, x.type,
                x.algorithm, x.ms, x.gbps, x.roof, x.launches, x.verified);
        fflush(r->csv);
    }
    printf("%-11zu %-7s %-31s %10.4f %9.3f %6.3f %7.2f%s\n", x.n, x.type, x.algorithm, x.ms, x.gbps, x.roof,
           x.launches, x.ms < 0 ? "  CALL FAILED" : x.verified ? "" : "  WRONG RESULT");
    fflush(stdout);
}

static void write_json(const report *r, const char *path, const char *device, const char *driver, double launch_ms)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "{\n  \"device\": \"%s\",\n  \"driver\": \"%s\",\n  \"clscan\": \"%s\",\n  \"trivial_launch_ms\": %.6f,\n"
               "  \"results\": [\n", device, driver, clscan_version_string(), launch_ms);
    for (size_t i = 0; i < r->count; i++) {
        const row *x = &r->rows[i];
        fprintf(f, "    {\"n\": %zu, \"type\": \"%s\", \"algorithm\": \"%s\", \"ms\": %.6f, \"gbps\": %.2f, "
                   "\"roof_fraction\": %.4f, \"trivial_launches\": %.3f, \"verified\": %s}%s\n",
                x->n, x->type, x->algorithm, x->ms, x->gbps, x->roof, x->launches, x->verified ? "true" : "false",
                i + 1 < r->count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
}

/* GB/s against n, one line per algorithm (the C loop and the copy roof included), for one type. */
static int write_plot(const report *r, const char *png, const char *type, const char *device)
{
    char data[4200], script[4200];
    snprintf(data, sizeof data, "%s.dat", png);
    snprintf(script, sizeof script, "%s.gp", png);
    FILE *d = fopen(data, "w"), *g = fopen(script, "w");
    if (!d || !g) {
        if (d) fclose(d);
        if (g) fclose(g);
        return 0;
    }
    const char *names[NPAIRS + 2] = {"copy roof", "C loop, one thread"};
    for (size_t p = 0; p < NPAIRS; p++)
        names[p + 2] = pairs[p].name;
    fprintf(g, "set terminal pngcairo size 1200,700\nset output '%s'\nset logscale x 2\nset format x '2^{%%L}'\n"
               "set xlabel 'n (%s elements)'\nset ylabel 'GB/s (bytes read + written)'\nset key outside right\n"
               "set title 'clscan inclusive %s add scan, %s'\nplot ", png, type, type, device);
    int series = 0;
    for (size_t k = 0; k < NPAIRS + 2; k++) {
        int any = 0;
        for (size_t i = 0; i < r->count; i++)
            if (!strcmp(r->rows[i].type, type) && strstr(r->rows[i].algorithm, names[k]) == r->rows[i].algorithm) {
                fprintf(d, "%zu %.2f\n", r->rows[i].n, r->rows[i].gbps);
                any = 1;
            }
        if (any) {
            fprintf(d, "\n\n");
            fprintf(g, "%s'%s' index %d with linespoints title '%s'", series ? ", " : "", data, series, names[k]);
            series++;
        }
    }
    fprintf(g, "\n");
    fclose(d);
    fclose(g);
    char cmd[8600];
    snprintf(cmd, sizeof cmd, "gnuplot '%s'", script);
    return series > 0 && system(cmd) == 0;
}

/* ---- the run ----------------------------------------------------------------------------------- */
static cl_kernel make_noop(clscan_context *ctx, cl_program *prog)
{
    const char *src = "__kernel void noop(void) {}";
    cl_int err = CL_SUCCESS;
    *prog = clCreateProgramWithSource(clscan_context_cl_context(ctx), 1, &src, NULL, &err);
    cl_device_id dev = clscan_context_device(ctx);
    if (err != CL_SUCCESS || clBuildProgram(*prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS)
        return NULL;
    return clCreateKernel(*prog, "noop", &err);
}

/* ---- sorts ------------------------------------------------------------------------------------------ */
/* Uniformly random bits for integer keys; finite random values for float keys (NaN placement is the
 * test suite's business, not the benchmark's). */
static void random_keys(unsigned char *keys, size_t n, clscan_type type)
{
    uint64_t x = CLSCAN__BENCH_SEED_KEYS;
    for (size_t i = 0; i < n; i++) {
        clscan__bench_next(&x);
        if (type == CLSCAN_FLOAT) {
            float f = (float)((int64_t)(x >> 11) - ((int64_t)1 << 52)) * 0x1p-40f;
            memcpy(keys + 4 * i, &f, 4);
        } else if (type == CLSCAN_DOUBLE) {
            double d = (double)((int64_t)(x >> 11) - ((int64_t)1 << 52)) * 0x1p-40;
            memcpy(keys + 8 * i, &d, 8);
        } else
            memcpy(keys + clscan_type_size(type) * i, &x, clscan_type_size(type));
    }
}

static clscan_type key_cmp_type;
static int key_cmp(const void *a, const void *b)
{
    switch (key_cmp_type) {
    case CLSCAN_INT8: { int8_t x = *(const int8_t *)a, y = *(const int8_t *)b; return (x > y) - (x < y); }
    case CLSCAN_UINT8: { uint8_t x = *(const uint8_t *)a, y = *(const uint8_t *)b; return (x > y) - (x < y); }
    case CLSCAN_INT16: { int16_t x = *(const int16_t *)a, y = *(const int16_t *)b; return (x > y) - (x < y); }
    case CLSCAN_UINT16: { uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b; return (x > y) - (x < y); }
    case CLSCAN_INT32: { int32_t x = *(const int32_t *)a, y = *(const int32_t *)b; return (x > y) - (x < y); }
    case CLSCAN_UINT32: { uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b; return (x > y) - (x < y); }
    case CLSCAN_INT64: { int64_t x = *(const int64_t *)a, y = *(const int64_t *)b; return (x > y) - (x < y); }
    case CLSCAN_UINT64: { uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b; return (x > y) - (x < y); }
    case CLSCAN_FLOAT: { float x = *(const float *)a, y = *(const float *)b;
                         return x == y ? !!signbit(y) - !!signbit(x) : (x > y) - (x < y); }
    default: { double x = *(const double *)a, y = *(const double *)b;
               return x == y ? !!signbit(y) - !!signbit(x) : (x > y) - (x < y); }
    }
}

/* An order-independent fingerprint of n keys: equal multisets give equal sums. */
static uint64_t key_fingerprint(const unsigned char *keys, size_t n, size_t elem)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = 0;
        memcpy(&k, keys + i * elem, elem);
        k = (k ^ (k >> 31)) * 0xBF58476D1CE4E5B9ull;
        sum += k ^ (k >> 29);
    }
    return sum;
}

/* Sorted, and the same keys as before; with values (original positions): each value points at an
 * equal key, every position appears once, and equal keys keep their order. */
static int sort_matches(const unsigned char *got, const uint32_t *vals, const unsigned char *keys, size_t n,
                        clscan_type type)
{
    size_t elem = clscan_type_size(type);
    key_cmp_type = type;
    for (size_t i = 1; i < n; i++)
        if (key_cmp(got + (i - 1) * elem, got + i * elem) > 0)
            return 0;
    if (key_fingerprint(got, n, elem) != key_fingerprint(keys, n, elem))
        return 0;
    if (!vals)
        return 1;
    unsigned char *seen = calloc(n, 1);
    int ok = seen != NULL;
    for (size_t i = 0; i < n && ok; i++) {
        ok = vals[i] < n && !seen[vals[i]] && memcmp(keys + (size_t)vals[i] * elem, got + i * elem, elem) == 0 &&
             (i == 0 || memcmp(got + (i - 1) * elem, got + i * elem, elem) != 0 || vals[i - 1] < vals[i]);
        if (ok)
            seen[vals[i]] = 1;
    }
    free(seen);
    return ok;
}

/* uint32 keys under clscan_sort_ex's options: non-increasing (descending), or by bits [begin, end)
 * non-decreasing, and the same keys as before. */
static int sort_ex_matches(const uint32_t *got, const uint32_t *keys, size_t n, const clscan_sort_options *o)
{
    const unsigned width = o->begin_bit == o->end_bit ? 32 : o->end_bit - o->begin_bit;   /* 0 and 0: every bit */
    const uint32_t mask = width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1;
    for (size_t i = 1; i < n; i++) {
        const uint32_t a = got[i - 1] >> o->begin_bit & mask, b = got[i] >> o->begin_bit & mask;
        if (o->descending ? a < b : a > b)
            return 0;
    }
    return key_fingerprint((const unsigned char *)got, n, 4) == key_fingerprint((const unsigned char *)keys, n, 4);
}

/* Median seconds of clscan_sort (values == NULL) or clscan_sort_by_key on a fresh copy of src each
 * run, or with options clscan_sort_ex of the keys; the copies are not timed. -1 if a call failed. */
static double time_sort(const step *s, cl_mem src, cl_mem values, cl_mem values_src, int runs, double *t,
                        const clscan_sort_options *sort_options)
{
    cl_command_queue q = clscan_context_queue(s->ctx);
    const size_t bytes = s->n * clscan_type_size(s->type);
    for (int r = -2; r < runs; r++) {
        if (clEnqueueCopyBuffer(q, src, s->out, 0, 0, bytes, 0, NULL, NULL) != CL_SUCCESS ||
            (values && clEnqueueCopyBuffer(q, values_src, values, 0, 0, s->n * 4, 0, NULL, NULL) != CL_SUCCESS) ||
            clFinish(q) != CL_SUCCESS)
            return -1;
        double t0 = clscan__bench_seconds();
        clscan_status st = sort_options ? clscan_sort_ex(s->ctx, s->out, NULL, s->n, s->type, CLSCAN_UINT32, sort_options)
                         : values     ? clscan_sort_by_key(s->ctx, s->out, values, s->n, s->type, CLSCAN_UINT32)
                                      : clscan_sort(s->ctx, s->out, s->n, s->type);
        if (st != CLSCAN_SUCCESS || clscan_finish(s->ctx) != CLSCAN_SUCCESS)
            return -1;
        if (r >= 0)
            t[r] = clscan__bench_seconds() - t0;
    }
    return clscan__bench_median(t, runs);
}

/* Keys, and (4-byte keys) keys with uint32 values, against qsort of the same keys up to 2^24 (one
 * run: it is slow); rate is G keys/s, "roof" the copy's time over the sort's. */
static int bench_sort(const options *o, step *s, unsigned char *got, double *t, double launch_s, report *rep,
                      size_t ti, double roof)
{
    const size_t elem = clscan_type_size(s->type), bytes = s->n * elem;
    const double copy_s = 2.0 * bytes / roof, keys_g = s->n / 1e9;
    unsigned char *keys = malloc(bytes), *ref = malloc(bytes);
    uint32_t *vals = malloc(s->n * 4);
    cl_context cl = clscan_context_cl_context(s->ctx);
    cl_mem src = NULL, v = NULL, v_src = NULL;
    int wrong = 0;
    if (keys && ref && vals) {
        random_keys(keys, s->n, s->type);
        for (size_t i = 0; i < s->n; i++)
            vals[i] = (uint32_t)i;
        src = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, keys, NULL);
        v = clCreateBuffer(cl, CL_MEM_READ_WRITE, s->n * 4, NULL, NULL);
        v_src = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, s->n * 4, vals, NULL);
    }
    if (s->n <= C_LOOP_FULL_RUNS_UP_TO && keys && ref) {
        memcpy(ref, keys, bytes);
        key_cmp_type = s->type;
        double t0 = clscan__bench_seconds();
        qsort(ref, s->n, elem, key_cmp);
        double sec = clscan__bench_seconds() - t0;
        add_row(rep, (row){s->n, types[ti].name, "C qsort, one thread (Gkeys/s)", sec * 1e3, keys_g / sec,
                           copy_s / sec, sec / launch_s, 1});
    }
    for (int kv = 0; kv < (elem == 4 ? 2 : 1); kv++) {
        double sec = src && v && v_src ? time_sort(s, src, kv ? v : NULL, v_src, o->runs, t, NULL) : -1;
        int ok = sec > 0 &&
                 clEnqueueReadBuffer(clscan_context_queue(s->ctx), s->out, CL_TRUE, 0, bytes, got, 0, NULL, NULL) == CL_SUCCESS &&
                 (!kv || clEnqueueReadBuffer(clscan_context_queue(s->ctx), v, CL_TRUE, 0, s->n * 4, vals, 0, NULL, NULL) == CL_SUCCESS) &&
                 sort_matches(got, kv ? vals : NULL, keys, s->n, s->type);
        wrong += !ok;
        add_row(rep, (row){s->n, types[ti].name, kv ? "sort_by_key, uint32 values (Gkeys/s)" : "sort (Gkeys/s)",
                           sec * 1e3, sec > 0 ? keys_g / sec : 0, copy_s / sec, sec / launch_s, ok});
    }
    /* uint32 keys under options: descending, and by their low 16 bits (clscan_sort_ex). */
    static const clscan_sort_options ex[] = {{1, 0, 0}, {0, 0, 16}};
    static const char *const ex_names[] = {"sort_ex descending (Gkeys/s)", "sort_ex, bits [0, 16) (Gkeys/s)"};
    for (size_t e = 0; s->type == CLSCAN_UINT32 && e < sizeof ex / sizeof ex[0]; e++) {
        double sec = src && v && v_src ? time_sort(s, src, NULL, v_src, o->runs, t, &ex[e]) : -1;
        int ok = sec > 0 &&
                 clEnqueueReadBuffer(clscan_context_queue(s->ctx), s->out, CL_TRUE, 0, bytes, got, 0, NULL, NULL) == CL_SUCCESS &&
                 sort_ex_matches((const uint32_t *)got, (const uint32_t *)keys, s->n, &ex[e]);
        wrong += !ok;
        add_row(rep, (row){s->n, types[ti].name, ex_names[e], sec * 1e3, sec > 0 ? keys_g / sec : 0, copy_s / sec,
                           sec / launch_s, ok});
    }
    if (src) clReleaseMemObject(src);
    if (v) clReleaseMemObject(v);
    if (v_src) clReleaseMemObject(v_src);
    free(keys), free(ref), free(vals);
    return wrong;
}

/* A pair's row name after prefix (NULL: none); rows keep the pointer, so the names are static (one
 * prefix is ever used). */
static const char *pair_name(const char *prefix, size_t p)
{
    static char names[NPAIRS][96];
    if (!prefix)
        return pairs[p].name;
    snprintf(names[p], sizeof names[p], "%s%s", prefix, pairs[p].name);
    return names[p];
}

/* The scans of every pair (or AUTO alone), each row's name after prefix (NULL: none). */
static int bench_pairs(const options *o, step *s, void *got, double *t, double launch_s, report *rep, size_t ti,
                       double roof, const char *prefix)
{
    const size_t bytes = s->n * clscan_type_size(s->type);
    int wrong = 0;
    for (size_t p = o->auto_only ? NPAIRS - 1 : 0; p < NPAIRS; p++) {
        clscan_set_algorithm(s->ctx, pairs[p].strategy, pairs[p].wg);
        int ok = poison(s);
        double sec = ok ? median_time(step_scan, s, o->runs, t) : -1;
        ok = sec > 0 && verify(s, got);
        wrong += !ok;
        double gbps = sec > 0 ? 2.0 * bytes / sec : 0;
        add_row(rep, (row){s->n, types[ti].name, pair_name(prefix, p), sec * 1e3, gbps / 1e9, gbps / roof,
                           sec / launch_s, ok});
    }
    clscan_set_algorithm(s->ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    return wrong;
}

/* The argmin scan of 8-byte structs {float value; uint index;} (a registered type and operator): every
 * pair (or AUTO alone) against the copy roof of the same bytes, rows of type "argmin". */
typedef struct { float value; uint32_t index; } argmin_t;
static const char argmin_decl[] = "typedef struct { float value; uint index; } argmin_t;";
static const char argmin_combine[] = "b.value < a.value ? b : a";   /* the first smallest: not commutative */

static int argmin_matches(const argmin_t *in, const argmin_t *got, size_t n)
{
    argmin_t acc = {INFINITY, UINT32_MAX};
    for (size_t i = 0; i < n; i++) {
        acc = in[i].value < acc.value ? in[i] : acc;
        if (got[i].value != acc.value || got[i].index != acc.index)
            return 0;
    }
    return 1;
}

static int bench_argmin(const options *o, const step *s, double *t, double launch_s, report *rep)
{
    const size_t bytes = s->n * sizeof(argmin_t);
    argmin_t *in = malloc(bytes), *got = malloc(bytes);
    step a = *s;
    a.type = s->argmin, a.op = s->argmin_op;
    cl_context cl = clscan_context_cl_context(s->ctx);
    uint64_t bits = 0x2545F4914F6CDD1Dull;
    for (size_t i = 0; in && i < s->n; i++) {
        bits ^= bits << 13, bits ^= bits >> 7, bits ^= bits << 17;
        in[i] = (argmin_t){(float)(bits % 1000003) / 1000.0f, (uint32_t)i};
    }
    a.in = in && got ? clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, in, NULL) : NULL;
    a.out = a.in ? clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, NULL) : NULL;
    double roof = a.out ? 2.0 * bytes / median_time(step_copy, &a, o->runs, t) : 0;
    int wrong = !(roof > 0);
    add_row(rep, (row){s->n, "argmin", "copy roof (clEnqueueCopyBuffer)", 2e3 * bytes / roof, roof / 1e9, 1.0,
                       2.0 * bytes / roof / launch_s, roof > 0});
    for (size_t p = o->auto_only ? NPAIRS - 1 : 0; roof > 0 && p < NPAIRS; p++) {
        clscan_set_algorithm(s->ctx, pairs[p].strategy, pairs[p].wg);
        double sec = poison(&a) ? median_time(step_scan, &a, o->runs, t) : -1;
        int ok = sec > 0 &&
                 clEnqueueReadBuffer(clscan_context_queue(s->ctx), a.out, CL_TRUE, 0, bytes, got, 0, NULL, NULL) ==
                     CL_SUCCESS && argmin_matches(in, got, s->n);
        wrong += !ok;
        double gbps = sec > 0 ? 2.0 * bytes / sec : 0;
        add_row(rep, (row){s->n, "argmin", pairs[p].name, sec * 1e3, gbps / 1e9, gbps / roof, sec / launch_s, ok});
    }
    clscan_set_algorithm(s->ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    if (a.in) clReleaseMemObject(a.in);
    if (a.out) clReleaseMemObject(a.out);
    free(in), free(got);
    return wrong;
}

/* A row of tools/bench_family.c: its rate from its own bytes. */
static void family_row(void *rep, size_t n, const char *type, const char *name, double sec, double bytes,
                       double roof, double launch_s, int ok)
{
    const double rate = sec > 0 ? bytes / sec : 0;
    add_row(rep, (row){n, type, name, sec * 1e3, rate / 1e9, rate / roof, sec / launch_s, ok});
}

/* The reduction reads n once: its rate is bytes read, held to the copy's bytes read + written. */
static int bench_reduce(const options *o, step *s, double *t, double launch_s, report *rep, size_t ti, double roof,
                        int cpu_runs)
{
    const size_t bytes = s->n * clscan_type_size(s->type);
    memset((char *)s->host_ref + bytes, 0xA5, clscan_type_size(s->type));
    double sec = median_time(step_reduce, s, o->runs, t);
    int ok = sec > 0 && reduce_matches(s);
    double gbps = sec > 0 ? bytes / sec : 0;
    add_row(rep, (row){s->n, types[ti].name, "reduce (bytes read)", sec * 1e3, gbps / 1e9, gbps / roof, sec / launch_s, ok});
    sec = median_time(step_cpu_reduce, s, cpu_runs, t);
    add_row(rep, (row){s->n, types[ti].name, "C reduce loop, one thread", sec * 1e3, bytes / sec / 1e9, bytes / sec / roof,
                       sec / launch_s, 1});
    return !ok;
}

/* Compaction of half the elements: "roof" is the copy's time over the compaction's. */
static int bench_compact(const options *o, step *s, void *got, double *t, double launch_s, report *rep, size_t ti,
                         double roof, int cpu_runs)
{
    const size_t bytes = s->n * clscan_type_size(s->type);
    int ok = poison(s);
    double sec = ok ? median_time(step_compact, s, o->runs, t) : -1;
    ok = sec > 0 && compact_matches(s, got);
    const double moved = (double)(bytes + s->n + *s->kept * clscan_type_size(s->type));   /* in, flags, kept */
    double gbps = sec > 0 ? moved / sec : 0;
    add_row(rep, (row){s->n, types[ti].name, "compact (half kept)", sec * 1e3, gbps / 1e9, 2.0 * bytes / roof / sec,
                       sec / launch_s, ok});
    s->host_scratch = got;
    sec = median_time(step_cpu_compact, s, cpu_runs, t);
    add_row(rep, (row){s->n, types[ti].name, "C compact loop, one thread", sec * 1e3, moved / sec / 1e9,
                       2.0 * bytes / roof / sec, sec / launch_s, 1});
    return !ok;
}

/* The summed-area table of the same n elements as a near-square image: bytes read + written. */
static int bench_sat(const options *o, step *s, void *got, double *t, double launch_s, report *rep, size_t ti,
                     double roof, int cpu_runs)
{
    const size_t bytes = s->n * clscan_type_size(s->type);
    double sec = median_time(step_cpu_sat, s, cpu_runs, t);
    add_row(rep, (row){s->n, types[ti].name, "C summed-area loop, one thread", sec * 1e3, 2.0 * bytes / sec / 1e9,
                       2.0 * bytes / sec / roof, sec / launch_s, 1});
    int ok = poison(s);
    sec = ok ? median_time(step_sat, s, o->runs, t) : -1;
    ok = sec > 0 && clEnqueueReadBuffer(clscan_context_queue(s->ctx), s->out, CL_TRUE, 0, bytes, got, 0, NULL, NULL) ==
                        CL_SUCCESS && sat_matches(s, got);
    double gbps = sec > 0 ? 2.0 * bytes / sec : 0;
    add_row(rep, (row){s->n, types[ti].name, "summed-area table (2^k/2 wide)", sec * 1e3, gbps / 1e9, gbps / roof,
                       sec / launch_s, ok});
    return !ok;
}

/* Every group of rows --ops keeps (the scans: every pair, or AUTO alone) for one type at one size, after
 * the copy roof they are held to. Returns the number of wrong results. */
static int bench_type(const options *o, step *s, void *got, double *t, double launch_s, report *rep, size_t ti)
{
    const size_t bytes = s->n * clscan_type_size(s->type);
    double roof = 2.0 * bytes / median_time(step_copy, s, o->runs, t);
    int cpu_runs = s->n <= C_LOOP_FULL_RUNS_UP_TO ? o->runs : 3, wrong = 0;
    add_row(rep, (row){s->n, types[ti].name, "copy roof (clEnqueueCopyBuffer)", 2e3 * bytes / roof, roof / 1e9, 1.0,
                       2.0 * bytes / roof / launch_s, 1});
    if (o->ops & OPS_SCAN) {
        double cpu = median_time(step_cpu, s, cpu_runs, t);
        add_row(rep, (row){s->n, types[ti].name, "C loop, one thread", cpu * 1e3, 2.0 * bytes / cpu / 1e9,
                           2.0 * bytes / cpu / roof, cpu / launch_s, 1});
        wrong += bench_pairs(o, s, got, t, launch_s, rep, ti, roof, NULL);
    }
    /* int32: the same scans with "a + b" registered as an operator, next to ADD. */
    if (s->type == CLSCAN_INT32 && (o->ops & OPS_USER)) {
        s->op = s->user_add;
        wrong += bench_pairs(o, s, got, t, launch_s, rep, ti, roof, "user a+b: ");
        s->op = CLSCAN_ADD;
        wrong += bench_argmin(o, s, t, launch_s, rep);
    }
    if (s->type == CLSCAN_INT32 && (o->ops & OPS_FAMILY))
        wrong += clscan__bench_family(s->ctx, s->n, o->runs, t, launch_s, roof, family_row, rep);
    if (o->ops & OPS_REDUCE)
        wrong += bench_reduce(o, s, t, launch_s, rep, ti, roof, cpu_runs);
    if (o->ops & OPS_COMPACT)
        wrong += bench_compact(o, s, got, t, launch_s, rep, ti, roof, cpu_runs);
    if (o->ops & OPS_SAT)
        wrong += bench_sat(o, s, got, t, launch_s, rep, ti, roof, cpu_runs);
    if (o->ops & OPS_SORT)
        wrong += bench_sort(o, s, got, t, launch_s, rep, ti, roof);
    return wrong;
}

/* What the bench needs to know of the context's device, asked of OpenCL itself (the tool uses the API
 * and clscan_tuning.h only). */
typedef struct bench_device {
    char name[256], vendor[256], driver[256], platform[256];
    cl_device_type type;
    size_t max_wg;
    cl_ulong max_alloc, global_mem;
    int fp64, int64;           /* double elements; 64-bit integer elements */
} bench_device;

static void bench_device_facts(const clscan_context *ctx, bench_device *d)
{
    cl_device_id dev = clscan_context_device(ctx);
    cl_platform_id platform = NULL;
    char profile[64] = "";
    size_t len = 0;
    memset(d, 0, sizeof *d);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof d->name - 1, d->name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VENDOR, sizeof d->vendor - 1, d->vendor, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof d->driver - 1, d->driver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_PROFILE, sizeof profile - 1, profile, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof d->max_wg, &d->max_wg, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof d->max_alloc, &d->max_alloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof d->global_mem, &d->global_mem, NULL);
    if (clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) == CL_SUCCESS)
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof d->platform - 1, d->platform, NULL);
    char *ext = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &len) == CL_SUCCESS ? calloc(len + 1, 1) : NULL;
    if (ext && clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, len, ext, NULL) == CL_SUCCESS) {
        d->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
        d->int64 = strcmp(profile, "FULL_PROFILE") == 0 || strstr(ext, "cles_khr_int64") != NULL;
    }
    free(ext);
}

/* Whether the device holds elements of the type (the library says CLSCAN_UNSUPPORTED otherwise). */
static int bench_supports(const bench_device *d, clscan_type type)
{
    return type == CLSCAN_DOUBLE ? d->fp64 : clscan_type_size(type) == 8 ? d->int64 : 1;
}

/* One shape of the tuning grid: the scan (single-pass) or the compaction, timed and checked, with
 * the look-back fallbacks a call; returns the median seconds, 0 when the shape cannot run here
 * (more work-items than the kernel may have) or was shrunk to fit local memory (the same as a
 * smaller shape), -1 when wrong. */
static double tune_shape(const options *o, step *s, void *got, double *t, int compact, unsigned wg, unsigned items)
{
    clscan_context *ctx = s->ctx;
    clscan_tuning_set(ctx, CLSCAN_TUNE_WG_SIZE, wg);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS, items);
    clscan_tuning_tile in_force = {0, 0, 0};
    if (clscan_tuning_tile_in_force(ctx, s->type, compact, &in_force) != CLSCAN_SUCCESS || in_force.wg_size != wg ||
        in_force.items != items)
        return 0;
    clscan_status st = compact ? clscan_compact(ctx, s->in, s->flags, s->out, s->n, s->type, s->kept)
                               : clscan_inclusive_scan(ctx, s->in, s->out, s->n, s->type, CLSCAN_ADD);
    if (st == CLSCAN_UNSUPPORTED) {
        printf("  wg %4u items %5u: cannot run here: %.160s\n", wg, items, clscan_last_error(ctx));
        return 0;
    }
    unsigned long fb0 = 0, fb1 = 0;
    int ok = st == CLSCAN_SUCCESS && poison(s) && clscan_tuning_fallbacks(ctx, &fb0) == CLSCAN_SUCCESS;
    double sec = ok ? median_time(compact ? step_compact : step_scan, s, o->runs, t) : -1;
    ok = sec > 0 && (compact ? compact_matches(s, got) : verify(s, got)) &&
         clscan_tuning_fallbacks(ctx, &fb1) == CLSCAN_SUCCESS;
    if (!ok) {
        printf("  wg %4u items %5u: failed: %.200s\n", wg, items, clscan_last_error(ctx));
        return -1;
    }
    printf("  wg %4u items %5u: %8.4f ms %7.1f look-back fallbacks a call\n", wg, items, sec * 1e3,
           (double)(fb1 - fb0) / (o->runs + 2));
    return sec;
}

/* Single-pass scan and compaction over a grid of (work-group size, items); prints each shape, the
 * copy of the same bytes for scale, and the fastest as the fields of a policy row. */
static int tune(const options *o, step *s, void *got, double *t, size_t ti)
{
    clscan_context *ctx = s->ctx;
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_AUTO);
    /* GPUs: wide groups, a few items each; CPUs: a few work-items with long runs each. */
    bench_device dev;
    bench_device_facts(ctx, &dev);
    int cpu = (dev.type & CL_DEVICE_TYPE_GPU) == 0, wrong = 0;
    unsigned wg_lo = cpu ? 1 : 64, wg_hi = cpu ? 32 : 1024, items_lo = cpu ? 256 : 2, items_hi = cpu ? 16384 : 64;
    unsigned best_wg[2] = {0, 0}, best_items[2] = {0, 0};
    double copy = median_time(step_copy, s, o->runs, t);
    for (int compact = 0; compact < 2; compact++) {
        double best = 0;
        printf("tuning single-pass %s, %s, n = %zu (copy of the same bytes: %.4f ms)\n",
               compact ? "compaction (half kept)" : "scan", types[ti].name, s->n, copy * 1e3);
        for (unsigned wg = wg_lo; wg <= wg_hi && wg <= dev.max_wg; wg *= 2)
            for (unsigned items = items_lo; items <= items_hi; items *= 2) {
                double sec = tune_shape(o, s, got, t, compact, wg, items);
                wrong += sec < 0;
                if (sec > 0 && (best == 0 || sec < best))
                    best = sec, best_wg[compact] = wg, best_items[compact] = items;
            }
        printf("  fastest: wg %u items %u, %.4f ms, %.3f x the copy\n", best_wg[compact], best_items[compact],
               best * 1e3, best / copy);
    }
    clscan_tuning_reset(ctx);
    clscan_tuning_tile table = {0, 0, 0};
    clscan_tuning_tile_in_force(ctx, s->type, 0, &table);
    /* The same tile bytes for the other element size: half (or twice) the items. */
    unsigned items4 = best_items[0] * (clscan_type_size(s->type) == 8 ? 2 : 1);
    const char *type = (dev.type & CL_DEVICE_TYPE_GPU) ? "CL_DEVICE_TYPE_GPU" : "CL_DEVICE_TYPE_CPU";
    printf("scan table row (src/tuning/scan.c) for %s:\n"
           "    {.key = {\"%s\", \"%s\", %s}, .wg4 = %u, .items4 = %u, .wg8 = %u, .items8 = %u, .stream = %d},\n",
           dev.name, dev.vendor, dev.name, type, best_wg[0], items4, best_wg[0], items4 / 2,
           table.stream);
    printf("compaction table row (src/tuning/compact.c):\n    {.key = {\"%s\", \"%s\", %s}, .wg = %u, .items = %u},\n",
           dev.vendor, dev.name, type, best_wg[1], best_items[1]);
    printf("tuning JSON: {\"device\": \"%s\", \"vendor\": \"%s\", \"type\": \"%s\", \"scan\": {\"wg4\": %u, "
           "\"items4\": %u, \"wg8\": %u, \"items8\": %u, \"stream\": %d}, \"compact\": {\"wg\": %u, \"items\": %u}}\n",
           dev.name, dev.vendor, type, best_wg[0], items4, best_wg[0], items4 / 2, table.stream,
           best_wg[1], best_items[1]);
    return wrong;
}

/* --replot: the rows of a CSV written by --csv, then the plot of the first chosen type. */
static int replot(const options *o)
{
    FILE *f = fopen(o->replot, "r");
    if (!f) {
        fprintf(stderr, "clscan-bench: cannot read %s\n", o->replot);
        return 2;
    }
    report rep = {NULL, 0, 0, NULL, "", ""};
    char line[1024], device[256] = "", type[16], algorithm[64];
    size_t ti = 0;
    while (ti < NTYPES && !(o->type_mask >> ti & 1))
        ti++;
    while (fgets(line, sizeof line, f)) {
        row x = {0};
        if (sscanf(line, "\"%255[^\"]\",\"%*[^\"]\",%zu,%15[^,],\"%63[^\"]\",%lf,%lf,%lf,%lf,%d", device, &x.n, type,
                   algorithm, &x.ms, &x.gbps, &x.roof, &x.launches, &x.verified) != 9 || strcmp(type, types[ti].name))
            continue;
        x.type = types[ti].name;
        x.algorithm = strdup(algorithm);
        add_row(&rep, x);
    }
    fclose(f);
    int ok = rep.count > 0 && write_plot(&rep, o->plot, types[ti].name, device);
    for (size_t i = 0; i < rep.count; i++)
        free((char *)rep.rows[i].algorithm);
    free(rep.rows);
    if (!ok)
        fprintf(stderr, "clscan-bench: no plot written (no %s rows in %s, or no gnuplot)\n", types[ti].name, o->replot);
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o))
        return usage(stderr, 2);
    if (o.replot)
        return o.plot ? replot(&o) : usage(stderr, 2);
    if (o.mpi) {
#if defined(CLSCAN_BENCH_MPI)
        return clscan__bench_mpi(argc, argv, o.max_log, o.runs, o.device);
#else
        fprintf(stderr, "clscan-bench: --mpi: this build has no MPI (install libopenmpi-dev and configure again)\n");
        return 2;
#endif
    }
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, o.device) != CLSCAN_SUCCESS) {
        fprintf(stderr, "clscan-bench: %s\n", clscan_last_error(NULL));
        return 3;
    }
    bench_device facts;
    bench_device_facts(ctx, &facts);
    const bench_device *dev = &facts;
    size_t widest = 4;
    for (size_t i = 0; i < NTYPES; i++)
        if ((o.type_mask >> i & 1) && clscan_type_size(types[i].type) > widest)
            widest = clscan_type_size(types[i].type);
    /* Input, output and the scan's scratch must fit: keep two buffers under 80% of the memory. */
    while (o.max_log > o.min_log && (((cl_ulong)widest << o.max_log) > dev->max_alloc ||
                                     ((cl_ulong)widest << o.max_log) * 5 / 2 > dev->global_mem))
        o.max_log--;
    cl_program noop_prog = NULL;
    size_t max_n = (size_t)1 << o.max_log;
    size_t kept = 0;
    step s = {ctx, make_noop(ctx, &noop_prog), NULL, NULL, NULL, 0, CLSCAN_INT32, CLSCAN_ADD, CLSCAN_ADD,
              CLSCAN_INT32, CLSCAN_ADD, NULL, NULL, NULL, NULL, &kept};
    void *in = malloc(max_n * widest), *ref = malloc((max_n + 1) * widest), *got = malloc(max_n * widest);
    double *t = malloc(sizeof *t * (size_t)o.runs + 3 * sizeof *t);
    unsigned char *flags = malloc(max_n);
    uint64_t bits = CLSCAN__BENCH_SEED_KEYS;
    for (size_t i = 0; flags && i < max_n; i++)
        flags[i] = clscan__bench_flag(clscan__bench_next(&bits));
    s.host_flags = flags;
    if (!s.noop || !in || !ref || !got || !t || !flags) {
        fprintf(stderr, "clscan-bench: setup failed (host memory for 2^%d elements, or the trivial kernel)\n", o.max_log);
        return 3;
    }
    const int32_t zero = 0;   /* types[0] is int32 */
    const argmin_t none = {INFINITY, UINT32_MAX};
    if ((o.type_mask & 1) &&
        (clscan_register_op(ctx, CLSCAN_INT32, "a + b", &zero, NULL, CLSCAN_OP_COMMUTATIVE, &s.user_add) != CLSCAN_SUCCESS ||
         clscan_register_type(ctx, "argmin_t", argmin_decl, sizeof(argmin_t), &s.argmin) != CLSCAN_SUCCESS ||
         clscan_register_op(ctx, s.argmin, argmin_combine, &none, NULL, 0, &s.argmin_op) != CLSCAN_SUCCESS)) {
        fprintf(stderr, "clscan-bench: registering \"a + b\" or the argmin failed: %s\n", clscan_last_error(ctx));
        return 3;
    }
    double launch_s = median_time(step_launch, &s, o.runs, t);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    printf("clscan %s bench on %s (%s, driver %s), %s: inclusive add, median of %d\n", clscan_version_string(),
           dev->name, dev->platform, dev->driver, date, o.runs);
    printf("trivial kernel launch + clFinish: %.2f us\n", launch_s * 1e6);
    printf("%-11s %-7s %-31s %10s %8s %6s %7s\n", "n", "type", "algorithm", "ms", "GB/s", "roof", "xlaunch");
    report rep = {NULL, 0, 0, o.csv ? fopen(o.csv, "w") : NULL, dev->name, dev->driver};
    if (rep.csv)
        fprintf(rep.csv, "device,driver,n,type,algorithm,ms,gbps,roof_fraction,trivial_launches,verified\n");
    int wrong = 0;
    cl_context cl = clscan_context_cl_context(ctx);
    for (size_t ti = 0; ti < NTYPES; ti++) {
        if (!(o.type_mask >> ti & 1) || !bench_supports(dev, types[ti].type))
            continue;
        s.type = types[ti].type;
        fill(in, max_n, s.type);
        s.host_in = in, s.host_ref = ref;
        for (int k = o.tune ? o.max_log : o.min_log; k <= o.max_log; k++) {
            s.n = (size_t)1 << k;
            double t0 = clscan__bench_seconds();
            size_t bytes = s.n * clscan_type_size(s.type);
            cl_int err1 = CL_SUCCESS, err2 = CL_SUCCESS;
            s.in = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, in, &err1);
            s.out = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err2);
            s.flags = err2 == CL_SUCCESS ? clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, s.n,
                                                          (void *)s.host_flags, &err2) : NULL;
            if (err1 != CL_SUCCESS || err2 != CL_SUCCESS) {
                fprintf(stderr, "clscan-bench: no room for 2 x %zu bytes on the device\n", bytes);
                wrong++;
            } else if (o.tune) {
                step_cpu(&s);
                wrong += tune(&o, &s, got, t, ti);
            } else
                wrong += bench_type(&o, &s, got, t, launch_s, &rep, ti);
            if (s.in) clReleaseMemObject(s.in);
            if (s.out) clReleaseMemObject(s.out);
            if (s.flags) clReleaseMemObject(s.flags);
            s.in = s.out = s.flags = NULL;
            fprintf(stderr, "clscan-bench: %s 2^%d took %.1f s\n", types[ti].name, k, clscan__bench_seconds() - t0);
        }
    }
    if (rep.csv)
        fclose(rep.csv);
    if (o.json)
        write_json(&rep, o.json, dev->name, dev->driver, launch_s * 1e3);
    for (size_t ti = 0; o.plot && ti < NTYPES; ti++)
        if (o.type_mask >> ti & 1) {
            if (!write_plot(&rep, o.plot, types[ti].name, dev->name))
                fprintf(stderr, "clscan-bench: no plot written (is gnuplot installed?)\n");
            break;
        }
    free(rep.rows), free(in), free(ref), free(got), free(t), free(flags);
    clReleaseKernel(s.noop);
    clReleaseProgram(noop_prog);
    clscan_context_release(ctx);
    if (wrong)
        fprintf(stderr, "clscan-bench: %d results did not verify\n", wrong);
    return wrong ? 1 : 0;
}
