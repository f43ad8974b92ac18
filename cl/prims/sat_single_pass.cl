/* Summed-area tables on GPUs in one launch (clscan_sat_single_pass): groups take bands in the order of
 * an atomic counter and walk them left to right, each column's sum over the rows above the band from
 * the column look-back; the image is read and written once. Wins on small images, where its chain of
 * look-backs down the bands is short (src/prims/sat.c). */
/* The look-back of this path, its own: through the column walk of cl/engine/lookback.clh (its hooks
 * and their state) the float 16384 x 16384 table took 2.6-4.2% longer on the H200 (bench/notebook.md,
 * 2026-11-26). Its reads, forced-fallback rule and recheck are those of clscan_sp_seen and
 * clscan_sp_settle, written out for bands of CLSCAN_SAT_ROWS rows. */
/* In place (the host builds this program with CLSCAN_SAT_IN_PLACE for in-place tables) a column is
 * fenced after its publishes and before its stores, and a fallback's input reads before its status
 * reads (lookback.clh, "in place"). Out of place they compile away: even behind a branch they cost
 * 2-2.5% at 16384 x 16384 on the H100. */
#if defined(CLSCAN_SAT_IN_PLACE)
#define CLSCAN_SAT_ORDERED 1u
#else
#define CLSCAN_SAT_ORDERED 0u
#endif
#define CLSCAN_SAT_WINDOW 1           /* bands a look-back round reads (2 / 4 / 8 were slower: docs/design.md) */

/* One look-back round: both slots of bands j, j-1, .. j-CLSCAN_SAT_WINDOW+1 read at once (one round trip,
 * not one for the inclusive prefix and another for the aggregate), then folded into *acc from the
 * nearest band on while they are published: an aggregate is folded and the walk goes on, an
 * inclusive prefix is folded and ends it (*done). Returns the bands used. The arrays have constant
 * indices once unrolled, so they stay in registers. Forced (tests): aggregates count as unpublished. */
uint clscan_sat_window(__global clscan_sp_word *status, long j, ulong x, ulong width, uint epoch, CLSCAN_T *acc,
                       int *done)
{
    CLSCAN_T p[CLSCAN_SAT_WINDOW], a[CLSCAN_SAT_WINDOW];
    int has_p[CLSCAN_SAT_WINDOW], has_a[CLSCAN_SAT_WINDOW];
#pragma unroll   /* a C99 pragma a compiler may ignore; NVIDIA and clang unroll */
    for (int q = 0; q < CLSCAN_SAT_WINDOW; q++) {
        const int live = j - q >= 0;
        const ulong slot = (ulong)(j - q) * width + x;
        has_p[q] = live && clscan_sp_read_slot(status, slot, CLSCAN_SP_FLAG_P, epoch, &p[q]);
#if defined(CLSCAN_SP_FORCE_FALLBACK)
        has_a[q] = 0;
#else
        has_a[q] = live && clscan_sp_read_slot(status, slot, CLSCAN_SP_FLAG_A, epoch, &a[q]);
#endif
    }
    uint used = 0;
    int walking = 1;
#pragma unroll
    for (int q = 0; q < CLSCAN_SAT_WINDOW; q++) {
        if (walking && has_p[q])
            *acc = CLSCAN_OP(p[q], *acc), used++, *done = 1, walking = 0;
        else if (walking && has_a[q])
            *acc = CLSCAN_OP(a[q], *acc), used++;
        else
            walking = 0;
    }
    return used;
}

/* The sum of column x over bands 0 .. b-1, walked back CLSCAN_SAT_WINDOW bands a round (clscan_sat_window); a band
 * that stays unpublished for CLSCAN_SP_SPIN_LIMIT rounds is added up from the input instead, then a value it
 * published meanwhile wins (in place, its input may be gone). Each work-item walks its own column:
 * nothing here waits on the rest of the group. Forced (tests): the nearest band is always added up
 * from the input, and out of place that sum is used even where the band has published, so that it
 * is what is tested. */
CLSCAN_T clscan_sat_look_back(__global const CLSCAN_T *in, __global clscan_sp_word *status, ulong b, ulong x,
                              ulong width, uint epoch, uint in_place, __global uint *fallbacks)
{
    CLSCAN_T acc = CLSCAN_IDENTITY, v;
    long j = (long)b - 1;
    uint spins = 0;
#if defined(CLSCAN_SP_FORCE_FALLBACK)
    const long forced_band = j;
    const int trust = in_place;
#else
    const long forced_band = -1;
    const int trust = 1;
#endif
    while (j >= 0) {
        int done = 0;
        const uint used = j == forced_band ? 0 : clscan_sat_window(status, j, x, width, epoch, &acc, &done);
        if (done)
            return acc;
        if (used) {
            j -= used, spins = 0;
            continue;
        }
        if (j != forced_band && ++spins <= CLSCAN_SP_SPIN_LIMIT)
            continue;
        const ulong slot = (ulong)j * width + x;
        CLSCAN_T agg = clscan_sat_band_column(in, (ulong)j, CLSCAN_SAT_ROWS, x, width);
        atomic_inc(fallbacks);
        if (CLSCAN_SAT_ORDERED)
            read_mem_fence(CLK_GLOBAL_MEM_FENCE);   /* as clscan_sp_settle: the input's reads first */
        if (trust && clscan_sp_read_slot(status, slot, CLSCAN_SP_FLAG_P, epoch, &v))
            return CLSCAN_OP(v, acc);
        if (trust && clscan_sp_read_slot(status, slot, CLSCAN_SP_FLAG_A, epoch, &v))
            agg = v;
        acc = CLSCAN_OP(agg, acc), j--, spins = 0;
    }
    return acc;
}

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
    clscan_sat_load_column(in, col, y0, rows, lid, width);
    for (ulong x0 = 0; x0 < width; x0 += CLSCAN_WG_SIZE) {
        const ulong x = x0 + lid;
        const CLSCAN_T sum = clscan_sat_column_prefix(col);
        /* The next chunk's loads go out now and land while this chunk looks back and scans. */
        clscan_sat_load_column(in, ahead, y0, rows, x + CLSCAN_WG_SIZE, width);
        CLSCAN_T above = CLSCAN_IDENTITY;
        if (x < width && b > 0) {
            clscan_sp_publish(status, b * width + x, CLSCAN_SP_FLAG_A, epoch, sum);
            above = clscan_sat_look_back(in, status, b, x, width, epoch, in_place, &counters[2]);
        }
        if (x < width && b + 1 < num_bands)
            clscan_sp_publish(status, b * width + x, CLSCAN_SP_FLAG_P, epoch, CLSCAN_OP(above, sum));
        clscan_sp_published_item(CLSCAN_SAT_ORDERED);   /* before column x goes out */
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
    __local CLSCAN_T clscan_tile[CLSCAN_LOCAL_SAT_TILE(CLSCAN_SAT_ROWS, CLSCAN_WG_SIZE)];
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

