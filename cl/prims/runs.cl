/* Runs of equal consecutive keys (clscan_reduce_by_key, clscan_run_length_encode, clscan_unique), in
 * the segmented scan's program (its keys, pairs and look-back: segmented.clh, segscan.cl). A run is a
 * segment by key; run r's key goes to keys_out[r] from its head, and its reduction to out[r] from the
 * head of run r + 1, where the segmented scan's running value is run r's whole reduction (the last
 * run's from element n - 1). Two launches: clscan_runs_count_tiles counts each tile's heads, the host
 * scans those counts, then clscan_runs_single_pass scans the tile by key, looking back for the part
 * of its first run that lies in earlier tiles, and knows every head's run index from the counts.
 * Values in == NULL count ones (run lengths); out == NULL (unique) writes keys only and never looks
 * back. */

/* counts[t]: the heads in tile t, read coalesced. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_runs_count_tiles(__global const clscan_seg_mark *marks, __global ulong *counts, ulong n, ulong num_tiles)
{
    __local uint clscan_heads;
    const uint lid = get_local_id(0);
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        if (lid == 0)
            clscan_heads = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        uint mine = 0;
        for (uint i = 0; i < CLSCAN_ITEMS; i++) {
            const ulong g = t * CLSCAN_TILE + i * CLSCAN_WG_SIZE + lid;
            mine += g < n && clscan_seg_head_at(marks, g);
        }
        atomic_add(&clscan_heads, mine);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            counts[t] = clscan_heads;
        barrier(CLK_LOCAL_MEM_FENCE);   /* read before the next tile clears it */
    }
}

/* The work-item's CLSCAN_ITEMS consecutive elements from first: each head gives its key to keys_out and
 * the run before it its reduction (running, the segmented scan's value before the work-item's first
 * element); element n - 1 gives the last run's. heads: the heads before first. Held: values and head
 * bits from registers; streamed: both from global memory. */
void clscan_runs_write(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks,
                       __global clscan_seg_mark *keys_out, __global CLSCAN_T *out, ulong first, ulong n,
                       const clscan_wg_held v[CLSCAN_WG_HELD], const uint hm[CLSCAN_SEG_WORDS], CLSCAN_T running,
                       ulong heads)
{
    const uint len = clscan_seg_len(first, n);
    for (uint i = 0; i < len; i++) {
        const ulong g = first + i;
#if defined(CLSCAN_ITEMS_STREAM)
        (void)v, (void)hm;
        const uint head = clscan_seg_head_at(marks, g);
        const CLSCAN_T x = !out ? CLSCAN_IDENTITY : in ? in[g] : CLSCAN_SEG_ONE;
#else
        (void)in;
        const uint head = CLSCAN_SEG_BIT(hm, i);
        const CLSCAN_T x = v[i];
#endif
        if (head) {
            if (out && heads > 0)
                out[heads - 1] = running;
            keys_out[heads++] = marks[g];
        }
        running = head ? x : CLSCAN_OP(running, x);
        if (out && g + 1 == n)
            out[heads - 1] = running;
    }
}

/* Over max(1, tiles) tiles taken from the launch's counter (lookback.clh); incl[t]: the heads in tiles
 * 0 .. t. A tile with a head publishes its inclusive prefix at once, one without its total, then its
 * prefix after looking back (as clscan_seg_scan_single_pass); every tile but the first looks back, since
 * a head that starts a tile writes the whole run before it. The last tile leaves the number of runs
 * in runs_out where that is not NULL (the _async forms). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_runs_single_pass(__global const CLSCAN_T *in, __global const clscan_seg_mark *marks,
                             __global clscan_seg_mark *keys_out, __global CLSCAN_T *out, __global const ulong *incl,
                             __global clscan_sp_word *status, __global uint *counters, ulong n, ulong num_tiles,
                             uint epoch, __global ulong *runs_out)
{
    __local uchar clscan_stage[CLSCAN_SEG_STAGE_BYTES] __attribute__((aligned(16)));
    __local clscan_seg_scratch clscan_scratch;
    __local clscan_sp_shared clscan_sh;
    __local uint clscan_next, clscan_first_head;
    const uint lid = get_local_id(0);
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        const ulong t = clscan_sp_take_tile(counters, epoch, &clscan_next);
        if (t >= num_tiles)
            break;
        if (runs_out && lid == 0 && t + 1 == num_tiles)
            runs_out[0] = incl[num_tiles - 1];
        const ulong base = t * CLSCAN_TILE;
        clscan_wg_held v[CLSCAN_WG_HELD];
        uint hm[CLSCAN_SEG_WORDS];
        clscan_seg_pair total, excl = clscan_seg_tile_up(out ? in : NULL, marks, base, n, v, hm, clscan_stage,
                                                         &clscan_scratch, &clscan_first_head, &total);
        CLSCAN_T prefix = CLSCAN_IDENTITY;
        if (out) {   /* the same for the whole launch */
            if (lid == 0)
                clscan_sp_publish(status, t, total.head ? CLSCAN_SP_FLAG_P : CLSCAN_SP_FLAG_A, epoch, total.value);
            if (t > 0)   /* even from a head, which writes the run before it, whole */
                prefix = clscan_sp_look_back(in, marks, (ulong2)(n, 0), status, t, epoch, 0, &counters[2], &clscan_sh,
                                             &clscan_scratch);
            if (!total.head && lid == 0)
                clscan_sp_publish(status, t, CLSCAN_SP_FLAG_P, epoch, CLSCAN_OP(prefix, total.value));
        }
        const CLSCAN_T running = excl.head ? excl.value : CLSCAN_OP(prefix, excl.value);
        clscan_runs_write(in, marks, keys_out, out, base + (ulong)lid * CLSCAN_ITEMS, n, v, hm, running,
                          (t > 0 ? incl[t - 1] : 0) + excl.head);
    }
}
