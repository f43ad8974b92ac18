/* Fault-injection walks (label "fault"): for every N, the N-th OpenCL call or host allocation the
 * library makes inside one operation fails as drivers and the C library fail (hooks.c). Then the
 * operation returns the status the library maps the failure to, with a message naming the call (or it
 * absorbed the failure and its answer is right); it leaks no CL object or host block, keeps the
 * caller's reference counts and inputs, and the next call on the same context succeeds. A failure
 * reported as CLSCAN_OUT_OF_MEMORY left every output untouched; one that came after a command writing an
 * output was enqueued is CLSCAN_OPENCL_ERROR instead, says so, and an output was indeed written.
 * Walked: context creation (from a device, from an application queue), scans under each strategy and
 * on an out-of-order queue, a host scan, compaction (one pass, three launches), sort and sort by key
 * (random keys, keys varying in one digit or none, the split path, one-sweep passes), reduce, summed-area table,
 * histograms (even and by edges, bins in local memory, merged into one row), program builds with the
 * disk cache cold or off, and registration: clscan_register_type and clscan_register_op (their
 * probes), then a scan and a reduction with a registered operator. A failed
 * registration must have registered nothing: its value is refused, and the next one gets its index.
 * CLSCAN_FAULT_TRACE=1 lists the calls each walk fails in turn. */
#define _POSIX_C_SOURCE 200809L
#include "prims/collective.h"
#include "fault.h"
#include "prims/prims.h"
#include "ref.h"
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define N 3000                   /* 94 small tiles (below): a walk of a few seconds on PoCL */
#define SAT_W 60
#define SAT_H 50                 /* SAT_W * SAT_H <= N */
#define SENTINEL 0x7e57u
#define HIST_BINS 16             /* histograms: int32 over 16 bins of 2^28 (counts in out) */
/* Tiles of 32: N takes two block-sum levels and a sort many tiles (PoCL's own tiles hold N whole). */
#define SMALL_WG 8
#define SMALL_ITEMS 4

static int32_t data_in[N], sorted_in[N], host_out[N], indices[N];
static uint8_t data_flags[N];
static char tmp_root[] = "/tmp/clscan-fault-XXXXXX";

/* Over the whole program: faults injected, those the library absorbed (and answered right). */
static unsigned long total_cl, total_host, total_absorbed;
/* Failed calls that reported CLSCAN_OUT_OF_MEMORY (outputs found untouched), and those that reported
 * CLSCAN_OPENCL_ERROR for an allocation-type fault because an output had been written: in the walk under
 * way (then its last), and over the program. */
static unsigned long walk_oom, walk_written, total_oom, total_written;

/* The entry points whose faults the current walk saw absorbed, for its summary line. */
static char absorbed_calls[512];

static void note_absorbed(const char *call)
{
    total_absorbed++;
    if (call && !strstr(absorbed_calls, call)) {
        size_t used = strlen(absorbed_calls);
        snprintf(absorbed_calls + used, sizeof absorbed_calls - used, " %s", call);
    }
}

/* ---- what is being checked, for the messages ------------------------------------------------ */
static char where[512];

#define EXPECT(cond, ...)                                                                               \
    do {                                                                                                \
        if (!(cond)) {                                                                                  \
            print_error("%s: ", where);                                                                 \
            print_error(__VA_ARGS__);                                                                   \
            print_error("\n");                                                                          \
            fail();                                                                                     \
        }                                                                                               \
    } while (0)

/* ---- the environment of a context: disk cache warm (ctest's), cold (a new folder), or off ---------- */
typedef enum cache_mode { CACHE_WARM, CACHE_COLD, CACHE_OFF } cache_mode;
static char warm_dir[4096];

static void remove_flat_dir(const char *dir)
{
    DIR *d = opendir(dir);
    char path[8192];
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Sets the environment the next context reads; a cold cache is a folder of its own, emptied here. */
static void cache_env(cache_mode mode)
{
    char cold[4200];
    snprintf(cold, sizeof cold, "%s/cold", tmp_root);
    remove_flat_dir(cold);
    setenv("CLSCAN_CACHE_DIR", mode == CACHE_COLD ? cold : warm_dir, 1);
    /* "1": programs are stored on PoCL too, so the store's calls are faulted there as well */
    setenv("CLSCAN_CACHE", mode == CACHE_OFF ? "0" : "1", 1);
}

/* ---- fixtures: a context and the caller's buffers ----------------------------------------------- */
typedef struct fixture {
    clscan_context *ctx;
    cl_context app_cl;               /* with an application queue: the application's objects */
    cl_command_queue app_queue;
    cl_mem in, flags, out;
    cl_mem out2;                     /* clscan_reduce_by_key's keys_out: poisoned until written */
    cl_mem count_buf;                /* clscan_compact_async's count: poisoned until written */
    cl_mem offsets;                  /* clscan_segmented_reduce's: segments of 100 elements */
    cl_mem edges;                    /* clscan_histogram_range's: HIST_BINS + 1 int32 edges */
    int32_t result;                  /* reduce's result, compact's count: SENTINEL until written */
    size_t count;
    clscan_type type_before;         /* registered before the operation (op.prepare), no fault armed */
    clscan_op op_before;
    clscan_type type_got;            /* what the operation registers: SENTINEL until written */
    clscan_op op_got;
} fixture;

/* Tiles of SMALL_WG * SMALL_ITEMS; the same on the portable paths (32-bit status words, as on devices
 * without 64-bit atomics), with sorts on the 1-bit split path or in one-sweep passes, or with
 * histograms' groups adding into one row kept zero between calls (GPUs' choice up to 4096 bins); or
 * the device's own tiles. */
typedef enum op_shape { SHAPE_SMALL, SHAPE_PORTABLE, SHAPE_SPLIT, SHAPE_SWEEP, SHAPE_MERGED, SHAPE_POLICY } op_shape;

typedef struct op {
    const char *name;
    clscan_strategy strategy;
    int app_queue;                   /* the context adopts an out-of-order application queue */
    int in_place;                    /* 1: the keys are input and output (sort); 2: out holds the values too */
    op_shape shape;
    clscan_status (*run)(fixture *f);
    int (*check)(fixture *f, char *msg, size_t len);   /* the output after a success */
    void (*prepare)(fixture *f);                       /* NULL, or what to register first, unfaulted */
    int (*refused)(fixture *f, char *msg, size_t len); /* NULL, or after a failure: nothing registered */
} op;

static cl_uint mem_refs(void *m)
{
    cl_uint refs = 0;
    clGetMemObjectInfo((cl_mem)m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    return refs;
}

static cl_uint queue_refs(void *q)
{
    cl_uint refs = 0;
    clGetCommandQueueInfo((cl_command_queue)q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    return refs;
}

/* Drivers drop the references that finished commands hold a little after clFinish (PoCL, on a thread
 * of its own): the count of obj once it has reached want, or after two seconds what it is then. */
static cl_uint settled_refs(cl_uint (*count)(void *), void *obj, cl_uint want)
{
    cl_uint refs = count(obj);
    for (int i = 0; i < 400 && refs != want; i++) {
        nanosleep(&(struct timespec){0, 5000000}, NULL);
        refs = count(obj);
    }
    return refs;
}

/* The application's own context and queue on the default device (out of order where it can be). */
static void app_queue_create(fixture *f)
{
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
    cl_command_queue_properties props = 0;
    clGetDeviceInfo(dev, CL_DEVICE_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    f->app_cl = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    f->app_queue = clCreateCommandQueue(f->app_cl, dev, props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    assert_int_equal(err, CL_SUCCESS);
}

static void app_queue_release(fixture *f)
{
    if (f->app_queue)
        clReleaseCommandQueue(f->app_queue);
    if (f->app_cl)
        clReleaseContext(f->app_cl);
    f->app_queue = NULL, f->app_cl = NULL;
}

/* Inputs as the caller made them (a failed sort may have changed its keys), outputs poisoned again;
 * the values of a sort by key are their own indices. */
static void reset_buffers(fixture *f, const op *o)
{
    cl_command_queue q = clscan_context_queue(f->ctx);
    assert_int_equal(clEnqueueWriteBuffer(q, f->in, CL_TRUE, 0, sizeof data_in, data_in, 0, NULL, NULL), CL_SUCCESS);
    unsigned char poison = REF_POISON;
    if (o->in_place == 2)
        assert_int_equal(clEnqueueWriteBuffer(q, f->out, CL_TRUE, 0, sizeof indices, indices, 0, NULL, NULL), CL_SUCCESS);
    else
        assert_int_equal(clEnqueueFillBuffer(q, f->out, &poison, 1, 0, sizeof data_in, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(clscan_context_queue(f->ctx)), CL_SUCCESS);
    assert_int_equal(clEnqueueFillBuffer(q, f->count_buf, &poison, 1, 0, sizeof(cl_ulong), 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueFillBuffer(q, f->out2, &poison, 1, 0, sizeof data_in, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(q), CL_SUCCESS);
    memset(host_out, REF_POISON, sizeof host_out);
    f->result = (int32_t)SENTINEL, f->count = SENTINEL;
    f->type_got = (clscan_type)SENTINEL, f->op_got = (clscan_op)SENTINEL;
}

/* A context (no fault armed) with the algorithm of op, the caller's buffers filled and poisoned. */
static void setup(fixture *f, const op *o, cache_mode mode)
{
    memset(f, 0, sizeof *f);
    cache_env(mode);
    clscan_status st = CLSCAN_SUCCESS;
    if (o->app_queue) {
        app_queue_create(f);
        st = clscan_context_create_from_queue(&f->ctx, f->app_queue);
    } else
        st = clscan_context_create(&f->ctx, NULL);
    EXPECT(st == CLSCAN_SUCCESS, "context: %s", clscan_last_error(NULL));
    assert_int_equal(clscan_set_algorithm(f->ctx, o->strategy, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
    if (o->shape != SHAPE_POLICY)
        test_set_tile(f->ctx, SMALL_WG, SMALL_ITEMS);
    clscan_tuning_set(f->ctx, CLSCAN_TUNE_PORTABLE, o->shape == SHAPE_PORTABLE);
    clscan_tuning_set(f->ctx, CLSCAN_TUNE_SORT_RADIX_BITS, o->shape == SHAPE_SPLIT ? 1 : 0);
    clscan_tuning_set(f->ctx, CLSCAN_TUNE_SORT_ONESWEEP, o->shape == SHAPE_SWEEP ? 1 : -1);
    clscan_tuning_set(f->ctx, CLSCAN_TUNE_HIST_MERGE, o->shape == SHAPE_MERGED);
    f->in = ref_buffer(f->ctx, sizeof data_in, data_in);
    f->flags = ref_buffer(f->ctx, sizeof data_flags, data_flags);
    f->out = ref_buffer(f->ctx, sizeof data_in, NULL);
    f->count_buf = ref_buffer(f->ctx, sizeof(cl_ulong), NULL);
    f->out2 = ref_buffer(f->ctx, sizeof data_in, NULL);
    cl_ulong offsets[N / 100 + 1];
    for (size_t s = 0; s <= N / 100; s++)
        offsets[s] = 100 * s;
    f->offsets = ref_buffer(f->ctx, sizeof offsets, offsets);
    int32_t edges[HIST_BINS + 1];
    for (int b = 0; b < HIST_BINS; b++)
        edges[b] = (int32_t)((uint32_t)b << 28 ^ 0x80000000u);   /* INT32_MIN + b * 2^28 */
    edges[HIST_BINS] = INT32_MAX;
    f->edges = ref_buffer(f->ctx, sizeof edges, edges);
    assert_true(f->in && f->flags && f->out && f->count_buf && f->offsets && f->edges && f->out2);
    if (o->prepare)
        o->prepare(f);
    reset_buffers(f, o);
}

/* Releases everything; the library must hold nothing afterwards. */
static void teardown(fixture *f)
{
    clReleaseMemObject(f->in);
    clReleaseMemObject(f->flags);
    clReleaseMemObject(f->out);
    clReleaseMemObject(f->count_buf);
    clReleaseMemObject(f->offsets);
    clReleaseMemObject(f->out2);
    clReleaseMemObject(f->edges);
    clscan_context_release(f->ctx);
    /* Commands hold their queue in some drivers (PoCL) until they are done: counted once idle. */
    if (f->app_queue) {
        assert_int_equal(clFinish(f->app_queue), CL_SUCCESS);
        cl_uint refs = settled_refs(queue_refs, f->app_queue, 1);
        EXPECT(refs == 1, "application queue references %u, 1 expected", refs);
    }
    app_queue_release(f);
    EXPECT(fault_live_cl() == 0, "%zu CL references still held after the context's release", fault_live_cl());
    EXPECT(fault_live_host() == 0, "%zu host blocks still allocated after the context's release", fault_live_host());
    EXPECT(fault_foreign_releases() == 0, "%lu releases of objects the library did not hold", fault_foreign_releases());
}

/* ---- the operations and their checks -------------------------------------------------------- */
static int read_out(fixture *f, cl_mem m, int32_t *got)
{
    return ref_read(f->ctx, m, sizeof data_in, got);
}

static clscan_status run_inclusive(fixture *f) { return clscan_inclusive_scan(f->ctx, f->in, f->out, N, CLSCAN_INT32, CLSCAN_ADD); }
/* clscan_mpi's split scan as a rank alone sees it (no MPI here): it agrees with itself, its seed stays
 * the identity, so the result is the plain inclusive scan. */
static clscan_status agree_alone(void *arg, clscan_status local, int written, uint64_t key)
{
    (void)arg, (void)written, (void)key;
    return local;
}
static clscan_status seed_alone(void *arg, const void *total, void *seed)
{
    (void)arg, (void)total, (void)seed;
    return CLSCAN_SUCCESS;
}
static clscan_status run_split(fixture *f)
{
    const clscan__collective c = {NULL, "split scan", NULL, agree_alone, seed_alone, NULL, NULL, NULL, NULL};
    return clscan__scan_collective(f->ctx, f->in, f->out, N, CLSCAN_INT32, CLSCAN_ADD, 0, &c);
}
static clscan_status run_exclusive(fixture *f) { return clscan_exclusive_scan(f->ctx, f->in, f->out, N, CLSCAN_INT32, CLSCAN_ADD); }
static clscan_status run_host_scan(fixture *f)
{
    return clscan_exclusive_scan_host(f->ctx, data_in, host_out, N, CLSCAN_INT32, CLSCAN_ADD);
}
/* Scans with an initial value: element 0 of in read on the device (block-sum: the seed goes through
 * every level), or INIT_HOST from the host. */
#define INIT_HOST 12345
static clscan_status run_init_device(fixture *f)
{
    return clscan_exclusive_scan_init(f->ctx, f->in, f->out, N, CLSCAN_INT32, CLSCAN_ADD, NULL, f->in);
}
static clscan_status run_init_host(fixture *f)
{
    const int32_t init = INIT_HOST;
    return clscan_inclusive_scan_init(f->ctx, f->in, f->out, N, CLSCAN_INT32, CLSCAN_ADD, &init, NULL);
}
static clscan_status run_compact(fixture *f) { return clscan_compact(f->ctx, f->in, f->flags, f->out, N, CLSCAN_INT32, &f->count); }
static clscan_status run_compact_async(fixture *f)
{
    return clscan_compact_async(f->ctx, f->in, f->flags, f->out, N, CLSCAN_INT32, f->count_buf);
}
static clscan_status run_segmented(fixture *f)
{
    return clscan_segmented_inclusive_scan(f->ctx, f->in, f->flags, f->out, N, CLSCAN_INT32, CLSCAN_ADD);
}
/* clscan_mpi's segmented scan as a rank alone sees it: its pair's launch and read-back, the gathers of
 * its own pair, no carry to fold (rank 0), then the scan: the plain segmented scan's result. */
static void place_alone(void *arg, int *rank, int *ranks)
{
    (void)arg;
    *rank = 0, *ranks = 1;
}
static void gather_alone(void *arg, const void *mine, size_t size, void *gathered)
{
    (void)arg;
    memcpy(gathered, mine, size);
}
static clscan_status run_segmented_split(fixture *f)
{
    const clscan__collective c = {NULL, "split segmented scan", NULL, agree_alone, NULL, NULL, place_alone, gather_alone,
                                  NULL};
    return clscan__segscan_collective(f->ctx, f->in, f->flags, f->out, N, CLSCAN_INT32, CLSCAN_ADD, 0, &c);
}
static clscan_status run_by_key(fixture *f)   /* the flag bytes as uint8 keys */
{
    return clscan_exclusive_scan_by_key(f->ctx, f->flags, CLSCAN_UINT8, f->in, f->out, N, CLSCAN_INT32, CLSCAN_ADD);
}
static clscan_status run_segmented_reduce(fixture *f)   /* segments of 100 elements over the input */
{
    return clscan_segmented_reduce(f->ctx, f->in, f->offsets, f->out, N / 100, CLSCAN_INT32, CLSCAN_ADD);
}
static clscan_status run_reduce_by_key(fixture *f)   /* the flag bytes as uint8 keys */
{
    return clscan_reduce_by_key(f->ctx, f->flags, f->in, f->out2, f->out, N, CLSCAN_UINT8, CLSCAN_INT32, CLSCAN_ADD,
                                &f->count);
}
static clscan_status run_unique_async(fixture *f)
{
    return clscan_unique_async(f->ctx, f->flags, f->out, N, CLSCAN_UINT8, f->count_buf);
}
static clscan_status run_partition(fixture *f)
{
    return clscan_partition(f->ctx, f->in, f->flags, f->out, N, CLSCAN_INT32, &f->count);
}
static clscan_status run_argmin(fixture *f)
{
    return clscan_argmin(f->ctx, f->in, N, CLSCAN_INT32, &f->count, &f->result);
}
static clscan_status run_hist_even(fixture *f)
{
    const int32_t lower = INT32_MIN, upper = INT32_MAX;
    return clscan_histogram_even(f->ctx, f->in, N, CLSCAN_INT32, &lower, &upper, HIST_BINS, f->out);
}
static clscan_status run_hist_range(fixture *f)
{
    return clscan_histogram_range(f->ctx, f->in, N, CLSCAN_INT32, f->edges, HIST_BINS, f->out);
}
static clscan_status run_sort(fixture *f) { return clscan_sort(f->ctx, f->in, N, CLSCAN_INT32); }
static clscan_status run_sort_by_key(fixture *f)
{
    return clscan_sort_by_key(f->ctx, f->in, f->out, N, CLSCAN_INT32, CLSCAN_UINT32);
}
static clscan_status run_sort_descending(fixture *f)
{
    const clscan_sort_options descending = {1, 0, 0};
    return clscan_sort_ex(f->ctx, f->in, f->out, N, CLSCAN_INT32, CLSCAN_UINT32, &descending);
}
static clscan_status run_sort_indices(fixture *f)
{
    return clscan_sort_indices(f->ctx, f->in, f->out, N, CLSCAN_INT32, NULL);
}
static clscan_status run_reduce_async(fixture *f)
{
    return clscan_reduce_async(f->ctx, f->in, N, CLSCAN_INT32, CLSCAN_ADD, f->out);
}
static clscan_status run_reduce(fixture *f) { return clscan_reduce(f->ctx, f->in, N, CLSCAN_INT32, CLSCAN_ADD, &f->result); }
static clscan_status run_sat(fixture *f) { return clscan_summed_area_table(f->ctx, f->in, f->out, SAT_W, SAT_H, CLSCAN_INT32); }

static int check_scan(fixture *f, int exclusive, char *msg, size_t len)
{
    static int32_t got[N];
    return read_out(f, f->out, got) && ref_check_scan(data_in, got, N, CLSCAN_INT32, CLSCAN_ADD, exclusive, msg, len);
}
static int check_inclusive(fixture *f, char *msg, size_t len) { return check_scan(f, 0, msg, len); }
static int check_exclusive(fixture *f, char *msg, size_t len) { return check_scan(f, 1, msg, len); }
static int check_host_scan(fixture *f, char *msg, size_t len)
{
    (void)f;
    return ref_check_scan(data_in, host_out, N, CLSCAN_INT32, CLSCAN_ADD, 1, msg, len);
}

/* out[i] = init + in[0] + ... (inclusive through in[i], exclusive before it), wrapping. */
static int check_init(fixture *f, uint32_t init, int exclusive, char *msg, size_t len)
{
    static int32_t got[N];
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    uint32_t acc = init;
    for (size_t i = 0; i < N; i++) {
        const uint32_t before = acc;
        acc += (uint32_t)data_in[i];
        if ((uint32_t)got[i] != (exclusive ? before : acc))
            return snprintf(msg, len, "element %zu is %#x, %#x expected", i, (unsigned)got[i],
                            (unsigned)(exclusive ? before : acc)), 0;
    }
    return 1;
}
static int check_init_device(fixture *f, char *msg, size_t len) { return check_init(f, (uint32_t)data_in[0], 1, msg, len); }
static int check_init_host(fixture *f, char *msg, size_t len) { return check_init(f, INIT_HOST, 0, msg, len); }

/* Segments starting at each set flag (by heads), or where the flag byte changes (by key). */
static int check_segments(fixture *f, int by_key, char *msg, size_t len)
{
    static int32_t got[N];
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    uint32_t run = 0;
    for (size_t i = 0; i < N; i++) {
        const int head = i == 0 || (by_key ? data_flags[i] != data_flags[i - 1] : data_flags[i] != 0);
        const uint32_t before = head ? 0u : run;
        run = before + (uint32_t)data_in[i];
        if ((uint32_t)got[i] != (by_key ? before : run))
            return snprintf(msg, len, "element %zu is %#x, %#x expected", i, (unsigned)got[i],
                            (unsigned)(by_key ? before : run)), 0;
    }
    return 1;
}
static int check_segmented(fixture *f, char *msg, size_t len) { return check_segments(f, 0, msg, len); }
/* Each segment's sum, and nothing written past the segments. */
static int check_segmented_reduce(fixture *f, char *msg, size_t len)
{
    static int32_t got[N];
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    for (size_t s = 0; s < N / 100; s++) {
        uint32_t sum = 0;
        for (size_t i = 100 * s; i < 100 * s + 100; i++)
            sum += (uint32_t)data_in[i];
        if ((uint32_t)got[s] != sum)
            return snprintf(msg, len, "segment %zu is %#x, %#x expected", s, (unsigned)got[s], (unsigned)sum), 0;
    }
    if (!ref_is_poison(got + N / 100, (N - N / 100) * sizeof *got))
        return snprintf(msg, len, "written past the segments"), 0;
    return 1;
}
static int check_by_key(fixture *f, char *msg, size_t len) { return check_segments(f, 1, msg, len); }

/* The runs of the flag bytes: keys (bytes) in keys_out, the sums of in in values_out (int32, NULL: unique),
 * count; nothing past them. */
static int check_runs(fixture *f, cl_mem keys_out, cl_mem values_out, char *msg, size_t len)
{
    static int32_t got[N], keys[N];
    if (!read_out(f, keys_out, keys) || (values_out && !read_out(f, values_out, got)))
        return snprintf(msg, len, "read failed"), 0;
    const uint8_t *k = (const uint8_t *)keys;
    size_t r = 0;
    for (size_t i = 0, start = 0; i <= N; i++) {
        if (i == 0 || (i < N && data_flags[i] == data_flags[i - 1]))
            continue;
        uint32_t sum = 0;
        for (size_t j = start; j < i; j++)
            sum += (uint32_t)data_in[j];
        if (k[r] != data_flags[start] || (values_out && (uint32_t)got[r] != sum))
            return snprintf(msg, len, "run %zu (from %zu) wrong", r, start), 0;
        r++, start = i;
    }
    if (f->count != r)
        return snprintf(msg, len, "%zu runs, %zu expected", f->count, r), 0;
    if (!ref_is_poison(k + r, sizeof keys - r) || (values_out && !ref_is_poison(got + r, (N - r) * sizeof *got)))
        return snprintf(msg, len, "written past the %zu runs", r), 0;
    return 1;
}
static int check_reduce_by_key(fixture *f, char *msg, size_t len) { return check_runs(f, f->out2, f->out, msg, len); }
static int check_unique_async(fixture *f, char *msg, size_t len)
{
    cl_ulong count = 0;
    if (!ref_read(f->ctx, f->count_buf, sizeof count, &count))
        return snprintf(msg, len, "count read failed"), 0;
    f->count = (size_t)count;
    return check_runs(f, f->out, NULL, msg, len);
}

/* The flagged elements in order, then the others in order. */
static int check_partition(fixture *f, char *msg, size_t len)
{
    static int32_t got[N];
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    size_t kept = 0;
    for (size_t i = 0; i < N; i++)
        kept += data_flags[i] != 0;
    if (f->count != kept)
        return snprintf(msg, len, "count %zu, %zu expected", f->count, kept), 0;
    for (size_t i = 0, front = 0, back = kept; i < N; i++)
        if (got[data_flags[i] ? front++ : back++] != data_in[i])
            return snprintf(msg, len, "element %zu misplaced", i), 0;
    return 1;
}

/* The first smallest element's index and value. */
static int check_argmin(fixture *f, char *msg, size_t len)
{
    size_t want = 0;
    for (size_t i = 1; i < N; i++)
        want = data_in[i] < data_in[want] ? i : want;
    if (f->count != want || f->result != data_in[want])
        return snprintf(msg, len, "index %zu value %d, %zu and %d expected", f->count, (int)f->result, want,
                         (int)data_in[want]), 0;
    return 1;
}

/* HIST_BINS counts: even, floor((x - INT32_MIN) * 16 / (2^32 - 1)); by the edges, (x - INT32_MIN) >> 28;
 * INT32_MAX in neither. */
static int check_hist(fixture *f, int range, char *msg, size_t len)
{
    cl_ulong got[HIST_BINS], want[HIST_BINS] = {0};
    for (size_t i = 0; i < N; i++) {
        const uint64_t d = (uint64_t)((int64_t)data_in[i] - INT32_MIN);
        if (data_in[i] != INT32_MAX)
            want[range ? d >> 28 : d * HIST_BINS / 0xFFFFFFFFu]++;
    }
    if (!ref_read(f->ctx, f->out, sizeof got, got))
        return snprintf(msg, len, "counts not read"), 0;
    for (int b = 0; b < HIST_BINS; b++)
        if (got[b] != want[b])
            return snprintf(msg, len, "bin %d: %llu, %llu expected", b, (unsigned long long)got[b],
                            (unsigned long long)want[b]), 0;
    return 1;
}
static int check_hist_even(fixture *f, char *msg, size_t len) { return check_hist(f, 0, msg, len); }
static int check_hist_range(fixture *f, char *msg, size_t len) { return check_hist(f, 1, msg, len); }

/* The kept elements in order, and nothing written past them. */
static int check_compact(fixture *f, char *msg, size_t len)
{
    static int32_t got[N];
    size_t kept = 0;
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    for (size_t i = 0; i < N; i++)
        if (data_flags[i] && (kept >= N || got[kept++] != data_in[i]))
            return snprintf(msg, len, "kept element %zu wrong", kept - 1), 0;
    if (f->count != kept)
        return snprintf(msg, len, "count %zu, %zu expected", f->count, kept), 0;
    if (!ref_is_poison(got + kept, (N - kept) * sizeof *got))
        return snprintf(msg, len, "written past the %zu kept elements", kept), 0;
    return 1;
}

/* check_compact with the count read from count_buf. */
static int check_compact_async(fixture *f, char *msg, size_t len)
{
    cl_ulong count = 0;
    if (!ref_read(f->ctx, f->count_buf, sizeof count, &count))
        return snprintf(msg, len, "count read failed"), 0;
    f->count = (size_t)count;
    return check_compact(f, msg, len);
}

static int check_sort(fixture *f, char *msg, size_t len)
{
    static int32_t got[N];
    if (!read_out(f, f->in, got) || memcmp(got, sorted_in, sizeof got) != 0)
        return snprintf(msg, len, "keys not sorted"), 0;
    return 1;
}

/* Each value is the index its key came from, in increasing order among equal keys (stable). */
static int check_sort_by_key(fixture *f, char *msg, size_t len)
{
    static int32_t values[N];
    if (!check_sort(f, msg, len) || !read_out(f, f->out, values))
        return 0;
    for (size_t i = 0; i < N; i++)
        if (values[i] < 0 || values[i] >= N || data_in[values[i]] != sorted_in[i] ||
            (i > 0 && sorted_in[i - 1] == sorted_in[i] && values[i - 1] >= values[i]))
            return snprintf(msg, len, "value %zu wrong", i), 0;
    return 1;
}

/* Descending: the keys are sorted_in backwards, each value the index its key came from, increasing
 * among equal keys (stable). */
static int check_sort_descending(fixture *f, char *msg, size_t len)
{
    static int32_t keys[N], values[N];
    if (!read_out(f, f->in, keys) || !read_out(f, f->out, values))
        return snprintf(msg, len, "read failed"), 0;
    for (size_t i = 0; i < N; i++)
        if (keys[i] != sorted_in[N - 1 - i] || values[i] < 0 || values[i] >= N || data_in[values[i]] != keys[i] ||
            (i > 0 && keys[i - 1] == keys[i] && values[i - 1] >= values[i]))
            return snprintf(msg, len, "position %zu wrong", i), 0;
    return 1;
}

/* Argsort: the keys untouched (the fixture checks in), out[i] the index of the i-th key in stable order. */
static int check_sort_indices(fixture *f, char *msg, size_t len)
{
    static int32_t index[N];
    if (!read_out(f, f->out, index))
        return snprintf(msg, len, "read failed"), 0;
    for (size_t i = 0; i < N; i++)
        if (index[i] < 0 || index[i] >= N || data_in[index[i]] != sorted_in[i] ||
            (i > 0 && sorted_in[i - 1] == sorted_in[i] && index[i - 1] >= index[i]))
            return snprintf(msg, len, "index %zu wrong", i), 0;
    return 1;
}

static int check_reduce(fixture *f, char *msg, size_t len)
{
    return ref_check_reduce(data_in, &f->result, N, CLSCAN_INT32, CLSCAN_ADD, msg, len);
}

/* The value in out's element 0, the rest of out as it was (poisoned). */
static int check_reduce_async(fixture *f, char *msg, size_t len)
{
    static int32_t got[N];
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    if (!ref_is_poison(got + 1, (N - 1) * sizeof *got))
        return snprintf(msg, len, "written past element 0"), 0;
    return ref_check_reduce(data_in, got, N, CLSCAN_INT32, CLSCAN_ADD, msg, len);
}

/* Integer sums wrap: computed in uint32. */
static int check_sat(fixture *f, char *msg, size_t len)
{
    static int32_t got[N];
    static uint32_t want[SAT_W * SAT_H];
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    for (size_t y = 0; y < SAT_H; y++)
        for (size_t x = 0, row = 0; x < SAT_W; x++) {
            row += (uint32_t)data_in[y * SAT_W + x];
            want[y * SAT_W + x] = (uint32_t)row + (y ? want[(y - 1) * SAT_W + x] : 0);
            if ((uint32_t)got[y * SAT_W + x] != want[y * SAT_W + x])
                return snprintf(msg, len, "element (%zu, %zu) wrong", x, y), 0;
        }
    return ref_is_poison(got + SAT_W * SAT_H, (N - SAT_W * SAT_H) * sizeof *got) ? 1
           : (snprintf(msg, len, "written past the image"), 0);
}

/* ---- registration, and scans with a registered operator ---------------------------------------- */
/* Affine maps x -> m x + c mod 2^16 packed as m << 16 | c, b after a: not commutative (test_user.c). */
static uint32_t affine16(uint32_t a, uint32_t b)
{
    uint32_t am = a >> 16, ac = a & 0xffffu, bm = b >> 16, bc = b & 0xffffu;
    return ((bm * am) & 0xffffu) << 16 | ((bm * ac + bc) & 0xffffu);
}
#define AFFINE16_CL                                                                                     \
    "(((b >> 16) * (a >> 16)) & 0xffffu) << 16 | (((b >> 16) * (a & 0xffffu) + (b & 0xffffu)) & 0xffffu)"
static const uint32_t affine16_identity = 0x10000u;
/* The same through a helper, so that a preamble is copied and built too. */
static const char affine16_preamble[] = "uint after(uint a, uint b)\n{\n    return " AFFINE16_CL ";\n}\n";
/* On a registered struct: the declaration, a preamble and the combine in one probe. */
static const char affine_declaration[] = "typedef struct { uint m, c; } affine;";
static const char compose_preamble[] = "affine compose(affine a, affine b)\n{\n"
                                       "    affine r = {b.m * a.m, b.m * a.c + b.c};\n    return r;\n}\n";

/* A type and an operator registered before the walked registration, which must get the next index. */
static void prepare_register(fixture *f)
{
    const uint32_t zero = 0;
    EXPECT(clscan_register_type(f->ctx, "affine", affine_declaration, 8, &f->type_before) == CLSCAN_SUCCESS &&
           clscan_register_op(f->ctx, CLSCAN_UINT32, "a + b", &zero, NULL, CLSCAN_OP_COMMUTATIVE, &f->op_before) ==
               CLSCAN_SUCCESS, "registration before the walk: %s", clscan_last_error(f->ctx));
}

static void prepare_affine16(fixture *f)
{
    EXPECT(clscan_register_op(f->ctx, CLSCAN_UINT32, AFFINE16_CL, &affine16_identity, NULL, 0, &f->op_before) ==
           CLSCAN_SUCCESS, "registration before the walk: %s", clscan_last_error(f->ctx));
}

static clscan_status run_register_type(fixture *f)
{
    return clscan_register_type(f->ctx, "pair", "typedef struct { float v; uint i; } pair;", 8, &f->type_got);
}
static clscan_status run_register_op(fixture *f)
{
    return clscan_register_op(f->ctx, CLSCAN_UINT32, "after(a, b)", &affine16_identity, affine16_preamble, 0,
                              &f->op_got);
}
static clscan_status run_register_op_struct(fixture *f)
{
    const uint32_t identity[2] = {1, 0};
    return clscan_register_op(f->ctx, f->type_before, "compose(a, b)", identity, compose_preamble, 0, &f->op_got);
}
static clscan_status run_user_scan(fixture *f)
{
    return clscan_inclusive_scan(f->ctx, f->in, f->out, N, CLSCAN_UINT32, f->op_before);
}
static clscan_status run_user_reduce(fixture *f)
{
    return clscan_reduce(f->ctx, f->in, N, CLSCAN_UINT32, f->op_before, &f->result);
}

/* The value registered after the one op.prepare registered first: the same context tag, the next index. */
static clscan_type next_type(const fixture *f) { return (clscan_type)((unsigned)f->type_before + 1u); }
static clscan_op next_op(const fixture *f) { return (clscan_op)((unsigned)f->op_before + 1u); }

static int check_user_scan(fixture *f, char *msg, size_t len)
{
    static int32_t got[N];
    if (!read_out(f, f->out, got))
        return snprintf(msg, len, "read failed"), 0;
    uint32_t acc = affine16_identity;
    for (size_t i = 0; i < N; i++)
        if ((uint32_t)got[i] != (acc = affine16(acc, (uint32_t)data_in[i])))
            return snprintf(msg, len, "element %zu is %#x, %#x expected", i, (unsigned)got[i], (unsigned)acc), 0;
    return 1;
}

static int check_user_reduce(fixture *f, char *msg, size_t len)
{
    uint32_t acc = affine16_identity;
    for (size_t i = 0; i < N; i++)
        acc = affine16(acc, (uint32_t)data_in[i]);
    return (uint32_t)f->result == acc ? 1
           : (snprintf(msg, len, "result %#x, %#x expected", (unsigned)f->result, (unsigned)acc), 0);
}

static int check_register_type(fixture *f, char *msg, size_t len)
{
    if (f->type_got != next_type(f))
        return snprintf(msg, len, "type %#x, %#x expected", (unsigned)f->type_got, (unsigned)next_type(f)), 0;
    size_t size = clscan_context_type_size(f->ctx, f->type_got);
    return size == 8 ? 1 : (snprintf(msg, len, "the type's size is %zu, not 8", size), 0);
}

/* The next index, and (on a built-in type) a scan through the new operator. */
static int check_register_op(fixture *f, char *msg, size_t len)
{
    if (f->op_got != next_op(f))
        return snprintf(msg, len, "operator %#x, %#x expected", (unsigned)f->op_got, (unsigned)next_op(f)), 0;
    if (clscan__user_op_of(f->ctx, f->op_got)->type != CLSCAN_UINT32)
        return 1;
    clscan_status st = clscan_inclusive_scan(f->ctx, f->in, f->out, N, CLSCAN_UINT32, f->op_got);
    if (st != CLSCAN_SUCCESS)
        return snprintf(msg, len, "a scan with it: %s", clscan_last_error(f->ctx)), 0;
    return check_user_scan(f, msg, len);
}

/* After a failed registration: *type untouched, and the value it would have had has no size and takes
 * no operator. */
static int refused_type(fixture *f, char *msg, size_t len)
{
    const uint32_t zero = 0;
    clscan_op unused = (clscan_op)SENTINEL;
    if (f->type_got != (clscan_type)SENTINEL)
        return snprintf(msg, len, "*type written"), 0;
    if (clscan_context_type_size(f->ctx, next_type(f)) != 0)
        return snprintf(msg, len, "type %#x has a size", (unsigned)next_type(f)), 0;
    if (clscan_register_op(f->ctx, next_type(f), "a", &zero, NULL, 0, &unused) != CLSCAN_INVALID_ARGUMENT)
        return snprintf(msg, len, "an operator on type %#x was not refused", (unsigned)next_type(f)), 0;
    return 1;
}

/* After a failed registration: *op untouched, and a scan with the value it would have had refused. */
static int refused_op(fixture *f, char *msg, size_t len)
{
    if (f->op_got != (clscan_op)SENTINEL)
        return snprintf(msg, len, "*op written"), 0;
    clscan_status st = clscan_inclusive_scan(f->ctx, f->in, f->out, N, CLSCAN_UINT32, next_op(f));
    if (st != CLSCAN_INVALID_ARGUMENT || !strstr(clscan_last_error(f->ctx), "not registered with this context"))
        return snprintf(msg, len, "a scan with operator %#x: %s, %s", (unsigned)next_op(f), clscan_status_string(st),
                        clscan_last_error(f->ctx)), 0;
    return 1;
}

static void expect_right(fixture *f, const op *o, const char *when)
{
    char msg[256] = "";
    EXPECT(o->check(f, msg, sizeof msg), "%s: wrong answer: %s", when, msg);
}

/* ---- what a failed call must leave behind --------------------------------------------------- */
/* A sort's keys and values too, wherever it failed: its passes write the caller's buffers in their
 * last command only (src/prims/sort.c). */
static void expect_inputs_kept(fixture *f, const op *o)
{
    static int32_t got[N];
    static uint8_t flags[N];
    assert_true(read_out(f, f->in, got));
    EXPECT(memcmp(got, data_in, sizeof got) == 0, "the input changed");
    if (o->in_place == 2) {
        assert_true(read_out(f, f->out, got));
        EXPECT(memcmp(got, indices, sizeof got) == 0, "the values changed");
    }
    assert_true(ref_read(f->ctx, f->flags, sizeof flags, flags));
    EXPECT(memcmp(flags, data_flags, sizeof flags) == 0, "the flags changed");
    EXPECT(f->count == SENTINEL && f->result == (int32_t)SENTINEL, "a result was written by a failed call");
}

/* Whether any output (device or host) differs from what the caller put there: the poison, or a sort's
 * keys and values as given. */
static int outputs_written(fixture *f, const op *o)
{
    static int32_t got[N];
    if (o->in_place) {
        assert_true(read_out(f, f->in, got));
        int written = memcmp(got, data_in, sizeof got) != 0;
        if (o->in_place == 2)
            assert_true(read_out(f, f->out, got));
        return written || (o->in_place == 2 && memcmp(got, indices, sizeof got) != 0);
    }
    assert_true(read_out(f, f->out, got));
    cl_ulong count = 0;
    assert_int_equal(ref_read(f->ctx, f->count_buf, sizeof count, &count), 1);
    int written = !ref_is_poison(got, sizeof got) || !ref_is_poison(host_out, sizeof host_out) ||
                  !ref_is_poison(&count, sizeof count);
    assert_true(read_out(f, f->out2, got));
    return written || !ref_is_poison(got, sizeof got);
}

/* API.md: CLSCAN_OUT_OF_MEMORY means nothing was written to the outputs; the library reports
 * CLSCAN_OPENCL_ERROR instead once it has enqueued a command that writes one, and only then. */
static void expect_outputs_as_status(fixture *f, const op *o, clscan_status st, clscan_status mapped)
{
    if (st == CLSCAN_OUT_OF_MEMORY) {
        EXPECT(!outputs_written(f, o), "CLSCAN_OUT_OF_MEMORY, but an output was written");
        walk_oom++;
    } else if (st == CLSCAN_OPENCL_ERROR && mapped == CLSCAN_OUT_OF_MEMORY) {
        EXPECT(outputs_written(f, o), "CLSCAN_OPENCL_ERROR for an allocation failure, but no output was written: "
               "CLSCAN_OUT_OF_MEMORY expected");
        walk_written++;
    }
}

/* The status, the message, and the caller's objects after the injected failure. */
static void expect_failure_handled(fixture *f, const op *o, clscan_status st, fault_kind kind)
{
    const char *call = NULL;
    cl_int code = CL_SUCCESS;
    fault_fired(&call, &code);
    assert_int_equal(clFinish(clscan_context_queue(f->ctx)), CL_SUCCESS);
    const clscan_status want = kind == FAULT_CL ? clscan__status_from_cl(code) : CLSCAN_OUT_OF_MEMORY;
    /* After a command that writes an output, an allocation-type failure no longer means "nothing written". */
    const int after_write = want == CLSCAN_OUT_OF_MEMORY && st == CLSCAN_OPENCL_ERROR;
    const char *msg = clscan_last_error(f->ctx);
    if (st == CLSCAN_SUCCESS) {   /* absorbed (a cache miss, say): then the answer must be right */
        note_absorbed(call);
        expect_right(f, o, "after an absorbed fault");
    } else {
        EXPECT(st == want || after_write, "status %s (%d), %s (%d) expected; message: %s", clscan_status_string(st),
               st, clscan_status_string(want), want, msg);
        EXPECT(!after_write || strstr(msg, "may be partly written"), "no word of a written output: %s", msg);
        EXPECT(msg[0] != '\0', "no message");
        EXPECT(kind == FAULT_HOST || (strstr(msg, call) && strstr(msg, clscan__cl_error_name(code))),
               "the message does not name the call and code: %s", msg);
    }
    cl_uint refs[3] = {settled_refs(mem_refs, f->in, 1), settled_refs(mem_refs, f->flags, 1),
                       settled_refs(mem_refs, f->out, 1)};
    EXPECT(refs[0] == 1 && refs[1] == 1 && refs[2] == 1, "caller's reference counts changed: in %u, flags %u, out %u",
           refs[0], refs[1], refs[2]);
    if (st != CLSCAN_SUCCESS) {
        expect_inputs_kept(f, o);
        expect_outputs_as_status(f, o, st, want);
    }
}

/* ---- the walk ------------------------------------------------------------------------------- */
/* Runs op once with no fault: returns the calls of the kind (of name) it made; live references after,
 * and where the first clEnqueueReadBuffer came among its OpenCL calls (0: none; in a sort, the read-back
 * of the bits in which keys differ). */
static unsigned long dry_run(const op *o, fault_kind kind, const char *name, cache_mode mode, size_t live[2],
                             unsigned long *read_back)
{
    fixture f;
    setup(&f, o, mode);
    fault_arm(kind, name, ULONG_MAX);
    clscan_status st = o->run(&f);
    fault_disarm();
    unsigned long calls = fault_calls(kind);
    *read_back = 0;
    for (unsigned long k = fault_calls(FAULT_CL); k >= 1; k--)
        if (fault_trace(k) && strcmp(fault_trace(k), "clEnqueueReadBuffer") == 0)
            *read_back = k;
    EXPECT(st == CLSCAN_SUCCESS, "dry run: %s", clscan_last_error(f.ctx));
    expect_right(&f, o, "dry run");
    live[0] = fault_live_cl(), live[1] = fault_live_host();
    teardown(&f);
    if (getenv("CLSCAN_FAULT_TRACE"))   /* which call each n of the walk fails */
        for (unsigned long k = 1; kind == FAULT_CL && fault_trace(k); k++)
            printf("  %s %lu: %s\n", o->name, k, fault_trace(k));
    return calls;
}

/* For n = 1 .. (the calls one run makes), a fresh context whose n-th call (of name, or any) of the kind
 * fails during op; then the checks above, and the same call again, right, with the context's
 * references back to where a clean run leaves them. Returns how many of the points (all OpenCL calls)
 * came after the first clEnqueueReadBuffer. */
static unsigned long walk(const op *o, fault_kind kind, const char *name, cache_mode mode)
{
    size_t live[2];
    unsigned long read_back = 0;
    snprintf(where, sizeof where, "%s, dry run", o->name);
    dry_run(o, kind, name, mode, live, &read_back);   /* the first may fill the cache; the second counts */
    unsigned long calls = dry_run(o, kind, name, mode, live, &read_back), absorbed = total_absorbed;
    const unsigned long late = kind == FAULT_CL && !name && read_back ? calls - read_back : 0;
    absorbed_calls[0] = '\0';
    walk_oom = walk_written = 0;
    for (unsigned long n = 1; n <= calls; n++) {
        fixture f;
        setup(&f, o, mode);
        fault_arm(kind, name, n);
        clscan_status st = o->run(&f);
        fault_disarm();
        const char *call = NULL;
        cl_int code = CL_SUCCESS;
        int fired = fault_fired(&call, &code);
        snprintf(where, sizeof where, "%s, %s fault %lu of %lu (%s%s%s)", o->name, kind == FAULT_CL ? "CL" : "host",
                 n, calls, call ? call : "-", kind == FAULT_CL ? " -> " : "",
                 kind == FAULT_CL ? clscan__cl_error_name(code) : "");
        EXPECT(fired, "the fault did not fire: the calls differ from the dry run's");
        expect_failure_handled(&f, o, st, kind);
        char msg[256] = "";
        EXPECT(st == CLSCAN_SUCCESS || !o->refused || o->refused(&f, msg, sizeof msg),
               "a failed registration registered something: %s", msg);
        reset_buffers(&f, o);
        st = o->run(&f);
        EXPECT(st == CLSCAN_SUCCESS, "the next call failed: %s", clscan_last_error(f.ctx));
        expect_right(&f, o, "the next call");
        EXPECT(fault_live_cl() == live[0] && fault_live_host() == live[1],
               "the context holds %zu CL references and %zu host blocks, a clean run %zu and %zu", fault_live_cl(),
               fault_live_host(), live[0], live[1]);
        teardown(&f);
    }
    *(kind == FAULT_CL ? &total_cl : &total_host) += calls;
    total_oom += walk_oom, total_written += walk_written;
    printf("[ walk     ] %-33s %s%s%s faults%s: %4lu points, %lu absorbed%s; %lu out of memory, outputs untouched; "
           "%lu OpenCL error after a write", o->name, kind == FAULT_CL ? "CL" : "host", name ? " " : "",
           name ? name : "", mode == CACHE_COLD ? " (cache cold)" : mode == CACHE_OFF ? " (cache off)" : "", calls,
           total_absorbed - absorbed, absorbed_calls, walk_oom, walk_written);
    if (late)
        printf("; %lu after the read-back", late);
    printf("\n");
    fflush(stdout);
    return late;
}

/* ---- the operations walked ------------------------------------------------------------------ */
/* name, strategy, application queue, in place, tile shape, run, check, prepare, refused */
static const op op_block_sum = {"inclusive scan, block-sum", CLSCAN_STRATEGY_BLOCK_SUM, 0, 0, SHAPE_SMALL,
                                run_inclusive, check_inclusive, NULL, NULL};
static const op op_rts = {"exclusive scan, reduce-then-scan", CLSCAN_STRATEGY_REDUCE_THEN_SCAN, 0, 0, SHAPE_SMALL,
                          run_exclusive, check_exclusive, NULL, NULL};
static const op op_single = {"inclusive scan, single-pass", CLSCAN_STRATEGY_SINGLE_PASS, 0, 0, SHAPE_SMALL,
                             run_inclusive, check_inclusive, NULL, NULL};
static const op op_portable = {"inclusive scan, portable", CLSCAN_STRATEGY_SINGLE_PASS, 0, 0, SHAPE_PORTABLE,
                               run_inclusive, check_inclusive, NULL, NULL};
static const op op_split = {"inclusive scan, split for MPI", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_split,
                            check_inclusive, NULL, NULL};
static const op op_app_queue = {"scan, application queue", CLSCAN_STRATEGY_BLOCK_SUM, 1, 0, SHAPE_SMALL,
                                run_exclusive, check_exclusive, NULL, NULL};
static const op op_init_device = {"exclusive scan from a device value, block-sum", CLSCAN_STRATEGY_BLOCK_SUM, 0, 0,
                                  SHAPE_SMALL, run_init_device, check_init_device, NULL, NULL};
static const op op_init_host = {"inclusive scan from a host value, single-pass", CLSCAN_STRATEGY_SINGLE_PASS, 0, 0,
                                SHAPE_SMALL, run_init_host, check_init_host, NULL, NULL};
static const op op_host_scan = {"exclusive host scan", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_POLICY, run_host_scan,
                                check_host_scan, NULL, NULL};
static const op op_compact = {"compact, one pass", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_compact,
                              check_compact, NULL, NULL};
static const op op_compact3 = {"compact, three launches", CLSCAN_STRATEGY_BLOCK_SUM, 0, 0, SHAPE_SMALL, run_compact,
                               check_compact, NULL, NULL};
static const op op_compact_async = {"compact, the count on the device, one pass", CLSCAN_STRATEGY_AUTO, 0, 0,
                                   SHAPE_SMALL, run_compact_async, check_compact_async, NULL, NULL};
static const op op_compact3_async = {"compact, the count on the device, three launches", CLSCAN_STRATEGY_BLOCK_SUM, 0,
                                     0, SHAPE_SMALL, run_compact_async, check_compact_async, NULL, NULL};
static const op op_segmented = {"segmented inclusive scan", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_segmented,
                                check_segmented, NULL, NULL};
static const op op_segmented_split = {"segmented inclusive scan, split for MPI", CLSCAN_STRATEGY_AUTO, 0, 0,
                                      SHAPE_SMALL, run_segmented_split, check_segmented, NULL, NULL};
static const op op_segmented_reduce = {"segmented reduce", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_segmented_reduce,
                                       check_segmented_reduce, NULL, NULL};
static const op op_argmin = {"argmin", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_argmin, check_argmin, NULL, NULL};
static const op op_reduce_by_key = {"reduce by key", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_reduce_by_key,
                                    check_reduce_by_key, NULL, NULL};
static const op op_unique_async = {"unique, the count on the device", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL,
                                   run_unique_async, check_unique_async, NULL, NULL};
static const op op_partition = {"partition", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_partition, check_partition,
                                NULL, NULL};
static const op op_hist_even = {"histogram even", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_hist_even, check_hist_even,
                                NULL, NULL};
static const op op_hist_merged = {"histogram even, merged", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_MERGED, run_hist_even,
                                  check_hist_even, NULL, NULL};
static const op op_hist_range = {"histogram range", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_hist_range,
                                 check_hist_range, NULL, NULL};
static const op op_by_key = {"exclusive scan by key", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_by_key,
                             check_by_key, NULL, NULL};
static const op op_sort = {"sort", CLSCAN_STRATEGY_AUTO, 0, 1, SHAPE_SMALL, run_sort, check_sort, NULL, NULL};
static const op op_sort_by_key = {"sort by key", CLSCAN_STRATEGY_AUTO, 0, 2, SHAPE_SMALL, run_sort_by_key,
                                  check_sort_by_key, NULL, NULL};
static const op op_sort_one_digit = {"sort by key, one digit varies", CLSCAN_STRATEGY_AUTO, 0, 2, SHAPE_SMALL,
                                     run_sort_by_key, check_sort_by_key, NULL, NULL};
static const op op_sort_descending = {"sort_ex descending, by key", CLSCAN_STRATEGY_AUTO, 0, 2, SHAPE_SMALL,
                                      run_sort_descending, check_sort_descending, NULL, NULL};
static const op op_sort_indices = {"sort_indices", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_sort_indices,
                                   check_sort_indices, NULL, NULL};
static const op op_sort_equal = {"sort by key, all keys equal", CLSCAN_STRATEGY_AUTO, 0, 2, SHAPE_SMALL,
                                 run_sort_by_key, check_sort_by_key, NULL, NULL};
static const op op_sort_split = {"sort by key, split path", CLSCAN_STRATEGY_AUTO, 0, 2, SHAPE_SPLIT,
                                 run_sort_by_key, check_sort_by_key, NULL, NULL};
static const op op_sort_sweep = {"sort by key, one sweep", CLSCAN_STRATEGY_AUTO, 0, 2, SHAPE_SWEEP,
                                 run_sort_by_key, check_sort_by_key, NULL, NULL};
static const op op_reduce = {"reduce", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_reduce, check_reduce, NULL, NULL};
static const op op_reduce_async = {"reduce into a device buffer", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL,
                                   run_reduce_async, check_reduce_async, NULL, NULL};
static const op op_sat = {"summed-area table", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_sat, check_sat, NULL, NULL};

static const op op_register_type = {"register a type", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_register_type,
                                    check_register_type, prepare_register, refused_type};
static const op op_register_op = {"register an operator", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL, run_register_op,
                                  check_register_op, prepare_register, refused_op};
static const op op_register_op_struct = {"register an operator on a struct", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL,
                                         run_register_op_struct, check_register_op, prepare_register, refused_op};
static const op op_user_scan = {"scan, registered operator", CLSCAN_STRATEGY_BLOCK_SUM, 0, 0, SHAPE_SMALL,
                                run_user_scan, check_user_scan, prepare_affine16, NULL};
/* Small tiles: more tiles than groups, so a group folds several (where an operator that is not
 * commutative was once folded out of order: docs/reliability.md). */
static const op op_user_reduce = {"reduce, registered operator", CLSCAN_STRATEGY_AUTO, 0, 0, SHAPE_SMALL,
                                  run_user_reduce, check_user_reduce, prepare_affine16, NULL};

/* Both sides of CLSCAN_OUT_OF_MEMORY's promise in the last walk: failures before any output was written
 * (reported as out of memory), and failures after (add_offsets, the count's read-back, a barrier). */
static void expect_both_sides(const char *what)
{
    EXPECT(walk_oom > 0 && walk_written > 0, "%s: %lu out of memory, %lu OpenCL errors after a write; some of each "
           "expected", what, walk_oom, walk_written);
}

/* Regression (docs/reliability.md): a launch after scan_tiles had written the output (add_offsets, a
 * barrier on an out-of-order queue) failed with CLSCAN_OUT_OF_MEMORY, whose promise is that nothing
 * was written. */
static void test_scan_cl(void **state)
{
    (void)state;
    walk(&op_block_sum, FAULT_CL, NULL, CACHE_WARM);
    expect_both_sides("block-sum");
    walk(&op_rts, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_single, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_portable, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_split, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_app_queue, FAULT_CL, NULL, CACHE_WARM);
    expect_both_sides("application queue");
    walk(&op_host_scan, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_init_device, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_init_host, FAULT_CL, NULL, CACHE_WARM);
}

static void test_scan_host(void **state)
{
    (void)state;
    walk(&op_block_sum, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_single, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_split, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_app_queue, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_host_scan, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_init_device, FAULT_HOST, NULL, CACHE_WARM);
}

/* The count's read-back comes after out was written: it must not fail as out of memory. */
static void test_compact(void **state)
{
    (void)state;
    walk(&op_compact, FAULT_CL, NULL, CACHE_WARM);
    expect_both_sides("compact, one pass");
    walk(&op_compact3, FAULT_CL, NULL, CACHE_WARM);
    expect_both_sides("compact, three launches");
    walk(&op_compact, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_compact3, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_compact_async, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_compact3_async, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_compact_async, FAULT_HOST, NULL, CACHE_WARM);
}

static void test_segmented(void **state)
{
    (void)state;
    walk(&op_segmented, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_by_key, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_segmented, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_by_key, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_segmented_split, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_segmented_split, FAULT_HOST, NULL, CACHE_WARM);
}

/* The 0.2 reductions and selections apart from the segmented scans, so that ctest runs the two side by
 * side (together they took 263 s on the H200, the second longest of the GPU subset). */
static void test_reduce_select(void **state)
{
    (void)state;
    walk(&op_segmented_reduce, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_segmented_reduce, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_argmin, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_argmin, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_reduce_by_key, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_reduce_by_key, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_unique_async, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_partition, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_partition, FAULT_HOST, NULL, CACHE_WARM);
}

static void test_histogram(void **state)
{
    (void)state;
    walk(&op_hist_even, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_hist_even, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_hist_merged, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_hist_range, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_hist_range, FAULT_HOST, NULL, CACHE_WARM);
}

static void sort_keys_ready(void);

/* The walks' keys differ in the second byte only (one pass, to B, and sort_home copies it back), or
 * not at all (nothing runs after the read-back); restore_keys() brings back the random ones. */
static int32_t saved_in[N], saved_sorted[N];

static void narrow_keys(int one_digit)
{
    memcpy(saved_in, data_in, sizeof data_in), memcpy(saved_sorted, sorted_in, sizeof sorted_in);
    for (size_t i = 0; i < N; i++)
        data_in[i] = (int32_t)(0x12340000u | (one_digit ? (uint32_t)saved_in[i] & 0xff00u : 0x5600u));
    sort_keys_ready();
}

static void restore_keys(void)
{
    memcpy(data_in, saved_in, sizeof data_in), memcpy(sorted_in, saved_sorted, sizeof sorted_in);
}

/* Regression (docs/reliability.md): a sort that failed after its second pass was enqueued left the
 * caller's keys and values permuted and transformed. Every point of these walks must leave them as they
 * were; the walks of whole sorts must reach well past the read-back of the varying bits, up to the last
 * command, the one that writes the keys. Three tests, so that ctest runs them side by side (one took
 * 415 s on the H200, the longest of the GPU subset): keys in three launches a pass, with one and no
 * varying digit and the split path; sorts by key and argsort; one sweep and descending. */
static void test_sort_keys(void **state)
{
    (void)state;
    unsigned long late = walk(&op_sort, FAULT_CL, NULL, CACHE_WARM);
    EXPECT(late >= 20, "%lu points after the sort's read-back, 20 or more expected", late);
    walk(&op_sort, FAULT_HOST, NULL, CACHE_WARM);
    narrow_keys(1);
    late = walk(&op_sort_one_digit, FAULT_CL, NULL, CACHE_WARM);
    restore_keys();
    EXPECT(late > 0, "no point after the one-digit sort's read-back");
    narrow_keys(0);
    walk(&op_sort_equal, FAULT_CL, NULL, CACHE_WARM);
    restore_keys();
    walk(&op_sort_split, FAULT_CL, "clEnqueueNDRangeKernel", CACHE_WARM);
}

static void test_sort_pairs(void **state)
{
    (void)state;
    unsigned long late = walk(&op_sort_by_key, FAULT_CL, NULL, CACHE_WARM);
    EXPECT(late >= 20, "%lu points after the sort's read-back, 20 or more expected", late);
    walk(&op_sort_by_key, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_sort_indices, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_sort_indices, FAULT_HOST, NULL, CACHE_WARM);
}

static void test_sort_sweep(void **state)
{
    (void)state;
    unsigned long late = walk(&op_sort_sweep, FAULT_CL, NULL, CACHE_WARM);
    EXPECT(late >= 20, "%lu points after the one-sweep sort's read-back, 20 or more expected", late);
    walk(&op_sort_sweep, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_sort_descending, FAULT_CL, NULL, CACHE_WARM);
}

static void test_reduce_sat(void **state)
{
    (void)state;
    walk(&op_reduce, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_reduce_async, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_sat, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_reduce, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_reduce_async, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_sat, FAULT_HOST, NULL, CACHE_WARM);
}

/* Builds from source: with a cold cache every call of the build and of the binary's write is walked;
 * with the cache off, the source build alone. */
static void test_build(void **state)
{
    (void)state;
    static const char *const build_calls[] = {"clCreateProgramWithSource", "clBuildProgram", "clGetProgramInfo",
                                              "clCreateKernel", "clGetKernelWorkGroupInfo"};
    for (size_t i = 0; i < sizeof build_calls / sizeof build_calls[0]; i++)
        walk(&op_single, FAULT_CL, build_calls[i], CACHE_COLD);
    walk(&op_single, FAULT_HOST, NULL, CACHE_COLD);
    walk(&op_block_sum, FAULT_CL, "clBuildProgram", CACHE_OFF);
    walk(&op_sort, FAULT_CL, "clBuildProgram", CACHE_OFF);
}

/* Elements with odd multipliers (invertible mod 2^16), so that the affine products never collapse:
 * set for the registration walks, restore_keys() brings back the random ones. */
static void affine_data(void)
{
    memcpy(saved_in, data_in, sizeof data_in), memcpy(saved_sorted, sorted_in, sizeof sorted_in);
    for (size_t i = 0; i < N; i++)
        data_in[i] = (int32_t)((uint32_t)saved_in[i] | 0x10000u);
    sort_keys_ready();
}

/* Registration: a type's probe (build, kernel, buffer, launch, read-back), an operator's (its build), on
 * a built-in type and on a registered struct with a preamble; every OpenCL call and host allocation. */
static void test_user_register(void **state)
{
    (void)state;
    affine_data();
    walk(&op_register_type, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_register_op, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_register_op_struct, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_register_type, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_register_op, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_register_op_struct, FAULT_HOST, NULL, CACHE_WARM);
    restore_keys();
}

/* A scan and a reduction with a registered operator: every call with the cache warm, and the program's
 * build from source (the registered code in it) with the cache cold or off. */
static void test_user_scan(void **state)
{
    (void)state;
    static const char *const build_calls[] = {"clCreateProgramWithSource", "clBuildProgram", "clGetProgramInfo",
                                              "clCreateKernel"};
    affine_data();
    walk(&op_user_scan, FAULT_CL, NULL, CACHE_WARM);
    expect_both_sides("scan with a registered operator");
    walk(&op_user_reduce, FAULT_CL, NULL, CACHE_WARM);
    walk(&op_user_scan, FAULT_HOST, NULL, CACHE_WARM);
    walk(&op_user_reduce, FAULT_HOST, NULL, CACHE_WARM);
    for (size_t i = 0; i < sizeof build_calls / sizeof build_calls[0]; i++)
        walk(&op_user_scan, FAULT_CL, build_calls[i], CACHE_COLD);
    walk(&op_user_scan, FAULT_HOST, NULL, CACHE_COLD);
    walk(&op_user_reduce, FAULT_CL, "clBuildProgram", CACHE_OFF);
    restore_keys();
}

/* ---- context creation ----------------------------------------------------------------------- */
/* For every n: creation fails with the mapped status, *ctx NULL, a new message, nothing held, the
 * application's queue as it was; or it absorbed the fault and the context works. Then a creation
 * without faults works. spec: the device argument of a creation (not from a queue). */
static void walk_create(int from_queue, const char *spec, fault_kind kind)
{
    const char *what = from_queue ? "create from queue" : spec ? "create by platform name" : "create";
    fixture app = {0};
    app_queue_create(&app);
    unsigned long calls = ULONG_MAX, absorbed = total_absorbed;
    absorbed_calls[0] = '\0';
    for (unsigned long n = 0; n <= calls; n++) {   /* n == 0: the dry run, which counts */
        static char marker;
        clscan_context *ctx = (clscan_context *)(void *)&marker;   /* must come back NULL on failure */
        clscan_context_create(NULL, NULL);               /* a known message to tell a new one from */
        char stale[256];
        snprintf(stale, sizeof stale, "%s", clscan_last_error(NULL));
        fault_arm(kind, NULL, n ? n : ULONG_MAX);
        clscan_status st = from_queue ? clscan_context_create_from_queue(&ctx, app.app_queue)
                                      : clscan_context_create(&ctx, spec);
        fault_disarm();
        const char *call = NULL;
        cl_int code = CL_SUCCESS;
        int fired = fault_fired(&call, &code);
        if (n == 0)
            calls = fault_calls(kind);
        snprintf(where, sizeof where, "%s, %s fault %lu of %lu (%s)", what, kind == FAULT_CL ? "CL" : "host", n,
                 calls, call ? call : "-");
        EXPECT(n == 0 || fired, "the fault did not fire");
        const clscan_status want = kind == FAULT_CL ? clscan__status_from_cl(code) : CLSCAN_OUT_OF_MEMORY;
        if (st != CLSCAN_SUCCESS) {
            EXPECT(st == want, "status %s, %s expected: %s", clscan_status_string(st), clscan_status_string(want),
                   clscan_last_error(NULL));
            EXPECT(ctx == NULL, "*ctx not NULL after a failure");
            EXPECT(strcmp(clscan_last_error(NULL), stale) != 0 && clscan_last_error(NULL)[0], "no new message");
        } else {
            if (n > 0)
                note_absorbed(call);
            int32_t out[N];
            EXPECT(clscan_inclusive_scan_host(ctx, data_in, out, N, CLSCAN_INT32, CLSCAN_ADD) == CLSCAN_SUCCESS,
                   "a context made through a fault does not work: %s", clscan_last_error(ctx));
            clscan_context_release(ctx);
        }
        EXPECT(fault_live_cl() == 0 && fault_live_host() == 0 && fault_foreign_releases() == 0,
               "held after a failed creation: %zu CL references, %zu host blocks, %lu foreign releases",
               fault_live_cl(), fault_live_host(), fault_foreign_releases());
        cl_uint refs = settled_refs(queue_refs, app.app_queue, 1);
        EXPECT(refs == 1, "application queue references %u, 1 expected", refs);
    }
    clscan_context *ctx = NULL;
    EXPECT(clscan_context_create(&ctx, NULL) == CLSCAN_SUCCESS, "creation after the walk failed");
    clscan_context_release(ctx);
    app_queue_release(&app);
    *(kind == FAULT_CL ? &total_cl : &total_host) += calls;
    printf("[ walk     ] %-33s %s faults: %4lu points, %lu absorbed%s\n", what, kind == FAULT_CL ? "CL" : "host", calls,
           total_absorbed - absorbed, absorbed_calls);
    fflush(stdout);
}

/* The name of the first platform, a device spec that names it (as "pocl" or "rusticl" do). */
static void first_platform_name(char *name, size_t len)
{
    cl_platform_id platform;
    assert_int_equal(clGetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
    assert_int_equal(clGetPlatformInfo(platform, CL_PLATFORM_NAME, len, name, NULL), CL_SUCCESS);
}

static void test_context_cl(void **state)
{
    (void)state;
    char platform[256];
    first_platform_name(platform, sizeof platform);
    walk_create(0, NULL, FAULT_CL);
    walk_create(0, platform, FAULT_CL);   /* a platform name that could not be read is no "no device" */
    walk_create(1, NULL, FAULT_CL);
}

static void test_context_host(void **state)
{
    (void)state;
    char platform[256];
    first_platform_name(platform, sizeof platform);
    walk_create(0, NULL, FAULT_HOST);
    walk_create(0, platform, FAULT_HOST);
    walk_create(1, NULL, FAULT_HOST);
}

/* Each test starts from nothing held, whatever a failed one before it left. */
static int forget(void **state)
{
    (void)state;
    fault_forget();
    return 0;
}

/* ---- data --------------------------------------------------------------------------------- */
static int compare_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void make_data(void)
{
    uint64_t rng = ref_seed("test_fault");
    ref_fill(data_in, N, CLSCAN_INT32, CLSCAN_ADD, &rng);
    for (size_t i = 0; i < N; i++)
        data_flags[i] = (uint8_t)(ref_next(&rng) % 3 == 0 ? 0 : 1 + ref_next(&rng) % 255);
    for (size_t i = 0; i < N; i++)
        indices[i] = (int32_t)i;
    sort_keys_ready();
}

/* sorted_in: data_in in order. */
static void sort_keys_ready(void)
{
    memcpy(sorted_in, data_in, sizeof data_in);
    qsort(sorted_in, N, sizeof *sorted_in, compare_i32);
}

int main(int argc, char **argv)
{
    if (!mkdtemp(tmp_root))
        return 1;
    const char *dir = getenv("CLSCAN_CACHE_DIR");
    if (dir && dir[0])
        snprintf(warm_dir, sizeof warm_dir, "%s", dir);
    else
        snprintf(warm_dir, sizeof warm_dir, "%s/warm", tmp_root);
    make_data();
#define TEST(name) cmocka_unit_test_setup(name, forget)
    const struct CMUnitTest tests[] = {
        TEST(test_context_cl), TEST(test_context_host), TEST(test_scan_cl),    TEST(test_scan_host),
        TEST(test_compact),    TEST(test_sort_keys),    TEST(test_sort_pairs), TEST(test_sort_sweep),
        TEST(test_reduce_sat), TEST(test_build),
        TEST(test_user_register), TEST(test_user_scan), TEST(test_segmented), TEST(test_reduce_select),
        TEST(test_histogram),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("[ faults   ] %lu OpenCL, %lu host allocation; %lu absorbed with the right answer; %lu out of memory with "
           "the outputs untouched, %lu OpenCL errors after a write\n", total_cl, total_host, total_absorbed, total_oom,
           total_written);
    char cold[4200];
    snprintf(cold, sizeof cold, "%s/cold", tmp_root);
    remove_flat_dir(cold);
    remove_flat_dir(tmp_root);
    if (!dir || !dir[0]) {
        remove_flat_dir(warm_dir);
        rmdir(tmp_root);
    }
    return failed;
}
