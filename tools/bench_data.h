/* The benchmark's input data, one definition for clscan-bench (tools/) and the peer programs
 * (bench/peers/), so that every library is timed on the same elements: xorshift64 sequences from fixed
 * seeds, and what each row takes from a step of them. Plain C99 inline functions, so C++ and CUDA host
 * code include it too. */
#ifndef CLSCAN_BENCH_DATA_H
#define CLSCAN_BENCH_DATA_H
#include <stddef.h>
#include <stdint.h>

/* The seeds: scan values; flags, sort keys and histogram samples; the 0.2 family (runs, heads). */
#define CLSCAN__BENCH_SEED_VALUES 88172645463325252ull
#define CLSCAN__BENCH_SEED_KEYS 0x9E3779B97F4A7C15ull
#define CLSCAN__BENCH_SEED_FAMILY 0x853C49E6748FEA9Bull

static inline uint64_t clscan__bench_next(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* A scan value in [-1000, 1000] from a step of the values' sequence. */
static inline int32_t clscan__bench_value(uint64_t x)
{
    return (int32_t)(x % 2001) - 1000;
}

/* From one step of the keys' sequence: the compaction's flag (half set), a uint32 sort key (the low
 * bits; wider keys take the whole step), a histogram byte and a float in [-1, 1) (24 bits). */
static inline unsigned char clscan__bench_flag(uint64_t x) { return (unsigned char)(x >> 63); }
static inline uint32_t clscan__bench_key32(uint64_t x) { return (uint32_t)x; }
static inline uint8_t clscan__bench_byte(uint64_t x) { return (uint8_t)(x >> 16); }
static inline float clscan__bench_unit_float(uint64_t x) { return (float)(x >> 40) / 8388608.0f - 1; }

/* The family's n elements: int32 values, a segment head every 8 elements on average, the partition's
 * flags (half set), uint32 keys whose runs are those segments; then segs segments of 0 to 510
 * elements (255 on average, the last taking what is left) as segs + 1 offsets. Any pointer may be
 * NULL except offsets when segs > 0. */
static inline void clscan__bench_family_data(size_t n, int32_t *values, unsigned char *heads, unsigned char *half,
                                             uint32_t *keys, size_t segs, uint64_t *offsets)
{
    uint64_t x = CLSCAN__BENCH_SEED_FAMILY;
    uint32_t key = 0;
    for (size_t i = 0; i < n; i++) {
        clscan__bench_next(&x);
        const unsigned char head = (x >> 32) % 8 == 0;
        if (values) values[i] = (int32_t)(x % 2001) - 1000;
        if (heads) heads[i] = head;
        if (half) half[i] = (x >> 40) % 2;
        key += head;
        if (keys) keys[i] = key * 2654435761u;   /* a new key at every head, equal ones in between */
    }
    uint64_t pos = 0;
    if (segs)
        offsets[0] = 0;
    for (size_t s = 1; s <= segs; s++) {
        pos += clscan__bench_next(&x) % 511;
        offsets[s] = s == segs || pos > n ? n : pos;
        pos = offsets[s];
    }
}
#endif
