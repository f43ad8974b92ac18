/* The compaction's table: its tile where it differs from the scan's. On PoCL its ranking and scatter
 * ran 20% slower in the scans' 4-byte tile of 16 x 8192 than in 8 x 4096, so CPUs have their own. */
#include "tuning.h"

typedef struct compact_row {
    clscan__device_key key;
    unsigned wg, items;              /* any element width; 0: the scan's tile */
} compact_row;

static const compact_row table[] = {
    {.key = {NULL, NULL, CL_DEVICE_TYPE_CPU}, .wg = 8, .items = 4096},
    {.key = {NULL, NULL, 0}},
};

clscan__tuning clscan__table_compact_tile(const clscan__device_info *dev, size_t elem)
{
    const compact_row *row = CLSCAN__ROW(dev, table);
    clscan__tuning t = clscan__table_scan_tile(dev, elem);
    if (row->wg)
        t.wg_size = row->wg, t.items = row->items;
    return t;
}
