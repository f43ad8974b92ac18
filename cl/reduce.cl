/* Device-wide reduction in one launch. reduce_all folds tiles t = group, group + groups, ... of in
 * into one value per work-group (each work-item keeps its running fold in a register across all its
 * tiles, so the group combines only once), publishes it as a tagged status word (lookback.clh), and
 * counts itself done; the group that finishes last folds every group's value into result[0]. No
 * second launch: the value is ready when the kernel ends. */
#define REDUCE_READS 4   /* the host launches at most 8 groups a compute unit: 1056 on the H100 */

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_all(__global const CLSCAN_T *in, __global CLSCAN_T *result, __global sp_word *status,
                __global uint *counters, ulong n, ulong num_tiles, uint epoch)
{
    __local CLSCAN_T scratch[WG_SIZE];
    __local uint last;
    const uint lid = get_local_id(0), groups = get_num_groups(0);
    sp_launch_start(counters, epoch);
    CLSCAN_T acc = CLSCAN_IDENTITY;
    for (ulong t = get_group_id(0); t < num_tiles; t += groups)
        acc = CLSCAN_OP(acc, wg_tile_partial(in, t * TILE, n));
    CLSCAN_T total = wg_reduce(acc, scratch);
    if (lid == 0) {
        sp_publish(status, get_group_id(0), SP_FLAG_P, epoch, total);
        last = atomic_inc(&counters[epoch & 1]) == groups - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!last)
        return;
    /* Every other group has published before counting itself: its word is written, if not yet seen
     * here, so the waits below end without any scheduling promise. A work-item's reads go out
     * REDUCE_READS at once (one round trip, not one each). Folded in group order, the float result
     * does not depend on which group came last. */
    acc = CLSCAN_IDENTITY;
    for (uint g0 = 0; g0 < groups; g0 += REDUCE_READS * WG_SIZE) {
        CLSCAN_T v[REDUCE_READS];
        int seen[REDUCE_READS];
        for (uint k = 0; k < REDUCE_READS; k++) {
            const uint g = g0 + k * WG_SIZE + lid;
            v[k] = CLSCAN_IDENTITY;
            seen[k] = g >= groups || sp_read_slot(status, g, SP_FLAG_P, epoch, &v[k]);
        }
        for (uint k = 0; k < REDUCE_READS; k++) {
            while (!seen[k])
                seen[k] = sp_read_slot(status, g0 + k * WG_SIZE + lid, SP_FLAG_P, epoch, &v[k]);
            acc = CLSCAN_OP(acc, v[k]);
        }
    }
    total = wg_reduce(acc, scratch);
    if (lid == 0)
        result[0] = total;
}
