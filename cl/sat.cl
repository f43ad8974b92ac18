/* Summed-area tables of row-major width x height images (in the scan program: ADD).
 * GPUs (SAT_BAND > 0): sat_single_pass reads and writes the image once. Work-groups take bands of
 * SAT_BAND rows in the order of an atomic counter and walk each band left to right in chunks of
 * WG_SIZE columns; a column's sum over the rows above the band comes from a decoupled look-back over
 * the bands above, column by column, with the status words of the single-pass scan.
 * CPUs: a work-item a band of rows, in three launches: column sums of each band, their exclusive scan
 * down the bands, then each band's table row after row (the row above in the core's cache), seeded
 * with the sums above it: the image is read twice and written once, all in long sequential runs. */
#ifndef SAT_BAND
#define SAT_BAND 0
#endif
#define SAT_ROWS (SAT_BAND > 0 ? SAT_BAND : 1)   /* the file compiles alone; the host never launches it so */
#define SAT_SEGS (WG_SIZE / SAT_ROWS)           /* work-items along one row of a chunk in the row phase */
#define SAT_SEG_LEN (WG_SIZE / SAT_SEGS)        /* the columns each of them scans */

/* ---- CPUs: three short launches over bands of `rows` rows, a work-item a band --------------------- */
/* sums[b][x]: column x summed over band b (the image read once, row after row). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sat_band_sums(__global const CLSCAN_T *restrict in, __global CLSCAN_T *restrict sums, ulong width,
                   ulong height, ulong rows, ulong num_bands)
{
    for (ulong b = get_global_id(0); b < num_bands; b += get_global_size(0)) {
        __global CLSCAN_T *restrict sum = sums + b * width;   /* never the image: vector adds */
        const ulong y_end = min(height, (b + 1) * rows);
        for (ulong x = 0; x < width; x++)
            sum[x] = CLSCAN_IDENTITY;
        for (ulong y = b * rows; y < y_end; y++) {
            __global const CLSCAN_T *restrict row = in + y * width;
            for (ulong x = 0; x < width; x++)
                sum[x] = CLSCAN_OP(sum[x], row[x]);
        }
    }
}

/* sums[b][x] becomes column x summed over every band above b (an exclusive scan down each column). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sat_band_offsets(__global CLSCAN_T *sums, ulong width, ulong num_bands)
{
    for (ulong x = get_global_id(0); x < width; x += get_global_size(0)) {
        CLSCAN_T acc = CLSCAN_IDENTITY;
        for (ulong b = 0; b < num_bands; b++) {
            CLSCAN_T v = sums[b * width + x];
            sums[b * width + x] = acc;
            acc = CLSCAN_OP(acc, v);
        }
    }
}

/* Each band's table in sequence: out[y][x] = (row y summed to x) + out[y-1][x], where the row above
 * the band's first one is the running sum along x of the column sums above the band. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sat_band_tables(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global const CLSCAN_T *above,
                     ulong width, ulong height, ulong rows, ulong num_bands)
{
    for (ulong b = get_global_id(0); b < num_bands; b += get_global_size(0)) {
        const ulong y0 = b * rows, y_end = min(height, y0 + rows);
        CLSCAN_T row = CLSCAN_IDENTITY, up = CLSCAN_IDENTITY;
        for (ulong x = 0; x < width; x++) {
            up = CLSCAN_OP(up, above[b * width + x]);
            row = CLSCAN_OP(row, in[y0 * width + x]);
            out[y0 * width + x] = CLSCAN_OP(up, row);
        }
        /* Four rows at a time: four independent running sums along x instead of one chain of adds
         * (each add waits on the last), the same additions in the same order. */
        ulong y = y0 + 1;
        for (; y + 4 <= y_end; y += 4) {
            CLSCAN_T r0 = CLSCAN_IDENTITY, r1 = CLSCAN_IDENTITY, r2 = CLSCAN_IDENTITY, r3 = CLSCAN_IDENTITY;
            __global CLSCAN_T *o = out + y * width;
            __global const CLSCAN_T *i = in + y * width;
            for (ulong x = 0; x < width; x++) {
                r0 = CLSCAN_OP(r0, i[x]);
                r1 = CLSCAN_OP(r1, i[width + x]);
                r2 = CLSCAN_OP(r2, i[2 * width + x]);
                r3 = CLSCAN_OP(r3, i[3 * width + x]);
                CLSCAN_T s0 = CLSCAN_OP(o[x - width], r0), s1 = CLSCAN_OP(s0, r1), s2 = CLSCAN_OP(s1, r2);
                o[x] = s0, o[width + x] = s1, o[2 * width + x] = s2, o[3 * width + x] = CLSCAN_OP(s2, r3);
            }
        }
        for (; y < y_end; y++) {
            row = CLSCAN_IDENTITY;
            for (ulong x = 0; x < width; x++) {
                row = CLSCAN_OP(row, in[y * width + x]);
                out[y * width + x] = CLSCAN_OP(out[(y - 1) * width + x], row);
            }
        }
    }
}

/* ---- GPUs: one pass ------------------------------------------------------------------------------ */
#ifndef SAT_PREFETCH
#define SAT_PREFETCH 1         /* 0 (experiments): load each chunk only when it is its turn */
#endif

/* Column x of rows y0 .. y0+rows-1 (identity past the image's edge). */
void sat_load_column(__global const CLSCAN_T *in, CLSCAN_T col[SAT_ROWS], ulong y0, uint rows, ulong x, ulong width)
{
    for (uint r = 0; r < SAT_ROWS; r++)
        col[r] = x < width && r < rows ? in[(y0 + r) * width + x] : CLSCAN_IDENTITY;
}

/* Column x of band j, added up from the input: the fallback when band j has not published it. */
CLSCAN_T sat_band_column(__global const CLSCAN_T *in, ulong j, ulong x, ulong width)
{
    CLSCAN_T acc = CLSCAN_IDENTITY;
    for (uint r = 0; r < SAT_ROWS; r++)   /* bands above the last one are whole */
        acc = CLSCAN_OP(acc, in[(j * SAT_ROWS + r) * width + x]);
    return acc;
}

/* The sum of column x over bands 0 .. b-1, walked back one band at a time: an inclusive prefix ends
 * the walk, an aggregate is folded in; a band that stays unpublished for SP_SPIN_LIMIT reads is added
 * up from the input instead, then a value it published meanwhile wins (in place, its input may be
 * gone). Each work-item walks its own column: nothing here waits on the rest of the group. (Reading
 * several bands a round, as the scan's look-back does, was slower on the H100: docs/benchmarks.md.) */
CLSCAN_T sat_look_back(__global const CLSCAN_T *in, __global sp_word *status, ulong b, ulong x, ulong width,
                       uint epoch, uint in_place, __global uint *fallbacks)
{
    CLSCAN_T acc = CLSCAN_IDENTITY, v;
    long j = (long)b - 1;
    uint spins = 0;
    /* Forced (tests): aggregates are ignored, the nearest band is always added up from the input, and
     * out of place that sum is used even where the band has published, so that it is what is tested. */
#if defined(SP_FORCE_FALLBACK)
    const int forced = 1, trust = in_place;
#else
    const int forced = 0, trust = 1;
#endif
    while (j >= 0) {
        const ulong slot = (ulong)j * width + x;
        if (!(forced && j == (long)b - 1)) {
            if (sp_read_slot(status, slot, SP_FLAG_P, epoch, &v))
                return CLSCAN_OP(v, acc);
            if (!forced && sp_read_slot(status, slot, SP_FLAG_A, epoch, &v)) {
                acc = CLSCAN_OP(v, acc), j--, spins = 0;
                continue;
            }
            if (++spins <= SP_SPIN_LIMIT)
                continue;
        }
        CLSCAN_T agg = sat_band_column(in, (ulong)j, x, width);
        atomic_inc(fallbacks);
        if (trust && sp_read_slot(status, slot, SP_FLAG_P, epoch, &v))
            return CLSCAN_OP(v, acc);
        if (trust && sp_read_slot(status, slot, SP_FLAG_A, epoch, &v))
            agg = v;
        acc = CLSCAN_OP(agg, acc), j--, spins = 0;
    }
    return acc;
}

/* One launch. A chunk is SAT_ROWS x WG_SIZE elements: work-item i loads column i of it (coalesced
 * rows) and sums down it, publishing the column's band total before its look-back; then each row is
 * scanned by SAT_SEGS work-items (a run of SAT_SEG_LEN columns each, then a segmented scan of the
 * runs' totals), carrying every row's sum from chunk to chunk; then column i goes out.
 * counters as in scan_single_pass. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sat_single_pass(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global sp_word *status,
                     __global uint *counters, ulong width, ulong height, ulong num_bands, uint epoch,
                     uint in_place)
{
    __local CLSCAN_T tile[PAD(SAT_ROWS * WG_SIZE)];
    __local CLSCAN_T runs[WG_SIZE];       /* each run's total, then their segmented inclusive scan */
    __local CLSCAN_T carry[SAT_ROWS];     /* each row's sum left of the chunk */
    __local uint next;
    const uint lid = get_local_id(0), row = lid / SAT_SEGS, seg = lid % SAT_SEGS;
    /* A run of SAT_SEG_LEN (= SAT_ROWS <= 32) columns starts at a multiple of its length, so it never
     * straddles a padding slot: its padded elements are contiguous. */
    __local CLSCAN_T *mine = tile + PAD(row * WG_SIZE + seg * SAT_SEG_LEN);
    if (get_group_id(0) == 0 && lid == 0)
        atomic_xchg(&counters[(epoch & 1) ^ 1], 0u);   /* ready for the next launch */
    for (;;) {
        if (lid == 0)
            next = atomic_inc(&counters[epoch & 1]);
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong b = next, y0 = b * SAT_ROWS;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (b >= num_bands)
            break;
        const uint rows = height - y0 < SAT_ROWS ? (uint)(height - y0) : SAT_ROWS;
        if (lid < SAT_ROWS)
            carry[lid] = CLSCAN_IDENTITY;
        CLSCAN_T col[SAT_ROWS];
#if SAT_PREFETCH
        CLSCAN_T ahead[SAT_ROWS];
#endif
        sat_load_column(in, col, y0, rows, lid, width);
        for (ulong x0 = 0; x0 < width; x0 += WG_SIZE) {
            const ulong x = x0 + lid;
            const int live = x < width;
            CLSCAN_T sum = CLSCAN_IDENTITY;
            for (uint r = 0; r < SAT_ROWS; r++)
                col[r] = sum = CLSCAN_OP(sum, col[r]);
#if SAT_PREFETCH
            /* The next chunk's loads go out now and land while this chunk looks back and scans. */
            sat_load_column(in, ahead, y0, rows, x + WG_SIZE, width);
#endif
            CLSCAN_T above = CLSCAN_IDENTITY;
            if (live && b > 0) {
                sp_publish(status, b * width + x, SP_FLAG_A, epoch, sum);
                above = sat_look_back(in, status, b, x, width, epoch, in_place, &counters[2]);
            }
            if (live && b + 1 < num_bands)
                sp_publish(status, b * width + x, SP_FLAG_P, epoch, CLSCAN_OP(above, sum));
            for (uint r = 0; r < SAT_ROWS; r++)
                tile[PAD(r * WG_SIZE + lid)] = CLSCAN_OP(above, col[r]);
            barrier(CLK_LOCAL_MEM_FENCE);
            /* The row phase: a run's total, a segmented scan of the totals along the row, the run. */
            CLSCAN_T total = CLSCAN_IDENTITY;
            for (uint i = 0; i < SAT_SEG_LEN; i++)
                total = CLSCAN_OP(total, mine[i]);
            runs[lid] = total;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint d = 1; d < SAT_SEGS; d <<= 1) {
                CLSCAN_T left = seg >= d ? runs[lid - d] : CLSCAN_IDENTITY;
                barrier(CLK_LOCAL_MEM_FENCE);
                runs[lid] = CLSCAN_OP(left, runs[lid]);
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            CLSCAN_T acc = CLSCAN_OP(carry[row], seg ? runs[lid - 1] : CLSCAN_IDENTITY);
            for (uint i = 0; i < SAT_SEG_LEN; i++)
                mine[i] = acc = CLSCAN_OP(acc, mine[i]);
            barrier(CLK_LOCAL_MEM_FENCE);   /* carry[] read, the chunk scanned */
            if (seg == SAT_SEGS - 1)
                carry[row] = acc;
            for (uint r = 0; r < rows; r++)
                if (live)
                    out[(y0 + r) * width + x] = tile[PAD(r * WG_SIZE + lid)];
            barrier(CLK_LOCAL_MEM_FENCE);   /* the tile is free for the next chunk */
#if SAT_PREFETCH
            for (uint r = 0; r < SAT_ROWS; r++)
                col[r] = ahead[r];
#else
            sat_load_column(in, col, y0, rows, x + WG_SIZE, width);
#endif
        }
    }
}
