/* clscan_compact: count_tiles counts each tile's set flags, the counts are scanned (inclusive, uint64,
 * by the scan dispatch), and compact_tiles writes each tile's kept elements from where the tiles
 * before it end. Flags are read twice (1 byte an element), the elements once, the kept ones written
 * once. The compaction program moves elements as 4- or 8-byte patterns, so one serves all types. */
#include "internal.h"

/* Local memory compact_tiles declares: the padded element tile and the group scan's scratch. */
static size_t compact_local_bytes(const clscan__config *cfg)
{
    size_t tile = (size_t)cfg->wg_size * cfg->items;
    return (tile + tile / 32) * cfg->payload + (3 * (size_t)cfg->wg_size + 1) * sizeof(cl_uint);
}

static clscan_status compact_enqueue(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                     clscan_type type, cl_mem *counts, size_t *tiles_out)
{
    clscan__config cfg = clscan__config_for(ctx, type, CLSCAN_ADD, n);   /* the element type's tiling */
    cfg.type = CLSCAN_UINT32, cfg.op = CLSCAN_ADD, cfg.payload = (unsigned)clscan_type_size(type);
    /* The element tile was sized for the element type's scans; the count scratch differs: recheck. */
    while (!cfg.stream && cfg.items > 1 && compact_local_bytes(&cfg) + 1024 > ctx->info.local_mem)
        cfg.items /= 2;
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t tile = (size_t)cfg.wg_size * cfg.items, tiles = n / tile + (n % tile != 0);
    st = clscan__scratch(ctx, CLSCAN__SCRATCH_PARTIALS, tiles * sizeof(cl_ulong), counts);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, tiles64 = tiles;
    const clscan__arg counting[] = {CLSCAN__MEM(flags), CLSCAN__MEM(*counts), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64)};
    st = clscan__launch(ctx, p, p->count_tiles, "count_tiles", counting, sizeof counting / sizeof counting[0], tiles);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scan_enqueue(ctx, *counts, *counts, tiles, CLSCAN_UINT64, CLSCAN_ADD, 0);
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(flags), CLSCAN__MEM(out), CLSCAN__MEM(*counts),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64)};
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, p->compact_tiles, "compact_tiles", args, sizeof args / sizeof args[0], tiles);
    *tiles_out = tiles;
    return st;
}

/* Every check before anything is enqueued: buffers, sizes, access flags, overlaps. */
static clscan_status check_compact(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                   clscan_type type, size_t *count)
{
    clscan_status st = clscan__check_type_op(ctx, n, type, CLSCAN_ADD);
    if (st == CLSCAN_SUCCESS && !count)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_compact: count is NULL");
    if (st != CLSCAN_SUCCESS || n == 0)
        return st;
    size_t elem = clscan_type_size(type);
    st = clscan__check_buffer(ctx, in, "in", n, elem, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, flags, "flags", n, 1, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, out, "out", n, elem, 0, 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, in, n * elem, out, n * elem, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, flags, n, out, n * elem, 0);
    return st;
}

clscan_status clscan_compact(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n, clscan_type type,
                             size_t *count)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = check_compact(ctx, in, flags, out, n, type, count);
    if (st == CLSCAN_SUCCESS && n == 0)
        *count = 0;
    else if (st == CLSCAN_SUCCESS) {
        cl_mem counts = NULL;
        size_t tiles = 0;
        cl_ulong kept = 0;
        st = compact_enqueue(ctx, in, flags, out, n, type, &counts, &tiles);
        cl_int err = st == CLSCAN_SUCCESS ? clEnqueueReadBuffer(ctx->queue, counts, CL_TRUE, (tiles - 1) * sizeof kept,
                                                                sizeof kept, &kept, 0, NULL, NULL)
                                          : CL_SUCCESS;
        if (err != CL_SUCCESS)
            st = clscan__fail_cl(ctx, "clEnqueueReadBuffer (compaction count)", err);
        if (st == CLSCAN_SUCCESS)   /* *count is written only on success */
            *count = (size_t)kept;
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
