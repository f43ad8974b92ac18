/* The radix sorts' table: work-group size, keys a work-item by key width, digit bits a pass, and
 * which sorts take one-sweep passes (prims/sort_sweep.cl) instead of three launches a pass. */
#include "tuning.h"

typedef struct sort_row {
    clscan__device_key key;
    unsigned wg, items4, items8;     /* keys a work-item for 4- and 8-byte keys */
    unsigned radix_bits;
    int onesweep;                    /* CLSCAN__SWEEP_KEYS | CLSCAN__SWEEP_PAIRS: the sorts that take it */
} sort_row;

static const sort_row table[] = {
    {.key = {"NVIDIA", NULL, CL_DEVICE_TYPE_GPU}, .wg = 256, .items4 = 16, .items8 = 8, .radix_bits = 8,
     .onesweep = CLSCAN__SWEEP_PAIRS},   /* H200, 2^28 uint32: pairs 11.53-11.57 ms against 12.12-12.15, keys
                                          * alone 9.64 against 9.47-9.52 (bench/notebook.md, 2026-11-29) */
    {.key = {NULL, NULL, CL_DEVICE_TYPE_GPU}, .wg = 256, .items4 = 8, .items8 = 4, .radix_bits = 8},
    {.key = {NULL, NULL, CL_DEVICE_TYPE_CPU}, .wg = 1, .items4 = 8192, .items8 = 8192, .radix_bits = 8},
    {.key = {NULL, NULL, 0}, .wg = 128, .items4 = 8, .items8 = 4, .radix_bits = 8},
};

clscan__sort_tuning clscan__table_sort(const clscan__device_info *dev, size_t key_bytes)
{
    const sort_row *row = CLSCAN__ROW(dev, table);
    return (clscan__sort_tuning){row->wg, key_bytes == 8 ? row->items8 : row->items4, row->radix_bits, row->onesweep};
}
