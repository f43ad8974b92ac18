/* Summed-area tables on GPUs in one launch (clscan_sat_single_pass): groups take bands in the order of
 * an atomic counter and walk them left to right, each column's sum over the rows above the band from
 * the column look-back; the image is read and written once. Wins on small images, where its chain of
 * look-backs down the bands is short (src/prims/sat.c). */
/* Band b of the table, left to right in chunks of CLSCAN_SAT_ROWS x CLSCAN_WG_SIZE: work-item i loads column i of
 * a chunk (coalesced rows) and sums down it, publishes the column's band total, looks back for its
 * sum over the bands above, publishes their sum, and clscan_sat_chunk does the rest, carrying every row's
 * sum from chunk to chunk. tile, runs and carry are the kernel's local arrays. */
void clscan_sat_band(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global clscan_sp_word *status,
                     __global uint *counters, ulong b, ulong width, ulong height, ulong num_bands, uint epoch,
                     uint in_place, __local CLSCAN_T *tile, __local CLSCAN_T *runs, __local CLSCAN_T *carry)
{
    const uint lid = get_local_id(0), rows = clscan_sat_band_rows(b, height);
    const ulong y0 = b * CLSCAN_SAT_ROWS;
    barrier(CLK_LOCAL_MEM_FENCE);   /* the last band's carry[] is written */
    if (lid < CLSCAN_SAT_ROWS)
        carry[lid] = CLSCAN_IDENTITY;
    CLSCAN_T col[CLSCAN_SAT_ROWS];
    CLSCAN_T ahead[CLSCAN_SAT_ROWS];
    clscan_sp_column look = {in, status, &counters[2], 0, b, num_bands, CLSCAN_SAT_ROWS, width, 0, epoch, in_place, 0};
    clscan_sat_load_column(in, col, y0, rows, lid, width);
    for (ulong x0 = 0; x0 < width; x0 += CLSCAN_WG_SIZE) {
        const ulong x = x0 + lid;
        const CLSCAN_T sum = clscan_sat_column_prefix(col);
        /* The next chunk's loads go out now and land while this chunk looks back and scans. */
        clscan_sat_load_column(in, ahead, y0, rows, x + CLSCAN_WG_SIZE, width);
        CLSCAN_T above = CLSCAN_IDENTITY;
        if (x < width && b > 0) {
            clscan_sp_publish(status, b * width + x, CLSCAN_SP_FLAG_A, epoch, sum);
            above = clscan_sp_column_look_back(status, &look, b, width, x, epoch, in_place);
        }
        if (x < width && b + 1 < num_bands)
            clscan_sp_publish(status, b * width + x, CLSCAN_SP_FLAG_P, epoch, CLSCAN_OP(above, sum));
        clscan_sat_chunk(out, col, above, y0, rows, x, width, 1, tile, runs, carry);
        for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
            col[r] = ahead[r];
    }
}

/* One launch: work-groups take bands in the order of an atomic counter and look back down each
 * column over the bands above. counters as in clscan_scan_single_pass. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_single_pass(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global clscan_sp_word *status,
                            __global uint *counters, ulong width, ulong height, ulong num_bands, uint epoch,
                            uint in_place)
{
    __local CLSCAN_T clscan_tile[CLSCAN_PAD(CLSCAN_SAT_ROWS * CLSCAN_WG_SIZE)];
    __local CLSCAN_T clscan_runs[CLSCAN_WG_SIZE];       /* each run's total */
    __local CLSCAN_T clscan_carry[CLSCAN_SAT_ROWS];     /* each row's sum left of the chunk */
    __local uint clscan_next;
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        const ulong b = clscan_sp_take_tile(counters, epoch, &clscan_next);
        if (b >= num_bands)
            break;
        clscan_sat_band(in, out, status, counters, b, width, height, num_bands, epoch, in_place, clscan_tile,
                        clscan_runs, clscan_carry);
    }
}

