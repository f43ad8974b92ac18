/* clscan_histogram_even and clscan_histogram_range: each element's bin (an even split of [lower, upper),
 * or a bounded search of the edges) counted with uint atomics: in local memory per work-group when the
 * bins fit there (clscan_hist_*_local, each group's row to scratch), else in one global row per launch
 * of fewer than 2^32 elements (clscan_hist_*_global). clscan_hist_fold sums rows into the ulong counts.
 * 64-bit atomics are not core OpenCL C 1.2, so no uint counter is ever given 2^32 elements. */

/* Host and device must round alike (the test's reference repeats these formulas): no fused multiply-add. */
#pragma OPENCL FP_CONTRACT OFF

#define CLSCAN_HIST_NONE ULONG_MAX   /* the bin of an element counted nowhere */

#if defined(CLSCAN_IS_FLOAT)
/* x's bin: (x - lower) * scale, scale = (T)bins / (upper - lower) rounded on the host in the type (OpenCL's
 * division is not correctly rounded, its products are); halves != 0 when upper - lower overflows: both
 * sides halved. A difference of 0 is bin 0 even where scale overflowed to infinity (0 * inf is NaN);
 * rounding past the last bin stays in it. Outside [lower, upper), and NaN: none. */
ulong clscan_hist_even_bin(CLSCAN_T x, CLSCAN_T lower, CLSCAN_T upper, CLSCAN_T scale, ulong range, uint halves,
                           ulong bins)
{
    (void)range;
    if (!(x >= lower && x < upper))
        return CLSCAN_HIST_NONE;
    const CLSCAN_T d = halves ? x * (CLSCAN_T)0.5 - lower * (CLSCAN_T)0.5 : x - lower;
    const CLSCAN_T f = d * scale;
    const ulong b = d == (CLSCAN_T)0 ? 0 : f < (CLSCAN_T)bins ? (ulong)f : bins - 1;
    return min(b, bins - 1);
}
#else
/* floor(d * bins / range) for d < range, exact: one 64-bit product when it fits, else bins split as
 * q * range + r, d * q + d * r / range, the 128-bit d * r divided by shift and subtract (its quotient is
 * below r, so it fits; the remainder stays below range). Only 64-bit types or huge bin counts get there. */
ulong clscan_hist_scale(ulong d, ulong bins, ulong range)
{
    if (mul_hi(d, bins) == 0)
        return d * bins / range;
    const ulong q = bins / range, r = bins % range;
    ulong high = mul_hi(d, r), low = d * r;
    for (int i = 0; i < 64; i++) {
        const ulong carry = high >> 63;
        high = high << 1 | low >> 63;
        low <<= 1;
        if (carry || high >= range)
            high -= range, low |= 1;
    }
    return d * q + low;
}

/* x's bin: differences taken as ulong (a signed value widens with its sign, so x - lower wraps to the
 * true distance); range = upper - lower the same way, from the host. Outside [lower, upper): none. */
ulong clscan_hist_even_bin(CLSCAN_T x, CLSCAN_T lower, CLSCAN_T upper, CLSCAN_T scale, ulong range, uint halves,
                           ulong bins)
{
    (void)scale, (void)halves;
    if (!(x >= lower && x < upper))
        return CLSCAN_HIST_NONE;
    return clscan_hist_scale((ulong)x - (ulong)lower, bins, range);
}
#endif

/* x's bin among edges[0 .. bins]: the last b with edges[b] <= x by halving, ceil(log2(bins)) steps
 * whatever the edges hold, every index below bins; then edges[b] <= x < edges[b + 1] checked, so edges
 * that do not increase give some bins, never a read out of bounds. NaN fails every comparison: none. */
ulong clscan_hist_range_bin(CLSCAN_T x, __global const CLSCAN_T *edges, ulong bins)
{
    ulong at = 0, len = bins;
    while (len > 1) {
        const ulong step = len / 2;
        if (edges[at + step] <= x)
            at += step, len -= step;
        else
            len = step;
    }
    return edges[at] <= x && x < edges[at + 1] ? at : CLSCAN_HIST_NONE;
}

/* The group's local counts zeroed, and (after counting) copied to its row of the scratch. */
void clscan_hist_local_zero(__local uint *counts, ulong bins)
{
    for (ulong b = get_local_id(0); b < bins; b += CLSCAN_WG_SIZE)
        counts[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
}

void clscan_hist_local_out(__local const uint *counts, ulong bins, __global uint *rows)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    __global uint *row = rows + get_group_id(0) * bins;
    for (ulong b = get_local_id(0); b < bins; b += CLSCAN_WG_SIZE)
        row[b] = counts[b];
}

/* Elements [first, end) taken by `parts` work-items, this one being `part`: GPUs in turn (loads of
 * neighbouring work-items contiguous), CPUs (CLSCAN_ITEMS_STREAM) a contiguous run each, read in order. */
#if defined(CLSCAN_ITEMS_STREAM)
#define CLSCAN_HIST_EACH(i, first, end, part, parts)                                            \
    const ulong clscan_run = ((end) - (first)) / (parts) + (((end) - (first)) % (parts) != 0);  \
    const ulong clscan_lo = min((first) + (part) * clscan_run, (end));                          \
    const ulong clscan_hi = min(clscan_lo + clscan_run, (end));                                 \
    for (ulong i = clscan_lo; i < clscan_hi; i++)
#else
#define CLSCAN_HIST_EACH(i, first, end, part, parts) for (ulong i = (first) + (part); i < (end); i += (parts))
#endif

/* A group's per_group elements (fewer than 2^32) into its local counts; `bin` is in[i]'s bin. */
#define CLSCAN_HIST_GROUP_SHARE(bin)                                                           \
    const ulong from = get_group_id(0) * per_group;                                             \
    const ulong to = from < n && n - from > per_group ? from + per_group : n;                  \
    CLSCAN_HIST_EACH(i, min(from, to), to, (ulong)get_local_id(0), (ulong)CLSCAN_WG_SIZE) {     \
        const ulong b = (bin);                                                                  \
        if (b != CLSCAN_HIST_NONE)                                                              \
            atomic_inc(&counts[b]);                                                             \
    }

/* Elements from .. from + count (count < 2^32) over the whole launch into one global row. */
#define CLSCAN_HIST_LAUNCH_SHARE(bin)                                                          \
    CLSCAN_HIST_EACH(i, from, from + count, (ulong)get_global_id(0), (ulong)get_global_size(0)) { \
        const ulong b = (bin);                                                                  \
        if (b != CLSCAN_HIST_NONE)                                                              \
            atomic_inc(&row[b]);                                                                \
    }

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_even_local(__global const CLSCAN_T *in, ulong n, ulong per_group, CLSCAN_T lower, CLSCAN_T upper,
                            CLSCAN_T scale, ulong range, uint halves, ulong bins, __global uint *rows,
                            __local uint *counts)
{
    clscan_hist_local_zero(counts, bins);
    CLSCAN_HIST_GROUP_SHARE(clscan_hist_even_bin(in[i], lower, upper, scale, range, halves, bins))
    clscan_hist_local_out(counts, bins, rows);
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_range_local(__global const CLSCAN_T *in, ulong n, ulong per_group, __global const CLSCAN_T *edges,
                             ulong bins, __global uint *rows, __local uint *counts)
{
    clscan_hist_local_zero(counts, bins);
    CLSCAN_HIST_GROUP_SHARE(clscan_hist_range_bin(in[i], edges, bins))
    clscan_hist_local_out(counts, bins, rows);
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_even_global(__global const CLSCAN_T *in, ulong from, ulong count, CLSCAN_T lower, CLSCAN_T upper,
                             CLSCAN_T scale, ulong range, uint halves, ulong bins, __global uint *row)
{
    CLSCAN_HIST_LAUNCH_SHARE(clscan_hist_even_bin(in[i], lower, upper, scale, range, halves, bins))
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_range_global(__global const CLSCAN_T *in, ulong from, ulong count, __global const CLSCAN_T *edges,
                              ulong bins, __global uint *row)
{
    CLSCAN_HIST_LAUNCH_SHARE(clscan_hist_range_bin(in[i], edges, bins))
}

/* counts[b] = (carried ? carry[b] : 0) + the sum of rows[r * bins + b] over n_rows rows; neighbouring
 * work-items take neighbouring bins, so every row is read contiguously. carry may be counts' own
 * scratch: each bin is read before it is written, by the one work-item that writes it. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_fold(__global const uint *rows, ulong n_rows, ulong bins, __global const ulong *carry, uint carried,
                      __global ulong *counts)
{
    for (ulong b = get_global_id(0); b < bins; b += get_global_size(0)) {
        ulong sum = carried ? carry[b] : 0;
        for (ulong r = 0; r < n_rows; r++)
            sum += rows[r * bins + b];
        counts[b] = sum;
    }
}
