/* Device-wide reduction. reduce_partials folds tiles t = group, group + groups, ... of in into one
 * value per work-group; the host launches it again over the partials until one value is left. Each
 * work-item keeps its running fold in a register across all its tiles, so the group combines only
 * once, at the end. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_partials(__global const CLSCAN_T *in, __global CLSCAN_T *partials, ulong n, ulong num_tiles)
{
    __local CLSCAN_T scratch[WG_SIZE];
    CLSCAN_T acc = CLSCAN_IDENTITY;
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0))
        acc = CLSCAN_OP(acc, wg_tile_partial(in, t * TILE, n));
    CLSCAN_T total = wg_reduce(acc, scratch);
    if (get_local_id(0) == 0)
        partials[get_group_id(0)] = total;
}
