/* Radix sort (a program of its own: CLSCAN_T is ulong with ADD, for packed counters). Keys are
 * sorted as unsigned integers after an order-preserving bit transform; values ride along.
 * Multi-bit LSD (the default), per pass of CLSCAN_RADIX_BITS: clscan_sort_hist counts each tile's digits, the host
 * scans the digit-major counts, and clscan_sort_scatter ranks the tile's keys by digit in local memory
 * (stable: prims/sort_rank.clh) and writes each to its global place. Each kernel takes its source and
 * destination from the host, which routes the keys A -> B -> C -> B ... -> A (src/prims/sort.c). The textbook
 * 1-bit split (clscan_split_flags, an exclusive scan of the flags, clscan_split_scatter) is the reference path. */
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

/* A ranked tile (tile[] in digit order) to its places: key j of digit d goes to base_of[d] + j (where
 * the digit's keys go, less where they begin in the tile: one local read a key), and its value after
 * it: from the key's origin in the tile, moved[j], or (CLSCAN_SORT_EXCHANGE) once every key is out,
 * the values placed in moved[] (the keys' own room: 5 bytes a key of uint32 pairs instead of 8, and on
 * the H200 the pairs kernel no longer spills), each position's digit kept in digit_at[] meanwhile. Out
 * coalesced: neighbours in the sorted tile mostly share a digit, so their places are neighbours too. */
void clscan_sort_write_tile(__local const clscan_key_t *tile, __local clscan_moved_t *moved,
                            __local uchar *digit_at, const clscan_ranked *r, __local const clscan_hist_t *base_of,
                            __global clscan_key_t *keys_out,
#if defined(CLSCAN_SORT_VALUES)
                            __global const clscan_value_t *values, __global clscan_value_t *values_out,
#endif
                            ulong base, uint len, uint shift, uint flags)
{
    const uint lid = get_local_id(0);
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        uint j = i * CLSCAN_WG_SIZE + lid;
        if (j < len) {
            clscan_key_t key = tile[CLSCAN_SORT_AT(j)];
            uint d = clscan_digit_of(key, shift);
            const clscan_hist_t to = base_of[d] + j;
            keys_out[to] = clscan_out_key(key, flags);
#if defined(CLSCAN_SORT_EXCHANGE)
            digit_at[j] = (uchar)d;
#elif defined(CLSCAN_SORT_VALUES)
            values_out[to] = values[base + moved[CLSCAN_SORT_AT(j)]];
#endif
        }
    }
#if defined(CLSCAN_SORT_EXCHANGE)
    barrier(CLK_LOCAL_MEM_FENCE);   /* every key read before values take its room */
    clscan_rank_place_values(r, len, moved);
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        uint j = i * CLSCAN_WG_SIZE + lid;
        if (j < len) {
            uint d = digit_at[j];
            values_out[(clscan_hist_t)(base_of[d] + j)] = moved[CLSCAN_SORT_AT(j)];
        }
    }
#else
    (void)digit_at, (void)r;
#endif
}

/* The local memory of a kernel that ranks tiles and writes them (clscan_sort_scatter, and
 * clscan_sort_onesweep in prims/sort_sweep.cl): the tile and the group scan's scratch; beside them the
 * keys' origins (order), or (values moved beside their keys) no origins but each position's digit, the
 * values taking the keys' room; each digit's base and start and the sub-groups' counters; and
 * ranked_values, what the ranking reads beside the keys (the kernel's `values`). The ballots index the
 * tile unpadded (CLSCAN_SORT_AT) and scan only in the warp offsets, before any key is placed in the
 * tile, so there the scratch takes the tile's room (the host reserves the largest scratch a compiler may
 * build: 6 KiB in groups of 256, which beside a padded tile kept 8-byte keys from 16 a work-item in 48
 * KiB); the 2-bit splits scan while the tile is full, so theirs is padded with the scratch beside it. */
#if defined(CLSCAN_SORT_BALLOT)
#define CLSCAN_SORT_KEYS_LOCAL (CLSCAN_WG_SIZE * CLSCAN_ITEMS)
#if defined(CLSCAN_SORT_EXCHANGE)
#define CLSCAN_SORT_ROOM                                                                                \
    (sizeof(clscan_key_t) > sizeof(clscan_value_t) ? sizeof(clscan_key_t) : sizeof(clscan_value_t))
#else
#define CLSCAN_SORT_ROOM sizeof(clscan_key_t)
#endif
#define CLSCAN_SORT_ROOM_BYTES                                                                          \
    (CLSCAN_SORT_KEYS_LOCAL * CLSCAN_SORT_ROOM > CLSCAN_WG_SCAN_LOCAL * sizeof(CLSCAN_T)                 \
         ? CLSCAN_SORT_KEYS_LOCAL * CLSCAN_SORT_ROOM : CLSCAN_WG_SCAN_LOCAL * sizeof(CLSCAN_T))
#define CLSCAN_SORT_TILE_ROOM                                                                           \
    __local ulong clscan_room[(CLSCAN_SORT_ROOM_BYTES + 7) / 8];                                        \
    __local clscan_key_t *clscan_tile = (__local clscan_key_t *)clscan_room;                            \
    __local CLSCAN_T *clscan_scratch = (__local CLSCAN_T *)clscan_room;
#else
#define CLSCAN_SORT_KEYS_LOCAL CLSCAN_SORT_TILE_LOCAL
#define CLSCAN_SORT_TILE_ROOM                                                                           \
    __local clscan_key_t clscan_tile[CLSCAN_SORT_TILE_LOCAL];                                           \
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL];
#endif
#if defined(CLSCAN_SORT_EXCHANGE)
#define CLSCAN_SORT_MOVED                                                                               \
    __local clscan_moved_t *clscan_order = (__local clscan_moved_t *)clscan_tile;                       \
    __local uchar clscan_digit_at[CLSCAN_SORT_KEYS_LOCAL];
#elif defined(CLSCAN_SORT_VALUES)
#define CLSCAN_SORT_MOVED                                                                               \
    __local clscan_moved_t clscan_order[CLSCAN_SORT_KEYS_LOCAL];                                        \
    __local uchar *clscan_digit_at = 0;
#else
#define CLSCAN_SORT_MOVED                                                                               \
    __local clscan_moved_t *clscan_order = 0;                                                           \
    __local uchar *clscan_digit_at = 0;
#endif
#if defined(CLSCAN_SORT_VALUES)
#define CLSCAN_SORT_RANKED_VALUES values
#else
#define CLSCAN_SORT_RANKED_VALUES 0
#endif
#define CLSCAN_SORT_TILE_STATE                                                                          \
    CLSCAN_SORT_TILE_ROOM                                                                               \
    CLSCAN_SORT_MOVED                                                                                   \
    __global const void *ranked_values = CLSCAN_SORT_RANKED_VALUES;                                     \
    __local clscan_hist_t clscan_base_of[CLSCAN_RADIX];                                                 \
    __local uint clscan_start[CLSCAN_RADIX + 1];                                                        \
    __local uint clscan_counts[CLSCAN_SORT_COUNTS_LOCAL];

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
    CLSCAN_SORT_TILE_STATE
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
        for (uint d = lid; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE)
            clscan_base_of[d] = offsets[(ulong)d * num_tiles + t];
        clscan_ranked r;
        clscan_rank_tile(keys, ranked_values, base, len, shift, flags, clscan_tile, clscan_order, clscan_start,
                         clscan_scratch, clscan_counts, &r);
        for (uint d = lid; d < CLSCAN_RADIX; d += CLSCAN_WG_SIZE)   /* as clscan_sort_write_tile takes it */
            clscan_base_of[d] -= clscan_start[d];
        barrier(CLK_LOCAL_MEM_FENCE);
        clscan_sort_write_tile(clscan_tile, clscan_order, clscan_digit_at, &r, clscan_base_of, keys_out,
#if defined(CLSCAN_SORT_VALUES)
                               values, values_out,
#endif
                               base, len, shift, flags);
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
