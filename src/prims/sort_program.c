/* The sort program's configuration (sort.c and sort_sweep.c run its passes): the table's tile, or the
 * one-sweep tile where the table takes one sweep; the digit width; how tiles are ranked (sub-group
 * ballots or 2-bit splits); the tile halved until the ranking's local memory fits; and the #defines. */
#include "prims.h"
#include "../../cl/core/sizes.clh"   /* the kernels' own formulas (a path from here: no include dir) */

typedef clscan__sort_args sort_args;
enum { RADIX_BITS = CLSCAN__SORT_RADIX_BITS, HIST64 = CLSCAN__SORT_HIST64, BALLOT = CLSCAN__SORT_BALLOT };

/* Local memory clscan_sort_scatter declares: the tile of keys and beside them their origins (or, with
 * ballots, one room for the keys and then their values of up to 4 bytes, and a byte a key for its
 * digit), each digit's base and start, the group scan's scratch of packed counters (the largest a
 * device may build; with ballots in the keys' room, unpadded there), and with ballots each sub-group's
 * digit counters (two a word where the values move, and always for the extension's sub-groups). */
static size_t scatter_local_bytes(const clscan__config *cfg, const sort_args *a)
{
    const int ballot = cfg->param[BALLOT] != CLSCAN__SORT_SPLITS;
    size_t wg = cfg->wg_size, tile = ballot ? wg * cfg->items : CLSCAN_LOCAL_SORT_TILE(wg, cfg->items);
    size_t radix = (size_t)1 << cfg->param[RADIX_BITS], key = clscan_type_size(a->key_type);
    const int exchange = a->by_key && CLSCAN_SORT_EXCHANGES(cfg->param[BALLOT], a->value_bytes);
    const size_t keys = tile * (exchange && a->value_bytes > key ? a->value_bytes : key);
    const size_t beside = tile * (exchange ? sizeof(cl_uchar) : a->by_key ? sizeof(cl_ushort) : 0);
    const size_t scratch = CLSCAN_LOCAL_WG_SCAN_MAX(wg) * sizeof(cl_ulong);
    /* With ballots the scratch shares the keys' room (prims/sort.cl), rounded to whole ulongs. */
    const size_t room = ballot ? ((keys > scratch ? keys : scratch) + 7) / 8 * 8 : keys + scratch;
    const int ptx = cfg->param[BALLOT] == CLSCAN__SORT_BALLOT_PTX;   /* counters as sort_rank.clh has them */
    const size_t lanes = ptx ? CLSCAN_SORT_LANES_PTX : CLSCAN_SORT_LANES_KHR;
    const size_t counts = CLSCAN_LOCAL_SORT_COUNTS(wg, lanes, radix, exchange || !ptx);
    return room + beside + radix * (cfg->param[HIST64] ? sizeof(cl_ulong) : sizeof(cl_uint)) +
           (radix + 1) * sizeof(cl_uint) + (ballot ? counts * sizeof(cl_uint) : 0);
}

/* The key's width and kind, the value's width, the digit bits and the count width as #defines. */
static void sort_defines(clscan__config *cfg, const sort_args *a)
{
    const clscan_type key = a->key_type;
    clscan__config_define_uint(cfg, "CLSCAN_SORT_KEY_BYTES", (unsigned)clscan_type_size(key));
    if (key == CLSCAN_INT8 || key == CLSCAN_INT16 || key == CLSCAN_INT32 || key == CLSCAN_INT64)
        clscan__config_define(cfg, "CLSCAN_SORT_KEY_SIGNED", NULL);
    else if (clscan__type_is_float(key))
        clscan__config_define(cfg, "CLSCAN_SORT_KEY_FLOAT", NULL);
    clscan__config_define_uint(cfg, "CLSCAN_SORT_VALUE_BYTES", a->by_key ? (unsigned)a->value_bytes : 0);
    clscan__config_define_uint(cfg, "CLSCAN_RADIX_BITS", cfg->param[RADIX_BITS]);
    if (a->flip && clscan__type_is_float(key))   /* a range names bits of the usual flip (sort.cl) */
        clscan__config_define(cfg, "CLSCAN_SORT_FLIP", NULL);
    if (cfg->param[HIST64])
        clscan__config_define(cfg, "CLSCAN_SORT_HIST64", NULL);
    if (cfg->param[BALLOT] == CLSCAN__SORT_BALLOT_PTX)
        clscan__config_define(cfg, "CLSCAN_SORT_BALLOT_PTX", NULL);
    else if (cfg->param[BALLOT] == CLSCAN__SORT_BALLOT_KHR)
        clscan__config_define(cfg, "CLSCAN_SORT_BALLOT_KHR", NULL);
}

/* Whether a's multi-bit passes in groups of wg are one-sweep: where the tuning takes them for this kind
 * of sort (keys alone from its size on), in groups (they rank a tile in local memory) and below 2^30
 * keys (counts are published in 30 bits: prims/sort_sweep.cl). */
static int takes_sweep(const clscan__sort_tuning *t, unsigned wg, const sort_args *a)
{
    return (t->onesweep & (a->by_key ? CLSCAN__SWEEP_PAIRS : CLSCAN__SWEEP_KEYS)) && wg > 1 &&
           (a->by_key || a->n >= t->sweep_from) && (uint64_t)a->n < ((uint64_t)1 << 30);
}

/* How cfg's groups rank tiles: NVIDIA by warp ballots (inline PTX), devices whose cl_khr_subgroups
 * built-ins the context takes by sub-group ballots (in groups that sub-groups of up to 64 lanes fill;
 * the program is then built with the built-ins, whatever its group scans use), unless the override
 * asks for the portable paths. */
static void pick_ranking(const clscan_context *ctx, clscan__config *cfg)
{
    const clscan__subgroup_kind sg = ctx->info.subgroups;
    const unsigned wg = cfg->wg_size;
    cfg->param[BALLOT] = CLSCAN__SORT_SPLITS;
    if (clscan__tuned(ctx, CLSCAN_TUNE_PORTABLE) || wg <= 1)
        return;
    if (sg == CLSCAN__SG_NVIDIA_PTX && wg % 32 == 0)
        cfg->param[BALLOT] = CLSCAN__SORT_BALLOT_PTX;
    else if ((sg == CLSCAN__SG_KHR || sg == CLSCAN__SG_KHR_C3) && wg % 64 == 0)
        cfg->param[BALLOT] = CLSCAN__SORT_BALLOT_KHR, cfg->sg = sg;
}

/* Whether cfg's tile fits local memory (with 1 KiB to spare). */
static int fits_local(const clscan_context *ctx, const clscan__config *cfg, const sort_args *a)
{
    return scatter_local_bytes(cfg, a) + 1024 <= ctx->info.local_mem;
}

/* Halves cfg's keys a work-item until its tile fits local memory and under 65536 keys (ranks are
 * 16-bit fields; a work-group of one ranks nothing: its tile only has to fit). Whether it fits. */
static int fit_tile(const clscan_context *ctx, clscan__config *cfg, const sort_args *a)
{
    while (cfg->items > 1 &&
           ((cfg->wg_size > 1 && (size_t)cfg->wg_size * cfg->items >= 65536) || !fits_local(ctx, cfg, a)))
        cfg->items /= 2;
    return fits_local(ctx, cfg, a);
}

clscan__config clscan__sort_config(const clscan_context *ctx, const sort_args *a)
{
    const clscan__sort_tuning t = clscan__sort_tuning_for(ctx, clscan_type_size(a->key_type));
    /* The program's own scans are of packed ulong counters. */
    clscan__tuning tile = {t.wg_size, t.items, 0};
    clscan__config cfg = clscan__config_with(ctx, CLSCAN__PROGRAM_SORT, CLSCAN_UINT64, CLSCAN_ADD, a->n, tile);
    cfg.vec_io = 0, cfg.vec4 = 0;
    while (cfg.wg_size > 1 && cfg.wg_size > ctx->info.max_wg)
        cfg.wg_size /= 2;
    const int sweep = takes_sweep(&t, cfg.wg_size, a);
    if (sweep && !a->by_key && t.sweep_items && a->n >= t.tile_from) {
        cfg.items = t.sweep_items;   /* larger tiles: fewer to look back over */
        cfg.max_regs = clscan__max_regs(ctx, t.sweep_regs);
    }
    if (sweep && a->by_key && a->value_bytes <= 4) {   /* measured with 4-byte values only */
        cfg.items = t.pairs_items && a->n >= t.pairs_from ? t.pairs_items : cfg.items;
        cfg.max_regs = clscan__max_regs(ctx, t.pairs_regs);
    }
    /* Digits never read past the range (sort_lsd), so a range narrower than a digit takes narrower
     * ones: the widest even count of bits it holds (ranking goes 2 bits a round), one bit the split. */
    const unsigned width = a->end - a->begin, even = width & ~1u;
    cfg.param[RADIX_BITS] = t.radix_bits <= width ? t.radix_bits : even ? even : 1;
    cfg.param[HIST64] = (unsigned)clscan__sort_hist64(a->n);
    /* Where the ballots' counters leave no room even for the smallest tile, the splits rank. */
    const unsigned items = cfg.items;
    pick_ranking(ctx, &cfg);
    if (!fit_tile(ctx, &cfg, a) && cfg.param[BALLOT] != CLSCAN__SORT_SPLITS) {
        cfg.param[BALLOT] = CLSCAN__SORT_SPLITS, cfg.items = items;
        fit_tile(ctx, &cfg, a);
    }
    sort_defines(&cfg, a);
    return cfg;
}

int clscan__sort_takes_sweep(const clscan_context *ctx, const clscan__config *cfg, const sort_args *a)
{
    const clscan__sort_tuning t = clscan__sort_tuning_for(ctx, clscan_type_size(a->key_type));
    return takes_sweep(&t, cfg->wg_size, a);
}
