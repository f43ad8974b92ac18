/* The tuning table and the choice of algorithm for (device, type, n). Rows run from specific to
 * general; the first that matches wins. Each row gives the work-group size and items per work-item
 * for 4-byte and for 8-byte elements (`clscan-bench --tune` prints a row for the current device). */
#include "internal.h"
#include <string.h>

typedef struct policy_row {
    const char *vendor;          /* substring of the device vendor, NULL for any */
    const char *name;            /* substring of the device name, NULL for any */
    cl_device_type type;         /* 0 for any */
    unsigned wg4, items4, wg8, items8;
    int stream;                  /* items read twice from memory instead of held in registers */
    size_t rts8_from, rts8_to;   /* 8-byte elements: reduce-then-scan for n in [from, to) */
    unsigned sort_wg, sort_items4, sort_items8, radix_bits;   /* radix sorts, by key width */
    unsigned sat_band;           /* summed-area tables: rows per single-pass band (0: a work-item a band) */
    unsigned compact_wg, compact_items;   /* compaction's tile, any element width (0: the scan's) */
    unsigned sp_groups_per_cu;   /* single-pass scans and compactions: groups a compute unit (0: a group a tile) */
    unsigned sat_split;          /* three-pass tables: tiles a group from which tasks are one band (0: never) */
    unsigned sat_tile4;          /* three-pass tables, 4-byte elements: rows of the table pass's tiles (0: a band) */
} policy_row;

static const policy_row table[] = {
    /* vendor, name   type                 4-byte   8-byte  stream  8-byte reduce-then-scan band
     *                                                              sort: wg, items 4/8-byte keys, bits
     *                                                              compaction: wg, items; single-pass groups a CU;
     *                                                              three-pass table tasks of one band from,
     *                                                              its table pass's tile rows (4-byte) */
    {"NVIDIA", "H100", CL_DEVICE_TYPE_GPU, 256, 32, 128, 32, 0, (size_t)1 << 21, (size_t)1 << 23,
     256, 16, 8, 8, 32, 0, 0, 8, 8, 0},   /* H100: as the next row, one-band table tasks, whole-band table tiles */
    {"NVIDIA", NULL, CL_DEVICE_TYPE_GPU, 256, 32, 128, 32, 0, (size_t)1 << 21, (size_t)1 << 23,
     256, 16, 8, 8, 32, 0, 0, 8, 0, 16},                      /* other NVIDIA GPUs (measured: H100, H200) */
    {NULL, NULL, CL_DEVICE_TYPE_GPU, 256, 8, 256, 4, 0, 0, 0, 256, 8, 4, 8, 16, 0, 0, 0, 0, 0},   /* unmeasured GPUs: modest tiles */
    {NULL, NULL, CL_DEVICE_TYPE_CPU, 16, 8192, 16, 4096, 1, 0, 0, 1, 8192, 8192, 8, 0, 8, 4096, 0, 0, 0},   /* PoCL 2 cores */
    {NULL, NULL, 0, 128, 8, 128, 4, 0, 0, 0, 128, 8, 4, 8, 0, 0, 0, 0, 0, 0},
};

static const policy_row *row_for(const clscan__device_info *dev)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const policy_row *r = &table[i];
        if ((!r->vendor || strstr(dev->vendor, r->vendor)) && (!r->name || strstr(dev->name, r->name)) &&
            (!r->type || (dev->type & r->type)))
            return r;
    }
    return &table[sizeof table / sizeof table[0] - 1];
}

clscan__tuning clscan__policy_tuning(const clscan__device_info *dev, clscan_type type)
{
    const policy_row *row = row_for(dev);
    int wide = clscan_type_size(type) == 8;
    return (clscan__tuning){wide ? row->wg8 : row->wg4, wide ? row->items8 : row->items4, row->stream};
}

/* The compaction's tile: on PoCL its ranking and scatter ran 20% slower in the scans' 4-byte tile of
 * 16 x 8192 than in 8 x 4096 (bench/notebook.md), so CPUs give it its own. */
clscan__tuning clscan__policy_compact_tuning(const clscan__device_info *dev, clscan_type type)
{
    const policy_row *row = row_for(dev);
    clscan__tuning t = clscan__policy_tuning(dev, type);
    if (row->compact_wg)
        t.wg_size = row->compact_wg, t.items = row->compact_items;
    return t;
}

clscan__sort_tuning clscan__policy_sort(const clscan__device_info *dev, size_t key_bytes)
{
    const policy_row *row = row_for(dev);
    return (clscan__sort_tuning){row->sort_wg, key_bytes == 8 ? row->sort_items8 : row->sort_items4, row->radix_bits};
}

unsigned clscan__policy_sat_band(const clscan__device_info *dev)
{
    return row_for(dev)->sat_band;
}

/* Three-pass summed-area tables whose groups have at least this many tiles take tasks of one band
 * (src/sat.c). Float 8192 x 8192, tasks of one band against the 32 the rule picks otherwise: H100
 * 303.5 against 314.5 us, H200 254-257 against 241-245 (bench/notebook.md). */
unsigned clscan__policy_sat_split(const clscan__device_info *dev)
{
    return row_for(dev)->sat_split;
}

/* Rows of the three-pass table pass's tiles, a part of a band (the launches before it keep whole
 * bands). On the H200 a bare copy in the table pass's pattern took 147-150 us in tiles of 16 rows
 * against 161-162 in tiles of 32, and the float table 228-229 against 234-235 (8192 x 8192); the
 * H100's float table and both cards' 8-byte ones were no faster (bench/notebook.md). */
unsigned clscan__policy_sat_tile(const clscan__device_info *dev, size_t elem)
{
    return elem == 4 ? row_for(dev)->sat_tile4 : 0;
}

/* On the H200 (int32 2^28, one process a variant) a group a tile lost 5% to groups that stay and
 * take tile after tile: compaction 0.741/0.738 ms against 0.705 with 8 groups a compute unit (4:
 * 0.706/0.700, 16: 0.702), AUTO scan 0.696/0.696 against 0.667 (4: 0.670/0.666, 16: 0.666). */
unsigned clscan__policy_sp_groups_per_cu(const clscan__device_info *dev)
{
    return row_for(dev)->sp_groups_per_cu;
}

clscan_strategy clscan__policy_strategy(const clscan__device_info *dev, clscan_type type, size_t n)
{
    /* One tile: block-sum is a single scan_tiles launch with no status words, 7-12% faster than
     * single-pass at 2^10..2^13 on the H100. Above, single-pass moves 2n elements in one launch; it
     * has passed the suite on the H100 and on PoCL and was the fastest there from 2^14 up
     * (bench/notebook.md). */
    clscan__tuning t = clscan__policy_tuning(dev, type);
    if (n <= (size_t)t.wg_size * t.items)
        return CLSCAN_STRATEGY_BLOCK_SUM;
    /* On the H100, 8-byte single-pass lost to reduce-then-scan by 10-25% at 2^21 and 2^22 in two
     * runs and won below and above (why has not been found); the band is measured, not derived. */
    const policy_row *row = row_for(dev);
    if (clscan_type_size(type) == 8 && n >= row->rts8_from && n < row->rts8_to)
        return CLSCAN_STRATEGY_REDUCE_THEN_SCAN;
    return CLSCAN_STRATEGY_SINGLE_PASS;
}

clscan_wg_algorithm clscan__policy_wg(const clscan__device_info *dev, clscan_type type, size_t n)
{
    (void)type, (void)n;
    /* With register shuffles a group scan is a few instructions and two barriers; without them,
     * over a few hundred work-item totals the log2 steps of Hillis-Steele beat the 2 log2 steps (and
     * idle halves) of Blelloch, the extra work being on values already in local memory. */
    return dev->subgroups != CLSCAN__SG_NONE ? CLSCAN_WG_SUBGROUP : CLSCAN_WG_HILLIS_STEELE;
}

int clscan__algorithm_implemented(clscan_strategy strategy, clscan_wg_algorithm wg)
{
    return (unsigned)strategy <= CLSCAN_STRATEGY_SINGLE_PASS && (unsigned)wg <= CLSCAN_WG_SUBGROUP;
}

unsigned clscan__block_sum_levels(size_t n, size_t tile, size_t level_elems[CLSCAN__MAX_LEVELS])
{
    unsigned levels = 0;
    while (n > tile && levels < CLSCAN__MAX_LEVELS) {
        n = clscan__tiles(n, tile);
        level_elems[levels++] = n;
    }
    return levels;
}
