/* clscan-bench: speed of the scans against the copy roof measured in the same run. For each size
 * it times clEnqueueCopyBuffer (bytes read + written), then every strategy x work-group pair and a
 * single-thread C loop, each the median of --runs timed calls (call + clFinish, wall clock) after a
 * warm-up; every pair's output is checked against the C loop. Prints a table; --csv FILE too. */
#define _POSIX_C_SOURCE 200809L
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct pair { clscan_strategy strategy; clscan_wg_algorithm wg; const char *name; } pair;
static const pair pairs[] = {
    {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_HILLIS_STEELE, "block-sum/hillis-steele"},
    {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_BLELLOCH, "block-sum/blelloch"},
    {CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_HILLIS_STEELE, "reduce-then-scan/hillis-steele"},
    {CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_BLELLOCH, "reduce-then-scan/blelloch"},
    {CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO, "auto"},
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

typedef struct options { const char *device, *csv; int min_log, max_log, runs; } options;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static int usage(FILE *f, int code)
{
    fprintf(f, "Usage: clscan-bench [--device SPEC] [--min-log K] [--max-log K] [--runs N] [--csv FILE]\n"
               "Times inclusive int32 add scans of n = 2^min-log .. 2^max-log (default 10..28, capped by\n"
               "device memory) for every strategy x work-group pair and AUTO, against clEnqueueCopyBuffer\n"
               "(the copy roof, bytes read + written) and a single-thread C loop, all in this run.\n"
               "Each figure is the median of --runs (default 20) calls + clFinish after a warm-up;\n"
               "every pair's result is verified. --device takes the CLSCAN_DEVICE forms.\n");
    return code;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){NULL, NULL, 10, 28, 20};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            exit(usage(stdout, 0));
        if (!v)
            return 0;
        if (!strcmp(a, "--device")) o->device = v;
        else if (!strcmp(a, "--csv")) o->csv = v;
        else if (!strcmp(a, "--min-log")) o->min_log = atoi(v);
        else if (!strcmp(a, "--max-log")) o->max_log = atoi(v);
        else if (!strcmp(a, "--runs")) o->runs = atoi(v);
        else return 0;
        i++;
    }
    return o->runs > 0 && o->min_log >= 0 && o->max_log <= 40 && o->min_log <= o->max_log;
}

/* One measured step; returns 0 when it failed. */
typedef struct step {
    clscan_context *ctx;
    cl_mem in, out;
    size_t n;
    const int32_t *host_in;
    int32_t *host_ref;
} step;

static int step_scan(const step *s)
{
    return clscan_inclusive_scan(s->ctx, s->in, s->out, s->n, CLSCAN_INT32, CLSCAN_ADD) == CLSCAN_SUCCESS &&
           clscan_finish(s->ctx) == CLSCAN_SUCCESS;
}

static int step_copy(const step *s)
{
    cl_command_queue q = clscan_context_queue(s->ctx);
    return clEnqueueCopyBuffer(q, s->in, s->out, 0, 0, s->n * 4, 0, NULL, NULL) == CL_SUCCESS && clFinish(q) == CL_SUCCESS;
}

static int step_cpu(const step *s)   /* also leaves the reference result in host_ref */
{
    uint32_t acc = 0;
    for (size_t i = 0; i < s->n; i++)
        s->host_ref[i] = (int32_t)(acc += (uint32_t)s->host_in[i]);
    return 1;
}

/* Median seconds of runs timed calls after two untimed warm-ups (builds, caches); -1 if a call failed. */
static double median_time(int (*fn)(const step *), const step *s, int runs, double *t)
{
    for (int r = -2; r < runs; r++) {
        double t0 = now_s();
        if (!fn(s))
            return -1;
        if (r >= 0)
            t[r] = now_s() - t0;
    }
    return median(t, runs);
}

static int verify(clscan_context *ctx, cl_mem out, const int32_t *ref, int32_t *got, size_t n)
{
    if (clEnqueueReadBuffer(clscan_context_queue(ctx), out, CL_TRUE, 0, n * 4, got, 0, NULL, NULL) != CL_SUCCESS)
        return 0;
    return memcmp(got, ref, n * 4) == 0;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o))
        return usage(stderr, 2);
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, o.device) != CLSCAN_SUCCESS) {
        fprintf(stderr, "clscan-bench: %s\n", clscan_last_error(NULL));
        return 3;
    }
    char name[256] = "", driver[128] = "";
    cl_ulong max_alloc = 0, global = 0;
    cl_device_id dev = clscan_context_device(ctx);
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
    while (o.max_log > o.min_log && (((cl_ulong)4 << o.max_log) > max_alloc || ((cl_ulong)12 << o.max_log) > global))
        o.max_log--;
    FILE *csv = o.csv ? fopen(o.csv, "w") : NULL;
    if (csv)
        fprintf(csv, "device,n,algorithm,ms,gbps,roof_fraction,verified\n");
    printf("clscan %s bench on %s (driver %s): inclusive int32 add, median of %d\n", clscan_version_string(),
           name, driver, o.runs);
    printf("%-12s %-32s %10s %9s %7s\n", "n", "algorithm", "ms", "GB/s", "roof");
    size_t max_n = (size_t)1 << o.max_log;
    int32_t *in = malloc(max_n * 4), *ref = malloc(max_n * 4), *got = malloc(max_n * 4);
    double *t = malloc(sizeof *t * (size_t)o.runs);
    uint64_t s = 88172645463325252ull;
    for (size_t i = 0; in && i < max_n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        in[i] = (int32_t)(s % 2001) - 1000;
    }
    int failures = 0;
    cl_context cl = clscan_context_cl_context(ctx);
    for (int k = o.min_log; in && ref && got && t && k <= o.max_log; k++) {
        size_t n = (size_t)1 << k, bytes = n * 4;
        cl_int err;
        cl_mem a = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, in, &err);
        cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        const step st = {ctx, a, b, n, in, ref};
        double roof = 2.0 * bytes / median_time(step_copy, &st, o.runs, t);
        double cpu = median_time(step_cpu, &st, o.runs, t);
        printf("%-12zu %-32s %10.4f %9.1f %7s\n", n, "copy roof (clEnqueueCopyBuffer)", 2e3 * bytes / roof, roof / 1e9, "1.00");
        printf("%-12zu %-32s %10.4f %9.1f %7.3f\n", n, "C loop, one thread", cpu * 1e3, 2.0 * bytes / cpu / 1e9, 2.0 * bytes / cpu / roof);
        for (size_t p = 0; p < NPAIRS; p++) {
            clscan_set_algorithm(ctx, pairs[p].strategy, pairs[p].wg);
            double sec = median_time(step_scan, &st, o.runs, t);
            int ok = sec > 0 && verify(ctx, b, ref, got, n);
            failures += !ok;
            double gbps = sec > 0 ? 2.0 * bytes / sec : 0;
            printf("%-12zu %-32s %10.4f %9.1f %7.3f%s\n", n, pairs[p].name, sec * 1e3, gbps / 1e9, gbps / roof,
                   ok ? "" : "  WRONG RESULT");
            if (csv)
                fprintf(csv, "\"%s\",%zu,%s,%.6f,%.2f,%.4f,%d\n", name, n, pairs[p].name, sec * 1e3, gbps / 1e9, gbps / roof, ok);
        }
        clReleaseMemObject(a);
        clReleaseMemObject(b);
    }
    if (csv)
        fclose(csv);
    free(in), free(ref), free(got), free(t);
    clscan_context_release(ctx);
    if (failures)
        fprintf(stderr, "clscan-bench: %d results did not verify\n", failures);
    return failures ? 1 : 0;
}
