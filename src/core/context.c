/* The context: device selection and creation (or adoption of an application's queue), release,
 * the lock that serialises calls, the environment read at creation, and the settings of the API. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        size_t len = 0;
        char *thread_error = clscan__thread_error(&len);
        describe_devices(thread_error, len, entries, count);
        free(entries);
        return CLSCAN_DEVICE_NOT_FOUND;
    }
    *out = entries[i].device_id;
    free(entries);
    return CLSCAN_SUCCESS;
}

/* What every context needs besides its CL objects: the override from $CLSCAN_TUNING, device facts,
 * sources, cache settings, the lock. */
static clscan_status init_common(clscan_context *ctx)
{
    char why[4096];
    clscan_status st = clscan__override_from_env(ctx, getenv("CLSCAN_TUNING"), why, sizeof why);
    if (st != CLSCAN_SUCCESS)
        return clscan__fail(NULL, st, "%s", why);
    const char *call = "";
    cl_int err = clscan__device_probe(ctx->device, &ctx->info, clscan__tuned(ctx, CLSCAN_TUNE_SUBGROUPS), &call);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(NULL, call, err);
    /* The search writes its report as it goes: into the thread's error only when it fails, so that a
     * creation that succeeds leaves the last failed one's message (clscan_last_error(NULL)) as it was. */
    st = clscan__sources_load(&ctx->sources, getenv("CLSCAN_KERNEL_DIR"), why, sizeof why);
    if (st != CLSCAN_SUCCESS)
        return clscan__fail(NULL, st, "%s", why);
    const char *cache = getenv("CLSCAN_CACHE");
    clscan__default_cache_dir(ctx->cache_dir, sizeof ctx->cache_dir);
    ctx->cache_on = !(cache && strcmp(cache, "0") == 0) && ctx->cache_dir[0] != '\0';
    if (pthread_mutex_init(&ctx->lock, NULL) != 0)
        return clscan__fail(NULL, CLSCAN_OUT_OF_MEMORY, "pthread_mutex_init failed");
    return CLSCAN_SUCCESS;
}

static clscan_status finish_create(clscan_context *ctx, clscan_status st, clscan_context **out)
{
    if (st != CLSCAN_SUCCESS) {
        clscan__sources_free(&ctx->sources);
        clscan__override_free(ctx);
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
    clscan__scratch_free(ctx);
    if (ctx->sp_counters)
        clReleaseMemObject(ctx->sp_counters);
    clscan__landing_free(ctx);
    clscan__programs_free(ctx->programs);
    clscan__sources_free(&ctx->sources);
    clscan__override_free(ctx);
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

