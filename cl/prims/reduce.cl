/* Device-wide reduction in one launch. clscan_reduce_all folds tiles of in into one value per work-group (each
 * work-item keeps its running fold in a register across all its tiles, so the group combines only
 * once; an operator whose operands keep their order combines across the group every tile), publishes it as a tagged status word (lookback.clh), and the group that finishes last folds
 * every group's value into result[0]. No second launch: the value is ready when the kernel ends.
 * Which tiles a group folds: with `taken`, those the launch's counter hands it, one at a time; else
 * tiles group, group + groups, ... (the host picks: src/prims/reduce.c). */
#define CLSCAN_REDUCE_READS 4   /* the host launches at most 8 groups a compute unit: 1056 on the H100 */

/* Folds into *acc tile `group` and then the tiles groups + k for the tickets k the launch's counter
 * hands this group, and returns the tile number past the last that ended it: every group (the host
 * launches no more than there are tiles) ends on one ticket, so the highest ticket, num_tiles - 1,
 * ends the group that finishes last. The next ticket is asked for while this tile's loads are in
 * flight. A group that reads faster takes more tiles, so the groups end together: on the H100 the
 * fixed stride left some still reading while others were done (int32 2^28: 362 against 368 us a
 * call; the first tile without a ticket, no counter round trip before the first loads: 361 against
 * 363). next: local scratch for the ticket. */
ulong clscan_reduce_taken_tiles(__global const CLSCAN_T *in, ulong n, ulong num_tiles, __global uint *counters,
                                uint epoch, CLSCAN_T *acc, __local uint *next)
{
    const ulong groups = get_num_groups(0);
    ulong t = get_group_id(0);
    while (t < num_tiles) {
        if (get_local_id(0) == 0)
            *next = atomic_inc(&counters[epoch & 1]);
        *acc = CLSCAN_OP(*acc, clscan_wg_tile_partial(in, t * CLSCAN_TILE, n));
        barrier(CLK_LOCAL_MEM_FENCE);
        t = groups + *next;
        barrier(CLK_LOCAL_MEM_FENCE);   /* read by all before it is written again */
    }
    return t;
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_reduce_all(__global const CLSCAN_T *in, __global CLSCAN_T *result, __global clscan_sp_word *status,
                       __global uint *counters, ulong n, ulong num_tiles, uint epoch, uint taken)
{
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SIZE];
    __local uint clscan_last, clscan_next;
    const uint lid = get_local_id(0), groups = get_num_groups(0);
    clscan_sp_launch_start(counters, epoch);
    CLSCAN_T acc = CLSCAN_IDENTITY;
    ulong past = 0;   /* taken tiles: groups + the ticket that ended this group */
#if defined(CLSCAN_OP_ORDERED)
    /* Operands in order: each group folds a contiguous run of tiles (the host passes taken = 0), each
     * tile across the group before the next (a work-item's own fold over several tiles would put its
     * piece of the second tile before the next work-item's piece of the first). Work-item 0 keeps the
     * run's fold; the others' identities leave it as it is in the group's fold below. */
    const ulong per = (num_tiles + groups - 1) / groups, first = get_group_id(0) * per;
    for (ulong t = first; t < num_tiles && t < first + per; t++)
        acc = CLSCAN_OP(acc, clscan_wg_reduce_tile(in, t * CLSCAN_TILE, n, clscan_scratch));
    if (lid != 0)
        acc = CLSCAN_IDENTITY;
#else
    if (taken)
        past = clscan_reduce_taken_tiles(in, n, num_tiles, counters, epoch, &acc, &clscan_next);
    else
        for (ulong t = get_group_id(0); t < num_tiles; t += groups)
            acc = CLSCAN_OP(acc, clscan_wg_tile_partial(in, t * CLSCAN_TILE, n));
#endif
    CLSCAN_T total = clscan_wg_reduce(acc, clscan_scratch);
    if (lid == 0) {
        clscan_sp_publish(status, get_group_id(0), CLSCAN_SP_FLAG_P, epoch, total);
        /* Taken tiles: the group that took the highest ticket is the last; else every group counts
         * itself done. */
        clscan_last = taken ? past == groups + num_tiles - 1 : atomic_inc(&counters[epoch & 1]) == groups - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!clscan_last)
        return;
    /* Every other group has published before counting itself, or (taken tiles) holds a ticket, so it
     * is running and publishes next: its word is written or will be, if not yet seen here, and the
     * waits below end without any scheduling promise. A work-item's reads go out
     * CLSCAN_REDUCE_READS at once (one round trip, not one each). Folded in group order, the float result
     * does not depend on which group came last. */
    acc = CLSCAN_IDENTITY;
#if defined(CLSCAN_OP_ORDERED)   /* each work-item a contiguous run of groups */
    const uint run = (groups + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE;
    for (uint g = lid * run; g < groups && g < (lid + 1) * run; g++) {
        CLSCAN_T v = CLSCAN_IDENTITY;
        while (!clscan_sp_read_slot(status, g, CLSCAN_SP_FLAG_P, epoch, &v))
            ;
        acc = CLSCAN_OP(acc, v);
    }
#else
    for (uint g0 = 0; g0 < groups; g0 += CLSCAN_REDUCE_READS * CLSCAN_WG_SIZE) {
        CLSCAN_T v[CLSCAN_REDUCE_READS];
        int seen[CLSCAN_REDUCE_READS];
        for (uint k = 0; k < CLSCAN_REDUCE_READS; k++) {
            const uint g = g0 + k * CLSCAN_WG_SIZE + lid;
            v[k] = CLSCAN_IDENTITY;
            seen[k] = g >= groups || clscan_sp_read_slot(status, g, CLSCAN_SP_FLAG_P, epoch, &v[k]);
        }
        for (uint k = 0; k < CLSCAN_REDUCE_READS; k++) {
            while (!seen[k])
                seen[k] = clscan_sp_read_slot(status, g0 + k * CLSCAN_WG_SIZE + lid, CLSCAN_SP_FLAG_P, epoch, &v[k]);
            acc = CLSCAN_OP(acc, v[k]);
        }
    }
#endif
    total = clscan_wg_reduce(acc, clscan_scratch);
    if (lid == 0)
        result[0] = total;
}
