/* Large n on a GPU (ctest label "large"): int32 and uint32 inclusive and exclusive add scans at
 * n = 2^31 - 1, 2^31, 2^31 + 1 and 2^32 + 2^21 of in[i] = i mod 1000, each element checked against
 * its closed form (wrapping at 2^32); a compaction and a sort and a sort by key at 2^31 + 1 of patterns
 * whose results have closed forms too; at 2^32 + 2^21 bytes, histograms of i mod 256 over 256 bins (in
 * local memory) and 65536 (global, a launch per 2^32 - 16 elements), and clscan_unique of runs of 1000
 * (the runs' 64-bit count). Inputs are made on the device by this file's own kernels;
 * outputs come back in chunks, so host memory stays at one chunk. Each case SKIPs, saying why, on a
 * device that is not a GPU or whose CL_DEVICE_MAX_MEM_ALLOC_SIZE / CL_DEVICE_GLOBAL_MEM_SIZE are too
 * small: on PoCL in CI the program ends at once. CLSCAN_LARGE_SMOKE=1 runs every case on any device
 * with 2^20 in place of 2^31 (the test's own logic, not large n). */
#define _POSIX_C_SOURCE 200809L
#include "prims/prims.h"
#include "ref.h"
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#define CHUNK ((size_t)1 << 26)   /* elements read back at once: 256 MiB of uint32 */
#define GIB (1024.0 * 1024.0 * 1024.0)

/* The inputs: i mod 1000, i, flags (i mod 1000 < 500), a permutation (i * a) mod n, and poison. */
static const char helper_source[] =
    "__kernel void fill_mod(__global uint *out, ulong n)\n"
    "{ for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = (uint)(i % 1000); }\n"
    "__kernel void fill_index(__global uint *out, ulong n)\n"
    "{ for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = (uint)i; }\n"
    "__kernel void fill_flags(__global uchar *out, ulong n)\n"
    "{ for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = i % 1000 < 500; }\n"
    "__kernel void fill_perm(__global uint *out, ulong n, ulong a)\n"
    "{ for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = (uint)(i * a % n); }\n"
    "__kernel void fill_value(__global uint *out, ulong n, ulong a)\n"
    "{ for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = (uint)a; }\n"
    "__kernel void fill_byte(__global uchar *out, ulong n, ulong a)\n"
    "{ for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = (uchar)(i / a); }\n";

static clscan_context *ctx;
static cl_program helpers;
static const char *not_here;   /* why no case runs on this device, or NULL */
static uint64_t base;           /* 2^31, or 2^20 for a smoke run */
static uint32_t *stage;         /* one chunk of output on the host: pinned where the driver gives it */
static cl_mem stage_mem;        /* the pinned chunk's buffer, or NULL (then stage is malloc'd) */
static double check_seconds;    /* reading back and checking the last case's output */
static int table_rows;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A line of the table: the library's time (call and finish) and the read-back and check's. */
static void row(const char *what, uint64_t n, double seconds, int pass)
{
    if (table_rows++ == 0)
        printf("[ large    ] %-28s %14s %12s %9s  %s\n", "case", "n", "time", "check", "result");
    printf("[ large    ] %-28s %14" PRIu64 " %9.1f ms %7.1f s  %s\n", what, n, 1e3 * seconds, check_seconds,
           pass ? "PASS" : "FAIL");
    fflush(stdout);
    check_seconds = 0;
}

/* Reads from device memory into pageable host memory can crawl (the driver pins page by page), so
 * the chunk is a mapped buffer the driver allocated pinned (CL_MEM_ALLOC_HOST_PTR); malloc if not. */
static int stage_alloc(void)
{
    cl_int err = CL_SUCCESS;
    stage_mem = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                               CHUNK * sizeof *stage, NULL, &err);
    if (err == CL_SUCCESS)
        stage = clEnqueueMapBuffer(clscan_context_queue(ctx), stage_mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                   CHUNK * sizeof *stage, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS || !stage) {
        if (stage_mem)
            clReleaseMemObject(stage_mem);
        stage_mem = NULL;
        stage = malloc(CHUNK * sizeof *stage);
    }
    return stage != NULL;
}

static void stage_free(void)
{
    if (stage_mem) {
        clEnqueueUnmapMemObject(clscan_context_queue(ctx), stage_mem, stage, 0, NULL, NULL);
        clFinish(clscan_context_queue(ctx));
        clReleaseMemObject(stage_mem);
    } else
        free(stage);
    stage = NULL;
}

static int setup(void **state)
{
    (void)state;
    const char *smoke = getenv("CLSCAN_LARGE_SMOKE");
    int any_device = smoke && strcmp(smoke, "1") == 0;
    base = any_device ? (uint64_t)1 << 20 : (uint64_t)1 << 31;
    if (!(ctx = ref_context()))
        return -1;
    if (!any_device && !(ctx->info.type & CL_DEVICE_TYPE_GPU))
        not_here = "the device is not a GPU (CLSCAN_LARGE_SMOKE=1 runs small sizes anywhere)";
    if ((uint64_t)SIZE_MAX < 4 * base)
        not_here = "size_t is too narrow for these sizes";
    printf("[ memory   ] CL_DEVICE_MAX_MEM_ALLOC_SIZE %.1f GiB, CL_DEVICE_GLOBAL_MEM_SIZE %.1f GiB\n",
           (double)ctx->info.max_alloc / GIB, (double)ctx->info.global_mem / GIB);
    if (not_here)
        return 0;   /* every case says why it skips */
    if (!stage_alloc())
        return -1;
    cl_int err = CL_SUCCESS;
    const char *text = helper_source;
    helpers = clCreateProgramWithSource(clscan_context_cl_context(ctx), 1, &text, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(helpers, 1, &ctx->device, "", NULL, NULL);
    if (err != CL_SUCCESS)
        fprintf(stderr, "the test's fill kernels did not build: %d\n", err);
    return err == CL_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    if (helpers)
        clReleaseProgram(helpers);
    if (stage)
        stage_free();
    clscan_context_release(ctx);
    return 0;
}

/* Whether the case fits: its largest buffer one allocation, all of them (and a margin for the
 * library's scratch) the device's memory. Prints why not. */
static int fits(const char *what, uint64_t n, uint64_t largest, uint64_t total)
{
    if (not_here) {
        printf("[ SKIP     ] %s n=%" PRIu64 ": %s\n", what, n, not_here);
        return 0;
    }
    if (largest > ctx->info.max_alloc || total + total / 16 > ctx->info.global_mem) {
        printf("[ SKIP     ] %s n=%" PRIu64 ": needs %.1f GiB in one buffer and %.1f GiB in all; the device allows "
               "%.1f GiB (CL_DEVICE_MAX_MEM_ALLOC_SIZE) and %.1f GiB (CL_DEVICE_GLOBAL_MEM_SIZE)\n", what, n,
               (double)largest / GIB, (double)total / GIB, (double)ctx->info.max_alloc / GIB,
               (double)ctx->info.global_mem / GIB);
        return 0;
    }
    return 1;
}

static cl_mem device_buffer(size_t bytes)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        print_error("clCreateBuffer of %zu bytes: %d\n", bytes, err);
    return err == CL_SUCCESS ? m : NULL;
}

/* Runs one of the fill kernels over n elements of buf (a: fill_perm's multiplier). */
static int fill(const char *kernel, cl_mem buf, uint64_t n, uint64_t a)
{
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(helpers, kernel, &err);
    cl_ulong n64 = n, a64 = a;
    size_t global = (size_t)1 << 22;
    if (err == CL_SUCCESS) err = clSetKernelArg(k, 0, sizeof buf, &buf);
    if (err == CL_SUCCESS) err = clSetKernelArg(k, 1, sizeof n64, &n64);
    if (err == CL_SUCCESS && (strcmp(kernel, "fill_perm") == 0 || strcmp(kernel, "fill_value") == 0 ||
                              strcmp(kernel, "fill_byte") == 0))
        err = clSetKernelArg(k, 2, sizeof a64, &a64);
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(clscan_context_queue(ctx), k, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(clscan_context_queue(ctx));
    if (k)
        clReleaseKernel(k);
    if (err != CL_SUCCESS)
        print_error("%s: OpenCL error %d\n", kernel, err);
    return err == CL_SUCCESS;
}

/* Every element a bad run never wrote stays 0xA5A5A5A5. By a kernel: on an H100 (driver 580.159.04)
 * clEnqueueFillBuffer of 2^31 patterns or more never finished. */
static int poison(cl_mem buf, size_t bytes)
{
    return fill("fill_value", buf, bytes / 4, 0xA5A5A5A5u);
}

/* The first call of a configuration builds (or loads) its program: made here on small buffers of
 * the same type (the program does not depend on n below 2^32), so that the times below are those of
 * the large runs alone. */
static void warm_up(const char *op, clscan_type type)
{
    enum { N = 4096 };
    cl_mem a = device_buffer(N * 4), b = device_buffer(N * 4), c = device_buffer(N * 4);
    size_t count = 0;
    clscan_status st = CLSCAN_OUT_OF_MEMORY;
    if (a && b && c && poison(a, N * 4) && poison(b, N * 4)) {
        if (strcmp(op, "scan") == 0)
            st = clscan_inclusive_scan(ctx, a, c, N, type, CLSCAN_ADD);
        else if (strcmp(op, "compact") == 0)
            st = clscan_compact(ctx, a, b, c, N, type, &count);   /* flags: poison bytes, all kept */
        else if (strcmp(op, "sort") == 0)
            st = clscan_sort(ctx, a, N, type);
        else
            st = clscan_sort_by_key(ctx, a, b, N, type, type);
    }
    if (st == CLSCAN_SUCCESS)
        st = clscan_finish(ctx);
    if (st != CLSCAN_SUCCESS)
        print_error("warm-up %s: %s\n", op, clscan_status_string(st));
    for (int i = 0; i < 3; i++) {
        cl_mem m = i == 0 ? a : i == 1 ? b : c;
        if (m)
            clReleaseMemObject(m);
    }
}

/* A check of got[0 .. count), elements first .. first + count - 1 of the output: returns the index
 * of the first wrong one, or UINT64_MAX. */
typedef uint64_t (*chunk_check)(const uint32_t *got, uint64_t first, size_t count, const void *arg);

/* Reads the first n uint32 of buf chunk by chunk through check; 1 when all hold. */
static int check_output(cl_mem buf, uint64_t n, chunk_check check, const void *arg, const char *what)
{
    const double start = now();
    int ok = 1;
    for (uint64_t first = 0; ok && first < n; first += CHUNK) {
        size_t count = n - first < CHUNK ? (size_t)(n - first) : CHUNK;
        cl_int err = clEnqueueReadBuffer(clscan_context_queue(ctx), buf, CL_TRUE, (size_t)first * 4, count * 4, stage,
                                         0, NULL, NULL);
        uint64_t bad = err == CL_SUCCESS ? check(stage, first, count, arg) : UINT64_MAX;
        if (err != CL_SUCCESS)
            print_error("%s: clEnqueueReadBuffer: %d\n", what, err);
        else if (bad != UINT64_MAX)
            print_error("%s: element %" PRIu64 " of %" PRIu64 " is %" PRIu32 "\n", what, bad, n, stage[bad - first]);
        ok = err == CL_SUCCESS && bad == UINT64_MAX;
    }
    check_seconds += now() - start;
    return ok;
}

/* ---- scans ------------------------------------------------------------------------------------------ */
/* Element i of the scan of k mod 1000 sums m = i + 1 (inclusive) or i (exclusive) terms: q whole
 * periods of 0 + ... + 999 = 499500 and 0 + ... + (r - 1), with m = 1000 q + r; taken mod 2^32. */
static uint64_t check_scan_chunk(const uint32_t *got, uint64_t first, size_t count, const void *arg)
{
    const int exclusive = *(const int *)arg;
    const uint64_t m = first + !exclusive;
    uint64_t q = m / 1000, r = m % 1000;
    for (size_t k = 0; k < count; k++) {
        const uint32_t want = (uint32_t)(q * 499500u + r * (r - 1) / 2);   /* r = 0: 0 * (2^64 - 1) */
        if (got[k] != want)
            return first + k;
        if (++r == 1000)
            r = 0, q++;
    }
    return UINT64_MAX;
}

static void scans_at(uint64_t n)
{
    const uint64_t bytes = 4 * n;
    if (!fits("add scans", n, bytes, 2 * bytes))
        skip();
    warm_up("scan", CLSCAN_INT32);
    warm_up("scan", CLSCAN_UINT32);
    cl_mem in = device_buffer((size_t)bytes), out = in ? device_buffer((size_t)bytes) : NULL;
    double made = now();
    assert_true(in && out && fill("fill_mod", in, n, 0));
    printf("[ input    ] i mod 1000, n=%" PRIu64 ", made in %.2f s\n", n, now() - made);
    int failures = 0;
    static const clscan_type types[] = {CLSCAN_INT32, CLSCAN_UINT32};
    for (int t = 0; t < 2; t++)
        for (int exclusive = 0; exclusive <= 1; exclusive++) {
            char what[64];
            snprintf(what, sizeof what, "%s scan %s", exclusive ? "exclusive" : "inclusive", ref_type_name(types[t]));
            assert_true(poison(out, (size_t)bytes));
            double start = now();
            clscan_status st = exclusive ? clscan_exclusive_scan(ctx, in, out, (size_t)n, types[t], CLSCAN_ADD)
                                         : clscan_inclusive_scan(ctx, in, out, (size_t)n, types[t], CLSCAN_ADD);
            if (st == CLSCAN_SUCCESS)
                st = clscan_finish(ctx);
            double seconds = now() - start;
            if (st != CLSCAN_SUCCESS)
                print_error("%s: %s (%s)\n", what, clscan_status_string(st), clscan_last_error(ctx));
            int pass = st == CLSCAN_SUCCESS && check_output(out, n, check_scan_chunk, &exclusive, what);
            row(what, n, seconds, pass);
            failures += !pass;
        }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    assert_int_equal(failures, 0);
}

static void test_scans_2p31_minus_1(void **state) { (void)state; scans_at(base - 1); }
static void test_scans_2p31(void **state) { (void)state; scans_at(base); }
static void test_scans_2p31_plus_1(void **state) { (void)state; scans_at(base + 1); }
static void test_scans_2p32_plus_2p21(void **state) { (void)state; scans_at(2 * base + base / 1024); }

/* ---- compaction ----------------------------------------------------------------------------------- */
/* in[i] = i kept where i mod 1000 < 500: the k-th kept is 1000 (k / 500) + k mod 500. */
static uint64_t check_compact_chunk(const uint32_t *got, uint64_t first, size_t count, const void *arg)
{
    (void)arg;
    uint64_t q = first / 500, r = first % 500;
    for (size_t k = 0; k < count; k++) {
        if (got[k] != (uint32_t)(1000 * q + r))
            return first + k;
        if (++r == 500)
            r = 0, q++;
    }
    return UINT64_MAX;
}

static void test_compact_2p31_plus_1(void **state)
{
    (void)state;
    const uint64_t n = base + 1, bytes = 4 * n;
    if (!fits("compact uint32", n, bytes, 2 * bytes + n))
        skip();
    warm_up("compact", CLSCAN_UINT32);
    cl_mem in = device_buffer((size_t)bytes), flags = device_buffer((size_t)n), out = device_buffer((size_t)bytes);
    assert_true(in && flags && out && fill("fill_index", in, n, 0) && fill("fill_flags", flags, n, 0));
    assert_true(poison(out, (size_t)bytes));
    size_t count = 0;
    double start = now();
    clscan_status st = clscan_compact(ctx, in, flags, out, (size_t)n, CLSCAN_UINT32, &count);
    double seconds = now() - start;
    const uint64_t want = n / 1000 * 500 + (n % 1000 < 500 ? n % 1000 : 500);
    if (st != CLSCAN_SUCCESS)
        print_error("compact: %s (%s)\n", clscan_status_string(st), clscan_last_error(ctx));
    else if (count != want)
        print_error("compact: count %zu, want %" PRIu64 "\n", count, want);
    int pass = st == CLSCAN_SUCCESS && count == want && check_output(out, want, check_compact_chunk, NULL, "compact");
    row("compact uint32 (half kept)", n, seconds, pass);
    clReleaseMemObject(in);
    clReleaseMemObject(flags);
    clReleaseMemObject(out);
    assert_true(pass);
}

/* ---- sorts ---------------------------------------------------------------------------------------- */
static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* a^-1 mod n (gcd(a, n) = 1, n < 2^62), by the extended Euclidean algorithm. */
static uint64_t inverse_mod(uint64_t a, uint64_t n)
{
    int64_t t = 0, new_t = 1, r = (int64_t)n, new_r = (int64_t)a;
    while (new_r != 0) {
        int64_t q = r / new_r, tmp = t - q * new_t;
        t = new_t, new_t = tmp;
        tmp = r - q * new_r;
        r = new_r, new_r = tmp;
    }
    return (uint64_t)(t < 0 ? t + (int64_t)n : t);
}

/* Keys (i * a) mod n for i < n are 0 .. n-1 once each: sorted, element k is k. */
static uint64_t check_identity_chunk(const uint32_t *got, uint64_t first, size_t count, const void *arg)
{
    (void)arg;
    for (size_t k = 0; k < count; k++)
        if (got[k] != (uint32_t)(first + k))
            return first + k;
    return UINT64_MAX;
}

/* Values were the indices i: key k came from i = k * a^-1 mod n. */
typedef struct perm { uint64_t n, inverse; } perm;
static uint64_t check_values_chunk(const uint32_t *got, uint64_t first, size_t count, const void *arg)
{
    const perm *p = arg;
    uint64_t v = first % p->n * p->inverse % p->n;   /* both below 2^32: no overflow */
    for (size_t k = 0; k < count; k++) {
        if (got[k] != (uint32_t)v)
            return first + k;
        v += p->inverse;
        v -= v >= p->n ? p->n : 0;
    }
    return UINT64_MAX;
}

/* A multiplier coprime with n near the golden ratio of 2^32, so that neighbours land far apart. */
static uint64_t multiplier(uint64_t n)
{
    uint64_t a = 2654435769u % n;
    while (gcd(a, n) != 1)
        a++;
    return a;
}

static void sort_case(int by_key)
{
    const uint64_t n = base + 1, bytes = 4 * n;
    const char *what = by_key ? "sort_by_key uint32/uint32" : "sort uint32";
    /* keys (and values) and their two scratch buffers each, and digit counts of about n / 16 */
    if (!fits(what, n, bytes, (by_key ? 6 : 3) * bytes + bytes / 8))
        skip();
    assert_true(n < ((uint64_t)1 << 32));
    const uint64_t a = multiplier(n);
    perm p = {n, inverse_mod(a, n)};
    warm_up(by_key ? "sort_by_key" : "sort", CLSCAN_UINT32);
    cl_mem keys = device_buffer((size_t)bytes), values = by_key ? device_buffer((size_t)bytes) : NULL;
    assert_true(keys && (!by_key || values) && fill("fill_perm", keys, n, a));
    assert_true(!by_key || fill("fill_index", values, n, 0));
    double start = now();
    clscan_status st = by_key ? clscan_sort_by_key(ctx, keys, values, (size_t)n, CLSCAN_UINT32, CLSCAN_UINT32)
                              : clscan_sort(ctx, keys, (size_t)n, CLSCAN_UINT32);
    if (st == CLSCAN_SUCCESS)
        st = clscan_finish(ctx);
    double seconds = now() - start;
    if (st != CLSCAN_SUCCESS)
        print_error("%s: %s (%s)\n", what, clscan_status_string(st), clscan_last_error(ctx));
    int pass = st == CLSCAN_SUCCESS && check_output(keys, n, check_identity_chunk, NULL, what) &&
               (!by_key || check_output(values, n, check_values_chunk, &p, what));
    row(what, n, seconds, pass);
    clReleaseMemObject(keys);
    if (values)
        clReleaseMemObject(values);
    assert_true(pass);
}

static void test_sort_2p31_plus_1(void **state) { (void)state; sort_case(0); }
static void test_sort_by_key_2p31_plus_1(void **state) { (void)state; sort_case(1); }

/* ---- histograms and unique past 2^32 elements ------------------------------------------------------ */
/* Bytes i mod 256 over bins even bins of [0, 255): value v < 255 occurs n / 256 times, once more below
 * n mod 256, and falls in bin v * bins / 255. */
static int histogram_bytes(cl_mem in, uint64_t n, size_t bins)
{
    const uint8_t lower = 0, upper = 255;
    cl_mem counts = device_buffer(bins * 8);
    uint64_t *got = malloc(bins * 8), *want = calloc(bins, 8);
    int pass = 0;
    if (counts && got && want) {
        for (unsigned v = 0; v < 255; v++)
            want[(uint64_t)v * bins / 255] += n / 256 + (v < n % 256);
        /* The program built or loaded on a few elements first, so that the time is the large call's. */
        clscan_status st = clscan_histogram_even(ctx, in, 4096, CLSCAN_UINT8, &lower, &upper, bins, counts);
        double start = now();
        if (st == CLSCAN_SUCCESS)
            st = clscan_histogram_even(ctx, in, (size_t)n, CLSCAN_UINT8, &lower, &upper, bins, counts);
        if (st == CLSCAN_SUCCESS)
            st = clscan_finish(ctx);
        double seconds = now() - start;
        if (st != CLSCAN_SUCCESS)
            print_error("histogram: %s (%s)\n", clscan_status_string(st), clscan_last_error(ctx));
        pass = st == CLSCAN_SUCCESS && clEnqueueReadBuffer(clscan_context_queue(ctx), counts, CL_TRUE, 0, bins * 8, got,
                                                            0, NULL, NULL) == CL_SUCCESS;
        for (size_t b = 0; pass && b < bins; b++)
            if (got[b] != want[b]) {
                print_error("histogram of %zu bins: bin %zu counts %" PRIu64 ", want %" PRIu64 "\n", bins, b, got[b],
                            want[b]);
                pass = 0;
            }
        row(bins > 8192 ? "histogram uint8, global bins" : "histogram uint8, local bins", n, seconds, pass);
    }
    if (counts)
        clReleaseMemObject(counts);
    free(got), free(want);
    return pass;
}

static void test_histogram_2p32_plus_2p21(void **state)
{
    (void)state;
    const uint64_t n = 2 * base + base / 1024;
    if (!fits("histogram uint8", n, n, n + 65536 * 8))
        skip();
    cl_mem in = device_buffer((size_t)n);
    assert_true(in && fill("fill_byte", in, n, 1));
    const int local = histogram_bytes(in, n, 256), global = histogram_bytes(in, n, 65536);
    clReleaseMemObject(in);
    assert_true(local && global);
}

/* Bytes (i / 1000) mod 256: runs of 1000, each a different value from the one before, so the r-th of
 * the ceil(n / 1000) runs keeps r mod 256. */
static void test_unique_2p32_plus_2p21(void **state)
{
    (void)state;
    const uint64_t n = 2 * base + base / 1024, runs = (n + 999) / 1000;
    if (!fits("unique uint8", n, n, 2 * n))
        skip();
    cl_mem in = device_buffer((size_t)n), out = device_buffer((size_t)n);
    uint8_t *got = malloc((size_t)runs);
    assert_true(in && out && got && fill("fill_byte", in, n, 1000));
    size_t count = 0;
    clscan_status st = clscan_unique(ctx, in, out, 4096, CLSCAN_UINT8, &count);   /* the program, first */
    double start = now();
    if (st == CLSCAN_SUCCESS)
        st = clscan_unique(ctx, in, out, (size_t)n, CLSCAN_UINT8, &count);
    double seconds = now() - start;
    if (st != CLSCAN_SUCCESS)
        print_error("unique: %s (%s)\n", clscan_status_string(st), clscan_last_error(ctx));
    else if (count != runs)
        print_error("unique: %zu runs, want %" PRIu64 "\n", count, runs);
    int pass = st == CLSCAN_SUCCESS && count == runs &&
               clEnqueueReadBuffer(clscan_context_queue(ctx), out, CL_TRUE, 0, (size_t)runs, got, 0, NULL, NULL) ==
                   CL_SUCCESS;
    for (uint64_t r = 0; pass && r < runs; r++)
        if (got[r] != (uint8_t)r) {
            print_error("unique: run %" PRIu64 " keeps %u, want %u\n", r, got[r], (unsigned)(uint8_t)r);
            pass = 0;
        }
    row("unique uint8 (runs of 1000)", n, seconds, pass);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    free(got);
    assert_true(pass);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);   /* one case: test_large 'test_unique*' */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scans_2p31_minus_1), cmocka_unit_test(test_scans_2p31),
        cmocka_unit_test(test_scans_2p31_plus_1),  cmocka_unit_test(test_scans_2p32_plus_2p21),
        cmocka_unit_test(test_compact_2p31_plus_1), cmocka_unit_test(test_sort_2p31_plus_1),
        cmocka_unit_test(test_sort_by_key_2p31_plus_1), cmocka_unit_test(test_histogram_2p32_plus_2p21),
        cmocka_unit_test(test_unique_2p32_plus_2p21),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
