/* Launching: the one place that enqueues kernels (and orders them on an out-of-order application
 * queue), notes when a call's outputs may have been written, fills scratch with zeros, and reads
 * small results back through a pinned landing area. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void clscan__landing_free(clscan_context *ctx)
{
    if (ctx->landing) {   /* an unmap that fails leaves nothing to do: the buffer goes all the same */
        clEnqueueUnmapMemObject(ctx->queue, ctx->landing, ctx->landing_host, 0, NULL, NULL);
        clReleaseMemObject(ctx->landing);
    }
    ctx->landing = NULL, ctx->landing_host = NULL;
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

clscan_status clscan__write_value(clscan_context *ctx, cl_mem buf, size_t bytes, const void *value, const char *what)
{
    clscan_status st = order_barrier(ctx);
    if (st != CLSCAN_SUCCESS)
        return st;
    if (is_output(ctx, buf))
        ctx->outputs_written = 1;
    cl_int err = clEnqueueWriteBuffer(ctx->queue, buf, CL_TRUE, 0, bytes, value, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, what, err);
    return order_barrier(ctx);
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

static clscan_status launch(clscan_context *ctx, const clscan__program *p, const char *name, const clscan__arg *args,
                            size_t count, size_t groups, int writes_output)
{
    const int index = clscan__kernel_index(p->config.program, name);
    if (index < 0)   /* a library bug: the registry lists no such kernel for this program */
        return clscan__fail(ctx, CLSCAN_OPENCL_ERROR, "no kernel %s in its program (src/registry.def)", name);
    cl_kernel k = p->kernels[index];
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

clscan_status clscan__launch(clscan_context *ctx, const clscan__program *p, const char *name,
                             const clscan__arg *args, size_t count, size_t groups)
{
    return launch(ctx, p, name, args, count, groups, args_name_output(ctx, args, count));
}

clscan_status clscan__launch_into(clscan_context *ctx, const clscan__program *p, const char *name,
                                  const clscan__arg *args, size_t count, size_t groups, cl_mem written)
{
    return launch(ctx, p, name, args, count, groups, is_output(ctx, written));
}

size_t clscan__launch_groups(size_t groups)
{
    return groups < CLSCAN__MAX_GROUPS ? groups : CLSCAN__MAX_GROUPS;
}
