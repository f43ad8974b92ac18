/* Segmented reduction over offsets (clscan_segmented_reduce): out[s] is the combination of
 * in[offsets[s] .. offsets[s+1]), the identity when empty. One launch, the single-pass segmented scan of
 * segmented.clh over tiles of the input: a segment's head is its first element, and its result is the
 * scan's value at its last one. Offsets stay on the device and are trusted for nothing: each is cut to
 * n (the elements in holds) and a segment that ends before it starts is empty, so nothing is read or
 * written out of bounds whatever they hold; offsets that decrease give some result, never a hang.
 * Tile t looks after the segments that start in it (all that start at n: the last tile; found by
 * clscan_seg_reduce_tile_starts, launched first) and the one that started before it and may end in it: it sets their heads, writes the results of those that end in it
 * and the identity for the empty ones. GPUs hold the tile's values in registers and pass each
 * segment's result through local memory; CPUs (streamed items) reduce each segment's part of the tile
 * by one work-item, straight from global memory. */

/* Segment s starts at offsets[s] cut to n. */
ulong clscan_sr_start(__global const ulong *offsets, ulong s, ulong n)
{
    const ulong o = offsets[s];
    return o < n ? o : n;
}

/* Segment s's end, cut to n and not before its start. */
ulong clscan_sr_end(__global const ulong *offsets, ulong s, ulong n)
{
    const ulong start = clscan_sr_start(offsets, s, n), end = clscan_sr_start(offsets, s + 1, n);
    return end > start ? end : start;
}

/* The first of the segments [0, segs) that starts at pos or later (segs if none), by bisection:
 * where offsets decrease, some segment in range. */
ulong clscan_sr_first_from(__global const ulong *offsets, ulong segs, ulong n, ulong pos)
{
    ulong lo = 0, hi = segs;
    while (lo < hi) {
        const ulong mid = lo + (hi - lo) / 2;
        if (clscan_sr_start(offsets, mid, n) < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* tile_starts[t]: the first segment that starts in tile t or later (0 for tile 0, segs past the last
 * tile), so that tile t looks after the segments [tile_starts[t], tile_starts[t + 1]). A work-item a
 * tile, each bisecting the offsets: the main kernel then reads two words a tile instead of waiting on
 * a chain of dependent loads (a group bisecting 2^20 segments twice a tile, by one work-item or by
 * all in rounds, ran at 0.39 of the copy roof on the H100). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_seg_reduce_tile_starts(__global const ulong *offsets, __global ulong *tile_starts, ulong n, ulong segs,
                                   ulong num_tiles)
{
    for (ulong t = get_global_id(0); t <= num_tiles; t += get_global_size(0))
        tile_starts[t] = t == 0 ? 0 : t == num_tiles ? segs : clscan_sr_first_from(offsets, segs, n, t * CLSCAN_TILE);
}

/* in[from .. to) combined by one work-item, in order. */
CLSCAN_T clscan_sr_fold(__global const CLSCAN_T *in, ulong from, ulong to)
{
    CLSCAN_T acc = CLSCAN_IDENTITY;
    for (ulong i = from; i < to; i++)
        acc = CLSCAN_OP(acc, in[i]);
    return acc;
}

/* Tile j as a pair, from the input alone: whether a segment starts in it, and its elements from the
 * last start on (all of them if none). */
CLSCAN_SP_HOOK clscan_seg_pair clscan_sr_tile_pair(__global const CLSCAN_T *in, __global const ulong *offsets,
                                                   ulong segs, ulong n, ulong j, __local clscan_seg_scratch *s)
{
    const ulong base = j * CLSCAN_TILE, last = base + CLSCAN_TILE < n ? base + CLSCAN_TILE : n;
    const ulong k = clscan_sr_first_from(offsets, segs, n, last);   /* segments before k start before last */
    const ulong start = k > 0 ? clscan_sr_start(offsets, k - 1, n) : 0;
    clscan_seg_pair mine, total;
    mine.head = k > 0 && start >= base;
    const ulong from = mine.head ? start : base, first = base + (ulong)get_local_id(0) * CLSCAN_ITEMS;
    const ulong a = first > from ? first : from, b = first + CLSCAN_ITEMS < last ? first + CLSCAN_ITEMS : last;
    mine.value = clscan_sr_fold(in, a, b > a ? b : a);
    mine.head = mine.head && get_local_id(0) == 0;   /* one head for the group's scan to carry */
    clscan_seg_wg_scan(mine, s, &total);
    return total;
}

/* The look-back's fallback (lookback.clh): tile j's pair from the input (src) and offsets (aux;
 * sizes: elements, segments); a tile where a segment starts gives its inclusive prefix (closed). */
CLSCAN_T clscan_sp_tile_aggregate(__global const void *src, __global const void *aux, ulong j, ulong2 sizes,
                                  __local void *scratch)
{
    __local clscan_seg_scratch *s = (__local clscan_seg_scratch *)scratch;
    const clscan_seg_pair p = clscan_sr_tile_pair((__global const CLSCAN_T *)src, (__global const ulong *)aux,
                                                  sizes.s1, sizes.s0, j, s);
    if (get_local_id(0) == 0)
        s->closed = p.head;   /* read after the fallback's barrier (lookback.clh) */
    return p.value;
}

#define CLSCAN_SR_BITS CLSCAN_LOCAL_SR_BITS(CLSCAN_STREAMED, CLSCAN_WG_SIZE, CLSCAN_ITEMS)

#if !defined(CLSCAN_ITEMS_STREAM)
/* Held tiles: the group loads the values and sets a bit for every element where a non-empty segment of
 * [lo, hi) starts; each work-item takes its run's bits. A work-item's first segment is read before the
 * tile, so that those loads wait beside the tile's rather than before them. Returns the pairs before
 * this work-item's; ends past the group scan's barriers. */
clscan_seg_pair clscan_sr_tile_up(__global const CLSCAN_T *in, __global const ulong *offsets, ulong n, ulong base,
                                  ulong lo, ulong hi, clscan_wg_held v[CLSCAN_WG_HELD], uint hm[CLSCAN_SEG_WORDS],
                                  __local CLSCAN_T *tile, __local uint *bits, __local clscan_seg_scratch *s,
                                  clscan_seg_pair *total)
{
    const uint lid = get_local_id(0);
    for (uint w = lid; w < CLSCAN_SR_BITS; w += CLSCAN_WG_SIZE)
        bits[w] = 0;
    const ulong first = lo + lid;
    const ulong first_start = first < hi ? clscan_sr_start(offsets, first, n) : 0;
    const ulong first_end = first < hi ? clscan_sr_end(offsets, first, n) : 0;
    clscan_wg_load_tile(in, base, n, v, tile);
    barrier(CLK_LOCAL_MEM_FENCE);   /* the bits are zero (clscan_wg_load_tile may pass none: vector loads) */
    for (ulong k = first; k < hi; k += CLSCAN_WG_SIZE) {
        const ulong start = k == first ? first_start : clscan_sr_start(offsets, k, n);
        const ulong end = k == first ? first_end : clscan_sr_end(offsets, k, n);
        if (end > start && start >= base && start - base < CLSCAN_TILE)
            atomic_or(&bits[(start - base) / 32], 1u << ((start - base) % 32));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint w = 0; w < CLSCAN_SEG_WORDS; w++)
        hm[w] = 0;
    for (uint i = 0; i < CLSCAN_ITEMS; i++) {
        const uint p = lid * CLSCAN_ITEMS + i;
        hm[i / 32] |= (bits[p / 32] >> (p % 32) & 1u) << (i % 32);
    }
    return clscan_seg_wg_scan(clscan_seg_items_reduce(v, hm), s, total);
}
#endif

/* The results of tile t: each segment of [lo - 1, hi) that ends in the tile, and the identity for each
 * empty one of [lo, hi). GPUs: a segment's result is the scan's value at its last element, in local
 * memory (values), the segments taken in turn. CPUs: each work-item a run of consecutive segments, so
 * that the tile is read once in order (segments in turn read it in CLSCAN_WG_SIZE interleaved passes),
 * each segment's part of the tile folded from global memory after prefix (what the tiles before gave
 * the segment that started there). */
void clscan_sr_results(__global const CLSCAN_T *in, __global const ulong *offsets, __global CLSCAN_T *out, ulong n,
                       ulong base, ulong lo, ulong hi, CLSCAN_T prefix, __local const CLSCAN_T *values)
{
    const ulong from = lo > 0 ? lo - 1 : 0;
#if defined(CLSCAN_ITEMS_STREAM)
    (void)values;
    const ulong per = (hi > from ? hi - from + CLSCAN_WG_SIZE - 1 : 0) / CLSCAN_WG_SIZE;
    const ulong first = from + get_local_id(0) * per, last = min(first + per, hi), step = 1;
#else
    (void)in, (void)prefix;
    const ulong first = from + get_local_id(0), last = hi, step = CLSCAN_WG_SIZE;
#endif
    for (ulong k = first; k < last; k += step) {
        const ulong start = clscan_sr_start(offsets, k, n), end = clscan_sr_end(offsets, k, n);
        if (end == start) {
            if (k >= lo)
                out[k] = CLSCAN_IDENTITY;
            continue;
        }
        if (end - 1 < base || end - 1 - base >= CLSCAN_TILE)
            continue;   /* ends in a later tile (or, offsets decreasing, an earlier one) */
#if defined(CLSCAN_ITEMS_STREAM)
        const CLSCAN_T part = clscan_sr_fold(in, start > base ? start : base, end);
        out[k] = start < base ? CLSCAN_OP(prefix, part) : part;
#else
        out[k] = values[CLSCAN_PAD(end - 1 - base)];
#endif
    }
}

/* One launch (after clscan_seg_reduce_tile_starts) over max(1, tiles of n) tiles, taken from the launch's counter (lookback.clh). A tile
 * where a segment starts publishes its inclusive prefix at once; one without publishes its total,
 * looks back and publishes its prefix. Either looks back for the segment it continues, unless its
 * first element starts one. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_seg_reduce_single_pass(__global const CLSCAN_T *in, __global const ulong *offsets,
                                   __global const ulong *tile_starts, __global CLSCAN_T *out,
                                   __global clscan_sp_word *status, __global uint *counters, ulong n, ulong segs,
                                   ulong num_tiles, uint epoch)
{
    __local CLSCAN_T clscan_tile[CLSCAN_TILE_LOCAL] CLSCAN_TILE_ALIGNED;
    __local uint clscan_bits[CLSCAN_SR_BITS];
    __local clscan_seg_scratch clscan_scratch;
    __local clscan_sp_shared clscan_sh;
    __local uint clscan_next;
    const uint lid = get_local_id(0);
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        const ulong t = clscan_sp_take_tile(counters, epoch, &clscan_next);
        if (t >= num_tiles)
            break;
        const ulong base = t * CLSCAN_TILE, lo = tile_starts[t], hi = tile_starts[t + 1];
        clscan_seg_pair total;
#if defined(CLSCAN_ITEMS_STREAM)
        total = clscan_sr_tile_pair(in, offsets, segs, n, t, &clscan_scratch);
        const uint first_head = t == 0;
#else
        clscan_wg_held v[CLSCAN_WG_HELD];
        uint hm[CLSCAN_SEG_WORDS];
        const clscan_seg_pair excl = clscan_sr_tile_up(in, offsets, n, base, lo, hi, v, hm, clscan_tile, clscan_bits,
                                                       &clscan_scratch, &total);
        const uint first_head = t == 0 || (clscan_bits[0] & 1u);
#endif
        CLSCAN_T prefix = CLSCAN_IDENTITY;
        if (lid == 0)
            clscan_sp_publish(status, t, total.head ? CLSCAN_SP_FLAG_P : CLSCAN_SP_FLAG_A, epoch, total.value);
        if (!first_head)
            prefix = clscan_sp_look_back(in, offsets, (ulong2)(n, segs), status, t, epoch, 0, &counters[2], &clscan_sh,
                                         &clscan_scratch);
        if (!total.head && lid == 0)
            clscan_sp_publish(status, t, CLSCAN_SP_FLAG_P, epoch, CLSCAN_OP(prefix, total.value));
#if !defined(CLSCAN_ITEMS_STREAM)
        clscan_seg_items_scan(v, hm, excl.head ? excl.value : CLSCAN_OP(prefix, excl.value), 0);
        for (uint i = 0; i < CLSCAN_ITEMS; i++)
            clscan_tile[CLSCAN_PAD_RC(lid, CLSCAN_ITEMS, i)] = v[i];
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        clscan_sr_results(in, offsets, out, n, base, lo, hi, prefix, clscan_tile);
    }
}
