/* Segmented scans: a scan that starts again at every segment head, as one scan of (head, value) pairs
 * (segmented.clh), the heads and the tile's first pass from segkeys.clh. Element 0 always starts a
 * segment, except where the launch says it continues the segment before the slice (byte heads only:
 * clscan_mpi, for a slice whose rank is not the first); then it starts one only where its head says so,
 * and what precedes it in its segment is the launch's carry.
 * clscan_seg_scan_single_pass reads each value and mark once and writes each output once: a tile that
 * holds a head knows its inclusive prefix (the part from its last head) before it looks back and
 * publishes it at once, so a look-back never walks past the nearest tile with a head; the tiles it
 * walks before that hold none and fold with op alone. The values' tile comes and goes through the
 * scan's own tile functions (core/workgroup.clh; the host keeps 8- and 16-bit values unpacked here). */

/* The run scanned from run (what precedes it in its segment), each head starting again. Held: into v,
 * for clscan_wg_store_tile; streamed: straight to out (in may equal out: each element read before it
 * is written). */
void clscan_seg_run_scan(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks,
                         __global CLSCAN_T *out, ulong first, ulong n, clscan_wg_held v[CLSCAN_WG_HELD],
                         const uint hm[CLSCAN_SEG_WORDS], CLSCAN_T run, uint exclusive, uint continues)
{
#if defined(CLSCAN_ITEMS_STREAM)
    (void)v, (void)hm;
    const uint len = clscan_len_below(first, n, CLSCAN_ITEMS);
#if defined(CLSCAN_SEG_KEY_BYTES)
    clscan_seg_mark key = clscan_seg_key_before(marks, first, len);
#endif
    for (uint i = 0; i < len; i++) {
#if defined(CLSCAN_SEG_KEY_BYTES)
        const uint head = clscan_seg_head_carried(marks, first + i, &key);
#else
        const uint head = clscan_seg_head_at(marks, first + i, continues);
#endif
        const CLSCAN_T x = in[first + i];
        const CLSCAN_T before = CLSCAN_OR_IDENTITY(!head, run);
        run = CLSCAN_OP(before, x);
        out[first + i] = exclusive ? before : run;
    }
#else
    (void)in, (void)marks, (void)out, (void)first, (void)n, (void)continues;
    clscan_seg_items_scan(v, hm, run, exclusive);
#endif
}

/* The look-back's fallback (lookback.clh): tile j as a pair, from the values (src) and marks (aux;
 * sizes: n and whether element 0 continues); a tile with a head gives its inclusive prefix (closed).
 * Tile 0 without one gives it too, the carry folded in, as it publishes it: the walk ends there anyway.
 * Streams every run from global memory, as CPUs do, whatever the device. */
CLSCAN_T clscan_sp_tile_aggregate(__global const void *src, __global const void *aux, ulong j, ulong2 sizes,
                                  __local void *scratch)
{
    __global const CLSCAN_T *in = (__global const CLSCAN_T *)src;
    __global const clscan_seg_mark *marks = (__global const clscan_seg_mark *)aux;
    const ulong first = j * CLSCAN_TILE + (ulong)get_local_id(0) * CLSCAN_ITEMS;
    __local clscan_seg_scratch *s = (__local clscan_seg_scratch *)scratch;
    clscan_seg_pair total;
    clscan_seg_wg_scan(clscan_seg_run_fold(in, marks, first, sizes.s0, (uint)sizes.s1), s, &total);
    if (get_local_id(0) == 0)
        s->closed = total.head;   /* read after the fallback's barrier (lookback.clh) */
    return total.head || j > 0 ? total.value : CLSCAN_OP(s->carry, total.value);
}

/* One launch: tiles are taken from the launch's counter (lookback.clh). A tile with a head publishes
 * its inclusive prefix at once; one without publishes its total, looks back and publishes its
 * prefix. Either looks back (unless its first element is a head) for the part before its first
 * head. Tile 0's prefix is the carry (the identity but where element 0 continues a segment: clscan_mpi),
 * so it publishes its inclusive prefix at once too, and the published prefixes carry it. With total
 * (clscan_mpi's first pass) nothing goes to out: the tiles with a head set total->head, and the last
 * tile stores its inclusive prefix, the slice's values from its last head on, in total->value (total
 * is zeroed by the host). num_tiles < 2^31. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_seg_scan_single_pass(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks,
                                 __global CLSCAN_T *out, __global clscan_sp_word *status, __global uint *counters,
                                 ulong n, ulong num_tiles, uint exclusive, uint epoch, uint in_place, CLSCAN_T carry,
                                 uint continues, __global clscan_seg_pair *total_out)
{
    __local uchar clscan_stage[CLSCAN_SEG_STAGE_BYTES] __attribute__((aligned(16)));
    __local clscan_seg_scratch clscan_scratch;
    __local clscan_sp_shared clscan_sh;
    __local uint clscan_next, clscan_first_head;
    const uint lid = get_local_id(0);
    if (lid == 0)
        clscan_scratch.carry = carry;   /* for the fallback; seen past clscan_sp_take_tile's barrier */
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        const ulong t = clscan_sp_take_tile(counters, epoch, &clscan_next);
        if (t >= num_tiles)
            break;
        const ulong base = t * CLSCAN_TILE;
        clscan_wg_held v[CLSCAN_WG_HELD];
        uint hm[CLSCAN_SEG_WORDS];
        clscan_seg_pair total, excl = clscan_seg_tile_up(in, marks, base, n, v, hm, clscan_stage, &clscan_scratch,
                                                         &clscan_first_head, &total, continues);
        const uint known = total.head || t == 0;   /* its inclusive prefix needs no look-back */
        CLSCAN_T prefix = CLSCAN_OR_IDENTITY(t == 0, carry);
        if (lid == 0)
            clscan_sp_publish(status, t, known ? CLSCAN_SP_FLAG_P : CLSCAN_SP_FLAG_A, epoch,
                              known && !total.head ? CLSCAN_OP(carry, total.value) : total.value);
        if (!clscan_first_head && t > 0)
            prefix = clscan_sp_look_back(in, marks, (ulong2)(n, (ulong)continues), status, t, epoch, in_place,
                                         &counters[2], &clscan_sh, &clscan_scratch);
        if (!known && lid == 0)
            clscan_sp_publish(status, t, CLSCAN_SP_FLAG_P, epoch, CLSCAN_OP(prefix, total.value));
        if (total_out) {
            if (lid == 0 && total.head)
                atomic_or(&total_out->head, 1u);
            if (lid == 0 && t + 1 == num_tiles)
                total_out->value = total.head ? total.value : CLSCAN_OP(prefix, total.value);
            continue;
        }
        clscan_sp_published_group(in_place);   /* before the tile's outputs (lookback.clh, "in place") */
        const CLSCAN_T run = excl.head ? excl.value : CLSCAN_OP(prefix, excl.value);
        clscan_seg_run_scan(in, marks, out, base + (ulong)lid * CLSCAN_ITEMS, n, v, hm, run, exclusive, continues);
#if !defined(CLSCAN_ITEMS_STREAM)
        clscan_wg_store_tile(out, base, n, v, (__local CLSCAN_T *)clscan_stage);
#endif
    }
}
