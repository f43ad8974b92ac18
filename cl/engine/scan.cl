/* Device-wide scan kernels, each work-group striding over tiles so any n fits any grid.
 * Block-sum: clscan_scan_tiles scans each tile and records its total; the totals are scanned the same way
 * (recursively) and clscan_add_offsets folds each tile's exclusive prefix back in.
 * Reduce-then-scan: clscan_reduce_tiles records each tile's total; the totals are scanned (exclusive; by
 * clscan_scan_one_group when they are few);
 * clscan_scan_tiles then scans each tile seeded with its prefix, so the output is written only once.
 * Single-pass: clscan_scan_single_pass reads and writes each element once; tiles find their prefix by
 * decoupled look-back (lookback.clh) over status words published by the tiles before them. */

/* A scan's initial value: element 0 of seed_buf where that is not NULL (written on the device by an
 * earlier command: clscan_*_scan_init), else seed. A function, not a macro: its return type undoes
 * ?:'s promotion of 8/16-bit types, where a cast would refuse registered struct types. */
CLSCAN_T clscan_seed(__global const CLSCAN_T *seed_buf, CLSCAN_T seed)
{
    return seed_buf ? seed_buf[0] : seed;
}

/* tile_totals (may be NULL) receives each tile's total (without the seed). Every tile is seeded with
 * the seed (clscan_seed), combined with its prefix from tile_prefix where that is not NULL: the
 * identity for a plain scan, the caller's initial value, the total of the slices before this one when
 * a scan is split across devices (clscan_mpi). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_scan_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global CLSCAN_T *tile_totals,
                       __global const CLSCAN_T *tile_prefix, ulong n, ulong num_tiles, uint exclusive,
                       CLSCAN_T seed_value, __global const CLSCAN_T *seed_buf)
{
    __local CLSCAN_T clscan_tile[CLSCAN_TILE_LOCAL] CLSCAN_TILE_ALIGNED;
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL];
    const CLSCAN_T seed = clscan_seed(seed_buf, seed_value);
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T tile_seed = tile_prefix ? CLSCAN_OP(seed, tile_prefix[t]) : seed;
        CLSCAN_T total = clscan_wg_scan_tile(in, out, t * CLSCAN_TILE, n, exclusive, tile_seed, clscan_tile,
                                             clscan_scratch);
        if (tile_totals && get_local_id(0) == 0)
            tile_totals[t] = total;
    }
}

/* One work-group scans all of in, tile after tile, each seeded with the total of the tiles before it:
 * one launch where block-sum needs three, for short arrays (reduce-then-scan's tile totals). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_scan_one_group(__global const CLSCAN_T *in, __global CLSCAN_T *out, ulong n, uint exclusive)
{
    __local CLSCAN_T clscan_tile[CLSCAN_TILE_LOCAL] CLSCAN_TILE_ALIGNED;
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL];
    CLSCAN_T carry = CLSCAN_IDENTITY;
    for (ulong base = 0; base < n; base += CLSCAN_TILE)
        carry = CLSCAN_OP(carry,
                          clscan_wg_scan_tile(in, out, base, n, exclusive, carry, clscan_tile, clscan_scratch));
}

/* out[i] = prefix[tile of i] op out[i] for the tiles from first_tile on; prefix holds each tile's exclusive
 * prefix (tile 0's is the identity, and first_tile 1, unless the scan has an initial value). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_add_offsets(__global CLSCAN_T *out, __global const CLSCAN_T *prefix, ulong n, ulong num_tiles,
                        ulong first_tile)
{
    for (ulong t = get_group_id(0) + first_tile; t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T p = prefix[t];
        for (uint i = 0; i < CLSCAN_ITEMS; i++) {
            ulong g = t * CLSCAN_TILE + i * CLSCAN_WG_SIZE + get_local_id(0);
            if (g < n)
                out[g] = CLSCAN_OP(p, out[g]);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_reduce_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *tile_totals, ulong n, ulong num_tiles)
{
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SIZE];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T total = clscan_wg_reduce_tile(in, t * CLSCAN_TILE, n, clscan_scratch);
        if (get_local_id(0) == 0)
            tile_totals[t] = total;
    }
}

/* The look-back's fallback (lookback.clh): tile j reduced from the input. */
CLSCAN_T clscan_sp_tile_aggregate(__global const void *src, ulong j, ulong n, __local CLSCAN_T *scratch)
{
    return clscan_wg_reduce_tile((__global const CLSCAN_T *)src, j * CLSCAN_TILE, n, scratch);
}

/* One launch: work-groups take tiles from the launch's counter (lookback.clh), publish, look back,
 * write. num_tiles < 2^31. The published prefixes leave out the seed (clscan_seed; the identity for a
 * plain scan), which goes first into each tile's outputs: the look-back and its fallback, which
 * reduces tiles from the input, agree on what a prefix is. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_scan_single_pass(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global clscan_sp_word *status,
                             __global uint *counters, ulong n, ulong num_tiles, uint exclusive, uint epoch,
                             uint in_place, CLSCAN_T seed_value, __global const CLSCAN_T *seed_buf)
{
    __local CLSCAN_T clscan_tile[CLSCAN_TILE_LOCAL] CLSCAN_TILE_ALIGNED;
    __local CLSCAN_T clscan_scratch[CLSCAN_WG_SCAN_LOCAL > CLSCAN_WG_SIZE ? CLSCAN_WG_SCAN_LOCAL : CLSCAN_WG_SIZE];
    __local clscan_sp_shared clscan_sh;
    __local uint clscan_next;
    const uint lid = get_local_id(0);
    clscan_sp_launch_start(counters, epoch);
    for (ulong t = num_tiles;;) {
        t = clscan_sp_take_tile_last(counters, epoch, &clscan_next, t, num_tiles);
        if (t >= num_tiles)
            break;
        clscan_wg_held v[CLSCAN_WG_HELD];
        CLSCAN_T total;
        CLSCAN_T excl = clscan_wg_tile_up(in, t * CLSCAN_TILE, n, v, clscan_tile, clscan_scratch, &total);
        CLSCAN_T prefix = CLSCAN_IDENTITY;
        if (t > 0) {
            if (lid == 0)
                clscan_sp_publish(status, t, CLSCAN_SP_FLAG_A, epoch, total);
            prefix = clscan_sp_look_back(in, n, status, t, epoch, in_place, &counters[2], &clscan_sh, clscan_scratch);
        }
        if (lid == 0)
            clscan_sp_publish(status, t, CLSCAN_SP_FLAG_P, epoch, CLSCAN_OP(prefix, total));
        clscan_sp_published_group(in_place);   /* before the tile's outputs (lookback.clh, "in place") */
        /* The seed read again each tile, not held across the loop: a registered type takes up to 128
         * bytes of registers, in the kernel where registers bound the tile. */
        const CLSCAN_T before = CLSCAN_OP(clscan_seed(seed_buf, seed_value), CLSCAN_OP(prefix, excl));
        clscan_wg_tile_down(in, out, t * CLSCAN_TILE, n, v, before, exclusive, clscan_tile);
    }
}
