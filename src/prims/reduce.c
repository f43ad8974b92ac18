/* clscan_reduce: one launch of clscan_reduce_all folds the input into one value per work-group (as many groups
 * as the device keeps busy), and the last group to finish folds those; the value is read back. The
 * input is read once. Integer reductions hand tiles out to the groups as they ask (balanced, any
 * order gives the same value); float ones give each group a fixed run of tiles, so that the same
 * call gives the same bits every time. */
#include "prims.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Groups that keep every compute unit busy with loads in flight; more would only add partials. */
#define GROUPS_PER_UNIT 8u

clscan__reduce_shape clscan__reduce_geometry(size_t n, size_t tile, size_t compute_units)
{
    const size_t cap = (compute_units ? compute_units : 1) * GROUPS_PER_UNIT;
    clscan__reduce_shape s = {clscan__tiles(n, tile), 0, 0};
    if (s.tiles == 0)
        return s;
    /* As many tiles for every group: with 32768 tiles and a cap of 1056 groups, 32 groups would take
     * a 32nd tile while the rest idle; 1024 groups of 32 end together. */
    s.per_group = clscan__tiles(s.tiles, cap);
    s.groups = clscan__tiles(s.tiles, s.per_group);
    return s;
}

/* Whether clscan_reduce_all's groups take tiles from the launch's counter rather than by a fixed stride:
 * integers only, whose value does not depend on which group folds which tile (float sums would vary
 * in their last bits from call to call), and only while the tickets (fewer than the tiles) and the
 * tile numbers groups + ticket fit the counter's 32 bits. Tests may ask for the stride (CLSCAN_TUNE_REDUCE_STRIDED). */
static cl_uint reduce_takes_tiles(const clscan_context *ctx, clscan_type type, clscan_op op, size_t tiles,
                                  size_t groups)
{
    const clscan__user_op *user = clscan__user_op_of(ctx, op);
    if (user && !(user->flags & CLSCAN_OP_COMMUTATIVE))   /* contiguous runs of tiles (reduce.cl) */
        return 0;
    return !clscan__type_is_float(type) && !clscan__tuned(ctx, CLSCAN_TUNE_REDUCE_STRIDED) && tiles <= UINT32_MAX - groups;
}

/* Enqueues clscan_reduce_all, which leaves the result in element 0 of *result_buf: the caller's buffer
 * where *result_buf is not NULL (clscan_reduce_async), else the context's scratch. */
static clscan_status reduce_enqueue(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                    cl_mem *result_buf)
{
    clscan__program *p = NULL;
    clscan_status st = clscan__scan_program(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const clscan__reduce_shape shape = clscan__reduce_geometry(n, (size_t)p->config.wg_size * p->config.items,
                                                               ctx->info.compute_units);
    const size_t tiles = shape.tiles, groups = shape.groups;
    cl_mem status = NULL;
    st = clscan__sp_state(ctx, groups, p->config.elem, p->config.atomics64, &status);
    if (st == CLSCAN_SUCCESS && !*result_buf)
        st = clscan__scratch(ctx, "reduce result", clscan__type_size(ctx, type), result_buf);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint epoch = ctx->sp_epoch + 1, taken = reduce_takes_tiles(ctx, type, op, tiles, groups);
    const clscan__arg args[] = {CLSCAN__MEM(in),   CLSCAN__MEM(*result_buf), CLSCAN__MEM(status),
                                CLSCAN__MEM(ctx->sp_counters), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64),
                                CLSCAN__VAL(epoch), CLSCAN__VAL(taken)};
    st = clscan__launch(ctx, p, "clscan_reduce_all", CLSCAN__ARGS(args), groups);
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* an enqueued launch uses up its epoch */
    return st;
}

clscan_status clscan__check_reduce(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                  const void *result)
{
    clscan_status st = clscan__check_type_op(ctx, n, type, op);
    if (st == CLSCAN_SUCCESS && !result)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_reduce: result is NULL");
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_buffer(ctx, in, "in", n, clscan__type_size(ctx, type), 1, 0);
    return st;
}

clscan_status clscan__reduce_run(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                 void *result)
{
    if (n == 0) {
        clscan__identity(ctx, type, op, result);
        return CLSCAN_SUCCESS;
    }
    cl_mem result_buf = NULL;   /* the scratch */
    char value[CLSCAN__ELEM_MAX];
    clscan_status st = reduce_enqueue(ctx, in, n, type, op, &result_buf);
    if (st == CLSCAN_SUCCESS)
        st = clscan__read_back(ctx, result_buf, 0, clscan__type_size(ctx, type), value, "reduce result");
    if (st == CLSCAN_SUCCESS)   /* *result is written only on success */
        memcpy(result, value, clscan__type_size(ctx, type));
    return st;
}

clscan_status clscan_reduce(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op, void *result)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_reduce(ctx, in, n, type, op, result);
    if (st == CLSCAN_SUCCESS)
        st = clscan__reduce_run(ctx, in, n, type, op, result);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* The result stays on the device: element 0 of result, written by the kernel (n == 0: the identity,
 * written from the host). result must not overlap in, which groups still read as the last one writes. */
clscan_status clscan_reduce_async(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op, cl_mem result)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_type_op(ctx, n, type, op);
    const size_t elem = st == CLSCAN_SUCCESS ? clscan__type_size(ctx, type) : 0;
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, result, "result", 1, elem, 0, 1);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_buffer(ctx, in, "in", n, elem, 1, 0);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_overlap(ctx, in, n * elem, result, elem, 0);
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, result, NULL);
        if (n > 0) {
            st = reduce_enqueue(ctx, in, n, type, op, &result);
        } else {
            char identity[CLSCAN__ELEM_MAX];
            clscan__identity(ctx, type, op, identity);
            st = clscan__write_value(ctx, result, elem, identity, "clEnqueueWriteBuffer (reduce identity)");
        }
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
