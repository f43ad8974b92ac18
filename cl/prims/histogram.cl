/* clscan_histogram_even and clscan_histogram_range: each element's bin (an even split of [lower, upper),
 * or a bounded search of the edges) counted with uint atomics: in local memory per work-group when the
 * bins fit there (clscan_hist_*_local, each group's row to scratch), on GPUs also when a band of them
 * does (each group then counts one band of one share, finding every element's bin), else in one global
 * row per launch of fewer than 2^32 elements (clscan_hist_*_global).
 * clscan_hist_fold sums rows into the ulong counts; where every group adds into one row (merge), the
 * last group to finish moves it there instead.
 * 64-bit atomics are not core OpenCL C 1.2, so no uint counter is ever given 2^32 elements. Bins are
 * numbered in uint, in ulong where the host asks for more than 2^32 - 1 of them (CLSCAN_HIST_WIDE_BINS):
 * on a GPU each element's work is the cost here, not its bytes (H100: an 8-bit histogram counting one
 * element in 256 took 0.38 ms of the 0.49 that counting all took), and 64-bit arithmetic doubles it.
 * 8-bit elements find their bins through a table of the 256 values: on GPUs once a group, having
 * counted by value (CLSCAN_HIST_COPIES), elsewhere an element at a time; on CPUs integer elements count
 * in a local row a work-item, without atomics, where the host says so (own). */

/* Host and device must round alike (the test's reference repeats these formulas): no fused multiply-add. */
#pragma OPENCL FP_CONTRACT OFF

#if defined(CLSCAN_HIST_WIDE_BINS)
typedef ulong clscan_hist_bin;
#define CLSCAN_HIST_NONE ULONG_MAX   /* the bin of an element counted nowhere */
#else
typedef uint clscan_hist_bin;
#define CLSCAN_HIST_NONE UINT_MAX
#endif

/* What the even split takes from the host: the bounds, scale (floats), range = upper - lower as ulong
 * (integers), magic (the reciprocal of range, clscan_hist_scale), and flags: whether the float range is
 * halved, whether every product d * bins fits in 32 bits (narrow). */
typedef struct clscan_hist_even_rule {
    CLSCAN_T lower, upper, scale;
    ulong range, magic;
    uint halves, narrow;
    clscan_hist_bin bins;
} clscan_hist_even_rule;

#if defined(CLSCAN_IS_FLOAT)
/* x's bin: (x - lower) * scale, scale = (T)bins / (upper - lower) rounded on the host in the type (OpenCL's
 * division is not correctly rounded, its products are); halves: upper - lower overflows, both sides
 * halved. A difference of 0 is bin 0 even where scale overflowed to infinity (0 * inf is NaN);
 * rounding past the last bin stays in it. Outside [lower, upper), and NaN: none. */
clscan_hist_bin clscan_hist_even_bin(CLSCAN_T x, const clscan_hist_even_rule *r)
{
    if (!(x >= r->lower && x < r->upper))
        return CLSCAN_HIST_NONE;
    const CLSCAN_T d = r->halves ? x * (CLSCAN_T)0.5 - r->lower * (CLSCAN_T)0.5 : x - r->lower;
    const CLSCAN_T f = d * r->scale;
    /* (T)bins may round up past bins: the last bin caps what converts to bins. */
    return d == (CLSCAN_T)0 ? 0 : f < (CLSCAN_T)r->bins ? min((clscan_hist_bin)f, r->bins - 1) : r->bins - 1;
}
#else
/* floor(d * bins / range) for d < range, exact, with no division. Where the product fits in 32 bits
 * for every d (narrow, the host's finding: clscan_hist_even_bin does that case itself) and else where
 * it fits in 64, the quotient is the high half of the product times magic = floor((2^w - 1) / range)
 * (from the host), which falls short of it by at most one (magic / 2^w > 1 / range - 1 / 2^w and the
 * product is below 2^w), corrected by the remainder; a 64-bit division cost every element tens of
 * instructions on GPUs. Past 64 bits (64-bit types or huge bin counts) bins split as q * range + r,
 * d * q + d * r / range, the 128-bit d * r divided by shift and subtract (its quotient is below r, so
 * it fits; the remainder stays below range). */
clscan_hist_bin clscan_hist_scale(ulong d, const clscan_hist_even_rule *r)
{
    const ulong bins = r->bins, range = r->range;
    if (mul_hi(d, bins) == 0) {
        const ulong x = d * bins, q = mul_hi(x, r->magic);
        return (clscan_hist_bin)(q + (x - q * range >= range));
    }
    const ulong q = bins / range, rem = bins - q * range;   /* not %: LLVM made the pair a freeze, which
                                                              * Oclgrind cannot run */
    ulong high = mul_hi(d, rem), low = d * rem;
    for (int i = 0; i < 64; i++) {
        const ulong carry = high >> 63;
        high = high << 1 | mul_hi(low, 2ul);   /* low's top bit: as a shift, LLVM made a funnel shift
                                                 * of the pair, which Oclgrind cannot run */
        low <<= 1;
        if (carry || high >= range)
            high -= range, low |= 1;
    }
    return (clscan_hist_bin)(d * q + low);
}

/* x's bin: the distance x - lower taken unsigned, in 32 bits for types of 32 bits or fewer (a signed
 * value converts with its sign, so the difference wraps to the true distance) and in 64 otherwise;
 * range = upper - lower the same way, from the host. x lies in [lower, upper) exactly where that
 * distance is below range (below lower it wraps past range, as no two values of the type lie 2^w
 * apart): one comparison. Outside: none. */
clscan_hist_bin clscan_hist_even_bin(CLSCAN_T x, const clscan_hist_even_rule *r)
{
#if defined(CLSCAN_TYPE_INT64) || defined(CLSCAN_TYPE_UINT64)
    const ulong d = (ulong)x - (ulong)r->lower;
    if (d >= r->range)
        return CLSCAN_HIST_NONE;
#else
    const uint d = (uint)x - (uint)r->lower;
    if (d >= (uint)r->range)
        return CLSCAN_HIST_NONE;
#endif
    /* The narrow case here, not in a call: PoCL (3.1) did not inline clscan_hist_scale, which holds
     * the 128-bit loop, and spent 40% of an int32 histogram's time calling it for every element. */
    if (r->narrow) {
        const uint p = (uint)d * (uint)r->bins, q = (uint)(((ulong)p * (uint)r->magic) >> 32);
        return q + (p - q * (uint)r->range >= (uint)r->range);
    }
    return clscan_hist_scale(d, r);
}
#endif

/* x's bin among edges[0 .. bins]: the last b with edges[b] <= x by halving, ceil(log2(bins)) steps
 * whatever the edges hold, every index below bins; then edges[b] <= x < edges[b + 1] checked, so edges
 * that do not increase give some bins, never a read out of bounds. NaN fails every comparison: none. */
clscan_hist_bin clscan_hist_range_bin(CLSCAN_T x, __global const CLSCAN_T *edges, clscan_hist_bin bins)
{
    clscan_hist_bin at = 0, len = bins;
    while (len > 1) {
        const clscan_hist_bin step = len / 2;
        if (edges[at + step] <= x)
            at += step, len -= step;
        else
            len = step;
    }
    return edges[at] <= x && x < edges[at + 1] ? at : CLSCAN_HIST_NONE;
}

/* The group's local counts of `width` bins zeroed, and (after counting) summed into their place in the
 * scratch: bins lo .. lo + width of its share's row, from one local row, or with own (CPUs: one band)
 * one a work-item. */
void clscan_hist_local_zero(__local uint *counts, uint width, uint own)
{
    const uint local_rows = own ? CLSCAN_WG_SIZE : 1;
    for (uint b = get_local_id(0); b < width * local_rows; b += CLSCAN_WG_SIZE)
        counts[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The merged scratch: a sink that streamed items' adds' old values go into (never read, so never
 * zeroed), the groups' ticket, then the row. */
#define CLSCAN_HIST_SINK 0
#define CLSCAN_HIST_TICKET 1
#define CLSCAN_HIST_MERGED_ROW 2

/* With merge, the group that adds last moves the one row into the caller's counts and leaves the row
 * and the ticket zero for the next launch, as the host found them (a scratch kept zero between calls,
 * but for its sink, which lies before every row whatever the bins): one launch where a zero fill
 * before it and a fold after it took three. A group takes its ticket only once every work-item's adds
 * have come back (their old values put to a use, clscan_hist_local_out), so the last group's atomic
 * reads see every group's adds. With a global mem_fence before the barrier instead the H100 lost
 * counts to the next call: 1.2's fences order a work-item's own accesses, not what other groups see,
 * and an add whose value is unused need not be waited for. Every work-item passes both barriers,
 * merging or not. */
void clscan_hist_merged_out(uint merge, __global uint *rows, ulong bins, __global ulong *merged, __local uint *last)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        *last = merge && atomic_inc(&rows[CLSCAN_HIST_TICKET]) == get_num_groups(0) - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (*last) {
        for (ulong b = get_local_id(0); b < bins; b += CLSCAN_WG_SIZE)
            merged[b] = atomic_xchg(&rows[CLSCAN_HIST_MERGED_ROW + b], 0u);
        if (get_local_id(0) == 0)
            atomic_xchg(&rows[CLSCAN_HIST_TICKET], 0u);
    }
}

/* The group's counts out: row is the group's own row, written, or with merge the one row of every
 * group (rows + CLSCAN_HIST_MERGED_ROW + the band's first bin; zero before the launch, its total below
 * 2^32), which it adds them to atomically and which the last group then moves into merged
 * (clscan_hist_merged_out; last: a local word). Each work-item puts the old values its adds return to
 * a use, so that its adds have come back before it passes its next barrier: on GPUs (held items) the
 * local word last, zeroed here, takes their maximum; in the CPUs' shape (streamed items) their OR goes
 * to the sink. Both forms passed the H100's merged tests; the first is the faster there (2^28 bytes
 * over 256 bins 0.109 ms against 0.118 with every group's work-items ORing into one global word), and
 * with it PoCL 3.1 took floats over 256 bins from 3.9 to 11.4 ms (2 cores, 2^22), on the fold's path
 * too, which never merges. */
void clscan_hist_local_out(__local const uint *counts, uint width, uint own, uint merge, __global uint *row,
                           __global uint *rows, ulong bins, __global ulong *merged, __local uint *last)
{
    const uint local_rows = own ? CLSCAN_WG_SIZE : 1;
    if (get_local_id(0) == 0)
        *last = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#if defined(CLSCAN_ITEMS_STREAM)
    uint seen = 0;
#endif
    for (uint b = get_local_id(0); b < width; b += CLSCAN_WG_SIZE) {
        uint sum = 0;
        for (uint r = 0; r < local_rows; r++)
            sum += counts[r * width + b];
        if (!merge)
            row[b] = sum;
#if defined(CLSCAN_ITEMS_STREAM)
        else if (sum)
            seen |= atomic_add(&row[b], sum);
#else
        else if (sum)
            atomic_max(last, atomic_add(&row[b], sum));
#endif
    }
#if defined(CLSCAN_ITEMS_STREAM)
    if (seen)
        atomic_or(&rows[CLSCAN_HIST_SINK], seen);
#endif
    clscan_hist_merged_out(merge, rows, bins, merged, last);
}

/* What counts x: its bin (BIN, a function-like macro of the value) less clscan_first_bin, where that is
 * below clscan_width (every kernel defines both: its band, or all bins; CLSCAN_HIST_NONE wraps past every
 * width), incremented in counts, atomically; on CPUs (streamed items) plainly where the work-item counts
 * in a local row of its own (clscan_own, which every kernel defines: the host's choice where a group's
 * rows fit). PoCL spent 80% of a byte histogram's time on the atomic increments (`lock incl`). */
#if defined(CLSCAN_ITEMS_STREAM)
#define CLSCAN_HIST_BUMP(counts, b)   \
    {                                 \
        if (clscan_own)               \
            (counts)[b]++;            \
        else                          \
            atomic_inc(&(counts)[b]); \
    }
#else
#define CLSCAN_HIST_BUMP(counts, b) atomic_inc(&(counts)[b]);
#endif
#define CLSCAN_HIST_COUNT(BIN, x, counts)                           \
    {                                                               \
        const clscan_hist_bin clscan_b = BIN(x) - clscan_first_bin; \
        if (clscan_b < clscan_width)                                \
            CLSCAN_HIST_BUMP(counts, clscan_b)                      \
    }

/* GPUs whose buffers start on 16 bytes (CLSCAN_VEC4) read 16-byte vectors of CLSCAN_HIST_W elements, one
 * at a time a work-item, each element named (.s0, .s1, ...). H100, 2^28 elements, 256 bins: bytes
 * 0.41 ms, int32 0.42 and floats 0.43 so; four vectors in flight a work-item took more registers and
 * 0.61, 0.69 and 0.45 ms (0.49 ms for the bytes stored to a private array rather than named); counters
 * spread over the banks (32 a bin, 32 KiB a group) 0.49, 0.53 and 0.58 ms. */
#if !defined(CLSCAN_ITEMS_STREAM) && defined(CLSCAN_VEC4)
#if defined(CLSCAN_T_BITS) && CLSCAN_T_BITS == 8
#define CLSCAN_HIST_W 16
#elif defined(CLSCAN_T_BITS) && CLSCAN_T_BITS == 16
#define CLSCAN_HIST_W 8
#elif defined(CLSCAN_TYPE_INT64) || defined(CLSCAN_TYPE_UINT64) || defined(CLSCAN_TYPE_DOUBLE)
#define CLSCAN_HIST_W 2
#else
#define CLSCAN_HIST_W 4
#endif
#define CLSCAN_HIST_VEC CLSCAN_WG__XCAT(CLSCAN_T, CLSCAN_HIST_W)
#define CLSCAN_HIST_LANES2(BIN, x, counts) \
    CLSCAN_HIST_COUNT(BIN, (x).s0, counts) CLSCAN_HIST_COUNT(BIN, (x).s1, counts)
#define CLSCAN_HIST_LANES4(BIN, x, counts) \
    CLSCAN_HIST_LANES2(BIN, (x).lo, counts) CLSCAN_HIST_LANES2(BIN, (x).hi, counts)
#define CLSCAN_HIST_LANES8(BIN, x, counts) \
    CLSCAN_HIST_LANES4(BIN, (x).lo, counts) CLSCAN_HIST_LANES4(BIN, (x).hi, counts)
#define CLSCAN_HIST_LANES16(BIN, x, counts) \
    CLSCAN_HIST_LANES8(BIN, (x).lo, counts) CLSCAN_HIST_LANES8(BIN, (x).hi, counts)
#define CLSCAN_HIST_LANES CLSCAN_WG__XCAT(CLSCAN_HIST_LANES, CLSCAN_HIST_W)   /* every element of a vector */
#endif

/* Elements [first, first + count) (count < 2^32) counted by `parts` work-items (fewer than 2^31), this
 * one being `part`. CPUs (CLSCAN_ITEMS_STREAM): a contiguous run each, read in order. GPUs: in turn, so
 * that neighbouring work-items' loads are contiguous; as vectors from first (a multiple of 16: the
 * host's shares) up to the last whole vector (their index stays below 2^31, so a uint steps past it
 * without wrapping), then one element each (a ulong index: count may lie within parts of 2^32). */
#if defined(CLSCAN_ITEMS_STREAM)
#define CLSCAN_HIST_SPAN(BIN, first, count, part, parts, counts)                                \
    {                                                                                           \
        const ulong clscan_run = (count) / (parts) + ((count) % (parts) != 0);                  \
        const ulong clscan_lo = min((ulong)(part) * clscan_run, (ulong)(count));                \
        const ulong clscan_hi = min(clscan_lo + clscan_run, (ulong)(count));                    \
        __global const CLSCAN_T *clscan_in = in + (first);                                      \
        for (ulong i = clscan_lo; i < clscan_hi; i++)                                           \
            CLSCAN_HIST_COUNT(BIN, clscan_in[i], counts)                                        \
    }
#elif defined(CLSCAN_HIST_W)
#define CLSCAN_HIST_SPAN(BIN, first, count, part, parts, counts)                                \
    {                                                                                           \
        const uint clscan_vn = (count) / CLSCAN_HIST_W;                                         \
        __global const CLSCAN_T *clscan_in = in + (first);                                      \
        __global const CLSCAN_HIST_VEC *clscan_vin = (__global const CLSCAN_HIST_VEC *)clscan_in; \
        for (uint j = (part); j < clscan_vn; j += (parts)) {                                    \
            const CLSCAN_HIST_VEC x = clscan_vin[j];                                            \
            CLSCAN_HIST_LANES(BIN, x, counts)                                                   \
        }                                                                                       \
        for (ulong i = (ulong)clscan_vn * CLSCAN_HIST_W + (part); i < (count); i += (parts))    \
            CLSCAN_HIST_COUNT(BIN, clscan_in[i], counts)                                        \
    }
#else
#define CLSCAN_HIST_SPAN(BIN, first, count, part, parts, counts)                                \
    {                                                                                           \
        __global const CLSCAN_T *clscan_in = in + (first);                                      \
        for (ulong i = (part); i < (count); i += (parts))                                       \
            CLSCAN_HIST_COUNT(BIN, clscan_in[i], counts)                                        \
    }
#endif

/* Group g counts band g % bands (band bins from the band's first, fewer in the last) of share g / bands
 * (per_group elements, fewer than 2^32, a multiple of 16; the bands of a share are neighbouring groups,
 * so they tend to run together) into its local counts, and writes them to their place in the share's
 * row of the scratch, or with merge adds them to the one row (the kernel declares merged and a local
 * word clscan_last, for clscan_hist_local_out). One band: the group's row, or with own
 * (CPUs) each work-item's. CLSCAN_HIST_BAND names the group's band (its first bin and width), its
 * share's elements (from, count) and the row it writes (both ways of counting take it). The band comes
 * from a uint division: get_group_id's own % and / became an LLVM freeze that Oclgrind cannot run. */
#define CLSCAN_HIST_BAND                                                                             \
    const uint bands = (uint)(((ulong)bins + band - 1) / band);                                      \
    const uint group = (uint)get_group_id(0), share = group / bands;                                 \
    const clscan_hist_bin clscan_first_bin = (group - share * bands) * band;                         \
    const clscan_hist_bin clscan_width = min((clscan_hist_bin)band, (clscan_hist_bin)bins - clscan_first_bin); \
    const ulong from = min((ulong)share * per_group, n);                                             \
    const uint count = (uint)min(per_group, n - from);                                               \
    __global uint *clscan_row = rows + (merge ? CLSCAN_HIST_MERGED_ROW : (ulong)share * bins) + clscan_first_bin;
#define CLSCAN_HIST_GROUP(BIN)                                                                       \
    const uint clscan_own = own;                                                                     \
    CLSCAN_HIST_BAND                                                                                 \
    clscan_hist_local_zero(counts, clscan_width, own);                                               \
    __local uint *mine = own ? counts + get_local_id(0) * clscan_width : counts;                     \
    (void)clscan_own;                                                                                \
    CLSCAN_HIST_SPAN(BIN, from, count, get_local_id(0), CLSCAN_WG_SIZE, mine)                        \
    clscan_hist_local_out(counts, clscan_width, own, merge, clscan_row, rows, bins, merged, &clscan_last);

/* Elements from .. from + count (count < 2^32, from a multiple of 16) over the whole launch into one
 * global row (fewer than 2^32 work-items), atomically. */
#define CLSCAN_HIST_LAUNCH_SHARE(BIN)                                                 \
    const uint clscan_own = 0;                                                        \
    const clscan_hist_bin clscan_first_bin = 0, clscan_width = (clscan_hist_bin)bins; \
    (void)clscan_own;                                                                 \
    CLSCAN_HIST_SPAN(BIN, from, count, (uint)get_global_id(0), (uint)get_global_size(0), row)

/* The bins of the even split and of edges (CLSCAN_HIST_EVEN_BIN, CLSCAN_HIST_RANGE_BIN), and as the
 * spans take them (CLSCAN_HIST_EVEN, CLSCAN_HIST_RANGE). 8-bit elements take one of 256 values: each
 * value's bin is looked up in a table that the group fills first, one local load in place of the bin's
 * arithmetic or the edges' search. */
#define CLSCAN_HIST_EVEN_BIN(x) clscan_hist_even_bin(x, &rule)
#define CLSCAN_HIST_RANGE_BIN(x) clscan_hist_range_bin(x, edges, (clscan_hist_bin)bins)
#if defined(CLSCAN_TYPE_INT8) || defined(CLSCAN_TYPE_UINT8)
#define CLSCAN_HIST_VALUE(v) CLSCAN_WG__XCAT(as_, CLSCAN_T)((uchar)(v))   /* value v's bits as the type */

/* The table from BIN (a function-like macro of a value); every work-item passes the barrier. */
#define CLSCAN_HIST_FILL(BIN)                                                    \
    __local clscan_hist_bin clscan_table[256];                                  \
    for (uint v = get_local_id(0); v < 256; v += CLSCAN_WG_SIZE)                \
        clscan_table[v] = BIN(CLSCAN_HIST_VALUE(v));                            \
    barrier(CLK_LOCAL_MEM_FENCE);
#define CLSCAN_HIST_EVEN(x) clscan_table[as_uchar(x)]
#define CLSCAN_HIST_RANGE(x) clscan_table[as_uchar(x)]
#else
#define CLSCAN_HIST_FILL(BIN)
#define CLSCAN_HIST_EVEN CLSCAN_HIST_EVEN_BIN
#define CLSCAN_HIST_RANGE CLSCAN_HIST_RANGE_BIN
#endif

/* GPUs count 8-bit elements by value, not by bin: each element bumps the counter of its value, and the
 * group turns its 256 values' counts into bins once, through the table, before writing its band. So
 * no element looks its bin up, and where the bins need more than one band every band still counts
 * all values (the bands only split what is written). Each value has CLSCAN_HIST_COPIES counters (a
 * work-item's at its lane modulo that, the host's choice), so that the atomics of a warp of 32 never
 * meet in one bank. H100, 2^28 bytes over 256 bins: 0.116-0.121 ms, against 0.273-0.281 with a table
 * lookup an element (src/prims/histogram.c has the copies' and the groups' figures). */
#if defined(CLSCAN_HIST_COPIES)
#if !(defined(CLSCAN_TYPE_INT8) || defined(CLSCAN_TYPE_UINT8)) || defined(CLSCAN_ITEMS_STREAM)
#error "counting by value is for 8-bit elements in held items"
#endif
#define CLSCAN_HIST_VALUES_LOCAL CLSCAN_LOCAL_HIST_VALUES(CLSCAN_HIST_COPIES)
#define CLSCAN_HIST_SLOT(x) ((clscan_hist_bin)as_uchar(x) * CLSCAN_HIST_COPIES)

/* Elements [from, from + count) counted by value into values (zeroed). */
void clscan_hist_count_values(__global const CLSCAN_T *in, ulong from, uint count, __local uint *values)
{
    const clscan_hist_bin clscan_first_bin = 0, clscan_width = CLSCAN_HIST_VALUES_LOCAL;
    __local uint *mine = values + get_local_id(0) % CLSCAN_HIST_COPIES;
    CLSCAN_HIST_SPAN(CLSCAN_HIST_SLOT, from, count, get_local_id(0), CLSCAN_WG_SIZE, mine)
}

/* The group's band from its values' counts: each value's copies summed (from copy v on, so that the
 * work-items of a warp read 32 banks) and added to its bin's count where that is in the band. */
void clscan_hist_values_to_band(__local const uint *values, __local const clscan_hist_bin *table,
                                clscan_hist_bin first_bin, clscan_hist_bin width, __local uint *counts)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint v = get_local_id(0); v < 256; v += CLSCAN_WG_SIZE) {
        uint sum = 0;
        for (uint k = 0; k < CLSCAN_HIST_COPIES; k++)
            sum += values[v * CLSCAN_HIST_COPIES + (k + v) % CLSCAN_HIST_COPIES];
        const clscan_hist_bin b = table[v] - first_bin;
        if (sum && b < width)
            atomic_add(&counts[b], sum);
    }
}

/* As CLSCAN_HIST_GROUP, counting by value (the table must be filled). */
#define CLSCAN_HIST_GROUP_BY_VALUE                                                                   \
    CLSCAN_HIST_BAND                                                                                 \
    __local uint clscan_values[CLSCAN_HIST_VALUES_LOCAL];                                            \
    clscan_hist_local_zero(clscan_values, CLSCAN_HIST_VALUES_LOCAL, 0);                              \
    clscan_hist_local_zero(counts, clscan_width, 0);                                                 \
    clscan_hist_count_values(in, from, count, clscan_values);                                        \
    clscan_hist_values_to_band(clscan_values, clscan_table, clscan_first_bin, clscan_width, counts); \
    (void)own;                                                                                       \
    clscan_hist_local_out(counts, clscan_width, 0, merge, clscan_row, rows, bins, merged, &clscan_last);
#define CLSCAN_HIST_LOCAL_GROUP(BIN) CLSCAN_HIST_GROUP_BY_VALUE
#else
#define CLSCAN_HIST_LOCAL_GROUP CLSCAN_HIST_GROUP
#endif

/* The even split's kernel arguments as a rule. */
#define CLSCAN_HIST_RULE                                                                         \
    const clscan_hist_even_rule rule = {lower, upper, scale, range, magic, halves, narrow, (clscan_hist_bin)bins}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_even_local(__global const CLSCAN_T *in, ulong n, ulong per_group, CLSCAN_T lower, CLSCAN_T upper,
                            CLSCAN_T scale, ulong range, ulong magic, uint halves, uint narrow, ulong bins, uint own,
                            uint band, uint merge, __global uint *rows, __global ulong *merged, __local uint *counts)
{
    __local uint clscan_last;
    CLSCAN_HIST_RULE;
    CLSCAN_HIST_FILL(CLSCAN_HIST_EVEN_BIN)
    CLSCAN_HIST_LOCAL_GROUP(CLSCAN_HIST_EVEN)
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_range_local(__global const CLSCAN_T *in, ulong n, ulong per_group, __global const CLSCAN_T *edges,
                             ulong bins, uint own, uint band, uint merge, __global uint *rows,
                             __global ulong *merged, __local uint *counts)
{
    __local uint clscan_last;
    CLSCAN_HIST_FILL(CLSCAN_HIST_RANGE_BIN)
    CLSCAN_HIST_LOCAL_GROUP(CLSCAN_HIST_RANGE)
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_even_global(__global const CLSCAN_T *in, ulong from, ulong count, CLSCAN_T lower, CLSCAN_T upper,
                             CLSCAN_T scale, ulong range, ulong magic, uint halves, uint narrow, ulong bins,
                             __global uint *row)
{
    CLSCAN_HIST_RULE;
    CLSCAN_HIST_FILL(CLSCAN_HIST_EVEN_BIN)
    CLSCAN_HIST_LAUNCH_SHARE(CLSCAN_HIST_EVEN)
}

__kernel __attribute__((reqd_work_group_size(CLSCAN_WG_SIZE, 1, 1)))
void clscan_hist_range_global(__global const CLSCAN_T *in, ulong from, ulong count, __global const CLSCAN_T *edges,
                              ulong bins, __global uint *row)
{
    CLSCAN_HIST_FILL(CLSCAN_HIST_RANGE_BIN)
    CLSCAN_HIST_LAUNCH_SHARE(CLSCAN_HIST_RANGE)
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
