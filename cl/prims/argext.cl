/* clscan_argmin and clscan_argmax: the index of the first smallest (CLSCAN_OP_MIN) or largest
 * (CLSCAN_OP_MAX) element, and the element. A candidate is a value with its index; of two, the better
 * is the smaller (larger) value, of equal values the lower index, and a float NaN is worse than any
 * number (all NaN: index 0). That order is total, so candidates may be compared in any order: each
 * work-item takes its share of the elements in index order, its group folds them in local memory,
 * and clscan_arg_final folds the groups' candidates in one group, writing the index and the value's
 * bits (zero-extended) as two ulongs for the host to read back. */
#if defined(CLSCAN_OP_MAX)
#define CLSCAN_ARG_BEFORE(a, b) ((a) > (b))
#else
#define CLSCAN_ARG_BEFORE(a, b) ((a) < (b))
#endif
#if defined(CLSCAN_IS_FLOAT)
#define CLSCAN_ARG_NAN(x) isnan(x)
#define CLSCAN_ARG_NUMBER_AFTER_NAN(x, best) (isnan(best) && !isnan(x))   /* a number replaces a NaN */
#else
#define CLSCAN_ARG_NAN(x) 0
#define CLSCAN_ARG_NUMBER_AFTER_NAN(x, best) 0
#endif
#define CLSCAN_ARG_NONE ULONG_MAX   /* the index of no candidate yet, worse than any */
#define CLSCAN_ARG_CAT(a, b) a##b
#define CLSCAN_ARG_XCAT(a, b) CLSCAN_ARG_CAT(a, b)
#define CLSCAN_ARG_T4 CLSCAN_ARG_XCAT(CLSCAN_T, 4)   /* the 4-wide vector of the type */

/* Whether candidate (v, i) is better than (w, j). */
int clscan_arg_better(CLSCAN_T v, ulong i, CLSCAN_T w, ulong j)
{
    if (j == CLSCAN_ARG_NONE)
        return i != CLSCAN_ARG_NONE;
    if (i == CLSCAN_ARG_NONE)
        return 0;
    const int vn = CLSCAN_ARG_NAN(v), wn = CLSCAN_ARG_NAN(w);
    if (vn != wn)
        return wn;
    if (vn || v == w)
        return i < j;
    return CLSCAN_ARG_BEFORE(v, w);
}

/* The group's best of the work-items' candidates (v, i); every work-item gets it. */
void clscan_arg_group(CLSCAN_T *v, ulong *i, __local CLSCAN_T *values, __local ulong *indices)
{
    const uint lid = get_local_id(0);
    values[lid] = *v, indices[lid] = *i;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint span = CLSCAN_WG_SIZE / 2; span > 0; span >>= 1) {
        if (lid < span && clscan_arg_better(values[lid + span], indices[lid + span], values[lid], indices[lid]))
            values[lid] = values[lid + span], indices[lid] = indices[lid + span];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *v = values[0], *i = indices[0];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* A work-item's next element x at index i, later than all it has taken: it replaces the best so far if
 * there is none, if it comes before it, or if the best is a NaN and x is not (so ties keep the first). */
void clscan_arg_take(CLSCAN_T x, ulong i, CLSCAN_T *best, ulong *at)
{
    if (*at == CLSCAN_ARG_NONE || CLSCAN_ARG_BEFORE(x, *best) || CLSCAN_ARG_NUMBER_AFTER_NAN(x, *best))
        *best = x, *at = i;
}

/* The best candidate of in[from .. to), from < to, in two loops that carry no index (CPUs): the best
 * value (the program's operator, MIN or MAX: fmin and fmax for floats put a number before a NaN), then
 * the first index that holds it (a value equal to it: -0.0 and +0.0 are equal, as clscan_arg_better has
 * them), or from where every value is a NaN. On PoCL (2 cores, 2^22 int32) one loop taking candidates
 * took 1.4-2.8 ms against a C loop's 1.3. */
void clscan_arg_run(__global const CLSCAN_T *in, ulong from, ulong to, CLSCAN_T *best, ulong *at)
{
    CLSCAN_T m = in[from];
    for (ulong i = from + 1; i < to; i++)
        m = CLSCAN_OP(m, in[i]);
    ulong i = from;
    if (!CLSCAN_ARG_NAN(m))
        while (in[i] != m)
            i++;
    *best = in[i], *at = i;
}

/* Each group's best of in[0 .. n) into values[group], indices[group]. GPUs: each work-item takes every
 * get_global_size(0)-th 4-element vector, so a group's loads are contiguous; CPUs (CLSCAN_ITEMS_STREAM):
 * a contiguous run each (clscan_arg_run). */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_arg_partials(__global const CLSCAN_T *in, ulong n, __global CLSCAN_T *values, __global ulong *indices)
{
    __local CLSCAN_T clscan_values[CLSCAN_WG_SIZE];
    __local ulong clscan_indices[CLSCAN_WG_SIZE];
    const ulong id = get_global_id(0), all = get_global_size(0);
    CLSCAN_T best = in[0];
    ulong at = CLSCAN_ARG_NONE;
#if defined(CLSCAN_ITEMS_STREAM)
    const ulong run = n / all + (n % all != 0), from = id * run < n ? id * run : n, to = n - from < run ? n : from + run;
    if (from < to)
        clscan_arg_run(in, from, to, &best, &at);
#else
    const ulong quads = n / 4;
    for (ulong q = id; q < quads; q += all) {
        const CLSCAN_ARG_T4 x = vload4(q, in);
        clscan_arg_take(x.s0, 4 * q, &best, &at);
        clscan_arg_take(x.s1, 4 * q + 1, &best, &at);
        clscan_arg_take(x.s2, 4 * q + 2, &best, &at);
        clscan_arg_take(x.s3, 4 * q + 3, &best, &at);
    }
    for (ulong k = 4 * quads + id; k < n; k += all)
        clscan_arg_take(in[k], k, &best, &at);
#endif
    clscan_arg_group(&best, &at, clscan_values, clscan_indices);
    if (get_local_id(0) == 0)
        values[get_group_id(0)] = best, indices[get_group_id(0)] = at;
}

/* The best of the groups' candidates: result[0] its index, result[1] its value's bits. */
__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_arg_final(__global const CLSCAN_T *values, __global const ulong *indices, ulong groups,
                      __global ulong *result)
{
    __local CLSCAN_T clscan_values[CLSCAN_WG_SIZE];
    __local ulong clscan_indices[CLSCAN_WG_SIZE];
    CLSCAN_T best = values[0];
    ulong at = CLSCAN_ARG_NONE;
    for (ulong g = get_local_id(0); g < groups; g += CLSCAN_WG_SIZE)
        if (clscan_arg_better(values[g], indices[g], best, at))
            best = values[g], at = indices[g];
    clscan_arg_group(&best, &at, clscan_values, clscan_indices);
    if (get_local_id(0) == 0)
        result[0] = at, result[1] = (ulong)CLSCAN_TO_BITS(best);
}
