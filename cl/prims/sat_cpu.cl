/* Summed-area tables on CPUs (clscan_sat_band_tables): one launch, a work-item a band of whole rows
 * (about one band a core). It adds up its band's columns, looks back down each column with the
 * status words of the single-pass scan, then writes its band's table: the image is read twice and
 * written once, all in long sequential runs. */
/* sums[x] (column x over band b) becomes column x over the bands above b. Every aggregate goes out
 * before the first look-back, so that the band after this one never waits on this one's. */
void clscan_sat_cpu_above(clscan_sp_column *k, __global CLSCAN_T *sums)
{
    const ulong slot = k->b * k->width;
    if (k->b > 0)
        for (ulong x = 0; x < k->width; x++)
            clscan_sp_publish(k->status, slot + x, CLSCAN_SP_FLAG_A, k->epoch, sums[x]);
    for (ulong x = 0; x < k->width; x++) {
        CLSCAN_T above =
            k->b > 0 ? clscan_sp_column_look_back(k->status, k, k->b, k->width, x, k->epoch, k->in_place) : CLSCAN_IDENTITY;
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
    clscan_sp_column k = {in, status, &counters[2], 0, 0, num_bands, rows, width, 0, epoch, in_place, 0};
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
        clscan_sp_published_item(in_place);   /* before the band goes out (lookback.clh, "in place") */
        clscan_sat_cpu_table(in, out, sums, y0, h, width);
    }
}

