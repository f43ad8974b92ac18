/* Device-wide scan kernels, each work-group striding over tiles so any n fits any grid.
 * Block-sum: scan_tiles scans each tile and records its total; the totals are scanned the same way
 * (recursively) and add_offsets folds each tile's exclusive prefix back in.
 * Reduce-then-scan: reduce_tiles records each tile's total; the totals are scanned (exclusive; by
 * scan_one_group when they are few);
 * scan_tiles then scans each tile seeded with its prefix, so the output is written only once.
 * Single-pass: scan_single_pass reads and writes each element once; tiles find their prefix by
 * decoupled look-back (lookback.clh) over status words published by the tiles before them. */

/* tile_totals (may be NULL) receives each tile's total (without the seed). Every tile is seeded with
 * seed, combined with its prefix from tile_prefix where that is not NULL: the identity for a plain
 * scan, the total of the slices before this one when a scan is split across devices (clscan_mpi). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void scan_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global CLSCAN_T *tile_totals,
                __global const CLSCAN_T *tile_prefix, ulong n, ulong num_tiles, uint exclusive, CLSCAN_T seed)
{
    __local CLSCAN_T tile[TILE_LOCAL];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T tile_seed = tile_prefix ? CLSCAN_OP(seed, tile_prefix[t]) : seed;
        CLSCAN_T total = wg_scan_tile(in, out, t * TILE, n, exclusive, tile_seed, tile, scratch);
        if (tile_totals && get_local_id(0) == 0)
            tile_totals[t] = total;
    }
}

/* One work-group scans all of in, tile after tile, each seeded with the total of the tiles before it:
 * one launch where block-sum needs three, for short arrays (reduce-then-scan's tile totals). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void scan_one_group(__global const CLSCAN_T *in, __global CLSCAN_T *out, ulong n, uint exclusive)
{
    __local CLSCAN_T tile[TILE_LOCAL];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL];
    CLSCAN_T carry = CLSCAN_IDENTITY;
    for (ulong base = 0; base < n; base += TILE)
        carry = CLSCAN_OP(carry, wg_scan_tile(in, out, base, n, exclusive, carry, tile, scratch));
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

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *tile_totals, ulong n, ulong num_tiles)
{
    __local CLSCAN_T scratch[WG_SIZE];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T total = wg_reduce_tile(in, t * TILE, n, scratch);
        if (get_local_id(0) == 0)
            tile_totals[t] = total;
    }
}

/* The look-back's fallback (lookback.clh): tile j reduced from the input. */
CLSCAN_T sp_tile_aggregate(__global const void *src, ulong j, ulong n, __local CLSCAN_T *scratch)
{
    return wg_reduce_tile((__global const CLSCAN_T *)src, j * TILE, n, scratch);
}

/* One launch: work-groups take tiles from the launch's counter (lookback.clh), publish, look back,
 * write. num_tiles < 2^31. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void scan_single_pass(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global sp_word *status,
                      __global uint *counters, ulong n, ulong num_tiles, uint exclusive, uint epoch,
                      uint in_place)
{
    __local CLSCAN_T tile[TILE_LOCAL];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL > WG_SIZE ? WG_SCAN_LOCAL : WG_SIZE];
    __local sp_shared sh;
    __local uint next;
    const uint lid = get_local_id(0);
    sp_launch_start(counters, epoch);
    for (;;) {
        const ulong t = sp_take_tile(counters, epoch, &next);
        if (t >= num_tiles)
            break;
        CLSCAN_T v[ITEMS_HELD], total;
        CLSCAN_T excl = wg_tile_up(in, t * TILE, n, v, tile, scratch, &total);
        CLSCAN_T prefix = CLSCAN_IDENTITY;
        if (t > 0) {
            if (lid == 0)
                sp_publish(status, t, SP_FLAG_A, epoch, total);
            prefix = sp_look_back(in, n, status, t, epoch, in_place, &counters[2], &sh, scratch);
        }
        if (lid == 0)
            sp_publish(status, t, SP_FLAG_P, epoch, CLSCAN_OP(prefix, total));
        wg_tile_down(in, out, t * TILE, n, v, CLSCAN_OP(prefix, excl), exclusive, tile);
    }
}
