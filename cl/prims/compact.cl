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

/* Unique (CLSCAN_COMPACT_HEADS) is a compaction whose flags are the elements themselves: the host passes
 * them as flags too, and element g is kept where it starts a run, differing bit for bit from element
 * g - 1 (element 0 always). Run-length encoding (CLSCAN_COMPACT_LENGTHS) is unique that writes each
 * run's length too: GPUs only (held items), fewer than 2^32 - 1 elements, in the single pass. */
#if defined(CLSCAN_COMPACT_LENGTHS) && (!defined(CLSCAN_COMPACT_HEADS) || defined(CLSCAN_ITEMS_STREAM))
#error "run-length encoding is built with CLSCAN_COMPACT_HEADS, for held items"
#endif
#if defined(CLSCAN_COMPACT_HEADS)
int clscan_payload_differ(clscan_payload_t a, clscan_payload_t b)
{
#if defined(CLSCAN_PAYLOAD_BYTES) && CLSCAN_PAYLOAD_BYTES != 1 && CLSCAN_PAYLOAD_BYTES != 2 && \
    CLSCAN_PAYLOAD_BYTES != 4 && CLSCAN_PAYLOAD_BYTES != 8
    int differ = 0;
    for (uint k = 0; k < CLSCAN_PAYLOAD_BYTES; k++)
        differ |= a.b[k] != b.b[k];
    return differ;
#else
    return a != b;
#endif
}
#endif

/* Whether element g (below n) is kept: its flag, or whether it starts a run. */
int clscan_compact_kept(__global const uchar *flags, ulong g)
{
#if defined(CLSCAN_COMPACT_HEADS)
    __global const clscan_payload_t *keys = (__global const clscan_payload_t *)flags;
    return g == 0 || clscan_payload_differ(keys[g - 1], keys[g]);
#else
    return flags[g] != 0;
#endif
}

/* Set flags among the work-item's own CLSCAN_ITEMS consecutive elements from first. */
uint clscan_run_flag_count(__global const uchar *flags, ulong first, ulong n)
{
    uint count = 0;
    for (uint i = 0; i < CLSCAN_ITEMS; i++)
        count += first + i < n && clscan_compact_kept(flags, first + i);
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
#if defined(CLSCAN_VEC4) && CLSCAN_ITEMS % 16 == 0 && !defined(CLSCAN_COMPACT_HEADS)
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
        uint bit = first + i < n && clscan_compact_kept(flags, first + i);
        mask[i / 32] |= bit << (i % 32);
        count += bit;
    }
    return count;
}

#if defined(CLSCAN_COMPACT_HEADS)
/* Unique's mask: each element of the tile (element i * CLSCAN_WG_SIZE + lid, read coalesced) is compared
 * with the one before it (a cache hit but at a warp's first lane) and leaves a byte in heads in the tile's
 * order; the work-item's own consecutive run of bytes then makes its mask, as from flags. Nothing is held
 * past this: the kept elements, about one a run, are read again as they are written. Whole tiles issue
 * their loads before using any: 4-wide vectors of 4- and 8-byte elements (CLSCAN_PAYLOAD4), else
 * CLSCAN_HEAD_CHUNK at a time. H100, 2^28 uint32 in runs of 8, the whole unique: the tile held in
 * registers to the end 2.24 ms (127 registers), an element at a time 1.25, chunks of 4 / 8 / 16 / 32
 * 0.87 / 0.85 / 0.82 / 0.85, vectors 0.74 (with the writes of clscan_compact_write's held form). Ends
 * past a barrier; heads is read until the count scan's first barrier. */
#if CLSCAN_ITEMS % 16 == 0
#define CLSCAN_HEAD_CHUNK 16
#elif CLSCAN_ITEMS % 4 == 0
#define CLSCAN_HEAD_CHUNK 4
#else
#define CLSCAN_HEAD_CHUNK 1
#endif
#if defined(CLSCAN_VEC4) && defined(__ENDIAN_LITTLE__) && CLSCAN_ITEMS % 16 == 0 && defined(CLSCAN_PAYLOAD_BYTES)
#if CLSCAN_PAYLOAD_BYTES == 4
#define CLSCAN_PAYLOAD4 uint4
#elif CLSCAN_PAYLOAD_BYTES == 8
#define CLSCAN_PAYLOAD4 ulong4
#endif
#endif
uint clscan_head_mask(__global const clscan_payload_t *in, ulong base, ulong n, uint mask[CLSCAN_FLAG_WORDS],
                      __local uchar *heads)
{
    const uint lid = get_local_id(0);
    if (base > 0 && base + CLSCAN_TILE <= n) {
#if defined(CLSCAN_PAYLOAD4)
        /* a whole tile after another, four elements a load and the one before them, all issued before
         * any is used; the four head bytes leave as a word */
        __global const CLSCAN_PAYLOAD4 *v = (__global const CLSCAN_PAYLOAD4 *)(in + base);
        __local uint *words = (__local uint *)heads;
        CLSCAN_PAYLOAD4 at[CLSCAN_ITEMS / 4];
        clscan_payload_t before[CLSCAN_ITEMS / 4];
        for (uint i = 0; i < CLSCAN_ITEMS / 4; i++) {
            const uint q = i * CLSCAN_WG_SIZE + lid;
            at[i] = v[q];
            before[i] = in[base + 4 * (ulong)q - 1];
        }
        for (uint i = 0; i < CLSCAN_ITEMS / 4; i++)
            words[i * CLSCAN_WG_SIZE + lid] = (uint)(before[i] != at[i].s0) | (uint)(at[i].s0 != at[i].s1) << 8 |
                                              (uint)(at[i].s1 != at[i].s2) << 16 | (uint)(at[i].s2 != at[i].s3) << 24;
#else
        /* a whole tile after another: the loads of a chunk are issued before any is used */
        for (uint i = 0; i < CLSCAN_ITEMS; i += CLSCAN_HEAD_CHUNK) {
            clscan_payload_t before[CLSCAN_HEAD_CHUNK], at[CLSCAN_HEAD_CHUNK];
            for (uint j = 0; j < CLSCAN_HEAD_CHUNK; j++) {
                const ulong g = base + (i + j) * CLSCAN_WG_SIZE + lid;
                before[j] = in[g - 1];
                at[j] = in[g];
            }
            for (uint j = 0; j < CLSCAN_HEAD_CHUNK; j++)
                heads[(i + j) * CLSCAN_WG_SIZE + lid] = clscan_payload_differ(before[j], at[j]);
        }
#endif
    } else {
        for (uint i = 0; i < CLSCAN_ITEMS; i++) {
            const uint p = i * CLSCAN_WG_SIZE + lid;
            const ulong g = base + p;
            heads[p] = g < n && (g == 0 || clscan_payload_differ(in[g - 1], in[g]));
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint count = 0;
    for (uint w = 0; w < CLSCAN_FLAG_WORDS; w++)
        mask[w] = 0;
    __local const uchar *own = heads + lid * CLSCAN_ITEMS;
#if defined(__ENDIAN_LITTLE__) && CLSCAN_ITEMS % 16 == 0
    /* sixteen bytes a load (heads is 16-byte aligned): their low bits make 16 bits of the mask */
    for (uint j = 0; j < CLSCAN_ITEMS / 16; j++) {
        const uint4 w = ((__local const uint4 *)own)[j];
        const uint4 b = (w & 1u) | (w >> 7 & 2u) | (w >> 14 & 4u) | (w >> 21 & 8u);
        const uint bits = b.s0 | b.s1 << 4 | b.s2 << 8 | b.s3 << 12;
        mask[j / 2] |= bits << (j % 2 * 16);
        count += popcount(bits);
    }
#else
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        const uint bit = own[i];
        mask[i / 32] |= bit << (i % 32);
        count += bit;
    }
#endif
    return count;
}
#endif
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
#if defined(CLSCAN_COMPACT_HEADS)   /* unique's head bytes of a tile, in uints as the host counts them */
#define CLSCAN_COMPACT_HEADS_LOCAL \
    (4 * CLSCAN_LOCAL_COMPACT_HEADS(CLSCAN_STREAMED, CLSCAN_WG_SIZE, CLSCAN_ITEMS, CLSCAN_PAYLOAD_BYTES))
/* Once the masks are made, that room stages up to this many kept elements on their way out (GPUs). */
#define CLSCAN_STAGE_CAP (CLSCAN_COMPACT_HEADS_LOCAL / CLSCAN_PAYLOAD_BYTES)
#else
#define CLSCAN_COMPACT_HEADS_LOCAL 1
#endif

/* The work-item's rank among the tile's kept elements; *total: how many the tile keeps. Ends with a
 * barrier (that of the group scan). */
CLSCAN_T clscan_compact_rank(__global const clscan_payload_t *in, __global const uchar *flags, ulong base, ulong n,
                             clscan_payload_t held[CLSCAN_ITEMS_HELD], uint mask[CLSCAN_HELD_WORDS],
                             __local CLSCAN_T *scratch, __local uchar *heads, CLSCAN_T *total)
{
    const uint lid = get_local_id(0);
#if defined(CLSCAN_ITEMS_STREAM)
    (void)in, (void)held, (void)heads;
    mask[0] = clscan_run_flag_count(flags, base + (ulong)lid * CLSCAN_ITEMS, n);
    return clscan_wg_exclusive_scan(mask[0], scratch, total);
#else
#if defined(CLSCAN_COMPACT_HEADS)
    (void)flags, (void)held;
    return clscan_wg_exclusive_scan(clscan_head_mask(in, base, n, mask, heads), scratch, total);
#else
    (void)heads;
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        ulong g = base + i * CLSCAN_WG_SIZE + lid;
        held[i] = g < n ? in[g] : CLSCAN_PAYLOAD_NONE;
    }
    return clscan_wg_exclusive_scan(clscan_own_flag_mask(flags, base + (ulong)lid * CLSCAN_ITEMS, n, mask), scratch,
                                    total);
#endif
#endif
}

#define CLSCAN_COMPACT_NO_REST ULONG_MAX   /* a compaction: only the kept elements are written */

/* The place of m's lowest set bit (m != 0): unique's and run-length encoding's writes visit a mask's
 * set bits from the lowest, clearing each (m &= m - 1). */
uint clscan_lowest_bit(uint m)
{
    return 31 - clz(m & (0u - m));
}

#if defined(CLSCAN_COMPACT_HEADS) && !defined(CLSCAN_ITEMS_STREAM)
/* One round of staging a tile's heads (GPUs): of the work-item's heads (its mask's set bits, ranked
 * from rank), those of rank c .. c + cap - 1 go to keys[rank - c], read again where they lie, and,
 * where pos is not NULL, 1 + their places to pos[rank - c + 1]. */
void clscan_stage_heads(__global const clscan_payload_t *in, ulong first, const uint mask[CLSCAN_FLAG_WORDS],
                        uint rank, uint c, uint cap, __local clscan_payload_t *keys, __local uint *pos)
{
    for (uint w = 0; w < CLSCAN_FLAG_WORDS; w++)
        for (uint m = mask[w]; m != 0; m &= m - 1, rank++)
            if (rank - c < cap) {
                const uint at = 32 * w + clscan_lowest_bit(m);
                keys[rank - c] = in[first + at];
                if (pos)
                    pos[rank - c + 1] = (uint)first + at + 1u;
            }
}
#endif

/* Writes the tile's kept elements in order from out[start]; in a partition also the others, in order,
 * from out[rest + the others before them] (rest: how many all tiles keep; CLSCAN_COMPACT_NO_REST
 * otherwise). Work-items read ranks until they return: the next write to it must follow a barrier (the
 * next tile's group scan has them). */
void clscan_compact_write(__global const clscan_payload_t *in, __global const uchar *flags,
                          __global clscan_payload_t *out, ulong base, ulong n,
                          clscan_payload_t held[CLSCAN_ITEMS_HELD], uint mask[CLSCAN_HELD_WORDS], CLSCAN_T rank,
                          CLSCAN_T total, ulong start, ulong rest, __local uint *ranks, __local uchar *heads)
{
    const uint lid = get_local_id(0);
#if defined(CLSCAN_ITEMS_STREAM)
    /* CPUs: the run is read where it lies and written straight to its place. Every element is
     * stored at the next free slot, which only a kept one then claims: no branch on the flag,
     * whose randomness a CPU mispredicts. pos < end keeps stores inside this work-item's slots. */
    (void)held, (void)ranks;
    const ulong first = base + (ulong)lid * CLSCAN_ITEMS;
    ulong pos = start + rank, end = pos + mask[0];
    uint len = clscan_len_below(first, n, CLSCAN_ITEMS);
    if (rest != CLSCAN_COMPACT_NO_REST) {   /* the others before this run: all before it less the kept ones */
        ulong other = rest + first - pos;
        for (uint i = 0; i < len; i++) {
            const int kept = clscan_compact_kept(flags, first + i);
            out[kept ? pos : other] = in[first + i];
            pos += kept, other += !kept;
        }
        return;
    }
    for (uint i = 0; i < len && pos < end; i++) {
        out[pos] = in[first + i];
        pos += clscan_compact_kept(flags, first + i);
    }
#elif defined(CLSCAN_COMPACT_HEADS)
    /* GPUs, unique: about one element in a run is kept, so rather than every element of the tile
     * finding its place, each work-item visits the set bits of its own mask, reads those elements again
     * where they lie (cached) and puts them in stage at their rank in the tile; the group then writes
     * stage out in order, a warp's stores side by side. More than stage holds take rounds. H100, 2^28
     * uint32 in runs of 8: 0.63 ms, against 0.66 with each work-item storing its own elements to
     * their places in global memory (a warp's stores strided by its lanes' runs) and 0.50 writing
     * nothing. */
    (void)held, (void)ranks, (void)flags, (void)rest, (void)n;
    __local clscan_payload_t *stage = (__local clscan_payload_t *)heads;
    const ulong first = base + (ulong)lid * CLSCAN_ITEMS;
    for (uint c = 0; c < total; c += CLSCAN_STAGE_CAP) {
        clscan_stage_heads(in, first, mask, rank, c, CLSCAN_STAGE_CAP, stage, (__local uint *)0);
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint count = min(total - c, (uint)CLSCAN_STAGE_CAP);
        for (uint k = lid; k < count; k += CLSCAN_WG_SIZE)
            out[start + c + k] = stage[k];
        barrier(CLK_LOCAL_MEM_FENCE);
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
    __local uchar clscan_heads[CLSCAN_COMPACT_HEADS_LOCAL] __attribute__((aligned(16)));
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        clscan_payload_t held[CLSCAN_ITEMS_HELD];
        uint mask[CLSCAN_HELD_WORDS];
        CLSCAN_T total, rank = clscan_compact_rank(in, flags, t * CLSCAN_TILE, n, held, mask, clscan_scratch, clscan_heads,
                                                     &total);
        clscan_compact_write(in, flags, out, t * CLSCAN_TILE, n, held, mask, rank, total, t > 0 ? incl[t - 1] : 0, rest,
                             clscan_ranks, clscan_heads);
    }
}

/* ---- single pass ------------------------------------------------------------------------------------ */
#if !defined(CLSCAN_COMPACT_LENGTHS)
/* The look-back's fallback (lookback.clh): tile j's set flags, counted from the flags. */
CLSCAN_T clscan_sp_tile_aggregate(__global const void *src, ulong j, ulong n, __local CLSCAN_T *scratch)
{
    return clscan_wg_reduce(clscan_own_flag_count((__global const uchar *)src,
                                                  j * CLSCAN_TILE + (ulong)get_local_id(0) * CLSCAN_ITEMS, n),
                            scratch);
}
#else
/* Run-length encoding's fallback: tile j's runs that start and the place of its last head, from the
 * keys where they lie (scratch: CLSCAN_WG_SIZE carries, the count's reduction and a word after it). */
clscan_rle_carry clscan_sp_tile_aggregate(__global const void *src, ulong j, ulong n, __local clscan_rle_carry *scratch)
{
    __local uint *words = (__local uint *)scratch;
    const ulong first = j * CLSCAN_TILE + (ulong)get_local_id(0) * CLSCAN_ITEMS;
    uint count = 0, last = 0;
    for (uint i = 0; i < CLSCAN_ITEMS; i++)
        if (first + i < n && clscan_compact_kept((__global const uchar *)src, first + i))
            count++, last = (uint)(first + i) + 1u;
    if (get_local_id(0) == 0)
        words[CLSCAN_WG_SIZE] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (last)
        atomic_max(&words[CLSCAN_WG_SIZE], last);
    count = clscan_wg_reduce(count, (__local CLSCAN_T *)words);   /* its barriers order the maxima too */
    last = words[CLSCAN_WG_SIZE];
    barrier(CLK_LOCAL_MEM_FENCE);
    return clscan_rle_make(count, last);
}
#endif

#if !defined(CLSCAN_COMPACT_LENGTHS)
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
    __local uchar clscan_heads[CLSCAN_COMPACT_HEADS_LOCAL] __attribute__((aligned(16)));
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
            rank = clscan_compact_rank(in, flags, t * CLSCAN_TILE, n, held, mask, clscan_scratch, clscan_heads, &total),
            prefix = 0;
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
        clscan_compact_write(in, flags, out, t * CLSCAN_TILE, n, held, mask, rank, total, prefix,
                             CLSCAN_COMPACT_NO_REST, clscan_ranks, clscan_heads);
    }
}

#else
/* Run-length encoding stages up to CLSCAN_RLE_CAP heads in the head bytes' room: their places, one more,
 * in CLSCAN_RLE_POS uints (16-byte aligned), then their keys. */
#define CLSCAN_RLE_CAP ((CLSCAN_COMPACT_HEADS_LOCAL - 16) / (CLSCAN_PAYLOAD_BYTES + 4))
#define CLSCAN_RLE_POS ((CLSCAN_RLE_CAP + 4) / 4 * 4)
/* Run-length encoding on GPUs below 2^32 - 1 elements (CLSCAN_COMPACT_LENGTHS, with CLSCAN_COMPACT_HEADS):
 * unique's single pass, whose look-back also carries 1 + the place of the last head before a tile
 * (compact.clh; a tile's own last head is the last head of the one work-item whose heads end at the
 * tile's count, which leaves its place in a local word). The tile's heads are staged in order, each
 * key with its place, and the group writes run r's key to out[r] and run r - 1's length, the distance
 * between two staged places (the first's from the carry). The last tile writes the last run's length. H100,
 * 2^28 uint32 in runs of 8: 0.83 ms, against 0.99 with each head storing its key and length straight
 * to their places. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_compact_single_pass(__global const clscan_payload_t *in, __global ulong *lengths,
                                __global clscan_payload_t *out, __global clscan_sp_word *status,
                                __global uint *counters, ulong n, ulong num_tiles, uint epoch,
                                __global ulong *count_out)
{
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL > CLSCAN_WG_SIZE ? CLSCAN_WG_SCAN_LOCAL : CLSCAN_WG_SIZE];
    __local uint clscan_tile_last;   /* 1 + the place of the tile's last head */
    __local uchar clscan_heads[CLSCAN_COMPACT_HEADS_LOCAL] __attribute__((aligned(16)));
    __local clscan_rle_carry clscan_lb[CLSCAN_LOCAL_COMPACT_RLE(CLSCAN_WG_SIZE) / 2];   /* the fallback's scratch */
    __local clscan_sp_shared clscan_sh;
    __local uint clscan_next;
    const uint lid = get_local_id(0);
    __local uint *spos = (__local uint *)clscan_heads;
    __local clscan_payload_t *skeys = (__local clscan_payload_t *)(spos + CLSCAN_RLE_POS);
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        const ulong t = clscan_sp_take_tile(counters, epoch, &clscan_next);
        if (t >= num_tiles)
            break;
        const ulong base = t * CLSCAN_TILE, first = base + (ulong)lid * CLSCAN_ITEMS;
        clscan_payload_t held[CLSCAN_ITEMS_HELD];
        uint mask[CLSCAN_HELD_WORDS], own = 0, own_last = 0;
        CLSCAN_T total, rank = clscan_compact_rank(in, (__global const uchar *)in, base, n, held, mask, clscan_scratch,
                                                   clscan_heads, &total);
        for (uint w = 0; w < CLSCAN_FLAG_WORDS; w++)
            if (mask[w]) {
                own += popcount(mask[w]);
                own_last = (uint)first + 32 * w + (31 - clz(mask[w])) + 1u;
            }
        if (own && rank + own == total)   /* one work-item, where the tile has a head */
            clscan_tile_last = own_last;
        barrier(CLK_LOCAL_MEM_FENCE);   /* read before the next tile's, past clscan_sp_take_tile's barriers */
        const clscan_rle_carry tile = clscan_rle_make(total, total ? clscan_tile_last : 0u);
        clscan_rle_carry prefix = CLSCAN_SP_IDENTITY;
        if (t > 0) {
            if (lid == 0)
                clscan_sp_publish(status, t, CLSCAN_SP_FLAG_A, epoch, tile);
            prefix = clscan_sp_look_back(in, n, status, t, epoch, 0, &counters[2], &clscan_sh, clscan_lb);
        }
        const clscan_rle_carry through = clscan_rle_combine(prefix, tile);
        if (lid == 0 && t + 1 < num_tiles)
            clscan_sp_publish(status, t, CLSCAN_SP_FLAG_P, epoch, through);
        if (lid == 0 && t + 1 == num_tiles) {
            counters[3] = through.runs;
            if (count_out)
                count_out[0] = through.runs;
            lengths[through.runs - 1] = n - (through.last - 1u);
        }
        /* the tile's heads staged in rank order, each key with 1 + its place (pos[k + 1]; pos[0]: the
         * head before them), then written by the group in order, a run's length from two places */
        uint carry = prefix.last;
        for (uint c = 0; c < total; c += CLSCAN_RLE_CAP) {
            clscan_stage_heads(in, first, mask, rank, c, CLSCAN_RLE_CAP, skeys, spos);
            if (lid == 0)
                spos[0] = carry;
            barrier(CLK_LOCAL_MEM_FENCE);
            const uint count = min(total - c, (uint)CLSCAN_RLE_CAP);
            for (uint k = lid; k < count; k += CLSCAN_WG_SIZE) {
                const ulong place = prefix.runs + c + k;
                out[place] = skeys[k];
                if (place > 0)
                    lengths[place - 1] = spos[k + 1] - spos[k];
            }
            carry = spos[count];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}
#endif
