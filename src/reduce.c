/* clscan_reduce: reduce_partials folds the input into one value per work-group (as many groups as the
 * device keeps busy), then folds those partials the same way until one is left, which is read back.
 * The input is read once; what follows touches a few thousand values at most. */
#include "internal.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Groups that keep every compute unit busy with loads in flight; more would only add partials. */
#define GROUPS_PER_UNIT 8u

/* The identity of op for type, as the kernels define it (types.clh), into out. */
static void identity(clscan_type type, clscan_op op, void *out)
{
    union { int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; float f; double d; } v;
    int add = op == CLSCAN_ADD, mul = op == CLSCAN_MUL, min = op == CLSCAN_MIN;
    switch (type) {
    case CLSCAN_INT32: v.i32 = add ? 0 : mul ? 1 : min ? INT32_MAX : INT32_MIN; break;
    case CLSCAN_UINT32: v.u32 = add ? 0u : mul ? 1u : min ? UINT32_MAX : 0u; break;
    case CLSCAN_INT64: v.i64 = add ? 0 : mul ? 1 : min ? INT64_MAX : INT64_MIN; break;
    case CLSCAN_UINT64: v.u64 = add ? 0u : mul ? 1u : min ? UINT64_MAX : 0u; break;
    case CLSCAN_FLOAT: v.f = add ? 0.0f : mul ? 1.0f : min ? INFINITY : -INFINITY; break;
    default: v.d = add ? 0.0 : mul ? 1.0 : min ? (double)INFINITY : -(double)INFINITY; break;
    }
    memcpy(out, &v, clscan_type_size(type));
}

/* Enqueues the passes; the last one leaves the result in element 0 of *last. */
static clscan_status reduce_enqueue(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                    cl_mem *last)
{
    clscan__program *p = NULL;
    clscan_status st = clscan__program_for(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t elem = clscan_type_size(type), tile = (size_t)p->config.wg_size * p->config.items;
    const size_t cap = (size_t)(ctx->info.compute_units ? ctx->info.compute_units : 1) * GROUPS_PER_UNIT;
    cl_mem src = in, dst = NULL;
    for (unsigned pass = 0;; pass++) {
        /* As many tiles for every group: with 32768 tiles and a cap of 1056 groups, 32 groups would
         * take a 32nd tile while the rest idle; 1024 groups of 32 end together. */
        size_t tiles = n / tile + (n % tile != 0), per_group = tiles / cap + (tiles % cap != 0);
        size_t groups = tiles / per_group + (tiles % per_group != 0);
        /* Two scratch slots take turns, so a pass never writes what it reads. */
        st = clscan__scratch(ctx, CLSCAN__SCRATCH_PARTIALS + (pass & 1), groups * elem, &dst);
        if (st != CLSCAN_SUCCESS)
            break;
        cl_ulong n64 = n, tiles64 = tiles;
        const clscan__arg args[] = {CLSCAN__MEM(src), CLSCAN__MEM(dst), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64)};
        st = clscan__launch(ctx, p, p->reduce_partials, "reduce_partials", args, sizeof args / sizeof args[0], groups);
        if (st != CLSCAN_SUCCESS || groups == 1)
            break;
        src = dst, n = groups;
    }
    *last = dst;
    return st;
}

clscan_status clscan_reduce(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op, void *result)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_type_op(ctx, n, type, op);
    if (st == CLSCAN_SUCCESS && !result)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_reduce: result is NULL");
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_buffer(ctx, in, "in", n, clscan_type_size(type), 1, 0);
    if (st == CLSCAN_SUCCESS && n == 0)
        identity(type, op, result);
    else if (st == CLSCAN_SUCCESS) {
        cl_mem last = NULL;
        char value[8];
        st = reduce_enqueue(ctx, in, n, type, op, &last);
        cl_int err = st == CLSCAN_SUCCESS ? clEnqueueReadBuffer(ctx->queue, last, CL_TRUE, 0, clscan_type_size(type),
                                                                value, 0, NULL, NULL)
                                          : CL_SUCCESS;
        if (err != CL_SUCCESS)
            st = clscan__fail_cl(ctx, "clEnqueueReadBuffer (reduce result)", err);
        if (st == CLSCAN_SUCCESS)   /* *result is written only on success */
            memcpy(result, value, clscan_type_size(type));
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
