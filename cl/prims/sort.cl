/* Radix sort (a program of its own: CLSCAN_T is ulong with ADD, for packed counters). Keys are
 * sorted as unsigned integers after an order-preserving bit transform; values ride along.
 * Multi-bit LSD (the default), per pass of CLSCAN_RADIX_BITS: clscan_sort_hist counts each tile's digits, the host
 * scans the digit-major counts, and clscan_sort_scatter ranks the tile's keys by digit in local memory
 * (stable, 2 bits a round) and writes each to its global place. Each kernel takes its source and
 * destination from the host, which routes the keys A -> B -> C -> B ... -> A (src/prims/sort.c). The textbook
 * 1-bit split (clscan_split_flags, an exclusive scan of the flags, clscan_split_scatter) is the reference path. */
#if defined(CLSCAN_SORT_KEY_BYTES) && CLSCAN_SORT_KEY_BYTES == 1
typedef uchar clscan_key_t;
#define CLSCAN_KEY_BITS 8
#define CLSCAN_KEY_SIGN 0x80u
#elif defined(CLSCAN_SORT_KEY_BYTES) && CLSCAN_SORT_KEY_BYTES == 2
typedef ushort clscan_key_t;
#define CLSCAN_KEY_BITS 16
#define CLSCAN_KEY_SIGN 0x8000u
#elif !defined(CLSCAN_SORT_KEY_BYTES) || CLSCAN_SORT_KEY_BYTES == 4
typedef uint clscan_key_t;
#define CLSCAN_KEY_BITS 32
#define CLSCAN_KEY_SIGN 0x80000000u
#define CLSCAN_FLOAT_INF 0x7f800000u            /* +inf; larger positives are NaNs */
#define CLSCAN_FLOAT_MANT 0x007fffffu
#else
typedef ulong clscan_key_t;
#define CLSCAN_KEY_BITS 64
#define CLSCAN_KEY_SIGN 0x8000000000000000ul
#define CLSCAN_FLOAT_INF 0x7ff0000000000000ul
#define CLSCAN_FLOAT_MANT 0x000ffffffffffffful
#endif
#if defined(CLSCAN_SORT_VALUE_BYTES) && CLSCAN_SORT_VALUE_BYTES == 1
typedef uchar clscan_value_t;
#define CLSCAN_SORT_VALUES
#elif defined(CLSCAN_SORT_VALUE_BYTES) && CLSCAN_SORT_VALUE_BYTES == 2
typedef ushort clscan_value_t;
#define CLSCAN_SORT_VALUES
#elif defined(CLSCAN_SORT_VALUE_BYTES) && CLSCAN_SORT_VALUE_BYTES == 4
typedef uint clscan_value_t;
#define CLSCAN_SORT_VALUES
#elif defined(CLSCAN_SORT_VALUE_BYTES) && CLSCAN_SORT_VALUE_BYTES == 8
typedef ulong clscan_value_t;
#define CLSCAN_SORT_VALUES
#elif defined(CLSCAN_SORT_VALUE_BYTES) && CLSCAN_SORT_VALUE_BYTES > 0   /* registered types */
typedef CLSCAN_MOVED_STRUCT(CLSCAN_SORT_VALUE_BYTES) clscan_value_t;
#define CLSCAN_SORT_VALUES
#endif
#if defined(CLSCAN_SORT_HIST64)
typedef ulong clscan_hist_t;                    /* counts and offsets past 2^32 keys */
#else
typedef uint clscan_hist_t;
#endif
#ifndef CLSCAN_RADIX_BITS
#define CLSCAN_RADIX_BITS 8                     /* even: ranking takes 2 bits a round */
#endif
#define CLSCAN_RADIX (1u << CLSCAN_RADIX_BITS)
#define CLSCAN_SORT_TILE_LOCAL CLSCAN_LOCAL_SORT_TILE(CLSCAN_WG_SIZE, CLSCAN_ITEMS)

#define CLSCAN_SORT_TRANSFORM_IN 1u             /* keys come from the caller: map them to ordered bits */
#define CLSCAN_SORT_TRANSFORM_OUT 2u            /* keys go back to the caller: map them back */
#define CLSCAN_SORT_VARYING 4u                  /* also OR together the bits in which keys differ */

/* Order-preserving map of the key's bits to an unsigned integer. Floats: negatives below -0.0 below
 * +0.0 below positives, then NaNs by their bits (positive ones, then negative ones), so NaNs sort last
 * and the map stays a bijection that the output can undo; under a range of bits (CLSCAN_SORT_FLIP) the
 * usual flip instead, whose bits the range names (negatives complemented, the sign set on the others:
 * negative NaNs go first there). */
clscan_key_t clscan_key_image(clscan_key_t b)
{
#if defined(CLSCAN_SORT_KEY_SIGNED)
    return b ^ CLSCAN_KEY_SIGN;
#elif defined(CLSCAN_SORT_KEY_FLOAT) && defined(CLSCAN_SORT_FLIP)
    return (b & CLSCAN_KEY_SIGN) ? ~b : b ^ CLSCAN_KEY_SIGN;
#elif defined(CLSCAN_SORT_KEY_FLOAT)
    if (b > (CLSCAN_KEY_SIGN | CLSCAN_FLOAT_INF))
        return b;                        /* negative NaN: already above every other image */
    return (b & CLSCAN_KEY_SIGN) ? ~b - CLSCAN_FLOAT_MANT : b + CLSCAN_FLOAT_INF + 1;
#else
    return b;
#endif
}

clscan_key_t clscan_key_unimage(clscan_key_t u)
{
#if defined(CLSCAN_SORT_KEY_SIGNED)
    return u ^ CLSCAN_KEY_SIGN;
#elif defined(CLSCAN_SORT_KEY_FLOAT) && defined(CLSCAN_SORT_FLIP)
    return (u & CLSCAN_KEY_SIGN) ? u ^ CLSCAN_KEY_SIGN : ~u;
#elif defined(CLSCAN_SORT_KEY_FLOAT)
    if (u > (CLSCAN_KEY_SIGN | CLSCAN_FLOAT_INF))
        return u;
    return u > CLSCAN_FLOAT_INF ? u - CLSCAN_FLOAT_INF - 1 : ~(u + CLSCAN_FLOAT_MANT);
#else
    return u;
#endif
}

/* What the passes sort by: the image, or (CLSCAN_SORT_DESCENDING) its complement, whose ascending order
 * is the image's descending one; equal keys stay equal, so the passes keep them stable either way. */
clscan_key_t clscan_key_to_ordered(clscan_key_t b)
{
#if defined(CLSCAN_SORT_DESCENDING)
    return ~clscan_key_image(b);
#else
    return clscan_key_image(b);
#endif
}

clscan_key_t clscan_key_from_ordered(clscan_key_t u)
{
#if defined(CLSCAN_SORT_DESCENDING)
    return clscan_key_unimage(~u);
#else
    return clscan_key_unimage(u);
#endif
}

clscan_key_t clscan_load_key(__global const clscan_key_t *keys, ulong i, uint flags)
{
    clscan_key_t k = keys[i];
    return (flags & CLSCAN_SORT_TRANSFORM_IN) ? clscan_key_to_ordered(k) : k;
}

clscan_key_t clscan_out_key(clscan_key_t k, uint flags)
{
    return (flags & CLSCAN_SORT_TRANSFORM_OUT) ? clscan_key_from_ordered(k) : k;
}

uint clscan_digit_of(clscan_key_t k, uint shift)
{
    return (uint)(k >> shift) & (CLSCAN_RADIX - 1);
}

/* hist[d * num_tiles + t]: keys of tile t whose digit at shift is d. With CLSCAN_SORT_VARYING (the first
 * pass, the keys as the caller gave them) the kernel also ORs into varying[] the bits in which some key
 * differs from key 0: the host reads them back and enqueues only the passes whose digit varies. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sort_hist(__global const clscan_key_t *keys, __global clscan_hist_t *hist, __global uint *varying,
                      ulong n, ulong num_tiles, uint shift, uint flags)
{
    __local uint clscan_counts[CLSCAN_RADIX];
    __local uint clscan_differ[2];
    const uint lid = get_local_id(0);
    const clscan_key_t first = clscan_load_key(keys, 0, flags);
    clscan_key_t diff = 0;
    if (lid == 0)
        clscan_differ[0] = clscan_differ[1] = 0;
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        for (uint d = lid; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE)
            clscan_counts[d] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint i = 0; i < CLSCAN_ITEMS; i++) {
            ulong j = t * CLSCAN_TILE + i * CLSCAN_WG_SIZE + lid;
            if (j < n) {
                clscan_key_t k = clscan_load_key(keys, j, flags);
                diff |= k ^ first;
#if CLSCAN_WG_SIZE == 1
                clscan_counts[clscan_digit_of(k, shift)]++;
#else
                atomic_inc(&clscan_counts[clscan_digit_of(k, shift)]);
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint d = lid; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE)
            hist[(ulong)d * num_tiles + t] = clscan_counts[d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (!(flags & CLSCAN_SORT_VARYING))       /* the same for every group: no barrier is left waiting */
        return;
    if ((uint)diff)
        atomic_or(&clscan_differ[0], (uint)diff);
#if CLSCAN_KEY_BITS == 64
    if ((uint)(diff >> 32))
        atomic_or(&clscan_differ[1], (uint)(diff >> 32));
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    /* One work-item, no lane-indexed access to the two words (PoCL's vectoriser once read past them). */
    if (lid == 0 && clscan_differ[0] != 0)
        atomic_or(&varying[0], clscan_differ[0]);
    if (lid == 0 && clscan_differ[1] != 0)
        atomic_or(&varying[1], clscan_differ[1]);
}

/* Stable rank of the work-item's CLSCAN_ITEMS keys (held in k[], with their tile positions in from[]) by
 * the 2-bit field at shift, over the whole tile: every key is written to its ranked place in tile[].
 * Four bucket counts travel packed in one ulong (16 bits each: CLSCAN_TILE < 65536), so one group scan
 * ranks all four buckets at once. Ends with a barrier: tile[] holds the ranked tile. */
void clscan_rank_2bits(clscan_key_t k[CLSCAN_ITEMS], ushort from[CLSCAN_ITEMS], uint shift,
                       __local clscan_key_t *tile, __local ushort *order, __local CLSCAN_T *scratch)
{
    CLSCAN_T packed = 0, total;
    for (uint i = 0; i < CLSCAN_ITEMS; i++)
        packed += (CLSCAN_T)1 << (16 * ((uint)(k[i] >> shift) & 3));
    CLSCAN_T pos = clscan_wg_exclusive_scan(packed, scratch, &total);   /* ends with a barrier */
    /* Field b of pos becomes where this work-item's keys of bucket b go: after every key of the
     * lower buckets (the shifted totals, summed without carries) and the earlier work-items' ones. */
    pos += (total << 16) + (total << 32) + (total << 48);
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        uint b = (uint)(k[i] >> shift) & 3, at = (uint)(pos >> (16 * b)) & 0xffff;
        pos += (CLSCAN_T)1 << (16 * b);
        tile[CLSCAN_PAD(at)] = k[i];
#if defined(CLSCAN_SORT_VALUES)
        order[CLSCAN_PAD(at)] = from[i];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The work-item's own run of the tile, back from local memory. */
void clscan_own_run(__local const clscan_key_t *tile, __local const ushort *order, clscan_key_t k[CLSCAN_ITEMS],
                    ushort from[CLSCAN_ITEMS])
{
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        uint at = get_local_id(0) * CLSCAN_ITEMS + i;
        k[i] = tile[CLSCAN_PAD(at)];
#if defined(CLSCAN_SORT_VALUES)
        from[i] = order[CLSCAN_PAD(at)];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* In a tile sorted by digit (positions past len hold CLSCAN_RADIX), start[d] is where digit d begins;
 * start[CLSCAN_RADIX] = len. Each boundary is found by the work-item that owns the position after it. */
void clscan_digit_starts(__local const clscan_key_t *tile, uint len, uint shift, __local uint *start)
{
    const uint lid = get_local_id(0);
    for (uint i = 0; i <= CLSCAN_ITEMS; i++) {
        uint j = lid * CLSCAN_ITEMS + i;
        if (i == CLSCAN_ITEMS && j != CLSCAN_TILE)
            break;                       /* only the last work-item looks at the end of the tile */
        uint d = j < len ? clscan_digit_of(tile[CLSCAN_PAD(j)], shift) : CLSCAN_RADIX;
        int prev = j == 0 ? -1
                 : j - 1 < len ? (int)clscan_digit_of(tile[CLSCAN_PAD(j - 1)], shift) : (int)CLSCAN_RADIX;
        for (int e = prev + 1; e <= (int)d; e++)
            start[e] = min(j, len);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* One LSD pass: keys (and values) of every tile go to offsets[d * num_tiles + t] (the exclusive scan
 * of clscan_sort_hist's counts) plus their rank among the tile's keys of digit d, from keys to keys_out (the
 * host picks the buffers and the transform flags of each pass). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sort_scatter(__global const clscan_key_t *keys, __global clscan_key_t *keys_out,
#if defined(CLSCAN_SORT_VALUES)
                         __global const clscan_value_t *values, __global clscan_value_t *values_out,
#endif
                         __global const clscan_hist_t *offsets, ulong n, ulong num_tiles, uint shift, uint flags)
{
    __local clscan_key_t clscan_tile[CLSCAN_SORT_TILE_LOCAL];
#if defined(CLSCAN_SORT_VALUES)
    __local ushort clscan_order[CLSCAN_SORT_TILE_LOCAL];
#else
    __local ushort *clscan_order = 0;
#endif
    __local clscan_hist_t clscan_base_of[CLSCAN_RADIX];
    __local uint clscan_start[CLSCAN_RADIX + 1];
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL];
    const uint lid = get_local_id(0);
#if CLSCAN_WG_SIZE == 1
    /* CPUs: one work-item a tile puts its keys in place in order, a cursor a digit: stable without
     * any ranking. */
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        const ulong base = t * CLSCAN_TILE;
        const uint len = n - base < CLSCAN_TILE ? (uint)(n - base) : CLSCAN_TILE;
        for (uint d = 0; d < CLSCAN_RADIX; d++)
            clscan_base_of[d] = offsets[(ulong)d * num_tiles + t];
        for (uint j = 0; j < len; j++) {
            clscan_key_t key = clscan_load_key(keys, base + j, flags);
            clscan_hist_t to = clscan_base_of[clscan_digit_of(key, shift)]++;
            keys_out[to] = clscan_out_key(key, flags);
#if defined(CLSCAN_SORT_VALUES)
            values_out[to] = values[base + j];
#endif
        }
    }
    return;
#endif
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        const ulong base = t * CLSCAN_TILE;
        const uint len = n - base < CLSCAN_TILE ? (uint)(n - base) : CLSCAN_TILE;
        /* In coalesced; padding keys are all ones, so every round ranks them last. */
        for (uint i = 0; i < CLSCAN_ITEMS; i++) {
            uint j = i * CLSCAN_WG_SIZE + lid;
            clscan_tile[CLSCAN_PAD(j)] =
                j < len ? clscan_load_key(keys, base + j, flags) : (clscan_key_t)~(clscan_key_t)0;
#if defined(CLSCAN_SORT_VALUES)
            clscan_order[CLSCAN_PAD(j)] = (ushort)j;
#endif
        }
        for (uint d = lid; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE)
            clscan_base_of[d] = offsets[(ulong)d * num_tiles + t];
        barrier(CLK_LOCAL_MEM_FENCE);
        clscan_key_t k[CLSCAN_ITEMS];
        ushort from[CLSCAN_ITEMS];
        clscan_own_run(clscan_tile, clscan_order, k, from);
        for (uint bit = 0; bit < CLSCAN_RADIX_BITS; bit += 2) {
            clscan_rank_2bits(k, from, shift + bit, clscan_tile, clscan_order, clscan_scratch);
            if (bit + 2 < CLSCAN_RADIX_BITS)
                clscan_own_run(clscan_tile, clscan_order, k, from);
        }
        clscan_digit_starts(clscan_tile, len, shift, clscan_start);
        /* Out coalesced: neighbours in the sorted tile mostly share a digit, so their places are
         * neighbours too. */
        for (uint i = 0; i < CLSCAN_ITEMS; i++) {
            uint j = i * CLSCAN_WG_SIZE + lid;
            if (j < len) {
                clscan_key_t key = clscan_tile[CLSCAN_PAD(j)];
                uint d = clscan_digit_of(key, shift);
                ulong to = clscan_base_of[d] + (j - clscan_start[d]);
                keys_out[to] = clscan_out_key(key, flags);
#if defined(CLSCAN_SORT_VALUES)
                values_out[to] = values[base + clscan_order[CLSCAN_PAD(j)]];
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* tile and tables are free for the next tile */
    }
}

/* When a single pass ran (A to B), the copy home: the last command, and the only one to write A. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sort_home(__global clscan_key_t *keys_a, __global const clscan_key_t *keys_b,
#if defined(CLSCAN_SORT_VALUES)
                      __global clscan_value_t *values_a, __global const clscan_value_t *values_b,
#endif
                      ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        keys_a[i] = keys_b[i];
#if defined(CLSCAN_SORT_VALUES)
        values_a[i] = values_b[i];
#endif
    }
}

/* ---- the 1-bit reference path: flags, an exclusive scan of the flags, scatter ---------------- */
/* falses[i] = 1 where bit `bit` of key i is 0. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_split_flags(__global const clscan_key_t *keys, __global clscan_hist_t *falses, ulong n, uint bit,
                        uint flags)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
        falses[i] = !((clscan_load_key(keys, i, flags) >> bit) & 1);
}

/* scanned: the exclusive scan of the falses. Keys with the bit clear keep their order at the front,
 * the others keep theirs behind all of them. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_split_scatter(__global const clscan_key_t *keys, __global clscan_key_t *keys_out,
#if defined(CLSCAN_SORT_VALUES)
                          __global const clscan_value_t *values, __global clscan_value_t *values_out,
#endif
                          __global const clscan_hist_t *scanned, ulong n, uint bit, uint flags)
{
    const ulong falses = scanned[n - 1] + !((clscan_load_key(keys, n - 1, flags) >> bit) & 1);
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        clscan_key_t key = clscan_load_key(keys, i, flags);
        ulong to = (key >> bit) & 1 ? falses + i - scanned[i] : scanned[i];
        keys_out[to] = clscan_out_key(key, flags);
#if defined(CLSCAN_SORT_VALUES)
        values_out[to] = values[i];
#endif
    }
}

/* What clscan_sort_indices sorts: index[i] = i (n <= 2^32) as the values, and (copy not NULL) a copy of
 * the caller's keys, which the sort then reorders in place of theirs. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sort_index_init(__global const clscan_key_t *keys, __global clscan_key_t *copy, __global uint *index,
                            ulong n)
{
    for (ulong i = get_global_id(0); i < n; i += get_global_size(0)) {
        if (copy)
            copy[i] = keys[i];
        index[i] = (uint)i;
    }
}
