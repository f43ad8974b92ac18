/* Summed-area table, in two passes over a row-major width x height image (in the scan program: ADD).
 * sat_rows: each work-group takes whole rows and scans each one tile after tile, carrying the row's
 * running total. sat_cols: each work-item takes whole columns and adds down them; neighbouring
 * work-items hold neighbouring columns, so every row step is one coalesced access. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sat_rows(__global const CLSCAN_T *in, __global CLSCAN_T *out, ulong width, ulong height)
{
    __local CLSCAN_T tile[TILE_LOCAL];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL];
    for (ulong y = get_group_id(0); y < height; y += get_num_groups(0)) {
        const ulong start = y * width, end = start + width;
        CLSCAN_T carry = CLSCAN_IDENTITY;
        for (ulong base = start; base < end; base += TILE)
            carry = CLSCAN_OP(carry, wg_scan_tile(in, out, base, end, 0, carry, tile, scratch));
    }
}

__kernel void sat_cols(__global CLSCAN_T *out, ulong width, ulong height)
{
    for (ulong x = get_global_id(0); x < width; x += get_global_size(0)) {
        CLSCAN_T acc = CLSCAN_IDENTITY;
        for (ulong y = 0; y < height; y++) {
            acc = CLSCAN_OP(acc, out[y * width + x]);
            out[y * width + x] = acc;
        }
    }
}
