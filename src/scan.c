/* Scan dispatch. Public entry points validate, take the lock and call clscan__scan_enqueue, which
 * runs the chosen strategy. Block-sum: scan tiles and keep their totals, scan the totals the same way
 * (as many levels as n needs), then fold each level's prefixes back down. Reduce-then-scan: reduce
 * tiles, scan the totals (one work-group, or block-sum when many), scan the tiles seeded with their
 * prefixes. Single-pass: one launch with decoupled look-back; this file keeps its status words and
 * epochs. */
#include "internal.h"
#include <stdio.h>
#include <string.h>

size_t clscan__tiles(size_t n, size_t tile) { return n / tile + (n % tile != 0); }

/* totals (or NULL) receives each tile's total; every tile is seeded with seed (NULL: the identity),
 * combined with its prefix where prefix is not NULL. */
static clscan_status scan_tiles(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                cl_mem totals, cl_mem prefix, size_t n, size_t tiles, int exclusive,
                                const void *seed)
{
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint excl = exclusive != 0;
    char identity[8];
    if (!seed)
        clscan__identity(p->config.type, p->config.op, identity);
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(totals), CLSCAN__MEM(prefix),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64), CLSCAN__VAL(excl),
                                {clscan_type_size(p->config.type), seed ? seed : identity}};
    return clscan__launch(ctx, p, p->scan_tiles, "clscan_scan_tiles", args, sizeof args / sizeof args[0], tiles);
}

static clscan_status add_offsets(clscan_context *ctx, const clscan__program *p, cl_mem out, cl_mem prefix,
                                 size_t n, size_t tiles)
{
    cl_ulong n64 = n, tiles64 = tiles;
    const clscan__arg args[] = {CLSCAN__MEM(out), CLSCAN__MEM(prefix), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64)};
    return clscan__launch(ctx, p, p->add_offsets, "clscan_add_offsets", args, sizeof args / sizeof args[0], tiles);
}

static clscan_status reduce_tiles(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem totals,
                                  size_t n, size_t tiles)
{
    cl_ulong n64 = n, tiles64 = tiles;
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(totals), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64)};
    /* In place, in is the caller's output, read only. */
    return clscan__launch_into(ctx, p, p->reduce_tiles, "clscan_reduce_tiles", args, sizeof args / sizeof args[0], tiles,
                               totals);
}

static clscan_status block_sum(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                               size_t n, int exclusive)
{
    const size_t tile = (size_t)p->config.wg_size * p->config.items, elem = clscan_type_size(p->config.type);
    size_t elems[CLSCAN__MAX_LEVELS];
    cl_mem level[CLSCAN__MAX_LEVELS];
    unsigned levels = clscan__block_sum_levels(n, tile, elems);
    if (levels == CLSCAN__MAX_LEVELS && elems[levels - 1] > tile)
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "n = %zu needs more than %d block-sum levels at tile %zu",
                            n, CLSCAN__MAX_LEVELS, tile);
    /* All scratch first: a failed allocation must leave the output untouched. */
    for (unsigned l = 0; l < levels; l++) {
        clscan_status st = clscan__scratch(ctx, l, elems[l] * elem, &level[l]);
        if (st != CLSCAN_SUCCESS)
            return st;
    }
    clscan_status st = scan_tiles(ctx, p, in, out, levels ? level[0] : NULL, NULL, n, clscan__tiles(n, tile),
                                  exclusive, NULL);
    /* Totals are scanned exclusively: each tile then adds the combination of all tiles before it. */
    for (unsigned l = 0; st == CLSCAN_SUCCESS && l < levels; l++)
        st = scan_tiles(ctx, p, level[l], level[l], l + 1 < levels ? level[l + 1] : NULL, NULL, elems[l],
                        clscan__tiles(elems[l], tile), 1, NULL);
    for (unsigned l = levels; st == CLSCAN_SUCCESS && l-- > 1;)
        st = add_offsets(ctx, p, level[l - 1], level[l], elems[l - 1], elems[l]);
    if (st == CLSCAN_SUCCESS && levels)
        st = add_offsets(ctx, p, out, level[0], n, elems[0]);
    return st;
}

/* Reduce-then-scan's tile totals, scanned exclusively in place: by one work-group, tile after tile,
 * when they span at most ONE_GROUP_TILES tiles (one launch instead of block-sum's three; at tiles of
 * 8192 that covers n up to 2^30), else by block-sum. */
#define ONE_GROUP_TILES 16
static clscan_status scan_totals(clscan_context *ctx, const clscan__program *p, cl_mem totals, size_t count)
{
    if (count > ONE_GROUP_TILES * (size_t)p->config.wg_size * p->config.items)
        return block_sum(ctx, p, totals, totals, count, 1);
    cl_ulong n64 = count;
    cl_uint excl = 1;
    const clscan__arg args[] = {CLSCAN__MEM(totals), CLSCAN__MEM(totals), CLSCAN__VAL(n64), CLSCAN__VAL(excl)};
    return clscan__launch(ctx, p, p->scan_one_group, "clscan_scan_one_group", args, sizeof args / sizeof args[0], 1);
}

/* Reduce-then-scan's first half: the exclusive prefixes of `count` tiles of in (tiles past n count as
 * the identity) into the totals scratch, *totals. Writes only scratch: block-sum allocates its levels
 * before it enqueues, so a failure here leaves the output untouched. */
static clscan_status tile_prefixes(clscan_context *ctx, const clscan__program *p, cl_mem in, size_t n, size_t count,
                                   cl_mem *totals)
{
    clscan_status st = clscan__scratch(ctx, CLSCAN__SCRATCH_TOTALS, count * clscan_type_size(p->config.type), totals);
    if (st == CLSCAN_SUCCESS)
        st = reduce_tiles(ctx, p, in, *totals, n, count);
    if (st == CLSCAN_SUCCESS)
        st = scan_totals(ctx, p, *totals, count);
    return st;
}

/* Reads n twice and writes it once; one tile needs only the seeded scan. */
static clscan_status reduce_then_scan(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                      size_t n, int exclusive)
{
    const size_t tile = (size_t)p->config.wg_size * p->config.items, tiles = clscan__tiles(n, tile);
    if (tiles == 1)
        return scan_tiles(ctx, p, in, out, NULL, NULL, n, 1, exclusive, NULL);
    cl_mem totals = NULL;
    clscan_status st = tile_prefixes(ctx, p, in, n, tiles, &totals);
    if (st == CLSCAN_SUCCESS)
        st = scan_tiles(ctx, p, in, out, NULL, totals, n, tiles, exclusive, NULL);
    return st;
}

/* A scan split around a step outside the device (clscan_mpi: the ranks' totals cross the network in
 * between): reduce-then-scan cut in two. The first half leaves the tiles' exclusive prefixes in the
 * totals scratch and returns the slice's total (n > 0), the prefix of one more tile past n; the second
 * half scans the tiles seeded with the seed and their prefixes. Together they read n twice and write
 * it once, as reduce-then-scan does. */
clscan_status clscan__scan_split_total(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                       void *total)
{
    clscan__program *p = NULL;
    clscan_status st = clscan__program_for(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t elem = clscan_type_size(type), tiles = clscan__tiles(n, (size_t)p->config.wg_size * p->config.items);
    cl_mem totals = NULL;
    /* Tile number `tiles` lies past n: its total is the identity, and its exclusive prefix the total. */
    st = tile_prefixes(ctx, p, in, n, tiles + 1, &totals);
    char value[8];
    if (st == CLSCAN_SUCCESS)
        st = clscan__read_back(ctx, totals, tiles * elem, elem, value, "split scan total");
    if (st == CLSCAN_SUCCESS)
        memcpy(total, value, elem);
    return st;
}

clscan_status clscan__scan_split_finish(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                        clscan_op op, int exclusive, const void *seed)
{
    clscan__program *p = NULL;
    clscan_status st = clscan__program_for(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t tiles = clscan__tiles(n, (size_t)p->config.wg_size * p->config.items);
    return scan_tiles(ctx, p, in, out, NULL, ctx->scratch[CLSCAN__SCRATCH_TOTALS], n, tiles, exclusive, seed);
}

#define SP_STATUS_BYTES_PER_TILE 32   /* two slots (aggregate, prefix) of up to 16 bytes */
int clscan__sp_tiles_fit(size_t tiles) { return tiles < ((size_t)1 << 31); }
size_t clscan__sp_status_bytes(size_t slots) { return slots * SP_STATUS_BYTES_PER_TILE; }

/* Single-pass state: status words for tiles (zeroed when allocated) and the counters. Epochs make
 * old words read as unpublished; when the epoch would overflow its bits (30 with 64-bit atomics,
 * else 14: see cl/scan.cl), everything is zeroed and epochs start again. */
#define SP_EPOCH_LIMIT(wide_words) ((wide_words) ? (1u << 30) : (1u << 14))
clscan_status clscan__sp_state(clscan_context *ctx, size_t tiles, int wide_words, cl_mem *status)
{
    cl_mem before = ctx->scratch[CLSCAN__SCRATCH_STATUS];
    size_t bytes = clscan__sp_status_bytes(tiles);
    clscan_status st = clscan__scratch(ctx, CLSCAN__SCRATCH_STATUS, bytes, status);
    if (st != CLSCAN_SUCCESS)
        return st;
    /* A change of word width (the portable test path) would let old words pass for new tags. */
    int fresh_counters = !ctx->sp_counters, wrap = ctx->sp_epoch + 1 >= SP_EPOCH_LIMIT(wide_words) ||
                                                   wide_words != ctx->sp_wide_words;
    if (fresh_counters) {
        cl_int err = CL_SUCCESS;
        ctx->sp_counters = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, 4 * sizeof(cl_uint), NULL, &err);
        if (err != CL_SUCCESS) {
            ctx->sp_counters = NULL;
            ctx->sp_wide_words = -1;   /* a new status array is not zeroed yet: as below */
            return clscan__fail_cl(ctx, "clCreateBuffer (single-pass counters)", err);
        }
    }
    if (*status != before || wrap)
        st = clscan__fill_zero(ctx, *status, ctx->scratch_bytes[CLSCAN__SCRATCH_STATUS]);
    if (st == CLSCAN_SUCCESS && (fresh_counters || wrap))
        st = clscan__fill_zero(ctx, ctx->sp_counters, 4 * sizeof(cl_uint));
    if (st == CLSCAN_SUCCESS && wrap) {
        ctx->sp_epoch = 0;
        ctx->sp_wide_words = wide_words;
    }
    /* Zeroing that did not happen must not be forgotten: a width no array has makes the next call wrap,
     * which zeroes the status words and the counters. */
    if (st != CLSCAN_SUCCESS)
        ctx->sp_wide_words = -1;
    return st;
}

/* Reads and writes n once, in one launch (after a zero fill when the status array is new). */
static clscan_status single_pass(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                 size_t n, int exclusive)
{
    const size_t tile = (size_t)p->config.wg_size * p->config.items, tiles = clscan__tiles(n, tile);
    if (!clscan__sp_tiles_fit(tiles))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "single-pass scan of %zu elements needs %zu tiles of %zu; "
                            "at most 2^31 - 1", n, tiles, tile);
    cl_mem status = NULL;
    clscan_status st = clscan__sp_state(ctx, tiles, p->config.atomics64, &status);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint excl = exclusive != 0, epoch = ctx->sp_epoch + 1, in_place = clscan__same_memory(in, out);
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(status), CLSCAN__MEM(ctx->sp_counters),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64), CLSCAN__VAL(excl), CLSCAN__VAL(epoch),
                                CLSCAN__VAL(in_place)};
    st = clscan__launch(ctx, p, p->single_pass, "clscan_scan_single_pass", args, sizeof args / sizeof args[0],
                        clscan__sp_groups(ctx, tiles));
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* only a launch that was enqueued uses up its epoch */
    return st;
}

/* Whether full tiles can move as ITEMS-wide vectors: a vector type of that width exists and every
 * buffer start is aligned to it. Not 2-wide: PoCL 6.0's compiler stops on an assertion in the tile
 * kernels built so (its work-item loops, "Cannot add context restore for a PHI node at the region
 * entry"), and pairs gain next to nothing over scalar loads. */
static int vector_io(const clscan_context *ctx, unsigned items, int stream, size_t elem)
{
    int width_ok = !stream && (items == 4 || items == 8 || items == 16);
    return !ctx->portable && width_ok && ctx->info.base_align >= items * elem;
}

clscan__config clscan__config_for(const clscan_context *ctx, clscan_type type, clscan_op op, size_t n)
{
    return clscan__config_with(ctx, type, op, n, clscan__context_tuning(ctx, type));
}

clscan__config clscan__config_with(const clscan_context *ctx, clscan_type type, clscan_op op, size_t n,
                                   clscan__tuning t)
{
    clscan_wg_algorithm wg = ctx->wg == CLSCAN_WG_AUTO ? clscan__policy_wg(&ctx->info, type, n) : ctx->wg;
    clscan__subgroup_kind sg = wg == CLSCAN_WG_SUBGROUP && !ctx->portable ? ctx->info.subgroups : CLSCAN__SG_NONE;
    size_t elem = clscan_type_size(type);
    clscan__config cfg = {type, op, wg, t.wg_size, t.items, t.stream, sg, vector_io(ctx, t.items, t.stream, elem),
                          !ctx->portable && ctx->info.base_align >= 4 * elem,
                          ctx->info.int64_atomics && !ctx->portable, ctx->force_fallback, 0, 0, 0, 0, 0, 0, 0,
                          ctx->info.volatile_status && !ctx->portable, 0, 0};
    return cfg;
}

clscan_status clscan__program_for(clscan_context *ctx, clscan_type type, clscan_op op, size_t n,
                                  clscan__program **p)
{
    clscan__config cfg = clscan__config_for(ctx, type, op, n);
    return clscan__get_program(ctx, &cfg, p);
}

clscan_status clscan__scan_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                   clscan_op op, int exclusive)
{
    clscan_strategy strategy = ctx->strategy == CLSCAN_STRATEGY_AUTO ? clscan__policy_strategy(&ctx->info, type, n)
                                                                    : ctx->strategy;
    clscan__program *p = NULL;
    clscan_status st = clscan__program_for(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    switch (strategy) {
    case CLSCAN_STRATEGY_SINGLE_PASS: return single_pass(ctx, p, in, out, n, exclusive);
    case CLSCAN_STRATEGY_REDUCE_THEN_SCAN: return reduce_then_scan(ctx, p, in, out, n, exclusive);
    default: return block_sum(ctx, p, in, out, n, exclusive);
    }
}

clscan_status clscan__check_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                 clscan_op op)
{
    clscan_status st = clscan__check_type_op(ctx, n, type, op);
    if (st != CLSCAN_SUCCESS || n == 0)
        return st;
    size_t elem = clscan_type_size(type);
    st = clscan__check_buffer(ctx, in, "in", n, elem, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, out, "out", n, elem, 0, 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, in, n * elem, out, n * elem, 1);
    return st;
}

static clscan_status scan_device(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                 clscan_op op, int exclusive)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_scan(ctx, in, out, n, type, op);
    if (st == CLSCAN_SUCCESS && n > 0) {
        clscan__outputs(ctx, out, NULL);
        st = clscan__scan_enqueue(ctx, in, out, n, type, op, exclusive);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_inclusive_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, clscan_op op)
{
    return scan_device(ctx, in, out, n, type, op, 0);
}

clscan_status clscan_exclusive_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, clscan_op op)
{
    return scan_device(ctx, in, out, n, type, op, 1);
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
    if (st == CLSCAN_SUCCESS && n > 0) {
        size_t bytes = n * clscan_type_size(type);
        cl_int err = CL_SUCCESS;
        cl_mem buf = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, (void *)in, &err);
        if (err != CL_SUCCESS)
            st = clscan__fail_cl(ctx, "clCreateBuffer (host scan)", err);
        if (st == CLSCAN_SUCCESS)
            st = clscan__scan_enqueue(ctx, buf, buf, n, type, op, exclusive);
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
