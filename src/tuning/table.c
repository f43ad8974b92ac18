/* Matching a device to a row of a table: the first row whose key fits, the last row fitting all. */
#include "tuning.h"
#include <string.h>

static int fits(const clscan__device_key *k, const clscan__device_info *dev)
{
    return (!k->vendor || strstr(dev->vendor, k->vendor)) && (!k->name || strstr(dev->name, k->name)) &&
           (!k->type || (dev->type & k->type));
}

const void *clscan__table_row(const clscan__device_info *dev, const void *rows, size_t count, size_t stride)
{
    const char *row = rows;
    for (size_t i = 0; i + 1 < count; i++, row += stride)
        if (fits((const clscan__device_key *)(const void *)row, dev))
            return row;
    return row;   /* the last: any device */
}

unsigned clscan__floor_pow2(size_t v)
{
    unsigned p = 1;
    while ((size_t)p * 2 <= v && p < (1u << 30))
        p *= 2;
    return p;
}
