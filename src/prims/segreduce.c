/* clscan_segmented_reduce: clscan_seg_reduce_tile_starts finds the first segment of every tile, then one
 * launch of clscan_seg_reduce_single_pass (segreduce.cl), a single-pass segmented scan over the input
 * whose values at each segment's last element are the results. The
 * offsets stay on the device: the kernel cuts them to the elements `in` holds (its size, as the
 * contract says), so they are not read back to be checked. */
#include "prims.h"

/* Every check: type and operator, the offsets (n_segments + 1 cl_ulong, read), out (n_segments
 * elements, written, apart from both inputs), in (a buffer that is read; *n: the elements it holds). */
static clscan_status check_segreduce(clscan_context *ctx, cl_mem in, cl_mem offsets, cl_mem out, size_t n_segments,
                                     clscan_type type, clscan_op op, size_t *n)
{
    clscan_status st = clscan__check_type_op(ctx, n_segments, type, op);
    if (st != CLSCAN_SUCCESS || n_segments == 0)
        return st;
    if (n_segments == SIZE_MAX)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "n_segments + 1 offsets overflow size_t");
    const size_t elem = clscan__type_size(ctx, type);
    st = clscan__check_buffer(ctx, in, "in", 0, elem, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, offsets, "offsets", n_segments + 1, sizeof(cl_ulong), 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, out, "out", n_segments, elem, 0, 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, offsets, (n_segments + 1) * sizeof(cl_ulong), out, n_segments * elem, 0);
    size_t in_bytes = 0;
    cl_int err = st == CLSCAN_SUCCESS ? clGetMemObjectInfo(in, CL_MEM_SIZE, sizeof in_bytes, &in_bytes, NULL) : CL_SUCCESS;
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clGetMemObjectInfo (in)", err);
    if (st == CLSCAN_SUCCESS && in_bytes > 0)
        st = clscan__check_overlap(ctx, in, in_bytes, out, n_segments * elem, 0);
    *n = in_bytes / elem;
    return st;
}

/* Validated, n_segments > 0, lock held. n: the elements in holds. */
static clscan_status segreduce_enqueue(clscan_context *ctx, cl_mem in, cl_mem offsets, cl_mem out, size_t n,
                                       size_t n_segments, clscan_type type, clscan_op op)
{
    clscan__config cfg =
        clscan__config_with(ctx, CLSCAN__PROGRAM_SEGREDUCE, type, op, n, clscan__segreduce_tile(ctx, type));
    cfg.vec4 = 0;   /* one value a register: 8- and 16-bit ones unpacked (segmented.clh) */
    clscan__config_define(&cfg, "CLSCAN_SP_CLOSING", NULL);   /* a tile with a head ends a look-back */
    clscan__config_define(&cfg, "CLSCAN_PAD_ONE_SUM", NULL);   /* slower by rows (core/sizes.clh) */
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t tile = (size_t)cfg.wg_size * cfg.items, tiles = n ? clscan__tiles(n, tile) : 1;
    if (!clscan__sp_tiles_fit(tiles))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "segmented reduction over %zu elements needs %zu tiles of %zu; "
                            "at most 2^31 - 1", n, tiles, tile);
    cl_mem status = NULL, starts = NULL;
    st = clscan__scratch(ctx, "segmented reduce tile starts", (tiles + 1) * sizeof(cl_ulong), &starts);
    if (st == CLSCAN_SUCCESS)
        st = clscan__sp_state(ctx, tiles, cfg.elem, cfg.atomics64, &status);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, segs64 = n_segments, tiles64 = tiles;
    cl_uint epoch = ctx->sp_epoch + 1;
    const clscan__arg find[] = {CLSCAN__MEM(offsets), CLSCAN__MEM(starts), CLSCAN__VAL(n64), CLSCAN__VAL(segs64),
                                CLSCAN__VAL(tiles64)};
    st = clscan__launch(ctx, p, "clscan_seg_reduce_tile_starts", CLSCAN__ARGS(find), clscan__tiles(tiles + 1, cfg.wg_size));
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(offsets), CLSCAN__MEM(starts), CLSCAN__MEM(out),
                                CLSCAN__MEM(status), CLSCAN__MEM(ctx->sp_counters), CLSCAN__VAL(n64),
                                CLSCAN__VAL(segs64), CLSCAN__VAL(tiles64), CLSCAN__VAL(epoch)};
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, "clscan_seg_reduce_single_pass", CLSCAN__ARGS(args), clscan__sp_groups(ctx, tiles));
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* an enqueued launch uses up its epoch */
    return st;
}

clscan_status clscan_segmented_reduce(clscan_context *ctx, cl_mem in, cl_mem offsets, cl_mem out, size_t n_segments,
                                      clscan_type type, clscan_op op)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    size_t n = 0;
    clscan_status st = check_segreduce(ctx, in, offsets, out, n_segments, type, op, &n);
    if (st == CLSCAN_SUCCESS && n_segments > 0) {
        clscan__outputs(ctx, out, NULL);
        st = segreduce_enqueue(ctx, in, offsets, out, n, n_segments, type, op);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
