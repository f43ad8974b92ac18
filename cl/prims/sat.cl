/* Summed-area tables of row-major width x height images (a program of their own, ADD; with the
 * status words of lookback.clh but not its tile look-back).
 * GPUs (CLSCAN_SAT_BAND > 0): tiles of CLSCAN_SAT_BAND rows (a band) x CLSCAN_WG_SIZE columns (a chunk), a
 * work-group a tile. Either single-pass (clscan_sat_single_pass: the image read and written once): a group
 * walks a band left to right, each column's sum over the rows above the band from a decoupled look-back over the
 * bands above with the status words of the single-pass scan, groups taking bands in the order of an
 * atomic counter. Or reduce-then-scan (clscan_sat_band_sums, clscan_sat_scan_sums, clscan_sat_band_carries, then
 * clscan_sat_seeded_tiles: the image read twice): every tile's table seeded from above and from the left by
 * sums made beforehand, a group walking a segment of bands down a chunk; no group waits on another
 * (its table pass may take each band in tiles of fewer rows: CLSCAN_SAT_CARRY_ROWS).
 * CPUs (clscan_sat_band_tables): one launch, a work-item a band of whole rows (about one band a core). It
 * adds up its band's columns, looks back down each column with the same status words, then writes
 * its band's table: the image is read twice and written once, all in long sequential runs. */
#ifndef CLSCAN_SAT_BAND
#define CLSCAN_SAT_BAND 0
#endif
/* Rows of a band (a band of 0 rows: the file compiles alone; the host never launches it so); work-items
 * along one row of a chunk in the row phase; the columns each of them scans; rows a work-item of
 * clscan_sat_scan_sums holds (as src/sat.c). */
#define CLSCAN_SAT_ROWS (CLSCAN_SAT_BAND > 0 ? CLSCAN_SAT_BAND : 1)
#define CLSCAN_SAT_SEGS (CLSCAN_WG_SIZE / CLSCAN_SAT_ROWS)
#define CLSCAN_SAT_SEG_LEN (CLSCAN_WG_SIZE / CLSCAN_SAT_SEGS)
#define CLSCAN_SAT_SCAN_PART 32
/* The table pass may work in tiles of fewer rows than the bands that the launches before it were
 * built for (a program of its own, src/sat.c): CLSCAN_SAT_SUB tiles a band of CLSCAN_SAT_CARRY_ROWS rows. */
#ifndef CLSCAN_SAT_CARRY_ROWS
#define CLSCAN_SAT_CARRY_ROWS CLSCAN_SAT_ROWS
#endif
#define CLSCAN_SAT_SUB (CLSCAN_SAT_CARRY_ROWS / CLSCAN_SAT_ROWS)   /* a power of two, as both are */

/* Column x of band j (bands of `rows` rows) added up from the input: the look-backs' fallback when
 * band j has not published it. Bands that are looked back at are whole: only the last is short. */
CLSCAN_T clscan_sat_band_column(__global const CLSCAN_T *in, ulong j, ulong rows, ulong x, ulong width)
{
    CLSCAN_T acc = CLSCAN_IDENTITY;
    for (ulong r = 0; r < rows; r++)
        acc = CLSCAN_OP(acc, in[(j * rows + r) * width + x]);
    return acc;
}

/* ---- CPUs: one launch, a work-item a band ---------------------------------------------------------- */
/* sums[x - x0] = column x summed over rows y0 .. y0+rows-1 for x in x0 .. width-1, row after row. */
void clscan_sat_cpu_sums(__global const CLSCAN_T *restrict in, __global CLSCAN_T *restrict sums, ulong y0,
                         ulong rows, ulong x0, ulong width)
{
    const ulong len = width - x0;
    for (ulong x = 0; x < len; x++)
        sums[x] = CLSCAN_IDENTITY;
    for (ulong y = y0; y < y0 + rows; y++) {
        __global const CLSCAN_T *restrict row = in + y * width + x0;
        for (ulong x = 0; x < len; x++)   /* independent columns: vector adds */
            sums[x] = CLSCAN_OP(sums[x], row[x]);
    }
}

/* What a work-item's look-back needs to know of its band b. */
typedef struct clscan_sat_cpu_band {
    __global const CLSCAN_T *in;
    __global clscan_sp_word *status;
    __global uint *fallbacks;
    __global CLSCAN_T *fb;   /* band b-1's column sums added up from the input, from column fb_from on */
    ulong b, num_bands, rows, width, fb_from;
    uint epoch, in_place, budget;
} clscan_sat_cpu_band;

/* Reads that may find band b-1 unpublished before the band adds up the rest of band b-1 itself. A
 * status read costs tens of ns and the fallback a second read of band b-1, a band that started
 * before this one and is at most a little behind unless its core was taken away: waiting is the
 * better bet, for a while. (Forced fallback: CLSCAN_SP_SPIN_LIMIT is 0, and so is this.) */
#define CLSCAN_SAT_CPU_SPINS (CLSCAN_SP_SPIN_LIMIT * 256)


/* Band j's sum over column x, added up from the input. Band b-1 is added up from column x to the
 * right edge at once, row after row: once it has missed one column it will miss the next ones too. */
CLSCAN_T clscan_sat_cpu_fallback(clscan_sat_cpu_band *k, ulong j, ulong x)
{
    if (j + 1 < k->b) {
        atomic_inc(k->fallbacks);
        return clscan_sat_band_column(k->in, j, k->rows, x, k->width);   /* rarely still running */
    }
    if (x < k->fb_from) {
        atomic_inc(k->fallbacks);
        clscan_sat_cpu_sums(k->in, k->fb + x, j * k->rows, k->rows, x, k->width);
        k->fb_from = x;
    }
    return k->fb[x];
}

/* The sum of column x over bands 0 .. b-1, walked back one band at a time as clscan_sat_look_back does on
 * GPUs: an inclusive prefix ends the walk, an aggregate is folded in, and a band that stays
 * unpublished is added up from the input instead; then a value it published meanwhile wins (in
 * place, its input may be gone). Band b-1 has the band's budget of reads, those above CLSCAN_SP_SPIN_LIMIT. */
CLSCAN_T clscan_sat_cpu_look_back(clscan_sat_cpu_band *k, ulong x)
{
    CLSCAN_T acc = CLSCAN_IDENTITY, v;
    long j = (long)k->b - 1;
    uint spins = 0;
    /* Forced (tests): aggregates are ignored, band b-1 is always added up from the input, and out of
     * place that sum is used even where the band has published, so that it is what is tested. */
#if defined(CLSCAN_SP_FORCE_FALLBACK)
    const int forced = 1, trust = k->in_place;
#else
    const int forced = 0, trust = 1;
#endif
    while (j >= 0) {
        const int nearest = j + 1 == (long)k->b;
        const ulong slot = (ulong)j * k->width + x;
        if (!(forced && nearest)) {
            if (clscan_sp_read_slot(k->status, slot, CLSCAN_SP_FLAG_P, k->epoch, &v))
                return CLSCAN_OP(v, acc);
            if (!forced && clscan_sp_read_slot(k->status, slot, CLSCAN_SP_FLAG_A, k->epoch, &v)) {
                acc = CLSCAN_OP(v, acc), j--, spins = 0;
                continue;
            }
            if (nearest && x < k->fb_from && k->budget > 0) {
                k->budget--;
                continue;
            }
            if (!nearest && ++spins <= CLSCAN_SP_SPIN_LIMIT)
                continue;
        }
        CLSCAN_T agg = clscan_sat_cpu_fallback(k, (ulong)j, x);
        if (trust && clscan_sp_read_slot(k->status, slot, CLSCAN_SP_FLAG_P, k->epoch, &v))
            return CLSCAN_OP(v, acc);
        if (trust && clscan_sp_read_slot(k->status, slot, CLSCAN_SP_FLAG_A, k->epoch, &v))
            agg = v;
        acc = CLSCAN_OP(agg, acc), j--, spins = 0;
    }
    return acc;
}

/* sums[x] (column x over band b) becomes column x over the bands above b. Every aggregate goes out
 * before the first look-back, so that the band after this one never waits on this one's. */
void clscan_sat_cpu_above(clscan_sat_cpu_band *k, __global CLSCAN_T *sums)
{
    const ulong slot = k->b * k->width;
    if (k->b > 0)
        for (ulong x = 0; x < k->width; x++)
            clscan_sp_publish(k->status, slot + x, CLSCAN_SP_FLAG_A, k->epoch, sums[x]);
    for (ulong x = 0; x < k->width; x++) {
        CLSCAN_T above = k->b > 0 ? clscan_sat_cpu_look_back(k, x) : CLSCAN_IDENTITY;
        if (k->b + 1 < k->num_bands)
            clscan_sp_publish(k->status, slot + x, CLSCAN_SP_FLAG_P, k->epoch, CLSCAN_OP(above, sums[x]));
        sums[x] = above;
    }
}

/* Four rows from the row above them: four independent running sums along x instead of one chain of
 * adds (each add waits on the last), the same additions in the same order. */
void clscan_sat_cpu_rows4(__global const CLSCAN_T *in, __global CLSCAN_T *out, ulong width)
{
    CLSCAN_T r0 = CLSCAN_IDENTITY, r1 = CLSCAN_IDENTITY, r2 = CLSCAN_IDENTITY, r3 = CLSCAN_IDENTITY;
    __global const CLSCAN_T *prev = out - width;
    for (ulong x = 0; x < width; x++) {
        r0 = CLSCAN_OP(r0, in[x]);
        r1 = CLSCAN_OP(r1, in[width + x]);
        r2 = CLSCAN_OP(r2, in[2 * width + x]);
        r3 = CLSCAN_OP(r3, in[3 * width + x]);
        CLSCAN_T s0 = CLSCAN_OP(prev[x], r0), s1 = CLSCAN_OP(s0, r1), s2 = CLSCAN_OP(s1, r2);
        out[x] = s0, out[width + x] = s1, out[2 * width + x] = s2, out[3 * width + x] = CLSCAN_OP(s2, r3);
    }
}

/* Rows y0 .. y0+rows-1 of the table. The first adds the running sum along x of the column sums above
 * the band, every later one the row above it (still in the core's cache). */
void clscan_sat_cpu_table(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global const CLSCAN_T *above,
                          ulong y0, ulong rows, ulong width)
{
    __global const CLSCAN_T *i = in + y0 * width;
    __global CLSCAN_T *o = out + y0 * width;
    CLSCAN_T up = CLSCAN_IDENTITY, run = CLSCAN_IDENTITY;
    for (ulong x = 0; x < width; x++) {
        up = CLSCAN_OP(up, above[x]);
        run = CLSCAN_OP(run, i[x]);
        o[x] = CLSCAN_OP(up, run);
    }
    ulong r = 1;
    for (; r + 4 <= rows; r += 4)
        clscan_sat_cpu_rows4(i + r * width, o + r * width, width);
    for (; r < rows; r++) {
        __global const CLSCAN_T *ir = i + r * width;
        __global CLSCAN_T *orow = o + r * width;
        __global const CLSCAN_T *prev = orow - width;
        run = CLSCAN_IDENTITY;
        for (ulong x = 0; x < width; x++) {
            run = CLSCAN_OP(run, ir[x]);
            orow[x] = CLSCAN_OP(prev[x], run);
        }
    }
}

/* One launch: work-items take bands of `rows` rows in the order of an atomic counter (never
 * get_global_id: a band waits only on bands some running work-item already holds). Band b's scratch
 * is 2 width elements from 2 b width: its column sums, then the fallback's sums of band b-1.
 * counters as in clscan_scan_single_pass; num_bands < 2^31. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_band_tables(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global clscan_sp_word *status,
                            __global uint *counters, __global CLSCAN_T *scratch, ulong width, ulong height,
                            ulong rows, ulong num_bands, uint epoch, uint in_place)
{
    clscan_sat_cpu_band k = {in, status, &counters[2], 0, 0, num_bands, rows, width, 0, epoch, in_place, 0};
    clscan_sp_launch_start(counters, epoch);
    for (;;) {
        k.b = atomic_inc(&counters[epoch & 1]);   /* a band a work-item, not a group */
        if (k.b >= num_bands)
            break;
        __global CLSCAN_T *sums = scratch + 2 * k.b * width;
        const ulong y0 = k.b * rows, h = min(rows, height - y0);
        k.fb = sums + width;
        k.fb_from = width;
        k.budget = CLSCAN_SAT_CPU_SPINS;
        clscan_sat_cpu_sums(in, sums, y0, h, 0, width);
        clscan_sat_cpu_above(&k, sums);
        clscan_sat_cpu_table(in, out, sums, y0, h, width);
    }
}

/* ---- GPUs: one pass ------------------------------------------------------------------------------ */
/* An element's offset in the image: 32 bits unless the host says the image has more than 2^32
 * elements (CLSCAN_SAT_WIDE). With 64-bit offsets ptxas gave the sums pass 102-110 registers a work-item,
 * with 32-bit ones 80, and the float 8192 x 8192 table on the H200 took 235 us against 240
 * (bench/notebook.md). */
#if defined(CLSCAN_SAT_WIDE)
typedef ulong clscan_sat_idx;
#else
typedef uint clscan_sat_idx;
#endif
clscan_sat_idx clscan_sat_offset(ulong y, ulong x, ulong width)
{
    return (clscan_sat_idx)y * (clscan_sat_idx)width + (clscan_sat_idx)x;
}

/* Column x of rows y0 .. y0+rows-1 (identity past the image's edge). */
void clscan_sat_load_column(__global const CLSCAN_T *in, CLSCAN_T col[CLSCAN_SAT_ROWS], ulong y0, uint rows,
                            ulong x, ulong width)
{
    for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
        col[r] = x < width && r < rows ? in[clscan_sat_offset(y0 + r, x, width)] : CLSCAN_IDENTITY;
}


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
        if (trust && clscan_sp_read_slot(status, slot, CLSCAN_SP_FLAG_P, epoch, &v))
            return CLSCAN_OP(v, acc);
        if (trust && clscan_sp_read_slot(status, slot, CLSCAN_SP_FLAG_A, epoch, &v))
            agg = v;
        acc = CLSCAN_OP(agg, acc), j--, spins = 0;
    }
    return acc;
}

/* This work-item's run of a chunk in local memory: CLSCAN_SAT_SEG_LEN columns of row lid / CLSCAN_SAT_SEGS, from
 * column (lid % CLSCAN_SAT_SEGS) * CLSCAN_SAT_SEG_LEN. A run (CLSCAN_SAT_SEG_LEN = CLSCAN_SAT_ROWS <= 32
 * columns) starts at a multiple of its length, so it never straddles a padding slot: its padded elements
 * are contiguous. */
__local CLSCAN_T *clscan_sat_run(__local CLSCAN_T *tile)
{
    const uint lid = get_local_id(0);
    return tile + CLSCAN_PAD(lid / CLSCAN_SAT_SEGS * CLSCAN_WG_SIZE + lid % CLSCAN_SAT_SEGS * CLSCAN_SAT_SEG_LEN);
}

/* The total of this work-item's run (as clscan_sat_chunk_runs reads it, for the sums pass, which keeps no
 * run). */
CLSCAN_T clscan_sat_run_total(__local CLSCAN_T *tile)
{
    __local const CLSCAN_T *mine = clscan_sat_run(tile);
    CLSCAN_T total = CLSCAN_IDENTITY;
    for (uint i = 0; i < CLSCAN_SAT_SEG_LEN; i++)
        total = CLSCAN_OP(total, mine[i]);
    return total;
}

/* A chunk to local memory and each run's total: the tile gets above + col[r] (column lid, row r),
 * and each of a row's CLSCAN_SAT_SEGS work-items adds up its run (clscan_sat_run) into runs[lid], keeping the run
 * in col[] (free by then). */
void clscan_sat_chunk_runs(CLSCAN_T col[CLSCAN_SAT_ROWS], CLSCAN_T above, __local CLSCAN_T *tile,
                           __local CLSCAN_T *runs)
{
    const uint lid = get_local_id(0);
    __local const CLSCAN_T *mine = clscan_sat_run(tile);
    for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
        tile[CLSCAN_PAD(r * CLSCAN_WG_SIZE + lid)] = CLSCAN_OP(above, col[r]);
    barrier(CLK_LOCAL_MEM_FENCE);   /* the chunk in local memory */
    CLSCAN_T total = CLSCAN_IDENTITY;
    for (uint i = 0; i < CLSCAN_SAT_SEG_LEN; i++) {
        col[i] = mine[i];
        total = CLSCAN_OP(total, col[i]);
    }
    runs[lid] = total;
    barrier(CLK_LOCAL_MEM_FENCE);   /* every run's total */
}

/* The rest of a chunk, once column x's rows of it are summed down from the top of the band in col[]
 * and `above` is the column's sum over the rows above the band: clscan_sat_chunk_runs, then each row is
 * scanned by its CLSCAN_SAT_SEGS work-items (each its run, seeded with carry[row], the row's sum left of the
 * chunk, and the totals of the runs left of its own: the same reads for all of a row's work-items, a
 * select rather than a loop of seg rounds so that no lane waits on another), and column x goes out.
 * With keep_carry the row's sum through the chunk is left in carry[] for the next chunk. Work-item i
 * reads only column i of the tile, the column it stores: the next chunk needs no barrier before it
 * writes the tile, and every other access to it lies between this chunk's barriers. */
void clscan_sat_chunk(__global CLSCAN_T *out, CLSCAN_T col[CLSCAN_SAT_ROWS], CLSCAN_T above, ulong y0, uint rows,
                      ulong x, ulong width, int keep_carry, __local CLSCAN_T *tile, __local CLSCAN_T *runs,
                      __local CLSCAN_T *carry)
{
    const uint lid = get_local_id(0), row = lid / CLSCAN_SAT_SEGS, seg = lid % CLSCAN_SAT_SEGS;
    __local CLSCAN_T *mine = clscan_sat_run(tile);
    clscan_sat_chunk_runs(col, above, tile, runs);
    CLSCAN_T acc = carry[row];
    for (uint q = 0; q + 1 < CLSCAN_SAT_SEGS; q++) {
        const CLSCAN_T left = runs[lid - seg + q];
        acc = q < seg ? CLSCAN_OP(acc, left) : acc;
    }
    for (uint i = 0; i < CLSCAN_SAT_SEG_LEN; i++)
        mine[i] = acc = CLSCAN_OP(acc, col[i]);
    barrier(CLK_LOCAL_MEM_FENCE);   /* the chunk scanned; carry[] and runs[] read */
    if (keep_carry && seg == CLSCAN_SAT_SEGS - 1)
        carry[row] = acc;
    for (uint r = 0; r < rows; r++)
        if (x < width)
            out[clscan_sat_offset(y0 + r, x, width)] = tile[CLSCAN_PAD(r * CLSCAN_WG_SIZE + lid)];
}

/* col[r] becomes the sum of col[0 .. r]; returns the last. */
CLSCAN_T clscan_sat_column_prefix(CLSCAN_T col[CLSCAN_SAT_ROWS])
{
    CLSCAN_T sum = CLSCAN_IDENTITY;
    for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
        col[r] = sum = CLSCAN_OP(sum, col[r]);
    return sum;
}

/* Rows in band b (only the last is short). */
uint clscan_sat_band_rows(ulong b, ulong height)
{
    const ulong y0 = b * CLSCAN_SAT_ROWS;
    return height - y0 < CLSCAN_SAT_ROWS ? (uint)(height - y0) : CLSCAN_SAT_ROWS;
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

/* ---- GPUs: reduce-then-scan, three or four launches ---------------------------------------------- */
/* The image in tiles of CLSCAN_SAT_ROWS x CLSCAN_WG_SIZE, tile t = b * chunks + c the chunk c of band b. The
 * launches before the last (clscan_sat_band_sums, then clscan_sat_middle, or clscan_sat_scan_sums and
 * clscan_sat_band_carries) leave it each tile's seeds: its columns' sums over the segments of bands above
 * (sums, a row a segment, scanned down the columns) and its rows' sums left of the tile from the top of the image
 * (edge(t, r): carries, CLSCAN_SAT_ROWS a tile). The passes over the image walk a
 * segment's tiles down a chunk, each group on its own: none waits on another.
 * sums has width + chunks columns and a row for every band but the last: in the first width columns
 * the segments' column sums (a row a segment), then the bands' chunk totals (a row a band). */

/* Column x of chunk c of band b (identity past the image's edge and past the last band). */
void clscan_sat_tile_column(__global const CLSCAN_T *in, uint b, uint c, ulong width, ulong height, uint num_bands,
                            CLSCAN_T col[CLSCAN_SAT_ROWS])
{
    clscan_sat_load_column(in, col, (ulong)b * CLSCAN_SAT_ROWS, b < num_bands ? clscan_sat_band_rows(b, height) : 0,
                           (ulong)c * CLSCAN_WG_SIZE + get_local_id(0), width);
}

/* Both passes over the image take tasks: task k is a segment of `seg` bands (segment k / chunks) down
 * chunk k % chunks, its tiles top to bottom in the table pass, bottom to top in the sums pass
 * (clscan_sat_sums_start). Group g takes the g-th task of its pass's order first, then the one each ticket
 * of the launch's counter gives it (clscan_sat_take_task), so that groups that find memory faster take more
 * and all end together. A column's sum over the segment so far stays in a register, so that only a
 * row of sums a segment, not a band, goes through memory and through clscan_sat_scan_sums. The host keeps
 * the tiles under 2^32: task, band and tile numbers are uint, whose divisions cost a fraction of
 * 64-bit ones. */

/* The first band and the chunk of task k (past the last task: a band past the last one). */
void clscan_sat_task_start(uint k, uint seg, uint chunks, uint *b, uint *c)
{
    const uint s = k / chunks;   /* no `%` beside the `/`: LLVM pairs them with a `freeze`, which Oclgrind cannot run */
    *b = s * seg, *c = k - s * chunks;
}

/* How many tasks there are: segments of seg bands, each down every chunk. */
uint clscan_sat_tasks(uint num_bands, uint seg, uint chunks)
{
    return (num_bands + seg - 1) / seg * chunks;
}

/* The tile a group takes after band b of its task (chunk c, bands up to b1): the next band down, else
 * the first tile of task kn, the group's next. Returns whether it starts a task. */
int clscan_sat_next_tile(uint kn, uint b, uint b1, uint c, uint seg, uint chunks, uint *nb, uint *nc)
{
    if (b + 1 < b1) {
        *nb = b + 1, *nc = c;
        return 0;
    }
    clscan_sat_task_start(kn, seg, chunks, nb, nc);
    return 1;
}

/* The number, in its pass's order, of the group's next task: groups + a ticket from the launch's
 * counter (every work-item gets it; a barrier of its own, since a task of one tile reads it before
 * any other). Group g starts with number g, without a ticket. clscan_sp_take_tile without its second
 * barrier: the task's tiles' barriers come between this read and the next write. */
uint clscan_sat_take_task(__global uint *counters, uint epoch, __local uint *next)
{
    if (get_local_id(0) == 0)
        *next = atomic_inc(&counters[epoch & 1]);
    barrier(CLK_LOCAL_MEM_FENCE);
    return get_num_groups(0) + *next;   /* read before the task's tiles' barriers: rewritten after them */
}

/* The task of number j in the sums pass's order: the last task first (the table pass takes them
 * first to last), so that what the sums pass read last is what the table pass reads first; past the
 * last task, a number past it. */
#define CLSCAN_SAT_SUMS_TASK(j, tasks) ((j) < (tasks) ? (tasks) - 1 - (j) : (tasks))

/* The tile the sums pass starts task k with: its bottom band, past the last band when there is no
 * task k. The sums pass walks each segment up, so that what it read last, still in L2 when the table
 * pass starts, is the top of every segment, where the table pass starts: float 8192 x 8192 on the
 * H100 took 316-318 us against 319-322 walking down (bench/notebook.md). */
void clscan_sat_sums_start(uint k, uint tasks, uint seg, uint chunks, uint num_bands, uint *b, uint *c)
{
    clscan_sat_task_start(k, seg, chunks, b, c);
    if (k < tasks)
        *b = min(*b + seg, num_bands) - 1;
}

/* A tile's sums (a task's tiles in turn): sums[s][x] = column x summed over segment s's bands (every
 * segment but the last), sums[b][width + c] = band b's total over chunk c (every band but the last),
 * and carries[t * CLSCAN_SAT_ROWS + r] = the sum of rows 0 .. r of the band over the chunk (every band). The
 * band's CLSCAN_SAT_ROWS loads go out at once (clscan_sat_load_column, unrolled), where the fallback's
 * clscan_sat_band_column walks a runtime number of rows. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_band_sums(__global const CLSCAN_T *in, __global CLSCAN_T *sums, __global CLSCAN_T *carries,
                          ulong width, ulong height, uint num_bands, uint seg, __global uint *counters, uint epoch)
{
    __local CLSCAN_T clscan_tile[CLSCAN_PAD(CLSCAN_SAT_ROWS * CLSCAN_WG_SIZE)];
    __local CLSCAN_T clscan_runs[CLSCAN_WG_SIZE];
    __local uint clscan_next;
    const uint lid = get_local_id(0), chunks = (uint)((width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE);
    const uint tasks = clscan_sat_tasks(num_bands, seg, chunks);
    const ulong stride = width + chunks;
    CLSCAN_T col[CLSCAN_SAT_ROWS];
    uint j = get_group_id(0), nb, nc;
    clscan_sp_launch_start(counters, epoch);
    clscan_sat_sums_start(CLSCAN_SAT_SUMS_TASK(j, tasks), tasks, seg, chunks, num_bands, &nb, &nc);
    clscan_sat_tile_column(in, nb, nc, width, height, num_bands, col);
    while (j < tasks) {
        const uint k = CLSCAN_SAT_SUMS_TASK(j, tasks), jn = clscan_sat_take_task(counters, epoch, &clscan_next);
        const uint s = k / chunks, c = k - s * chunks, b0 = s * seg, b1 = min(b0 + seg, num_bands);
        const ulong x = (ulong)c * CLSCAN_WG_SIZE + lid;
        CLSCAN_T down = CLSCAN_IDENTITY;   /* column x over the segment's bands so far */
        for (uint i = b1 - b0; i-- > 0;) {
            const uint b = b0 + i;
            const ulong t = (ulong)b * chunks + c;
            down = CLSCAN_OP(down, clscan_sat_column_prefix(col));
            /* The tile goes to local memory (read there after the barrier, rewritten only after
             * the next tile's barriers), then the next tile's loads go into the same registers
             * and land while this one's rows are added up: no second set of registers for them. */
            for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
                clscan_tile[CLSCAN_PAD(r * CLSCAN_WG_SIZE + lid)] = col[r];
            if (b > b0)
                nb = b - 1, nc = c;
            else
                clscan_sat_sums_start(CLSCAN_SAT_SUMS_TASK(jn, tasks), tasks, seg, chunks, num_bands, &nb, &nc);
            clscan_sat_tile_column(in, nb, nc, width, height, num_bands, col);
            barrier(CLK_LOCAL_MEM_FENCE);   /* the tile in local memory */
            /* Row r's prefix summed along the chunk: each run's total, then the runs of a row. */
            clscan_runs[lid] = clscan_sat_run_total(clscan_tile);
            barrier(CLK_LOCAL_MEM_FENCE);   /* every run's total; the tile read */
            if (lid < CLSCAN_SAT_ROWS) {
                CLSCAN_T edge = CLSCAN_IDENTITY;
                for (uint q = 0; q < CLSCAN_SAT_SEGS; q++)
                    edge = CLSCAN_OP(edge, clscan_runs[lid * CLSCAN_SAT_SEGS + q]);
                carries[t * CLSCAN_SAT_ROWS + lid] = edge;
                if (lid == CLSCAN_SAT_ROWS - 1 && b + 1 < num_bands)
                    sums[b * stride + width + c] = edge;
            }
            /* runs[] is next written after the next tile's first barrier, which its readers pass
             * after reading it. */
        }
        if (b1 < num_bands && x < width)
            sums[s * stride + x] = down;
        j = jn;
    }
}

/* The inclusive scan down each column of sums (rows `stride` apart), in place: columns below width
 * have seg_rows rows (the segments' column sums), the rest band_rows (the bands' chunk totals). A
 * group takes `cols` columns (a power of two dividing CLSCAN_WG_SIZE; runs of a row, coalesced) cut into
 * CLSCAN_WG_SIZE / cols parts of CLSCAN_SAT_SCAN_PART rows. Each work-item holds its part in registers (its loads go
 * out together, not one row after the last), the parts' totals are scanned in local memory, and each
 * part is written back from its prefix. Taller arrays take several such blocks of rows, each
 * column's sum carried from block to block; the host picks narrower groups for them, so that blocks
 * are few. */
/* clscan_sat_scan_sums's work on columns 0 .. end-1, as group `group` of `groups` (part_total: CLSCAN_WG_SIZE
 * elements of local memory). */
void clscan_sat_scan_columns(__global CLSCAN_T *sums, ulong stride, ulong end, ulong width, ulong seg_rows,
                             ulong band_rows, uint cols, ulong group, ulong groups, __local CLSCAN_T *part_total)
{
    const uint lid = get_local_id(0), part = lid / cols, c = lid - part * cols, parts = CLSCAN_WG_SIZE / cols;
    for (ulong x0 = group * cols; x0 < end; x0 += groups * cols) {
        const ulong x = x0 + c;
        /* The same number of blocks for the whole group (its barriers), each column its own rows. */
        const ulong rows = x0 + cols > width ? band_rows : seg_rows;
        const ulong mine = x >= end ? 0 : x < width ? seg_rows : band_rows;
        CLSCAN_T carry = CLSCAN_IDENTITY;   /* the column's sum over the blocks above */
        for (ulong y0 = 0; y0 < rows; y0 += (ulong)parts * CLSCAN_SAT_SCAN_PART) {
            const ulong r0 = y0 + part * CLSCAN_SAT_SCAN_PART;
            CLSCAN_T v[CLSCAN_SAT_SCAN_PART], acc = CLSCAN_IDENTITY;
            for (uint i = 0; i < CLSCAN_SAT_SCAN_PART; i++) {
                v[i] = r0 + i < mine ? sums[(r0 + i) * stride + x] : CLSCAN_IDENTITY;
                acc = CLSCAN_OP(acc, v[i]);
            }
            part_total[lid] = acc;
            barrier(CLK_LOCAL_MEM_FENCE);
            acc = carry;
            for (uint q = 0; q < parts; q++) {   /* a select, not a loop of `part` rounds: no lane waits */
                const CLSCAN_T t = part_total[q * cols + c];
                acc = q < part ? CLSCAN_OP(acc, t) : acc;
                carry = CLSCAN_OP(carry, t);
            }
            for (uint i = 0; i < CLSCAN_SAT_SCAN_PART; i++) {
                acc = CLSCAN_OP(acc, v[i]);
                if (r0 + i < mine)
                    sums[(r0 + i) * stride + x] = acc;
            }
            barrier(CLK_LOCAL_MEM_FENCE);   /* part_total is read before the next block overwrites it */
        }
    }
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_scan_sums(__global CLSCAN_T *sums, ulong stride, ulong width, ulong seg_rows, ulong band_rows,
                          uint cols)
{
    __local CLSCAN_T clscan_part_total[CLSCAN_WG_SIZE];
    clscan_sat_scan_columns(sums, stride, stride, width, seg_rows, band_rows, cols, get_group_id(0),
                            get_num_groups(0), clscan_part_total);
}

/* Tile (b, c)'s term for row r: the bands above b over chunk c, and band b's rows 0 .. r over it.
 * The first comes from row b-1 of the scanned chunk totals (src 1: above_g), from local memory (src
 * 2: above_l, clscan_sat_middle), or is none (src 0: the first band). */
CLSCAN_T clscan_sat_edge_term(int src, __global const CLSCAN_T *above_g, __local const CLSCAN_T *above_l,
                              __global const CLSCAN_T *edges, ulong c, uint r)
{
    const CLSCAN_T mine = edges[c * CLSCAN_SAT_ROWS + r];
    return src == 1 ? CLSCAN_OP(above_g[c], mine) : src == 2 ? CLSCAN_OP(above_l[c], mine) : mine;
}

/* Band b's carries: carries[t * CLSCAN_SAT_ROWS + r] becomes the sum over the image's rows 0 .. b * CLSCAN_SAT_ROWS
 * + r of the columns left of tile t = (b, c), the exclusive scan along the band's tiles of
 * clscan_sat_edge_term. Work-item (part, r) takes a run of the chunks in row r (a band's terms are few:
 * CLSCAN_SAT_ROWS a chunk). part_total: CLSCAN_WG_SIZE elements of local memory. */
void clscan_sat_carry_band(ulong b, ulong chunks, int src, __global const CLSCAN_T *above_g,
                           __local const CLSCAN_T *above_l, __global CLSCAN_T *carries,
                           __local CLSCAN_T *part_total)
{
    const uint lid = get_local_id(0), part = lid / CLSCAN_SAT_ROWS, r = lid - part * CLSCAN_SAT_ROWS,
               parts = CLSCAN_WG_SIZE / CLSCAN_SAT_ROWS;
    const ulong len = (chunks + parts - 1) / parts, c0 = min(chunks, part * len), c1 = min(chunks, c0 + len);
    __global CLSCAN_T *edges = carries + b * chunks * CLSCAN_SAT_ROWS;
    CLSCAN_T acc = CLSCAN_IDENTITY;
    for (ulong c = c0; c < c1; c++)
        acc = CLSCAN_OP(acc, clscan_sat_edge_term(src, above_g, above_l, edges, c, r));
    part_total[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = CLSCAN_IDENTITY;
    for (uint q = 0; q < part; q++)
        acc = CLSCAN_OP(acc, part_total[q * CLSCAN_SAT_ROWS + r]);
    for (ulong c = c0; c < c1; c++) {
        const CLSCAN_T term = clscan_sat_edge_term(src, above_g, above_l, edges, c, r);
        edges[c * CLSCAN_SAT_ROWS + r] = acc;
        acc = CLSCAN_OP(acc, term);
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* part_total is read before it is written again */
}

/* Every band's carries (clscan_sat_carry_band), a group a band, from the scanned chunk totals. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_band_carries(__global const CLSCAN_T *sums, __global CLSCAN_T *carries, ulong width, ulong num_bands)
{
    __local CLSCAN_T clscan_part_total[CLSCAN_WG_SIZE];
    const ulong chunks = (width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE, stride = width + chunks;
    for (ulong b = get_group_id(0); b < num_bands; b += get_num_groups(0))
        clscan_sat_carry_band(b, chunks, b > 0, sums + (b > 0 ? b - 1 : 0) * stride + width, clscan_part_total,
                              carries, clscan_part_total);
}

/* above[c] = chunk c's total over bands 0 .. b-1, added up from the unscanned chunk totals (column
 * width + c of sums, a row a band): work-item (p, c) takes bands p, p + parts, ..., then the parts
 * are added up in local memory. chunks <= CLSCAN_WG_SIZE. */
#define CLSCAN_SAT_ABOVE_BATCH 16     /* loads in flight a work-item (8 and 32 were no faster: docs/design.md) */
void clscan_sat_above_chunks(__global const CLSCAN_T *sums, ulong stride, ulong width, ulong chunks, ulong b,
                             __local CLSCAN_T *above, __local CLSCAN_T *part_total)
{
    const uint lid = get_local_id(0), parts = CLSCAN_WG_SIZE / (uint)chunks, p = lid / (uint)chunks;
    const uint c = lid - p * (uint)chunks;
    CLSCAN_T acc = CLSCAN_IDENTITY;
    if (p < parts)
        for (ulong j0 = p; j0 < b; j0 += CLSCAN_SAT_ABOVE_BATCH * parts) {
            CLSCAN_T v[CLSCAN_SAT_ABOVE_BATCH];   /* loads that go out together, not one after the last */
            for (uint i = 0; i < CLSCAN_SAT_ABOVE_BATCH; i++) {
                const ulong j = j0 + i * parts;
                v[i] = j < b ? sums[j * stride + width + c] : CLSCAN_IDENTITY;
            }
            for (uint i = 0; i < CLSCAN_SAT_ABOVE_BATCH; i++)
                acc = CLSCAN_OP(acc, v[i]);
        }
    part_total[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < chunks) {
        acc = CLSCAN_IDENTITY;
        for (uint q = 0; q < parts; q++)
            acc = CLSCAN_OP(acc, part_total[q * chunks + lid]);
        above[lid] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* above[] written; part_total read */
}

/* clscan_sat_scan_sums and clscan_sat_band_carries in one launch, where the host finds the chunk totals few
 * (chunks <= CLSCAN_WG_SIZE, and bands x chunks small): groups below num_bands each carry their band, adding
 * up the chunk totals above it themselves, so that nothing waits on the scan; the rest scan the
 * segments' column sums (seg_rows rows, `cols` columns a group). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_middle(__global CLSCAN_T *sums, __global CLSCAN_T *carries, ulong width, ulong num_bands,
                       ulong seg_rows, uint cols)
{
    __local CLSCAN_T clscan_part_total[CLSCAN_WG_SIZE];
    __local CLSCAN_T clscan_above[CLSCAN_WG_SIZE];
    const ulong chunks = (width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE, stride = width + chunks, g = get_group_id(0);
    if (g >= num_bands) {   /* a whole group: its barriers */
        clscan_sat_scan_columns(sums, stride, width, width, seg_rows, seg_rows, cols, g - num_bands,
                                get_num_groups(0) - num_bands, clscan_part_total);
        return;
    }
    if (g > 0)
        clscan_sat_above_chunks(sums, stride, width, chunks, g, clscan_above, clscan_part_total);
    clscan_sat_carry_band(g, chunks, g > 0 ? 2 : 0, sums, clscan_above, carries, clscan_part_total);
}

/* What the tile of chunk c of band b needs from memory: column x of its rows; for work-items below
 * CLSCAN_SAT_ROWS, row lid's sum left of the tile (with tiles of part of a band, CLSCAN_SAT_SUB > 1, from the
 * carries of band b / CLSCAN_SAT_SUB of CLSCAN_SAT_CARRY_ROWS rows); and at a task's first tile (first), the
 * column's seed, its sum over the segments above. Nothing past the last band. */
void clscan_sat_tile_load(__global const CLSCAN_T *in, __global const CLSCAN_T *sums,
                          __global const CLSCAN_T *carries, uint b, uint c, int first, uint seg, ulong width,
                          ulong height, uint num_bands, CLSCAN_T col[CLSCAN_SAT_ROWS], CLSCAN_T *seed,
                          CLSCAN_T *edge)
{
    const uint lid = get_local_id(0), chunks = (uint)((width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE);
    const ulong x = (ulong)c * CLSCAN_WG_SIZE + lid;
    const int live = b < num_bands;
    clscan_sat_tile_column(in, b, c, width, height, num_bands, col);
    *seed = live && first && b > 0 && x < width ? sums[(ulong)(b / seg - 1) * (width + chunks) + x] : CLSCAN_IDENTITY;
    const ulong row = (ulong)(b & (CLSCAN_SAT_SUB - 1)) * CLSCAN_SAT_ROWS + lid;
    *edge = live && lid < CLSCAN_SAT_ROWS
                ? carries[((ulong)(b / CLSCAN_SAT_SUB) * chunks + c) * CLSCAN_SAT_CARRY_ROWS + row] : CLSCAN_IDENTITY;
}

/* The table, a task at a time, each tile seeded from above (the segments above, then the tiles above
 * it in the segment, summed in a register) and from the left (carries); each group loads its next
 * tile while it scans this one. num_bands and seg count tiles of CLSCAN_SAT_ROWS rows, CLSCAN_SAT_SUB a band of
 * the launches before. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_sat_seeded_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global const CLSCAN_T *sums,
                             __global const CLSCAN_T *carries, ulong width, ulong height, uint num_bands, uint seg,
                             __global uint *counters, uint epoch)
{
    __local CLSCAN_T clscan_tile[CLSCAN_PAD(CLSCAN_SAT_ROWS * CLSCAN_WG_SIZE)];
    __local CLSCAN_T clscan_runs[CLSCAN_WG_SIZE];
    __local CLSCAN_T clscan_carry[CLSCAN_SAT_ROWS];
    __local uint clscan_next;
    const uint lid = get_local_id(0), chunks = (uint)((width + CLSCAN_WG_SIZE - 1) / CLSCAN_WG_SIZE);
    const uint tasks = clscan_sat_tasks(num_bands, seg, chunks);
    CLSCAN_T col[CLSCAN_SAT_ROWS], ahead[CLSCAN_SAT_ROWS], seed, seed_ahead, edge, edge_ahead;
    uint k = get_group_id(0), nb, nc;
    clscan_sp_launch_start(counters, epoch);
    clscan_sat_task_start(k, seg, chunks, &nb, &nc);
    clscan_sat_tile_load(in, sums, carries, nb, nc, 1, seg, width, height, num_bands, col, &seed, &edge);
    while (k < tasks) {
        const uint kn = clscan_sat_take_task(counters, epoch, &clscan_next);
        const uint s = k / chunks, c = k - s * chunks, b1 = min(s * seg + seg, num_bands);
        const ulong x = (ulong)c * CLSCAN_WG_SIZE + lid;
        for (uint b = s * seg; b < b1; b++) {
            const CLSCAN_T total = clscan_sat_column_prefix(col);
            const int first = clscan_sat_next_tile(kn, b, b1, c, seg, chunks, &nb, &nc);
            clscan_sat_tile_load(in, sums, carries, nb, nc, first, seg, width, height, num_bands, ahead,
                                 &seed_ahead, &edge_ahead);
            /* The last tile's readers of carry[] passed its last barrier before this work-item got here. */
            if (lid < CLSCAN_SAT_ROWS)
                clscan_carry[lid] = edge;
            clscan_sat_chunk(out, col, seed, (ulong)b * CLSCAN_SAT_ROWS, clscan_sat_band_rows(b, height), x, width,
                             0, clscan_tile, clscan_runs, clscan_carry);
            for (uint r = 0; r < CLSCAN_SAT_ROWS; r++)
                col[r] = ahead[r];
            seed = first ? seed_ahead : CLSCAN_OP(seed, total);
            edge = edge_ahead;
        }
        k = kn;
    }
}
