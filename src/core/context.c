/* The context: creation on the device that select.c finds (or adoption of an application's queue),
 * release, the lock that serialises calls, the environment read at creation, and the settings of the API. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cl_context clscan_context_cl_context(const clscan_context *ctx) { return ctx ? ctx->cl : NULL; }
cl_command_queue clscan_context_queue(const clscan_context *ctx) { return ctx ? ctx->queue : NULL; }
cl_device_id clscan_context_device(const clscan_context *ctx) { return ctx ? ctx->device : NULL; }

/* ---- creation ------------------------------------------------------------------------------ */
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
    /* Not stored where the driver caches its compiled kernels itself (PoCL; device.c): a binary there
     * costs a compile of every kernel of the program, most of which a call never runs. CLSCAN_CACHE=1
     * stores them anyway (the cache's tests, or a PoCL without its cache). */
    ctx->cache_store = ctx->cache_on && (!ctx->info.own_kernel_cache || (cache && strcmp(cache, "1") == 0));
    if (pthread_mutex_init(&ctx->lock, NULL) != 0)
        return clscan__fail(NULL, CLSCAN_OUT_OF_MEMORY, "pthread_mutex_init failed");
    clscan__user_init(ctx);
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
    clscan_tuning_device found;
    clscan_status st = clscan_tuning_find_device(device, &found);
    cl_int err = CL_SUCCESS;
    if (st == CLSCAN_SUCCESS) {
        ctx->device = found.id;
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
    clscan__user_free(ctx);
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

