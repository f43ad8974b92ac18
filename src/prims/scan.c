/* The public scans: every check before anything is enqueued, the lock, the scan engine
 * (src/engine/scan.c), and the host-memory conveniences. */
#include "prims.h"

clscan_status clscan__check_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                 clscan_op op)
{
    clscan_status st = clscan__check_type_op(ctx, n, type, op);
    if (st != CLSCAN_SUCCESS || n == 0)
        return st;
    size_t elem = clscan__type_size(ctx, type);
    st = clscan__check_buffer(ctx, in, "in", n, elem, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, out, "out", n, elem, 0, 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, in, n * elem, out, n * elem, 1);
    return st;
}

/* An initial value: exactly one of the host element and the device buffer, which holds one element
 * and does not overlap out (the scan writes out while tiles still read it). */
static clscan_status check_seed(clscan_context *ctx, cl_mem out, size_t n, clscan_type type, const clscan__seed *seed)
{
    if (!seed->value == !seed->buf)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, seed->buf ? "init and init_buf are both given; one of "
                            "them must be NULL" : "init and init_buf are both NULL");
    if (!seed->buf)
        return CLSCAN_SUCCESS;
    const size_t elem = clscan__type_size(ctx, type);
    clscan_status st = clscan__check_buffer(ctx, seed->buf, "init_buf", 1, elem, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, seed->buf, elem, out, n * elem, 0);
    return st;
}

static clscan_status scan_device(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                 clscan_op op, int exclusive, const clscan__seed *seed)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_scan(ctx, in, out, n, type, op);
    if (st == CLSCAN_SUCCESS && n > 0 && seed)
        st = check_seed(ctx, out, n, type, seed);
    if (st == CLSCAN_SUCCESS && n > 0) {
        clscan__outputs(ctx, out, NULL);
        st = clscan__scan_enqueue(ctx, in, out, n, type, op, exclusive, seed);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_inclusive_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, clscan_op op)
{
    return scan_device(ctx, in, out, n, type, op, 0, NULL);
}

clscan_status clscan_exclusive_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, clscan_op op)
{
    return scan_device(ctx, in, out, n, type, op, 1, NULL);
}

clscan_status clscan_inclusive_scan_init(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                         clscan_op op, const void *init, cl_mem init_buf)
{
    const clscan__seed seed = {init, init_buf};
    return scan_device(ctx, in, out, n, type, op, 0, &seed);
}

clscan_status clscan_exclusive_scan_init(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                         clscan_op op, const void *init, cl_mem init_buf)
{
    const clscan__seed seed = {init, init_buf};
    return scan_device(ctx, in, out, n, type, op, 1, &seed);
}

/* Host conveniences: one device buffer, scanned in place, read back with a blocking read. */
static clscan_status scan_host(clscan_context *ctx, const void *in, void *out, size_t n, clscan_type type,
                               clscan_op op, int exclusive)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_type_op(ctx, n, type, op);
    if (st == CLSCAN_SUCCESS && n > 0 && (!in || !out))
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s is NULL", in ? "out" : "in");
    const size_t bytes = st == CLSCAN_SUCCESS ? n * clscan__type_size(ctx, type) : 0;
    /* Before the host arrays are touched: a buffer the device cannot make means arrays no host has. */
    if (st == CLSCAN_SUCCESS && (cl_ulong)bytes > ctx->info.max_alloc)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%zu elements are %zu bytes, more than one buffer holds on %s "
                          "(%llu bytes)", n, bytes, ctx->info.name, (unsigned long long)ctx->info.max_alloc);
    if (st == CLSCAN_SUCCESS && n > 0) {
        cl_int err = CL_SUCCESS;
        cl_mem buf = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)in, &err);
        if (err != CL_SUCCESS)
            st = clscan__fail_cl(ctx, "clCreateBuffer (host scan)", err);
        if (st == CLSCAN_SUCCESS)
            st = clscan__scan_enqueue(ctx, buf, buf, n, type, op, exclusive, NULL);
        if (st == CLSCAN_SUCCESS && (err = clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL)) != CL_SUCCESS)
            st = clscan__fail_cl(ctx, "clEnqueueReadBuffer (host scan)", err);
        if (buf)
            clReleaseMemObject(buf);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_inclusive_scan_host(clscan_context *ctx, const void *in, void *out, size_t n, clscan_type type, clscan_op op)
{
    return scan_host(ctx, in, out, n, type, op, 0);
}

clscan_status clscan_exclusive_scan_host(clscan_context *ctx, const void *in, void *out, size_t n, clscan_type type, clscan_op op)
{
    return scan_host(ctx, in, out, n, type, op, 1);
}
