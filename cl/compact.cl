/* Stream compaction (a program of its own: CLSCAN_T is the uint count type with ADD, the elements
 * are moved as CLSCAN_PAYLOAD_BYTES-wide bit patterns, never computed with). count_tiles counts each
 * tile's set flags; the host scans those counts (inclusive, 64-bit); compact_tiles then writes each
 * tile's kept elements, in order, from the end of the tiles before it. A work-item owns ITEMS
 * consecutive elements, so a group scan of the work-items' counts gives every kept element its rank. */
#if !defined(CLSCAN_PAYLOAD_BYTES) || CLSCAN_PAYLOAD_BYTES == 4
typedef uint payload_t;
#else
typedef ulong payload_t;
#endif

/* Set flags among the work-item's own ITEMS consecutive elements from first. */
uint run_flag_count(__global const uchar *flags, ulong first, ulong n)
{
    uint count = 0;
    for (uint i = 0; i < ITEMS; i++)
        count += first + i < n && flags[first + i] != 0;
    return count;
}

#if !defined(CLSCAN_ITEMS_STREAM)
#define FLAG_WORDS ((ITEMS + 31) / 32)
/* Bit i of mask: element first + i is kept; returns how many are. The work-item's own flags come
 * as 16-byte vectors where its run is whole and aligned (CLSCAN_VEC4: buffers start on 16 bytes),
 * so a group's loads are contiguous; else byte by byte. */
uint own_flag_mask(__global const uchar *flags, ulong first, ulong n, uint mask[FLAG_WORDS])
{
    uint count = 0;
    for (uint w = 0; w < FLAG_WORDS; w++)
        mask[w] = 0;
#if defined(CLSCAN_VEC4) && ITEMS % 16 == 0
    if (first + ITEMS <= n) {
        for (uint j = 0; j < ITEMS / 16; j++) {
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
    for (uint i = 0; i < ITEMS; i++) {
        uint bit = first + i < n && flags[first + i] != 0;
        mask[i / 32] |= bit << (i % 32);
        count += bit;
    }
    return count;
}
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void count_tiles(__global const uchar *flags, __global ulong *counts, ulong n, ulong num_tiles)
{
    __local CLSCAN_T scratch[WG_SIZE];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
#if defined(CLSCAN_ITEMS_STREAM)
        CLSCAN_T mine = run_flag_count(flags, t * TILE + (ulong)get_local_id(0) * ITEMS, n);
#else
        uint mask[FLAG_WORDS];   /* the same 16-byte loads compact_tiles makes */
        CLSCAN_T mine = own_flag_mask(flags, t * TILE + (ulong)get_local_id(0) * ITEMS, n, mask);
#endif
        CLSCAN_T total = wg_reduce(mine, scratch);
        if (get_local_id(0) == 0)
            counts[t] = total;
    }
}

/* incl[t] is the number of kept elements in tiles 0..t. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void compact_tiles(__global const payload_t *in, __global const uchar *flags, __global payload_t *out,
                   __global const ulong *incl, ulong n, ulong num_tiles)
{
    __local CLSCAN_T scratch[WG_SCAN_LOCAL];
#if !defined(CLSCAN_ITEMS_STREAM)
    __local payload_t tile[TILE_LOCAL];
#endif
    const uint lid = get_local_id(0);
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        const ulong base = t * TILE, first = base + (ulong)lid * ITEMS, start = t > 0 ? incl[t - 1] : 0;
#if defined(CLSCAN_ITEMS_STREAM)
        /* CPUs: the run is read where it lies and written straight to its place. Every element is
         * stored at the next free slot, which only a kept one then claims: no branch on the flag,
         * whose randomness a CPU mispredicts. pos < end keeps stores inside this work-item's slots. */
        CLSCAN_T mine = run_flag_count(flags, first, n), total;
        ulong pos = start + wg_exclusive_scan(mine, scratch, &total), end = pos + mine;
        uint len = first >= n ? 0u : n - first < ITEMS ? (uint)(n - first) : ITEMS;
        for (uint i = 0; i < len && pos < end; i++) {
            out[pos] = in[first + i];
            pos += flags[first + i] != 0;
        }
#else
        /* GPUs: the tile comes in coalesced, each work-item takes its run from local memory and its
         * flags as a bit mask, the kept elements are packed at the front of the tile buffer, and go
         * out coalesced. */
        for (uint i = 0; i < ITEMS; i++) {
            uint idx = i * WG_SIZE + lid;
            if (base + idx < n)
                tile[PAD(idx)] = in[base + idx];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        payload_t v[ITEMS];
        for (uint i = 0; i < ITEMS; i++)
            v[i] = tile[PAD(lid * ITEMS + i)];
        uint mask[FLAG_WORDS];
        CLSCAN_T total, rank = wg_exclusive_scan(own_flag_mask(flags, first, n, mask), scratch, &total);
        /* wg_exclusive_scan ends with a barrier: every work-item has read the tile. */
        for (uint i = 0; i < ITEMS; i++)
            if (mask[i / 32] >> (i % 32) & 1) {
                tile[PAD(rank)] = v[i];   /* PAD is a macro: no side effects inside it */
                rank++;
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint idx = lid; idx < total; idx += WG_SIZE)
            out[start + idx] = tile[PAD(idx)];
        barrier(CLK_LOCAL_MEM_FENCE);   /* the tile buffer is free for the next tile */
#endif
    }
}
