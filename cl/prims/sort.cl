/* Radix sort (a program of its own: CLSCAN_T is ulong with ADD, for packed counters). Keys are
 * sorted as unsigned integers after an order-preserving bit transform; values ride along.
 * Multi-bit LSD (the default), per pass of RADIX_BITS: sort_hist counts each tile's digits, the host
 * scans the digit-major counts, and sort_scatter ranks the tile's keys by digit in local memory
 * (stable, 2 bits a round) and writes each to its global place. Each kernel takes its source and
 * destination from the host, which routes the keys A -> B -> C -> B ... -> A (src/sort.c). The textbook
 * 1-bit split (split_flags, an exclusive scan of the flags, split_scatter) is the reference path. */
#if !defined(SORT_KEY_BYTES) || SORT_KEY_BYTES == 4
typedef uint key_t;
#define KEY_BITS 32
#define KEY_SIGN 0x80000000u
#define FLOAT_INF 0x7f800000u            /* +inf; larger positives are NaNs */
#define FLOAT_MANT 0x007fffffu
#else
typedef ulong key_t;
#define KEY_BITS 64
#define KEY_SIGN 0x8000000000000000ul
#define FLOAT_INF 0x7ff0000000000000ul
#define FLOAT_MANT 0x000ffffffffffffful
#endif
#if defined(SORT_VALUE_BYTES) && SORT_VALUE_BYTES == 4
typedef uint value_t;
#define SORT_VALUES
#elif defined(SORT_VALUE_BYTES) && SORT_VALUE_BYTES == 8
typedef ulong value_t;
#define SORT_VALUES
#endif
#if defined(SORT_HIST64)
typedef ulong hist_t;                    /* counts and offsets past 2^32 keys */
#else
typedef uint hist_t;
#endif
#ifndef RADIX_BITS
#define RADIX_BITS 8                     /* even: ranking takes 2 bits a round */
#endif
#define RADIX (1u << RADIX_BITS)
#if WG_SIZE == 1
#define SORT_TILE_LOCAL 1                /* a work-group of one ranks nothing in local memory */
#else
#define SORT_TILE_LOCAL PAD(TILE)
#endif

#define SORT_TRANSFORM_IN 1u             /* keys come from the caller: map them to ordered bits */
#define SORT_TRANSFORM_OUT 2u            /* keys go back to the caller: map them back */
#define SORT_VARYING 4u                  /* also OR together the bits in which keys differ */

/* Order-preserving map of the key's bits to an unsigned integer. Floats: negatives below -0.0 below
 * +0.0 below positives, then NaNs by their bits (positive ones, then negative ones), so NaNs sort last
 * and the map stays a bijection that the output can undo. */
key_t key_to_ordered(key_t b)
{
#if defined(SORT_KEY_SIGNED)
    return b ^ KEY_SIGN;
#elif defined(SORT_KEY_FLOAT)
    if (b > (KEY_SIGN | FLOAT_INF))
        return b;                        /* negative NaN: already above every other image */
    return (b & KEY_SIGN) ? ~b - FLOAT_MANT : b + FLOAT_INF + 1;
#else
    return b;
#endif
}

key_t key_from_ordered(key_t u)
{
#if defined(SORT_KEY_SIGNED)
    return u ^ KEY_SIGN;
#elif defined(SORT_KEY_FLOAT)
    if (u > (KEY_SIGN | FLOAT_INF))
        return u;
    return u > FLOAT_INF ? u - FLOAT_INF - 1 : ~(u + FLOAT_MANT);
#else
    return u;
#endif
}

key_t load_key(__global const key_t *keys, ulong i, uint flags)
{
    key_t k = keys[i];
    return (flags & SORT_TRANSFORM_IN) ? key_to_ordered(k) : k;
}

key_t out_key(key_t k, uint flags)
{
    return (flags & SORT_TRANSFORM_OUT) ? key_from_ordered(k) : k;
}

uint digit_of(key_t k, uint shift)
{
    return (uint)(k >> shift) & (RADIX - 1);
}

/* hist[d * num_tiles + t]: keys of tile t whose digit at shift is d. With SORT_VARYING (the first
 * pass, the keys as the caller gave them) the kernel also ORs into varying[] the bits in which some key
 * differs from key 0: the host reads them back and enqueues only the passes whose digit varies. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sort_hist(__global const key_t *keys, __global hist_t *hist, __global uint *varying, ulong n,
               ulong num_tiles, uint shift, uint flags)
{
    __local uint counts[RADIX];
    __local uint differ[2];
    const uint lid = get_local_id(0);
    const key_t first = load_key(keys, 0, flags);
    key_t diff = 0;
    if (lid == 0)
        differ[0] = differ[1] = 0;
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        for (uint d = lid; d < RADIX; d += WG_SIZE)
            counts[d] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = 0; i < ITEMS; i++) {
            ulong j = t * TILE + i * WG_SIZE + lid;
            if (j < n) {
                key_t k = load_key(keys, j, flags);
                diff |= k ^ first;
#if WG_SIZE == 1
                counts[digit_of(k, shift)]++;
#else
                atomic_inc(&counts[digit_of(k, shift)]);
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint d = lid; d < RADIX; d += WG_SIZE)
            hist[(ulong)d * num_tiles + t] = counts[d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!(flags & SORT_VARYING))       /* the same for every group: no barrier is left waiting */
        return;
    if ((uint)diff)
        atomic_or(&differ[0], (uint)diff);
#if KEY_BITS == 64
    if ((uint)(diff >> 32))
        atomic_or(&differ[1], (uint)(diff >> 32));
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    /* One work-item, no lane-indexed access to the two words (PoCL's vectoriser once read past them). */
    if (lid == 0 && differ[0] != 0)
        atomic_or(&varying[0], differ[0]);
    if (lid == 0 && differ[1] != 0)
        atomic_or(&varying[1], differ[1]);
}

/* Stable rank of the work-item's ITEMS keys (held in k[], with their tile positions in from[]) by
 * the 2-bit field at shift, over the whole tile: every key is written to its ranked place in tile[].
 * Four bucket counts travel packed in one ulong (16 bits each: TILE < 65536), so one group scan
 * ranks all four buckets at once. Ends with a barrier: tile[] holds the ranked tile. */
void rank_2bits(key_t k[ITEMS], ushort from[ITEMS], uint shift, __local key_t *tile, __local ushort *order,
                __local CLSCAN_T *scratch)
{
    CLSCAN_T packed = 0, total;
    for (uint i = 0; i < ITEMS; i++)
        packed += (CLSCAN_T)1 << (16 * ((uint)(k[i] >> shift) & 3));
    CLSCAN_T pos = wg_exclusive_scan(packed, scratch, &total);   /* ends with a barrier */
    /* Field b of pos becomes where this work-item's keys of bucket b go: after every key of the
     * lower buckets (the shifted totals, summed without carries) and the earlier work-items' ones. */
    pos += (total << 16) + (total << 32) + (total << 48);
    for (uint i = 0; i < ITEMS; i++) {
        uint b = (uint)(k[i] >> shift) & 3, at = (uint)(pos >> (16 * b)) & 0xffff;
        pos += (CLSCAN_T)1 << (16 * b);
        tile[PAD(at)] = k[i];
#if defined(SORT_VALUES)
        order[PAD(at)] = from[i];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The work-item's own run of the tile, back from local memory. */
void own_run(__local const key_t *tile, __local const ushort *order, key_t k[ITEMS], ushort from[ITEMS])
{
    for (uint i = 0; i < ITEMS; i++) {
        uint at = get_local_id(0) * ITEMS + i;
        k[i] = tile[PAD(at)];
#if defined(SORT_VALUES)
        from[i] = order[PAD(at)];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* In a tile sorted by digit (positions past len hold RADIX), start[d] is where digit d begins;
 * start[RADIX] = len. Each boundary is found by the work-item that owns the position after it. */
void digit_starts(__local const key_t *tile, uint len, uint shift, __local uint *start)
{
    const uint lid = get_local_id(0);
    for (uint i = 0; i <= ITEMS; i++) {
        uint j = lid * ITEMS + i;
        if (i == ITEMS && j != TILE)
            break;                       /* only the last work-item looks at the end of the tile */
        uint d = j < len ? digit_of(tile[PAD(j)], shift) : RADIX;
        int prev = j == 0 ? -1 : j - 1 < len ? (int)digit_of(tile[PAD(j - 1)], shift) : (int)RADIX;
        for (int e = prev + 1; e <= (int)d; e++)
            start[e] = min(j, len);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* One LSD pass: keys (and values) of every tile go to offsets[d * num_tiles + t] (the exclusive scan
 * of sort_hist's counts) plus their rank among the tile's keys of digit d, from keys to keys_out (the
 * host picks the buffers and the transform flags of each pass). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sort_scatter(__global const key_t *keys, __global key_t *keys_out,
#if defined(SORT_VALUES)
                  __global const value_t *values, __global value_t *values_out,
#endif
                  __global const hist_t *offsets, ulong n, ulong num_tiles, uint shift, uint flags)
{
    __local key_t tile[SORT_TILE_LOCAL];
#if defined(SORT_VALUES)
    __local ushort order[SORT_TILE_LOCAL];
#else
    __local ushort *order = 0;
#endif
    __local hist_t base_of[RADIX];
    __local uint start[RADIX + 1];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL];
    const uint lid = get_local_id(0);
#if WG_SIZE == 1
    /* CPUs: one work-item a tile puts its keys in place in order, a cursor a digit: stable without
     * any ranking. */
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        const ulong base = t * TILE;
        const uint len = n - base < TILE ? (uint)(n - base) : TILE;
        for (uint d = 0; d < RADIX; d++)
            base_of[d] = offsets[(ulong)d * num_tiles + t];
        for (uint j = 0; j < len; j++) {
            key_t key = load_key(keys, base + j, flags);
            hist_t to = base_of[digit_of(key, shift)]++;
            keys_out[to] = out_key(key, flags);
#if defined(SORT_VALUES)
            values_out[to] = values[base + j];
#endif
        }
    }
    return;
#endif
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        const ulong base = t * TILE;
        const uint len = n - base < TILE ? (uint)(n - base) : TILE;
        /* In coalesced; padding keys are all ones, so every round ranks them last. */
        for (uint i = 0; i < ITEMS; i++) {
            uint j = i * WG_SIZE + lid;
            tile[PAD(j)] = j < len ? load_key(keys, base + j, flags) : (key_t)~(key_t)0;
#if defined(SORT_VALUES)
            order[PAD(j)] = (ushort)j;
#endif
        }
        for (uint d = lid; d < RADIX; d += WG_SIZE)
            base_of[d] = offsets[(ulong)d * num_tiles + t];
        barrier(CLK_LOCAL_MEM_FENCE);
        key_t k[ITEMS];
        ushort from[ITEMS];
        own_run(tile, order, k, from);
        for (uint bit = 0; bit < RADIX_BITS; bit += 2) {
            rank_2bits(k, from, shift + bit, tile, order, scratch);
            if (bit + 2 < RADIX_BITS)
                own_run(tile, order, k, from);
        }
        digit_starts(tile, len, shift, start);
        /* Out coalesced: neighbours in the sorted tile mostly share a digit, so their places are
         * neighbours too. */
        for (uint i = 0; i < ITEMS; i++) {
            uint j = i * WG_SIZE + lid;
            if (j < len) {
                key_t key = tile[PAD(j)];
                uint d = digit_of(key, shift);
                ulong to = base_of[d] + (j - start[d]);
                keys_out[to] = out_key(key, flags);
#if defined(SORT_VALUES)
                values_out[to] = values[base + order[PAD(j)]];
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* tile and tables are free for the next tile */
    }
}

/* When a single pass ran (A to B), the copy home: the last command, and the only one to write A. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sort_home(__global key_t *keys_a, __global const key_t *keys_b,
#if defined(SORT_VALUES)
               __global value_t *values_a, __global const value_t *values_b,
#endif
               ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        keys_a[i] = keys_b[i];
#if defined(SORT_VALUES)
        values_a[i] = values_b[i];
#endif
    }
}

/* ---- the 1-bit reference path: flags, an exclusive scan of the flags, scatter ---------------- */
/* falses[i] = 1 where bit `bit` of key i is 0. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void split_flags(__global const key_t *keys, __global hist_t *falses, ulong n, uint bit, uint flags)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        falses[i] = !((load_key(keys, i, flags) >> bit) & 1);
}

/* scanned: the exclusive scan of the falses. Keys with the bit clear keep their order at the front,
 * the others keep theirs behind all of them. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void split_scatter(__global const key_t *keys, __global key_t *keys_out,
#if defined(SORT_VALUES)
                   __global const value_t *values, __global value_t *values_out,
#endif
                   __global const hist_t *scanned, ulong n, uint bit, uint flags)
{
    const ulong falses = scanned[n - 1] + !((load_key(keys, n - 1, flags) >> bit) & 1);
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        key_t key = load_key(keys, i, flags);
        ulong to = (key >> bit) & 1 ? falses + i - scanned[i] : scanned[i];
        keys_out[to] = out_key(key, flags);
#if defined(SORT_VALUES)
        values_out[to] = values[i];
#endif
    }
}
