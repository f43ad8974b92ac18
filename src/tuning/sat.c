/* The summed-area tables' table: rows a band of the GPU kernels, when three-pass tasks are one band,
 * and the rows of the table pass's tiles. */
#include "tuning.h"

typedef struct sat_row {
    clscan__device_key key;
    unsigned band;                   /* rows a band (0: the CPU shape, a work-item a band) */
    unsigned split;                  /* three passes: tiles a group from which tasks are one band (0: never) */
    unsigned tile4;                  /* three passes, 4-byte elements: rows of the table pass's tiles (0: a band) */
} sat_row;

static const sat_row table[] = {
    /* H100: float 8192 x 8192 in tasks of one band against the 32 the rule picks otherwise, 303.5
     * against 314.5 us; the H200 254-257 against 241-245. Tiles of 16 rows gained nothing there. */
    {.key = {"NVIDIA", "H100", CL_DEVICE_TYPE_GPU}, .band = 32, .split = 8},
    /* H200: a bare copy in the table pass's pattern took 147-150 us in tiles of 16 rows against
     * 161-162 in tiles of 32, and the float table 228-229 against 234-235 (8192 x 8192). */
    {.key = {"NVIDIA", NULL, CL_DEVICE_TYPE_GPU}, .band = 32, .tile4 = 16},
    {.key = {NULL, NULL, CL_DEVICE_TYPE_GPU}, .band = 16},
    {.key = {NULL, NULL, 0}},
};

unsigned clscan__table_sat_band(const clscan__device_info *dev)
{
    return CLSCAN__ROW(dev, table)->band;
}

unsigned clscan__table_sat_split(const clscan__device_info *dev)
{
    return CLSCAN__ROW(dev, table)->split;
}

unsigned clscan__table_sat_tile(const clscan__device_info *dev, size_t elem)
{
    return elem == 4 ? CLSCAN__ROW(dev, table)->tile4 : 0;
}
