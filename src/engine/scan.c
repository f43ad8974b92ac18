/* The scan engine: clscan__scan_enqueue runs the strategy the context picks, for the public scans
 * (src/prims/scan.c) and for every primitive that scans on the way (compaction, sort, tables). Block-sum: scan tiles and keep their totals, scan the totals the same way
 * (as many levels as n needs), then fold each level's prefixes back down. Reduce-then-scan: reduce
 * tiles, scan the totals (one work-group, or block-sum when many), scan the tiles seeded with their
 * prefixes. Single-pass: one launch with decoupled look-back over the status words of single_pass.c. */
#include "engine.h"
#include <stdio.h>
#include <string.h>

/* The kernels' two seed arguments (scan.cl, clscan_seed): the value, into value (the identity where seed
 * is NULL or on the device), and the buffer (NULL but where the seed is on the device). */
static cl_mem seed_args(const clscan_context *ctx, const clscan__program *p, const clscan__seed *seed,
                        char value[CLSCAN__ELEM_MAX])
{
    if (seed && !seed->buf)
        memcpy(value, seed->value, p->config.elem);
    else
        clscan__identity(ctx, p->config.type, p->config.op, value);
    return seed ? seed->buf : NULL;
}

/* totals (or NULL) receives each tile's total; every tile is seeded with seed (NULL: the identity),
 * combined with its prefix where prefix is not NULL. */
static clscan_status clscan_scan_tiles(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                cl_mem totals, cl_mem prefix, size_t n, size_t tiles, int exclusive,
                                const clscan__seed *seed)
{
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint excl = exclusive != 0;
    char value[CLSCAN__ELEM_MAX];
    cl_mem seed_buf = seed_args(ctx, p, seed, value);
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(totals), CLSCAN__MEM(prefix),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64), CLSCAN__VAL(excl),
                                {p->config.elem, value}, CLSCAN__MEM(seed_buf)};
    return clscan__launch(ctx, p, "clscan_scan_tiles", CLSCAN__ARGS(args), tiles);
}

/* From tile first_tile on: 1 where tile 0's prefix is the identity, 0 where it holds a seed. */
static clscan_status clscan_add_offsets(clscan_context *ctx, const clscan__program *p, cl_mem out, cl_mem prefix,
                                 size_t n, size_t tiles, int first_tile)
{
    cl_ulong n64 = n, tiles64 = tiles, first64 = (cl_ulong)first_tile;
    const clscan__arg args[] = {CLSCAN__MEM(out), CLSCAN__MEM(prefix), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64),
                                CLSCAN__VAL(first64)};
    return clscan__launch(ctx, p, "clscan_add_offsets", CLSCAN__ARGS(args), tiles);
}

static clscan_status clscan_reduce_tiles(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem totals,
                                  size_t n, size_t tiles)
{
    cl_ulong n64 = n, tiles64 = tiles;
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(totals), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64)};
    /* In place, in is the caller's output, read only. */
    return clscan__launch_into(ctx, p, "clscan_reduce_tiles", CLSCAN__ARGS(args), tiles,
                               totals);
}

/* The block-sum levels' scratch, one buffer a level. */
static const char *const level_names[CLSCAN__MAX_LEVELS] = {
    "block-sum level 0", "block-sum level 1", "block-sum level 2", "block-sum level 3",
    "block-sum level 4", "block-sum level 5", "block-sum level 6", "block-sum level 7"};
#define TOTALS "reduce-then-scan tile totals"

unsigned clscan__block_sum_levels(size_t n, size_t tile, size_t level_elems[CLSCAN__MAX_LEVELS])
{
    unsigned levels = 0;
    while (n > tile && levels < CLSCAN__MAX_LEVELS) {
        n = clscan__tiles(n, tile);
        level_elems[levels++] = n;
    }
    return levels;
}

/* A seed goes into the one tile of the last level, whose prefixes then all carry it: the offsets are
 * added from tile 0 on. */
static clscan_status block_sum(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                               size_t n, int exclusive, const clscan__seed *seed)
{
    const size_t tile = (size_t)p->config.wg_size * p->config.items, elem = p->config.elem;
    size_t elems[CLSCAN__MAX_LEVELS];
    cl_mem level[CLSCAN__MAX_LEVELS];
    unsigned levels = clscan__block_sum_levels(n, tile, elems);
    if (levels == CLSCAN__MAX_LEVELS && elems[levels - 1] > tile)
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "n = %zu needs more than %d block-sum levels at tile %zu",
                            n, CLSCAN__MAX_LEVELS, tile);
    /* All scratch first: a failed allocation must leave the output untouched. */
    for (unsigned l = 0; l < levels; l++) {
        clscan_status st = clscan__scratch(ctx, level_names[l], elems[l] * elem, &level[l]);
        if (st != CLSCAN_SUCCESS)
            return st;
    }
    clscan_status st = clscan_scan_tiles(ctx, p, in, out, levels ? level[0] : NULL, NULL, n, clscan__tiles(n, tile),
                                  exclusive, levels ? NULL : seed);
    /* Totals are scanned exclusively: each tile then adds the combination of all tiles before it. */
    for (unsigned l = 0; st == CLSCAN_SUCCESS && l < levels; l++)
        st = clscan_scan_tiles(ctx, p, level[l], level[l], l + 1 < levels ? level[l + 1] : NULL, NULL, elems[l],
                        clscan__tiles(elems[l], tile), 1, l + 1 == levels ? seed : NULL);
    const int first_tile = seed ? 0 : 1;
    for (unsigned l = levels; st == CLSCAN_SUCCESS && l-- > 1;)
        st = clscan_add_offsets(ctx, p, level[l - 1], level[l], elems[l - 1], elems[l], first_tile);
    if (st == CLSCAN_SUCCESS && levels)
        st = clscan_add_offsets(ctx, p, out, level[0], n, elems[0], first_tile);
    return st;
}

/* Reduce-then-scan's tile totals, scanned exclusively in place: by one work-group, tile after tile,
 * when they span at most ONE_GROUP_TILES tiles (one launch instead of block-sum's three; at tiles of
 * 8192 that covers n up to 2^30), else by block-sum. */
#define ONE_GROUP_TILES 16
static clscan_status scan_totals(clscan_context *ctx, const clscan__program *p, cl_mem totals, size_t count)
{
    if (count > ONE_GROUP_TILES * (size_t)p->config.wg_size * p->config.items)
        return block_sum(ctx, p, totals, totals, count, 1, NULL);
    cl_ulong n64 = count;
    cl_uint excl = 1;
    const clscan__arg args[] = {CLSCAN__MEM(totals), CLSCAN__MEM(totals), CLSCAN__VAL(n64), CLSCAN__VAL(excl)};
    return clscan__launch(ctx, p, "clscan_scan_one_group", CLSCAN__ARGS(args), 1);
}

/* Reduce-then-scan's first half: the exclusive prefixes of `count` tiles of in (tiles past n count as
 * the identity) into the totals scratch, *totals. Writes only scratch: block-sum allocates its levels
 * before it enqueues, so a failure here leaves the output untouched. */
static clscan_status tile_prefixes(clscan_context *ctx, const clscan__program *p, cl_mem in, size_t n, size_t count,
                                   cl_mem *totals)
{
    clscan_status st = clscan__scratch(ctx, TOTALS, count * p->config.elem, totals);
    if (st == CLSCAN_SUCCESS)
        st = clscan_reduce_tiles(ctx, p, in, *totals, n, count);
    if (st == CLSCAN_SUCCESS)
        st = scan_totals(ctx, p, *totals, count);
    return st;
}

/* Reads n twice and writes it once; one tile needs only the seeded scan. */
static clscan_status reduce_then_scan(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                      size_t n, int exclusive, const clscan__seed *seed)
{
    const size_t tile = (size_t)p->config.wg_size * p->config.items, tiles = clscan__tiles(n, tile);
    if (tiles == 1)
        return clscan_scan_tiles(ctx, p, in, out, NULL, NULL, n, 1, exclusive, seed);
    cl_mem totals = NULL;
    clscan_status st = tile_prefixes(ctx, p, in, n, tiles, &totals);
    if (st == CLSCAN_SUCCESS)
        st = clscan_scan_tiles(ctx, p, in, out, NULL, totals, n, tiles, exclusive, seed);
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
    clscan_status st = clscan__scan_program(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t elem = p->config.elem, tiles = clscan__tiles(n, (size_t)p->config.wg_size * p->config.items);
    cl_mem totals = NULL;
    /* Tile number `tiles` lies past n: its total is the identity, and its exclusive prefix the total. */
    st = tile_prefixes(ctx, p, in, n, tiles + 1, &totals);
    char value[CLSCAN__ELEM_MAX];
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
    clscan_status st = clscan__scan_program(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t tiles = clscan__tiles(n, (size_t)p->config.wg_size * p->config.items);
    size_t bytes = 0;
    const clscan__seed s = {seed, NULL};
    return clscan_scan_tiles(ctx, p, in, out, NULL, clscan__scratch_peek(ctx, TOTALS, &bytes), n, tiles, exclusive,
                             seed ? &s : NULL);
}

/* Reads and writes n once, in one launch (after a zero fill when the status array is new). */
static clscan_status single_pass(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                 size_t n, int exclusive, const clscan__seed *seed)
{
    const size_t tile = (size_t)p->config.wg_size * p->config.items, tiles = clscan__tiles(n, tile);
    if (!clscan__sp_tiles_fit(tiles))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "single-pass scan of %zu elements needs %zu tiles of %zu; "
                            "at most 2^31 - 1", n, tiles, tile);
    cl_mem status = NULL;
    cl_uint in_place = 0;
    clscan_status st = clscan__same_memory(ctx, in, out, &in_place);
    if (st == CLSCAN_SUCCESS)
        st = clscan__sp_state(ctx, tiles, p->config.elem, p->config.atomics64, &status);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint excl = exclusive != 0, epoch = ctx->sp_epoch + 1;
    char value[CLSCAN__ELEM_MAX];
    cl_mem seed_buf = seed_args(ctx, p, seed, value);
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(status), CLSCAN__MEM(ctx->sp_counters),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64), CLSCAN__VAL(excl), CLSCAN__VAL(epoch),
                                CLSCAN__VAL(in_place), {p->config.elem, value}, CLSCAN__MEM(seed_buf)};
    st = clscan__launch(ctx, p, "clscan_scan_single_pass", CLSCAN__ARGS(args),
                        clscan__sp_groups(ctx, tiles));
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* only a launch that was enqueued uses up its epoch */
    return st;
}

clscan_status clscan__scan_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                   clscan_op op, int exclusive, const clscan__seed *seed)
{
    clscan__program *p = NULL;
    clscan_status st = clscan__scan_program(ctx, type, op, n, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const clscan_strategy strategy = ctx->strategy == CLSCAN_STRATEGY_AUTO
                                         ? clscan__table_strategy(&ctx->info, p->config.elem, n)
                                         : ctx->strategy;
    switch (strategy) {
    case CLSCAN_STRATEGY_SINGLE_PASS: return single_pass(ctx, p, in, out, n, exclusive, seed);
    case CLSCAN_STRATEGY_REDUCE_THEN_SCAN: return reduce_then_scan(ctx, p, in, out, n, exclusive, seed);
    default: return block_sum(ctx, p, in, out, n, exclusive, seed);
    }
}

