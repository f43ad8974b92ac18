/* The tuning table and the choice of algorithm for (device, type, n). Rows run from specific to
 * general; the first that matches wins. Items per work-item are for 4-byte elements and halve for
 * 8-byte ones, so a tile keeps about the same number of bytes. */
#include "internal.h"
#include <string.h>

typedef struct policy_row {
    const char *vendor;          /* substring of the device vendor, NULL for any */
    cl_device_type type;         /* 0 for any */
    unsigned wg_size, items;
} policy_row;

static const policy_row table[] = {
    /* vendor     type                 wg   items   why */
    {"NVIDIA", CL_DEVICE_TYPE_GPU, 256, 8},  /* 8 warps a group, 2048-element tiles */
    {NULL, CL_DEVICE_TYPE_GPU, 256, 8},
    {NULL, CL_DEVICE_TYPE_CPU, 64, 16},      /* PoCL runs a group as loops: few, long work-items */
    {NULL, 0, 128, 8},
};

clscan__tuning clscan__policy_tuning(const clscan__device_info *dev, clscan_type type)
{
    const policy_row *row = &table[sizeof table / sizeof table[0] - 1];
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const policy_row *r = &table[i];
        if ((!r->vendor || strstr(dev->vendor, r->vendor)) && (!r->type || (dev->type & r->type))) {
            row = r;
            break;
        }
    }
    clscan__tuning t = {row->wg_size, row->items};
    if (clscan_type_size(type) == 8 && t.items > 1)
        t.items /= 2;
    return t;
}

clscan_strategy clscan__policy_strategy(const clscan__device_info *dev, clscan_type type, size_t n)
{
    (void)dev, (void)type, (void)n;
    /* Reduce-then-scan moves 3n elements (read, read, write) against block-sum's 4n; on the H200 it
     * is 0.66 of the copy roof at 2^28 against 0.49, and within noise below (docs/benchmarks.md). */
    return CLSCAN_STRATEGY_REDUCE_THEN_SCAN;
}

clscan_wg_algorithm clscan__policy_wg(const clscan__device_info *dev, clscan_type type, size_t n)
{
    (void)dev, (void)type, (void)n;
    /* Over a few hundred work-item totals, the log2 steps of Hillis-Steele beat the 2 log2 steps
     * (and idle halves) of Blelloch; the extra work is on values already in local memory. */
    return CLSCAN_WG_HILLIS_STEELE;
}

int clscan__algorithm_implemented(clscan_strategy strategy, clscan_wg_algorithm wg)
{
    int strategy_ok = strategy != CLSCAN_STRATEGY_SINGLE_PASS;
    int wg_ok = wg == CLSCAN_WG_AUTO || wg == CLSCAN_WG_HILLIS_STEELE || wg == CLSCAN_WG_BLELLOCH;
    return strategy_ok && wg_ok;
}

unsigned clscan__block_sum_levels(size_t n, size_t tile, size_t level_elems[CLSCAN__MAX_LEVELS])
{
    unsigned levels = 0;
    while (n > tile && levels < CLSCAN__MAX_LEVELS) {
        n = n / tile + (n % tile != 0);
        level_elems[levels++] = n;
    }
    return levels;
}
