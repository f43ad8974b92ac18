/* The context: device selection and creation (or adoption of an application's queue), release,
 * the lock that serialises calls, the last-error text, the scratch buffers of block-sum and the
 * one place that enqueues kernels, which also notes when a call's outputs may have been written. */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where failures without a context (creation) are recorded: per thread, read by clscan_last_error(NULL). */
static _Thread_local char thread_error[4096];

static void vrecord(clscan_context *ctx, const char *fmt, va_list ap)
{
    if (ctx)
        vsnprintf(ctx->error, sizeof ctx->error, fmt, ap);
    else
        vsnprintf(thread_error, sizeof thread_error, fmt, ap);
}

/* CLSCAN_OUT_OF_MEMORY promises that nothing was written to the outputs: once the call has enqueued a
 * command that may write one, a failure (an allocation-type code from a later launch, the count's
 * read-back, a barrier) says so and is CLSCAN_OPENCL_ERROR instead. */
clscan_status clscan__fail(clscan_context *ctx, clscan_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vrecord(ctx, fmt, ap);
    va_end(ap);
    if (ctx && ctx->outputs_written && status != CLSCAN_SUCCESS) {
        size_t used = strlen(ctx->error);
        snprintf(ctx->error + used, sizeof ctx->error - used, "; the output may be partly written");
        if (status == CLSCAN_OUT_OF_MEMORY)
            status = CLSCAN_OPENCL_ERROR;
    }
    return status;
}

clscan_status clscan__fail_cl(clscan_context *ctx, const char *call, cl_int err)
{
    return clscan__fail(ctx, clscan__status_from_cl(err), "%s failed: %s (%d)", call, clscan__cl_error_name(err), err);
}

/* A context's message is copied under its lock into a buffer of the calling thread: another thread's
 * failure on the same context may rewrite ctx->error at any moment, and the copy stays as it is until
 * this thread asks again. The lock is not part of what const promises. */
const char *clscan_last_error(const clscan_context *ctx)
{
    static _Thread_local char copy[sizeof ((clscan_context *)0)->error];
    if (!ctx)
        return thread_error;
    clscan_context *shared = (clscan_context *)ctx;
    pthread_mutex_lock(&shared->lock);
    memcpy(copy, ctx->error, sizeof copy);
    pthread_mutex_unlock(&shared->lock);
    return copy;
}

cl_context clscan_context_cl_context(const clscan_context *ctx) { return ctx ? ctx->cl : NULL; }
cl_command_queue clscan_context_queue(const clscan_context *ctx) { return ctx ? ctx->queue : NULL; }
cl_device_id clscan_context_device(const clscan_context *ctx) { return ctx ? ctx->device : NULL; }

/* ---- creation ------------------------------------------------------------------------------ */
static void describe_devices(char *buf, size_t len, const clscan__device_entry *e, size_t count)
{
    size_t used = strlen(buf);
    for (size_t i = 0; i < count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "\n  %zu (%zu:%zu) %s [%s, %s]", i, e[i].platform,
                                 e[i].device, e[i].name, e[i].platform_name, clscan__device_type_name(e[i].type));
}

/* Finds the device the spec names; messages go to the thread's error. */
static clscan_status select_device(const char *spec_text, cl_device_id *out)
{
    clscan__device_spec spec = clscan__parse_device_spec(spec_text);
    if (spec.kind == CLSCAN__SPEC_INVALID)
        return clscan__fail(NULL, CLSCAN_INVALID_ARGUMENT, "device spec is too long (at most %d characters)",
                            CLSCAN__NAME_LEN - 1);
    clscan__device_entry *entries = NULL;
    size_t count = 0;
    const char *call = "";
    cl_int err = clscan__list_devices(&entries, &count, &call);
    if (err == -1001)
        return clscan__fail(NULL, CLSCAN_DEVICE_NOT_FOUND,
                            "no OpenCL platform found: install an OpenCL driver (ICD), e.g. the Debian/Ubuntu "
                            "package pocl-opencl-icd for the CPU, or your GPU vendor's OpenCL driver");
    if (err != CL_SUCCESS)
        return clscan__fail_cl(NULL, call, err);
    long i = clscan__match_device(&spec, entries, count);
    if (i < 0) {
        clscan__fail(NULL, CLSCAN_DEVICE_NOT_FOUND, "no OpenCL device matches \"%s\"; devices:",
                     spec_text ? spec_text : "(default)");
        describe_devices(thread_error, sizeof thread_error, entries, count);
        free(entries);
        return CLSCAN_DEVICE_NOT_FOUND;
    }
    *out = entries[i].device_id;
    free(entries);
    return CLSCAN_SUCCESS;
}

/* "A B=2" -> "#define A\n#define B 2\n": kernel knobs for experiments (the text joins the cache key). */
static void extra_defines(const char *env, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    while (env && *env) {
        size_t word = strcspn(env, " "), name = strcspn(env, "= ");
        if (word > 0 && used < len) {
            const char *value = name < word ? env + name + 1 : "";
            int v = (int)(name < word ? word - name - 1 : 0);
            used += (size_t)snprintf(out + used, len - used, "#define %.*s %.*s\n", (int)name, env, v, value);
        }
        env += word + (env[word] == ' ');
    }
}

/* What every context needs besides its CL objects: device facts, sources, cache settings, the lock. */
static clscan_status init_common(clscan_context *ctx)
{
    const char *call = "";
    cl_int err = clscan__device_probe(ctx->device, &ctx->info, &call);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(NULL, call, err);
    /* The search writes its report as it goes: into the thread's error only when it fails, so that a
     * creation that succeeds leaves the last failed one's message (clscan_last_error(NULL)) as it was. */
    char searched[sizeof thread_error];
    clscan_status st = clscan__sources_load(&ctx->sources, getenv("CLSCAN_KERNEL_DIR"), searched, sizeof searched);
    if (st != CLSCAN_SUCCESS)
        return clscan__fail(NULL, st, "%s", searched);
    const char *cache = getenv("CLSCAN_CACHE");
    clscan__default_cache_dir(ctx->cache_dir, sizeof ctx->cache_dir);
    ctx->cache_on = !(cache && strcmp(cache, "0") == 0) && ctx->cache_dir[0] != '\0';
    const char *fallback = getenv("CLSCAN_FORCE_LOOKBACK_FALLBACK");
    ctx->force_fallback = fallback && strcmp(fallback, "1") == 0;
    extra_defines(getenv("CLSCAN_EXTRA_DEFINES"), ctx->extra_defines, sizeof ctx->extra_defines);
    const char *band = getenv("CLSCAN_SAT_BAND");   /* experiments: as clscan__set_sat_band */
    ctx->sat_band = band ? atoi(band) : 0;
    const char *segment = getenv("CLSCAN_SAT_SEGMENT");   /* experiments: as clscan__set_sat_segment */
    ctx->sat_segment = segment ? atoi(segment) : 0;
    const char *tile = getenv("CLSCAN_SAT_TILE");   /* experiments: as clscan__set_sat_tile */
    ctx->sat_tile = tile ? atoi(tile) : 0;
    const char *dump = getenv("CLSCAN_DUMP_SOURCE");
    ctx->dump_source = dump && strcmp(dump, "1") == 0;
    if (pthread_mutex_init(&ctx->lock, NULL) != 0)
        return clscan__fail(NULL, CLSCAN_OUT_OF_MEMORY, "pthread_mutex_init failed");
    return CLSCAN_SUCCESS;
}

static clscan_status finish_create(clscan_context *ctx, clscan_status st, clscan_context **out)
{
    if (st != CLSCAN_SUCCESS) {
        clscan__sources_free(&ctx->sources);
        if (ctx->queue) clReleaseCommandQueue(ctx->queue);
        if (ctx->cl) clReleaseContext(ctx->cl);
        free(ctx);
        return st;
    }
    *out = ctx;
    return CLSCAN_SUCCESS;
}

clscan_status clscan_context_create(clscan_context **out, const char *device)
{
    if (!out)
        return clscan__fail(NULL, CLSCAN_INVALID_ARGUMENT, "clscan_context_create: ctx is NULL");
    *out = NULL;
    clscan_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return clscan__fail(NULL, CLSCAN_OUT_OF_MEMORY, "host allocation of the context failed");
    clscan_status st = select_device(device ? device : getenv("CLSCAN_DEVICE"), &ctx->device);
    cl_int err = CL_SUCCESS;
    if (st == CLSCAN_SUCCESS) {
        ctx->cl = clCreateContext(NULL, 1, &ctx->device, NULL, NULL, &err);
        if (err != CL_SUCCESS)
            st = clscan__fail_cl(NULL, "clCreateContext", err);
    }
    if (st == CLSCAN_SUCCESS) {
        ctx->queue = clCreateCommandQueue(ctx->cl, ctx->device, 0, &err);
        if (err != CL_SUCCESS)
            st = clscan__fail_cl(NULL, "clCreateCommandQueue", err);
    }
    if (st == CLSCAN_SUCCESS)
        st = init_common(ctx);
    return finish_create(ctx, st, out);
}

clscan_status clscan_context_create_from_queue(clscan_context **out, cl_command_queue queue)
{
    if (out)
        *out = NULL;
    if (!out || !queue)
        return clscan__fail(NULL, CLSCAN_INVALID_ARGUMENT, "clscan_context_create_from_queue: %s is NULL",
                            out ? "queue" : "ctx");
    clscan_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return clscan__fail(NULL, CLSCAN_OUT_OF_MEMORY, "host allocation of the context failed");
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx->cl, &ctx->cl, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof ctx->device, &ctx->device, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (err != CL_SUCCESS) {
        free(ctx);
        return clscan__fail(NULL, err == CL_INVALID_COMMAND_QUEUE ? CLSCAN_INVALID_ARGUMENT : clscan__status_from_cl(err),
                            "clGetCommandQueueInfo failed: %s (%d)", clscan__cl_error_name(err), err);
    }
    /* Both references or neither: the context's release gives back exactly what was taken here. */
    const char *call = "clRetainCommandQueue";
    err = clRetainCommandQueue(queue);
    if (err == CL_SUCCESS && (err = clRetainContext(ctx->cl)) != CL_SUCCESS) {
        call = "clRetainContext";
        clReleaseCommandQueue(queue);
    }
    if (err != CL_SUCCESS) {
        free(ctx);
        return clscan__fail_cl(NULL, call, err);
    }
    ctx->queue = queue;
    ctx->out_of_order = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    return finish_create(ctx, init_common(ctx), out);
}

void clscan_context_release(clscan_context *ctx)
{
    if (!ctx)
        return;
    for (unsigned i = 0; i < CLSCAN__SCRATCH_SLOTS; i++)
        if (ctx->scratch[i])
            clReleaseMemObject(ctx->scratch[i]);
    if (ctx->sp_counters)
        clReleaseMemObject(ctx->sp_counters);
    if (ctx->landing) {   /* an unmap that fails leaves nothing to do: the buffer goes all the same */
        clEnqueueUnmapMemObject(ctx->queue, ctx->landing, ctx->landing_host, 0, NULL, NULL);
        clReleaseMemObject(ctx->landing);
    }
    clscan__programs_free(ctx->programs);
    clscan__sources_free(&ctx->sources);
    clReleaseCommandQueue(ctx->queue);
    clReleaseContext(ctx->cl);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

/* ---- settings -------------------------------------------------------------------------------- */
clscan_status clscan_set_algorithm(clscan_context *ctx, clscan_strategy strategy, clscan_wg_algorithm wg)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = CLSCAN_SUCCESS;
    if ((unsigned)strategy > CLSCAN_STRATEGY_SINGLE_PASS || (unsigned)wg > CLSCAN_WG_SUBGROUP)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_set_algorithm: unknown strategy %d or work-group algorithm %d",
                          (int)strategy, (int)wg);
    else if (!clscan__algorithm_implemented(strategy, wg))
        st = clscan__fail(ctx, CLSCAN_UNSUPPORTED, "clscan_set_algorithm: strategy %d with work-group algorithm %d "
                          "is not implemented in clscan %s", (int)strategy, (int)wg, clscan_version_string());
    else {
        ctx->strategy = strategy;
        ctx->wg = wg;
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_finish(clscan_context *ctx)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    cl_int err = clFinish(ctx->queue);
    if (err == CL_SUCCESS)
        return CLSCAN_SUCCESS;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__fail_cl(ctx, "clFinish", err);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* The test and experiment setters below: one field of the context, under its lock. */
static void set_locked(clscan_context *ctx, int *field, int value)
{
    pthread_mutex_lock(&ctx->lock);
    *field = value;
    pthread_mutex_unlock(&ctx->lock);
}

void clscan__set_tuning(clscan_context *ctx, unsigned wg_size, unsigned items)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->tuning_override.wg_size = wg_size;
    ctx->tuning_override.items = items;
    pthread_mutex_unlock(&ctx->lock);
}

void clscan__set_portable(clscan_context *ctx, int portable)
{
    set_locked(ctx, &ctx->portable, portable != 0);
}

void clscan__set_items_mode(clscan_context *ctx, int mode)
{
    set_locked(ctx, &ctx->items_mode, mode);
}

void clscan__set_sort_radix(clscan_context *ctx, unsigned bits)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->sort_radix_bits = bits;
    pthread_mutex_unlock(&ctx->lock);
}

void clscan__set_sat_band(clscan_context *ctx, int band)
{
    set_locked(ctx, &ctx->sat_band, band);
}

void clscan__set_sat_wide(clscan_context *ctx, int wide)
{
    set_locked(ctx, &ctx->sat_wide, wide);
}

void clscan__set_sat_separate(clscan_context *ctx, int separate)
{
    set_locked(ctx, &ctx->sat_separate, separate);
}

void clscan__set_sp_groups(clscan_context *ctx, int per_cu)
{
    set_locked(ctx, &ctx->sp_groups_per_cu, per_cu);
}

void clscan__set_reduce_strided(clscan_context *ctx, int strided)
{
    set_locked(ctx, &ctx->reduce_strided, strided);
}

size_t clscan__sp_groups(const clscan_context *ctx, size_t tiles)
{
    int set = ctx->sp_groups_per_cu;
    size_t per_cu = set < 0 ? 0 : set > 0 ? (size_t)set : clscan__policy_sp_groups_per_cu(&ctx->info);
    size_t groups = per_cu * (ctx->info.compute_units ? ctx->info.compute_units : 1);
    return per_cu && groups < tiles ? groups : tiles;
}

void clscan__set_sat_segment(clscan_context *ctx, int bands)
{
    set_locked(ctx, &ctx->sat_segment, bands);
}

void clscan__set_sat_tile(clscan_context *ctx, int rows)
{
    set_locked(ctx, &ctx->sat_tile, rows);
}

void clscan__set_sat_path(clscan_context *ctx, int path)
{
    set_locked(ctx, &ctx->sat_path, path);
}

void clscan__set_force_fallback(clscan_context *ctx, int force)
{
    set_locked(ctx, &ctx->force_fallback, force != 0);
}

clscan_status clscan__fallback_count(clscan_context *ctx, cl_uint *count)
{
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = CLSCAN_SUCCESS;
    cl_uint c[3] = {0, 0, 0};
    if (ctx->sp_counters)
        st = clscan__read_back(ctx, ctx->sp_counters, 0, sizeof c, c, "fallback count");
    *count = c[2];
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan__stats clscan__context_stats(const clscan_context *ctx)
{
    return ctx->stats;
}

static unsigned floor_pow2(size_t v)
{
    unsigned p = 1;
    while ((size_t)p * 2 <= v && p < (1u << 30))
        p *= 2;
    return p;
}

/* Local memory a scan_tiles launch needs: the padded tile (none when streaming) plus the larger
 * work-group scratch. */
static size_t tile_local_bytes(clscan__tuning t, size_t elem)
{
    size_t tile = t.stream ? 0 : (size_t)t.wg_size * t.items, wg = t.wg_size;
    size_t scratch = 3 * wg + 1;   /* the largest: sub-group slices plus their totals */
    return (tile + tile / 32 + scratch) * elem;
}

/* Local memory the compaction kernels need (compact.cl), whatever the element: every work-item's
 * flag mask words and rank (none when streaming) and the count scan's scratch; their elements go
 * from registers straight to their places. */
static size_t compact_local_bytes(clscan__tuning t, size_t elem)
{
    (void)elem;
    size_t wg = t.wg_size, words = t.stream ? 0 : (t.items + 31) / 32;
    return (wg * (words + 1) + 3 * wg + 1) * sizeof(cl_uint);
}

/* The policy's tuning t under the context's override and the device's limits; local_bytes says what
 * a launch of that shape declares in local memory. */
static clscan__tuning tuning_in_force(const clscan_context *ctx, clscan_type type, clscan__tuning t,
                                      size_t (*local_bytes)(clscan__tuning, size_t))
{
    if (ctx->tuning_override.wg_size)
        t.wg_size = ctx->tuning_override.wg_size, t.items = ctx->tuning_override.items;
    if (ctx->items_mode)
        t.stream = ctx->items_mode == 2;
    size_t elem = clscan_type_size(type);
    t.wg_size = floor_pow2(t.wg_size < ctx->info.max_wg ? t.wg_size : ctx->info.max_wg);
    if (t.items == 0)
        t.items = 1;
    /* Leave room for what the compiler adds and the look-back's window; shrink items first, then
     * the group. */
    while (local_bytes(t, elem) + 1024 > ctx->info.local_mem && (t.items > 1 || t.wg_size > 1)) {
        if (t.items > 1)
            t.items /= 2;
        else
            t.wg_size /= 2;
    }
    return t;
}

clscan__tuning clscan__context_tuning(const clscan_context *ctx, clscan_type type)
{
    return tuning_in_force(ctx, type, clscan__policy_tuning(&ctx->info, type), tile_local_bytes);
}

clscan__tuning clscan__context_compact_tuning(const clscan_context *ctx, clscan_type type)
{
    return tuning_in_force(ctx, type, clscan__policy_compact_tuning(&ctx->info, type), compact_local_bytes);
}

/* A power of two up to 32 (a row run of that many columns must not straddle a padding slot) and up
 * to the work-group size, halved until the band's tile and tables fit in local memory. */
unsigned clscan__context_sat_band(const clscan_context *ctx, clscan__tuning t, size_t elem)
{
    unsigned band = ctx->sat_band < 0   ? 0
                    : ctx->sat_band > 0 ? (unsigned)ctx->sat_band
                                        : clscan__policy_sat_band(&ctx->info);
    if (band == 0)
        return 0;
    band = floor_pow2(band < 32 ? band : 32);
    band = band < t.wg_size ? band : floor_pow2(t.wg_size);
    while (band > 1 && ((size_t)band * t.wg_size * 33 / 32 + t.wg_size + band) * elem + 1024 > ctx->info.local_mem)
        band /= 2;
    return band;
}

unsigned clscan__context_sat_tile(const clscan_context *ctx, unsigned band, size_t elem)
{
    const unsigned rows = ctx->sat_tile > 0 ? (unsigned)ctx->sat_tile : clscan__policy_sat_tile(&ctx->info, elem);
    return rows > 0 && rows < band ? floor_pow2(rows) : band;
}

/* ---- device resources -------------------------------------------------------------------- */
clscan_status clscan__scratch(clscan_context *ctx, unsigned slot, size_t bytes, cl_mem *out)
{
    if (ctx->scratch_bytes[slot] < bytes) {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err != CL_SUCCESS)
            return clscan__fail_cl(ctx, "clCreateBuffer (scan scratch)", err);
        /* Commands already enqueued keep the old buffer alive until they complete. */
        if (ctx->scratch[slot])
            clReleaseMemObject(ctx->scratch[slot]);
        ctx->scratch[slot] = m;
        ctx->scratch_bytes[slot] = bytes;
    }
    *out = ctx->scratch[slot];
    return CLSCAN_SUCCESS;
}

/* The landing area of read_back: a CL_MEM_ALLOC_HOST_PTR buffer, mapped once and never given to a
 * kernel, so its pointer is host memory the driver can copy into directly. NULL when none can be
 * had: read_back then reads into the caller's memory, as right and a little slower. */
static void *landing(clscan_context *ctx)
{
    if (ctx->landing_host)
        return ctx->landing_host;
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, CLSCAN__LANDING_BYTES, NULL, &err);
    void *host = err == CL_SUCCESS ? clEnqueueMapBuffer(ctx->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                        CLSCAN__LANDING_BYTES, 0, NULL, NULL, &err)
                                   : NULL;
    if (err != CL_SUCCESS || !host) {
        if (m)
            clReleaseMemObject(m);
        return NULL;
    }
    ctx->landing = m, ctx->landing_host = host;
    return host;
}

/* A read into pinned memory that does not block, then clFinish: on the H100 (driver 580.159.04) a
 * 4-byte result came back 15.4-15.7 us after a kernel was enqueued, against 17.4-18.0 us for a
 * blocking read into the stack (bench/notebook.md; in whole calls the difference was within noise). */
clscan_status clscan__read_back(clscan_context *ctx, cl_mem buf, size_t offset, size_t size, void *value,
                                const char *what)
{
    char *dst = size <= CLSCAN__LANDING_BYTES ? landing(ctx) : NULL;
    const char *call = "clEnqueueReadBuffer";
    cl_int err = clEnqueueReadBuffer(ctx->queue, buf, dst ? CL_FALSE : CL_TRUE, offset, size, dst ? dst : value, 0,
                                     NULL, NULL);
    if (err == CL_SUCCESS && dst && (err = clFinish(ctx->queue)) != CL_SUCCESS)
        call = "clFinish";
    if (err != CL_SUCCESS) {
        char where[128];
        snprintf(where, sizeof where, "%s (%s)", call, what);
        return clscan__fail_cl(ctx, where, err);
    }
    if (dst)
        memcpy(value, dst, size);
    return CLSCAN_SUCCESS;
}

static clscan_status order_barrier(clscan_context *ctx)
{
    cl_int err = ctx->out_of_order ? clEnqueueBarrierWithWaitList(ctx->queue, 0, NULL, NULL) : CL_SUCCESS;
    return err == CL_SUCCESS ? CLSCAN_SUCCESS : clscan__fail_cl(ctx, "clEnqueueBarrierWithWaitList", err);
}

clscan_status clscan__fill_zero(clscan_context *ctx, cl_mem buf, size_t bytes)
{
    clscan_status st = order_barrier(ctx);
    if (st != CLSCAN_SUCCESS)
        return st;
    const cl_uint zero = 0;
    const char *call = "clEnqueueFillBuffer (scan scratch)";
    cl_int err = CL_SUCCESS;
    if (ctx->info.zero_by_write) {
        void *zeros = calloc(1, bytes);
        if (!zeros)
            return clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "no host memory for %zu zero bytes", bytes);
        call = "clEnqueueWriteBuffer (scan scratch)";
        err = clEnqueueWriteBuffer(ctx->queue, buf, CL_TRUE, 0, bytes, zeros, 0, NULL, NULL);
        free(zeros);
    } else {
        /* In pieces of 2^30 patterns: on an H100 (NVIDIA driver 580.159.04) a fill of 2^31 patterns or
         * more never finished, while 2^31 - 1 took 6 ms. */
        const size_t piece = ((size_t)1 << 30) * sizeof zero;
        for (size_t at = 0; err == CL_SUCCESS && at < bytes; at += piece)
            err = clEnqueueFillBuffer(ctx->queue, buf, &zero, sizeof zero, at, bytes - at < piece ? bytes - at : piece,
                                      0, NULL, NULL);
    }
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, call, err);
    return order_barrier(ctx);
}

void clscan__outputs(clscan_context *ctx, cl_mem a, cl_mem b)
{
    ctx->outputs[0] = a, ctx->outputs[1] = b;
    ctx->outputs_written = 0;
}

static int is_output(const clscan_context *ctx, cl_mem m)
{
    return m && (m == ctx->outputs[0] || m == ctx->outputs[1]);
}

/* Whether an output is among the arguments. Buffers are the cl_mem-sized ones (a scalar of that size
 * equal to one by chance only makes the answer more cautious); scalars need not be aligned as a cl_mem. */
static int args_name_output(const clscan_context *ctx, const clscan__arg *args, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        cl_mem m = NULL;
        if (args[i].size == sizeof m && args[i].value)
            memcpy(&m, args[i].value, sizeof m);
        if (is_output(ctx, m))
            return 1;
    }
    return 0;
}

static clscan_status enqueue_kernel(clscan_context *ctx, cl_kernel k, size_t global, size_t local, const char *what,
                                    int writes_output)
{
    clscan_status st = order_barrier(ctx);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_int err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        char call[128];
        snprintf(call, sizeof call, "clEnqueueNDRangeKernel (%s)", what);
        return clscan__fail_cl(ctx, call, err);
    }
    /* Enqueued, it will run whatever fails next (the barrier after it included). */
    if (writes_output)
        ctx->outputs_written = 1;
    return order_barrier(ctx);
}

static clscan_status launch(clscan_context *ctx, const clscan__program *p, cl_kernel k, const char *name,
                            const clscan__arg *args, size_t count, size_t groups, int writes_output)
{
    for (size_t i = 0; i < count; i++) {
        cl_int err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS) {
            char call[96];
            snprintf(call, sizeof call, "clSetKernelArg (%s, argument %zu)", name, i);
            return clscan__fail_cl(ctx, call, err);
        }
    }
    size_t wg = p->config.wg_size;
    return enqueue_kernel(ctx, k, clscan__launch_groups(groups) * wg, wg, name, writes_output);
}

clscan_status clscan__launch(clscan_context *ctx, const clscan__program *p, cl_kernel k, const char *name,
                             const clscan__arg *args, size_t count, size_t groups)
{
    return launch(ctx, p, k, name, args, count, groups, args_name_output(ctx, args, count));
}

clscan_status clscan__launch_into(clscan_context *ctx, const clscan__program *p, cl_kernel k, const char *name,
                                  const clscan__arg *args, size_t count, size_t groups, cl_mem written)
{
    return launch(ctx, p, k, name, args, count, groups, is_output(ctx, written));
}

size_t clscan__launch_groups(size_t groups)
{
    return groups < CLSCAN__MAX_GROUPS ? groups : CLSCAN__MAX_GROUPS;
}
