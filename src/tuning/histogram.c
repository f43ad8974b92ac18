/* The histograms' table: their work-group where it differs from the scan's. CPUs count in groups of one
 * work-item, whose local row is then its own and counted without atomics whatever the type (PoCL, 2
 * cores, 2^22 floats: 65536 bins 8.2-8.4 -> 4.1-4.2 ms and 256 bins 5.0-7.9 -> 3.7-4.5, against a C
 * loop's 8.3 and 7.7; groups of 16 sharing a row took the atomics, own rows a work-item cost floats twice
 * the time). */
#include "tuning.h"

typedef struct hist_row {
    clscan__device_key key;
    unsigned wg;                     /* 0: the scan's */
} hist_row;

static const hist_row table[] = {
    {.key = {NULL, NULL, CL_DEVICE_TYPE_CPU}, .wg = 1},
    {.key = {NULL, NULL, 0}},
};

unsigned clscan__table_hist_wg(const clscan__device_info *dev)
{
    return CLSCAN__ROW(dev, table)->wg;
}
