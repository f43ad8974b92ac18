/* How the fuzz targets read their input: bytes, then zeros once it runs out, so that every input,
 * however short, drives a whole run. */
#ifndef CLSCAN_FUZZ_READER_H
#define CLSCAN_FUZZ_READER_H
#include <stddef.h>
#include <stdint.h>

typedef struct reader { const uint8_t *p; size_t left; } reader;

static inline unsigned take8(reader *r)
{
    if (r->left == 0)
        return 0;
    r->left--;
    return *r->p++;
}

static inline unsigned take16(reader *r)
{
    unsigned lo = take8(r);
    return lo | take8(r) << 8;
}

static inline uint32_t take32(reader *r)
{
    uint32_t lo = take16(r);
    return lo | (uint32_t)take16(r) << 16;
}
#endif
