/* What is in force on a context: a table's value, unless the override of clscan_tuning.h sets it,
 * then fitted to the device (work-group size, local memory). The local memory a launch declares is
 * computed here from the same shapes the kernels use. */
#include "tuning.h"
#include "../../cl/core/sizes.clh"   /* the kernels' own formulas (a path from here: no include dir) */

/* Local memory a scan_tiles launch declares: the padded tile (one element when streaming) plus the
 * largest work-group scratch. */
static size_t tile_local_bytes(clscan__tuning t, size_t elem)
{
    size_t tile = CLSCAN_LOCAL_SCAN_TILE(t.stream, (size_t)t.wg_size, t.items);
    return (tile + CLSCAN_LOCAL_WG_SCAN_MAX((size_t)t.wg_size)) * elem;
}

/* Local memory the compaction kernels declare (compact.cl): every work-item's flag mask words and
 * rank (one word when streaming), unique's head bytes (which then stage its kept elements, at least
 * one of elem bytes) and run-length encoding's look-back scratch (reserved for every compaction: one
 * tile table serves all three) and the count scan's scratch. */
static size_t compact_local_bytes(clscan__tuning t, size_t elem)
{
    size_t ranks = CLSCAN_LOCAL_COMPACT(t.stream, (size_t)t.wg_size, t.items),
           heads = CLSCAN_LOCAL_COMPACT_HEADS(t.stream, (size_t)t.wg_size, t.items, elem),
           rle = CLSCAN_LOCAL_COMPACT_RLE((size_t)t.wg_size);
    return (ranks + heads + rle + CLSCAN_LOCAL_WG_SCAN_MAX((size_t)t.wg_size)) * sizeof(cl_uint);
}

/* Local memory the segmented scan declares (segscan.cl), at most, for values and keys of at most elem
 * bytes: the stage of a tile's keys and then values, and its pair scans' two buffers of values and
 * uint heads. */
static size_t segscan_local_bytes(clscan__tuning t, size_t elem)
{
    const size_t wg = t.wg_size;
    return CLSCAN_LOCAL_SEG_STAGE(t.stream, wg, (size_t)t.items, elem, elem) + CLSCAN_LOCAL_SEG_SCAN(wg) * elem +
           CLSCAN_LOCAL_SEG_SCAN(wg) * sizeof(cl_uint);
}

/* Local memory the runs declare (runs.cl): the segmented scan's (the outputs gather in its stage) and
 * the look-back's window of carries (the value and a 64-bit count). */
static size_t runs_local_bytes(clscan__tuning t, size_t elem)
{
    return segscan_local_bytes(t, elem) + 32 * (elem + 16);
}

/* Local memory the segmented reduction declares (segreduce.cl): the scan's tile, the tile's head bits
 * and the pair scans' buffers. */
static size_t segreduce_local_bytes(clscan__tuning t, size_t elem)
{
    const size_t wg = t.wg_size;
    return CLSCAN_LOCAL_SCAN_TILE(t.stream, wg, (size_t)t.items) * elem +
           CLSCAN_LOCAL_SR_BITS(t.stream, wg, (size_t)t.items) * sizeof(cl_uint) + CLSCAN_LOCAL_SEG_SCAN(wg) * elem +
           CLSCAN_LOCAL_SEG_SCAN(wg) * sizeof(cl_uint);
}

/* The table's tile t under the override and the device's limits; local_bytes says what a launch of
 * that shape declares in local memory. */
static clscan__tuning in_force(const clscan_context *ctx, size_t elem, clscan__tuning t,
                               size_t (*local_bytes)(clscan__tuning, size_t))
{
    if (clscan__tuned(ctx, CLSCAN_TUNE_WG_SIZE))
        t.wg_size = (unsigned)clscan__tuned(ctx, CLSCAN_TUNE_WG_SIZE), t.items = (unsigned)clscan__tuned(ctx, CLSCAN_TUNE_ITEMS);
    long mode = clscan__tuned(ctx, CLSCAN_TUNE_ITEMS_MODE);
    if (mode)
        t.stream = mode == 2;
    t.wg_size = clscan__floor_pow2(t.wg_size < ctx->info.max_wg ? t.wg_size : ctx->info.max_wg);
    if (t.items == 0)
        t.items = 1;
    /* Leave room for what the compiler adds and the look-back's window; shrink items first, then
     * the group. */
    while (local_bytes(t, elem) + 1024 > ctx->info.local_mem && (t.items > 1 || t.wg_size > 1)) {
        if (t.items > 1)
            t.items /= 2;
        else
            t.wg_size /= 2;
    }
    return t;
}

int clscan__vectors(const clscan_context *ctx, clscan_type type)
{
    const int portable = clscan__tuned(ctx, CLSCAN_TUNE_PORTABLE) != 0;
    return !portable && (!clscan__is_user_value((unsigned)type) || CLSCAN_CARRIED_SIZE(clscan__type_size(ctx, type)));
}

/* 8- and 16-bit elements move packed as 4-wide vectors of words (core/workgroup.clh). */
int clscan__vec4(const clscan_context *ctx, clscan_type type)
{
    const size_t elem = clscan__type_size(ctx, type);
    return clscan__vectors(ctx, type) && ctx->info.base_align >= 4 * (elem < 4 ? 4 : elem);
}

/* 8- and 16-bit elements held in registers are packed in words wherever buffers load as 4-wide
 * vectors (CLSCAN_WG_PACKED, core/workgroup.clh): there the registers of 4-byte items hold four
 * (two) times as many, and the tile as many bytes. Where the scaled count is a vector width (16
 * 16-bit items from a row of 8), the kernels move them as that vector instead (CLSCAN_VEC_IO),
 * unpacked, in as many registers as 4-byte rows of 16 take. */
clscan__tuning clscan__scan_tile(const clscan_context *ctx, clscan_type type)
{
    const size_t elem = clscan__type_size(ctx, type);
    clscan__tuning t = clscan__table_scan_tile(&ctx->info, elem);
    if (elem < 4 && !t.stream && clscan__vec4(ctx, type))
        t.items *= (unsigned)(4 / elem);
    return in_force(ctx, elem, t, tile_local_bytes);
}

/* The scan's table tile for the values, its 8- and 16-bit items not scaled (the segmented scan holds
 * them unpacked), fitted to the local memory of values and keys of key_bytes. */
clscan__tuning clscan__segscan_tile(const clscan_context *ctx, clscan_type type, size_t key_bytes)
{
    const size_t elem = clscan__type_size(ctx, type), wider = key_bytes > elem ? key_bytes : elem;
    return in_force(ctx, wider, clscan__table_scan_tile(&ctx->info, elem), segscan_local_bytes);
}

/* The segmented scan's tile for the runs, fitted to their local memory. */
clscan__tuning clscan__runs_tile(const clscan_context *ctx, clscan_type type, size_t key_bytes)
{
    const size_t elem = clscan__type_size(ctx, type), wider = key_bytes > elem ? key_bytes : elem;
    return in_force(ctx, wider, clscan__table_scan_tile(&ctx->info, elem), runs_local_bytes);
}

clscan__tuning clscan__segreduce_tile(const clscan_context *ctx, clscan_type type)
{
    const size_t elem = clscan__type_size(ctx, type);
    return in_force(ctx, elem, clscan__table_scan_tile(&ctx->info, elem), segreduce_local_bytes);
}

clscan__tuning clscan__compact_tile(const clscan_context *ctx, clscan_type type)
{
    const size_t elem = clscan__type_size(ctx, type);
    return in_force(ctx, elem, clscan__table_compact_tile(&ctx->info, elem), compact_local_bytes);
}

/* The histograms' tile: the scan's, with the table's work-group unless the override sets one (their
 * local memory is fitted by src/prims/histogram.c, to the bins). */
clscan__tuning clscan__hist_tile(const clscan_context *ctx, clscan_type type)
{
    clscan__tuning t = clscan__scan_tile(ctx, type);
    const unsigned wg = clscan__table_hist_wg(&ctx->info);
    if (wg && !clscan__tuned(ctx, CLSCAN_TUNE_WG_SIZE))
        t.wg_size = wg;
    return t;
}

/* The sort's own local-memory fit is the sort's (src/prims/sort.c): it depends on its digits. */
clscan__sort_tuning clscan__sort_tuning_for(const clscan_context *ctx, size_t key_bytes)
{
    clscan__sort_tuning t = clscan__table_sort(&ctx->info, key_bytes);
    if (clscan__tuned(ctx, CLSCAN_TUNE_WG_SIZE)) {   /* tests: a shape the table does not pick here */
        t.wg_size = (unsigned)clscan__tuned(ctx, CLSCAN_TUNE_WG_SIZE), t.items = (unsigned)clscan__tuned(ctx, CLSCAN_TUNE_ITEMS);
        t.sweep_items = 0, t.pairs_items = 0;
    }
    if (clscan__tuned(ctx, CLSCAN_TUNE_SORT_RADIX_BITS))
        t.radix_bits = (unsigned)clscan__tuned(ctx, CLSCAN_TUNE_SORT_RADIX_BITS);
    if (clscan__tuned(ctx, CLSCAN_TUNE_SORT_ONESWEEP)) {   /* forced either way at every size */
        t.onesweep = clscan__tuned(ctx, CLSCAN_TUNE_SORT_ONESWEEP) > 0 ? CLSCAN__SWEEP_KEYS | CLSCAN__SWEEP_PAIRS : 0;
        t.sweep_from = 0, t.tile_from = 0, t.pairs_from = 0;
    }
    return t;
}

/* A power of two up to 32 (a row run of that many columns must not straddle a padding slot) and up
 * to the work-group size, halved until the band's tile and tables fit in local memory. */
unsigned clscan__sat_band(const clscan_context *ctx, clscan__tuning t, size_t elem)
{
    long set = clscan__tuned(ctx, CLSCAN_TUNE_SAT_BAND);
    unsigned band = set < 0 ? 0 : set > 0 ? (unsigned)set : clscan__table_sat_band(&ctx->info);
    if (band == 0)
        return 0;
    band = clscan__floor_pow2(band < 32 ? band : 32);
    band = band < t.wg_size ? band : clscan__floor_pow2(t.wg_size);
    while (band > 1 && CLSCAN_LOCAL_SAT((size_t)band, (size_t)t.wg_size) * elem + 1024 > ctx->info.local_mem)
        band /= 2;
    return band;
}

unsigned clscan__sat_tile(const clscan_context *ctx, unsigned band, size_t elem)
{
    long set = clscan__tuned(ctx, CLSCAN_TUNE_SAT_TILE);
    const unsigned rows = set > 0 ? (unsigned)set : clscan__table_sat_tile(&ctx->info, elem);
    return rows > 0 && rows < band ? clscan__floor_pow2(rows) : band;
}

size_t clscan__sp_groups(const clscan_context *ctx, size_t tiles)
{
    long set = clscan__tuned(ctx, CLSCAN_TUNE_SP_GROUPS);
    size_t per_cu = set < 0 ? 0 : set > 0 ? (size_t)set : clscan__table_sp_groups_per_cu(&ctx->info);
    size_t groups = per_cu * (ctx->info.compute_units ? ctx->info.compute_units : 1);
    return per_cu && groups < tiles ? groups : tiles;
}

unsigned clscan__max_regs(const clscan_context *ctx, unsigned table)
{
    const long set = clscan__tuned(ctx, CLSCAN_TUNE_MAX_REGISTERS);
    const unsigned regs = set > 0 ? (unsigned)(set < 255 ? set : 255) : set < 0 ? 0 : table;
    return ctx->info.is_nvidia ? regs : 0;   /* a cap is written into PTX: other devices have none */
}

int clscan__sp_by_id(const clscan_context *ctx)
{
    long set = clscan__tuned(ctx, CLSCAN_TUNE_SP_BY_ID);
    return set ? set > 0 : clscan__table_sp_by_id(&ctx->info);
}

int clscan__sp_fold_one(const clscan_context *ctx, clscan__program_id id)
{
    long set = clscan__tuned(ctx, CLSCAN_TUNE_SP_FOLD);   /* forced: every program that looks back */
    return set ? set > 0 : clscan__table_sp_fold_one(&ctx->info, id);
}

clscan_status clscan_tuning_tile_in_force(clscan_context *ctx, clscan_type type, int compact,
                                          clscan_tuning_tile *tile)
{
    if (!ctx || !tile || !clscan__type_valid(type))
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan__tuning t = compact ? clscan__compact_tile(ctx, type) : clscan__scan_tile(ctx, type);
    pthread_mutex_unlock(&ctx->lock);
    *tile = (clscan_tuning_tile){t.wg_size, t.items, t.stream};
    return CLSCAN_SUCCESS;
}
