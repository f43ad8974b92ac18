/* Stream compaction and stable partition (a program of its own: CLSCAN_T is the uint count type with ADD, the elements
 * are moved as CLSCAN_PAYLOAD_BYTES-wide bit patterns of any width, never computed with). A work-item owns CLSCAN_ITEMS
 * consecutive elements, so a group scan of the work-items' counts gives every kept element its rank
 * in its tile; a tile's kept elements then go out, in order, from the end of the tiles before it.
 * clscan_compact_single_pass (fewer than 2^32 elements) learns that place by decoupled look-back over the
 * tiles' counts (lookback.clh): flags and elements are read once, the kept ones written once.
 * Otherwise three launches: clscan_count_tiles counts each tile's set flags, the host scans those counts
 * (inclusive, 64-bit), and clscan_compact_tiles writes each tile's kept elements. A partition
 * (clscan_partition) always takes those three: the kept count is known before the first element moves,
 * and every other element goes to out[kept + the others before it]. */
#if defined(CLSCAN_PAYLOAD_BYTES) && CLSCAN_PAYLOAD_BYTES == 1
typedef uchar clscan_payload_t;
#elif defined(CLSCAN_PAYLOAD_BYTES) && CLSCAN_PAYLOAD_BYTES == 2
typedef ushort clscan_payload_t;
#elif !defined(CLSCAN_PAYLOAD_BYTES) || CLSCAN_PAYLOAD_BYTES == 4
typedef uint clscan_payload_t;
#elif CLSCAN_PAYLOAD_BYTES == 8
typedef ulong clscan_payload_t;
#else
typedef CLSCAN_MOVED_STRUCT(CLSCAN_PAYLOAD_BYTES) clscan_payload_t;
#define CLSCAN_PAYLOAD_NONE ((clscan_payload_t){{0}})
#endif
#if !defined(CLSCAN_PAYLOAD_NONE)
#define CLSCAN_PAYLOAD_NONE 0   /* what a work-item holds past n (never written) */
#endif

/* Set flags among the work-item's own CLSCAN_ITEMS consecutive elements from first. */
uint clscan_run_flag_count(__global const uchar *flags, ulong first, ulong n)
{
    uint count = 0;
    for (uint i = 0; i < CLSCAN_ITEMS; i++)
        count += first + i < n && flags[first + i] != 0;
    return count;
}

#if !defined(CLSCAN_ITEMS_STREAM)
#define CLSCAN_FLAG_WORDS CLSCAN_FLAG_WORDS_OF(CLSCAN_ITEMS)
/* Bit i of mask: element first + i is kept; returns how many are. The work-item's own flags come
 * as 16-byte vectors where its run is whole and aligned (CLSCAN_VEC4: buffers start on 16 bytes),
 * so a group's loads are contiguous; else byte by byte. */
uint clscan_own_flag_mask(__global const uchar *flags, ulong first, ulong n, uint mask[CLSCAN_FLAG_WORDS])
{
    uint count = 0;
    for (uint w = 0; w < CLSCAN_FLAG_WORDS; w++)
        mask[w] = 0;
#if defined(CLSCAN_VEC4) && CLSCAN_ITEMS % 16 == 0
    if (first + CLSCAN_ITEMS <= n) {
        for (uint j = 0; j < CLSCAN_ITEMS / 16; j++) {
            uchar b[16];
            vstore16(((__global const uchar16 *)(flags + first))[j], 0, b);
            for (uint k = 0; k < 16; k++) {
                uint i = 16 * j + k, bit = b[k] != 0;
                mask[i / 32] |= bit << (i % 32);
                count += bit;
            }
        }
        return count;
    }
#endif
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        uint bit = first + i < n && flags[first + i] != 0;
        mask[i / 32] |= bit << (i % 32);
        count += bit;
    }
    return count;
}
#endif

/* The work-item's set flags, read as clscan_compact_tiles reads them. */
uint clscan_own_flag_count(__global const uchar *flags, ulong first, ulong n)
{
#if defined(CLSCAN_ITEMS_STREAM)
    return clscan_run_flag_count(flags, first, n);
#else
    uint mask[CLSCAN_FLAG_WORDS];
    return clscan_own_flag_mask(flags, first, n, mask);
#endif
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_count_tiles(__global const uchar *flags, __global ulong *counts, ulong n, ulong num_tiles)
{
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SIZE];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T total =
            clscan_wg_reduce(clscan_own_flag_count(flags, t * CLSCAN_TILE + (ulong)get_local_id(0) * CLSCAN_ITEMS, n),
                             clscan_scratch);
        if (get_local_id(0) == 0)
            counts[t] = total;
    }
}

/* ---- one tile: rank, then write -------------------------------------------------------------------
 * Between the two halves a work-item holds its share of the tile: on GPUs the elements it loaded
 * (coalesced: element i * CLSCAN_WG_SIZE + lid) and the bit mask of its own CLSCAN_ITEMS consecutive flags; on CPUs
 * only how many of its own run are kept. */
#if defined(CLSCAN_ITEMS_STREAM)
#define CLSCAN_HELD_WORDS 1
#else
#define CLSCAN_HELD_WORDS CLSCAN_FLAG_WORDS
#endif
#define CLSCAN_COMPACT_LOCAL CLSCAN_LOCAL_COMPACT(CLSCAN_STREAMED, CLSCAN_WG_SIZE, CLSCAN_ITEMS)   /* every work-item's flag mask and rank */

/* The work-item's rank among the tile's kept elements; *total: how many the tile keeps. Ends with a
 * barrier (that of the group scan). */
CLSCAN_T clscan_compact_rank(__global const clscan_payload_t *in, __global const uchar *flags, ulong base, ulong n,
                             clscan_payload_t held[CLSCAN_ITEMS_HELD], uint mask[CLSCAN_HELD_WORDS],
                             __local CLSCAN_T *scratch, CLSCAN_T *total)
{
    const uint lid = get_local_id(0);
#if defined(CLSCAN_ITEMS_STREAM)
    (void)in, (void)held;
    mask[0] = clscan_run_flag_count(flags, base + (ulong)lid * CLSCAN_ITEMS, n);
    return clscan_wg_exclusive_scan(mask[0], scratch, total);
#else
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        ulong g = base + i * CLSCAN_WG_SIZE + lid;
        held[i] = g < n ? in[g] : CLSCAN_PAYLOAD_NONE;
    }
    return clscan_wg_exclusive_scan(clscan_own_flag_mask(flags, base + (ulong)lid * CLSCAN_ITEMS, n, mask), scratch,
                                    total);
#endif
}

#define CLSCAN_COMPACT_NO_REST ULONG_MAX   /* a compaction: only the kept elements are written */

/* Writes the tile's kept elements in order from out[start]; in a partition also the others, in order,
 * from out[rest + the others before them] (rest: how many all tiles keep; CLSCAN_COMPACT_NO_REST
 * otherwise). Work-items read ranks until they return: the next write to it must follow a barrier (the
 * next tile's group scan has them). */
void clscan_compact_write(__global const clscan_payload_t *in, __global const uchar *flags,
                          __global clscan_payload_t *out, ulong base, ulong n,
                          clscan_payload_t held[CLSCAN_ITEMS_HELD], uint mask[CLSCAN_HELD_WORDS], CLSCAN_T rank,
                          ulong start, ulong rest, __local uint *ranks)
{
    const uint lid = get_local_id(0);
#if defined(CLSCAN_ITEMS_STREAM)
    /* CPUs: the run is read where it lies and written straight to its place. Every element is
     * stored at the next free slot, which only a kept one then claims: no branch on the flag,
     * whose randomness a CPU mispredicts. pos < end keeps stores inside this work-item's slots. */
    (void)held, (void)ranks;
    const ulong first = base + (ulong)lid * CLSCAN_ITEMS;
    ulong pos = start + rank, end = pos + mask[0];
    uint len = first >= n ? 0u : n - first < CLSCAN_ITEMS ? (uint)(n - first) : CLSCAN_ITEMS;
    if (rest != CLSCAN_COMPACT_NO_REST) {   /* the others before this run: all before it less the kept ones */
        ulong other = rest + first - pos;
        for (uint i = 0; i < len; i++) {
            const int kept = flags[first + i] != 0;
            out[kept ? pos : other] = in[first + i];
            pos += kept, other += !kept;
        }
        return;
    }
    for (uint i = 0; i < len && pos < end; i++) {
        out[pos] = in[first + i];
        pos += flags[first + i] != 0;
    }
#else
    /* GPUs: every held element goes straight to its place. Element p = i * CLSCAN_WG_SIZE + lid of the
     * tile is bit p % CLSCAN_ITEMS of run p / CLSCAN_ITEMS; its place follows the kept elements of the runs
     * before (that run's rank) and those below it in its run (bits of that run's mask), both shared
     * here. A warp's elements of one row are consecutive, and so are their places: the stores of a
     * row land together, and no element tile passes through local memory. */
    (void)in, (void)flags, (void)n, (void)base;
    for (uint w = 0; w < CLSCAN_FLAG_WORDS; w++)
        ranks[lid * CLSCAN_FLAG_WORDS + w] = mask[w];
    ranks[CLSCAN_WG_SIZE * CLSCAN_FLAG_WORDS + lid] = rank;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        const uint p = i * CLSCAN_WG_SIZE + lid, run = p / CLSCAN_ITEMS, bit = p % CLSCAN_ITEMS;
        __local const uint *words = ranks + run * CLSCAN_FLAG_WORDS;
        const uint word = words[bit / 32], below = word & ((1u << (bit % 32)) - 1u);
        const int kept = word >> (bit % 32) & 1u;
        if (kept || rest != CLSCAN_COMPACT_NO_REST) {
            uint place = ranks[CLSCAN_WG_SIZE * CLSCAN_FLAG_WORDS + run] + popcount(below);
            for (uint w = 0; w < bit / 32; w++)
                place += popcount(words[w]);
            /* not kept: the others before it are the tile's elements before it less the kept ones */
            if (kept || base + p < n)
                out[kept ? start + place : rest + base - start + p - place] = held[i];
        }
    }
#endif
}

/* incl[t] is the number of kept elements in tiles 0..t. count_out (may be NULL: the host reads incl)
 * receives the whole count (the _async forms). partition: the others follow the kept ones. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_compact_tiles(__global const clscan_payload_t *in, __global const uchar *flags,
                          __global clscan_payload_t *out, __global const ulong *incl, ulong n, ulong num_tiles,
                          __global ulong *count_out, uint partition)
{
    const ulong rest = partition ? incl[num_tiles - 1] : CLSCAN_COMPACT_NO_REST;
    if (count_out && get_group_id(0) == 0 && get_local_id(0) == 0)
        count_out[0] = incl[num_tiles - 1];
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL];
    __local uint clscan_ranks[CLSCAN_COMPACT_LOCAL];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        clscan_payload_t held[CLSCAN_ITEMS_HELD];
        uint mask[CLSCAN_HELD_WORDS];
        CLSCAN_T total, rank = clscan_compact_rank(in, flags, t * CLSCAN_TILE, n, held, mask, clscan_scratch, &total);
        clscan_compact_write(in, flags, out, t * CLSCAN_TILE, n, held, mask, rank, t > 0 ? incl[t - 1] : 0, rest,
                             clscan_ranks);
    }
}

/* ---- single pass ------------------------------------------------------------------------------------ */
/* The look-back's fallback (lookback.clh): tile j's set flags, counted from the flags. */
CLSCAN_T clscan_sp_tile_aggregate(__global const void *src, ulong j, ulong n, __local CLSCAN_T *scratch)
{
    return clscan_wg_reduce(clscan_own_flag_count((__global const uchar *)src,
                                                  j * CLSCAN_TILE + (ulong)get_local_id(0) * CLSCAN_ITEMS, n),
                            scratch);
}

/* One launch for n < 2^32: tiles are taken from the launch's counter (lookback.clh); each publishes
 * its count and then the count of tiles 0..t, so a tile learns where its kept elements go by looking
 * back. The last tile leaves the whole count in counters[3] for the host, and in count_out where that
 * is not NULL (clscan_compact_async). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_compact_single_pass(__global const clscan_payload_t *in, __global const uchar *flags,
                                __global clscan_payload_t *out, __global clscan_sp_word *status,
                                __global uint *counters, ulong n, ulong num_tiles, uint epoch,
                                __global ulong *count_out)
{
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL > CLSCAN_WG_SIZE ? CLSCAN_WG_SCAN_LOCAL : CLSCAN_WG_SIZE];
    __local uint clscan_ranks[CLSCAN_COMPACT_LOCAL];
    __local clscan_sp_shared clscan_sh;
    __local uint clscan_next;
    const uint lid = get_local_id(0);
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        const ulong t = clscan_sp_take_tile(counters, epoch, &clscan_next);
        if (t >= num_tiles)
            break;
        clscan_payload_t held[CLSCAN_ITEMS_HELD];
        uint mask[CLSCAN_HELD_WORDS];
        CLSCAN_T total,
            rank = clscan_compact_rank(in, flags, t * CLSCAN_TILE, n, held, mask, clscan_scratch, &total), prefix = 0;
        if (t > 0) {
            if (lid == 0)
                clscan_sp_publish(status, t, CLSCAN_SP_FLAG_A, epoch, total);
            prefix = clscan_sp_look_back(flags, n, status, t, epoch, 0, &counters[2], &clscan_sh, clscan_scratch);
        }
        if (lid == 0 && t + 1 < num_tiles)
            clscan_sp_publish(status, t, CLSCAN_SP_FLAG_P, epoch, prefix + total);
        if (lid == 0 && t + 1 == num_tiles) {
            counters[3] = prefix + total;
            if (count_out)
                count_out[0] = prefix + total;
        }
        clscan_compact_write(in, flags, out, t * CLSCAN_TILE, n, held, mask, rank, prefix, CLSCAN_COMPACT_NO_REST,
                             clscan_ranks);
    }
}
