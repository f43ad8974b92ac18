/* Device-wide scan kernels. Block-sum: scan_tiles scans each tile and records its total;
 * the host scans the totals the same way (recursively) and add_offsets folds each tile's
 * exclusive prefix back in. Work-groups stride over tiles, so any n fits any grid. */

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void scan_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global CLSCAN_T *tile_totals,
                ulong n, ulong num_tiles, uint exclusive)
{
    __local CLSCAN_T tile[TILE_LOCAL];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T total = wg_scan_tile(in, out, t * TILE, n, exclusive, CLSCAN_IDENTITY, tile, scratch);
        if (tile_totals && get_local_id(0) == 0)
            tile_totals[t] = total;
    }
}

/* out[i] = prefix[tile of i] op out[i]; prefix holds each tile's exclusive prefix (tile 0: identity). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void add_offsets(__global CLSCAN_T *out, __global const CLSCAN_T *prefix, ulong n, ulong num_tiles)
{
    for (ulong t = get_group_id(0) + 1; t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T p = prefix[t];
        for (uint i = 0; i < ITEMS; i++) {
            ulong g = t * TILE + i * WG_SIZE + get_local_id(0);
            if (g < n)
                out[g] = CLSCAN_OP(p, out[g]);
        }
    }
}
