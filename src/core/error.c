/* Error text: the context's last message, or the calling thread's for failures without a context
 * (creation), and the one rule that turns "out of memory" into "OpenCL error" once a call may have
 * written its outputs. */
#include "core.h"
#include <stdio.h>
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

char *clscan__thread_error(size_t *len)
{
    *len = sizeof thread_error;
    return thread_error;
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

