/* The sorts' passes (the calls and their checks: sort_calls.c): stable LSD radix sort, in place from the
 * caller's view, through two more key (and value) buffers kept in the context's scratch. The default
 * takes RADIX_BITS a pass: clscan_sort_hist, an exclusive scan of the digit-major counts (the scan
 * dispatch), clscan_sort_scatter; or, where the sort table says, the one-sweep passes of sort_sweep.c.
 * The host waits once, for the bits in which keys differ (8 bytes read after the first counting launch,
 * some 10-20 us against a sort of milliseconds): then it enqueues only the passes whose digit varies,
 * and routes them so that the caller's buffer is written by the last command alone and a failed call
 * leaves it as it was. The 1-bit split path (flags, exclusive scan, scatter, a
 * pass a bit) is the readable reference. */
#include "prims.h"

/* This file's short names for the sorts' shared definitions (prims.h). */
typedef clscan__sort_args sort_args;
typedef clscan__sort_buffers sort_buffers;
typedef clscan__sort_route sort_route;
enum { RADIX_BITS = CLSCAN__SORT_RADIX_BITS, HIST64 = CLSCAN__SORT_HIST64 };
#define SORT_TRANSFORM_IN CLSCAN__SORT_TRANSFORM_IN
#define SORT_TRANSFORM_OUT CLSCAN__SORT_TRANSFORM_OUT
#define SORT_VARYING CLSCAN__SORT_VARYING

clscan_status clscan__sort_buffers_get(clscan_context *ctx, const clscan__config *cfg, const sort_args *a,
                                       size_t counts, sort_buffers *b)
{
    static const char *const key_slots[2] = {"sort keys B", "sort keys C"};
    static const char *const value_slots[2] = {"sort values B", "sort values C"};
    const size_t hist_bytes = cfg->param[HIST64] ? sizeof(cl_ulong) : sizeof(cl_uint);
    const size_t key_bytes = a->n * clscan_type_size(a->key_type), value_bytes = a->n * a->value_bytes;
    clscan_status st = CLSCAN_SUCCESS;
    b->keys[0] = a->keys, b->values[0] = a->values;
    for (int i = 0; i < 2 && st == CLSCAN_SUCCESS; i++) {
        st = clscan__scratch(ctx, key_slots[i], key_bytes, &b->keys[1 + i]);
        if (st == CLSCAN_SUCCESS && a->by_key)
            st = clscan__scratch(ctx, value_slots[i], value_bytes, &b->values[1 + i]);
    }
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, "sort digit counts", counts * hist_bytes, &b->hist);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, "sort varying bits", 2 * sizeof(cl_uint), &b->varying);
    return st;
}

cl_uint clscan__sort_order(const sort_args *a)
{
    return a->descending ? CLSCAN__SORT_DESCEND : 0u;
}

sort_route clscan__sort_pass_route(const sort_args *a, unsigned i, unsigned count)
{
    sort_route r = {i == 0 ? 0 : 1 + (i - 1) % 2, i + 1 == count && count > 1 ? 0 : 1 + i % 2, 0};
    r.flags = (i == 0 ? SORT_TRANSFORM_IN : 0) | (i + 1 == count ? SORT_TRANSFORM_OUT : 0) | clscan__sort_order(a);
    return r;
}

/* The values' buffer `to` (0: A, where they go home: values_out where that is set), as the place that
 * holds it (kernel arguments point at it). */
static const cl_mem *values_to(const sort_args *a, const sort_buffers *b, unsigned to)
{
    return to == 0 && a->values_out ? &a->values_out : &b->values[to];
}

/* What a pass into `to` may write of the caller's: A's keys, or the values where they go elsewhere. */
cl_mem clscan__sort_written_by(const sort_args *a, const sort_buffers *b, unsigned to)
{
    return to == 0 && a->values_out ? a->values_out : b->keys[to];
}

/* The keys' (and values') source and destination as kernel arguments. */
size_t clscan__sort_pair_args(const sort_args *a, const sort_buffers *b, unsigned from, unsigned to, clscan__arg *args)
{
    size_t count = 0;
    args[count++] = CLSCAN__MEM(b->keys[from]);
    args[count++] = CLSCAN__MEM(b->keys[to]);
    if (a->by_key) {
        args[count++] = CLSCAN__MEM(b->values[from]);
        args[count++] = CLSCAN__MEM(*values_to(a, b, to));
    }
    return count;
}

/* After a single pass (A to B): clscan_sort_home copies B to A (the values to where they go home), the
 * last command and the only one to write A, in `groups` groups. */
static clscan_status copy_home(clscan_context *ctx, const clscan__program *p, const sort_args *a, const sort_buffers *b,
                               size_t groups)
{
    const cl_ulong n64 = a->n;
    clscan__arg args[5];
    size_t count = 0;
    args[count++] = CLSCAN__MEM(b->keys[0]);
    args[count++] = CLSCAN__MEM(b->keys[1]);
    if (a->by_key) {
        args[count++] = CLSCAN__MEM(*values_to(a, b, 0));
        args[count++] = CLSCAN__MEM(b->values[1]);
    }
    args[count++] = CLSCAN__VAL(n64);
    return clscan__launch(ctx, p, "clscan_sort_home", args, count, groups);
}

/* Counts of n keys fit uint up to 2^32 - 1 (a digit count or an offset is at most n). */
int clscan__sort_hist64(size_t n)
{
    return (uint64_t)n > UINT32_MAX;
}

/* Counts are digit-major: d * tiles + t. */
clscan__sort_shape clscan__sort_geometry(size_t n, size_t tile, unsigned radix_bits)
{
    const size_t tiles = clscan__tiles(n, tile);
    return (clscan__sort_shape){tiles, tiles << radix_bits};
}

/* A group a tile, and one more (idle when tile divides n). */
size_t clscan__split_groups(size_t n, size_t tile)
{
    return n / tile + 1;
}

/* The type the counts (and their scan) are held in. */
static clscan_type count_type(const clscan__config *cfg)
{
    return cfg->param[HIST64] ? CLSCAN_UINT64 : CLSCAN_UINT32;
}

/* One LSD pass's histogram of the keys in buffer `from` (the first pass's also gathers `varying`). The
 * first reads the caller's keys and writes only scratch: a failure after it may still be out of memory. */
static clscan_status lsd_hist(clscan_context *ctx, const clscan__program *p, const sort_args *a,
                              const sort_buffers *b, unsigned from, cl_uint shift, cl_uint flags, size_t tiles)
{
    const cl_ulong n64 = a->n, tiles64 = tiles;
    const clscan__arg args[] = {CLSCAN__MEM(b->keys[from]), CLSCAN__MEM(b->hist), CLSCAN__MEM(b->varying),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64), CLSCAN__VAL(shift), CLSCAN__VAL(flags)};
    return clscan__launch_into(ctx, p, "clscan_sort_hist", CLSCAN__ARGS(args), tiles, b->hist);
}

/* The scan of the pass's counts into offsets, and its scatter. */
static clscan_status lsd_scatter(clscan_context *ctx, const clscan__program *p, const sort_args *a,
                                 const sort_buffers *b, sort_route r, cl_uint shift, const clscan__sort_shape *s)
{
    const cl_ulong n64 = a->n, tiles64 = s->tiles;
    clscan_status st = clscan__scan_enqueue(ctx, b->hist, b->hist, s->counts, count_type(&p->config), CLSCAN_ADD, 1, NULL);
    clscan__arg args[10];
    size_t count = clscan__sort_pair_args(a, b, r.from, r.to, args);
    args[count++] = CLSCAN__MEM(b->hist);
    args[count++] = CLSCAN__VAL(n64);
    args[count++] = CLSCAN__VAL(tiles64);
    args[count++] = CLSCAN__VAL(shift);
    args[count++] = CLSCAN__VAL(r.flags);
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch_into(ctx, p, "clscan_sort_scatter", args, count, s->tiles,
                                 clscan__sort_written_by(a, b, r.to));
    return st;
}

/* The bits in which some key differs from the first (in ordered form), at offset of buf once
 * clscan_sort_hist or clscan_sort_digits has gathered them. */
clscan_status clscan__sort_read_varying(clscan_context *ctx, cl_mem buf, size_t offset, cl_ulong *varying)
{
    cl_uint words[2] = {0, 0};
    cl_int err = clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, offset, sizeof words, words, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clEnqueueReadBuffer (sort varying bits)", err);
    *varying = words[0] | (cl_ulong)words[1] << 32;
    return CLSCAN_SUCCESS;
}

/* The shifts of the digits over bits [begin, end) (end - begin >= radix_bits): up from begin, the last
 * one ending at end, where it overlaps the one before (sorting bits again that an earlier pass sorted
 * keeps the order: the later pass is stable), so that no digit reads a bit outside the range; of
 * those, the digits that vary (a pass of a digit equal in every key would move nothing), and each
 * one's number among them all (clscan_sweep_shift in prims/sort_sweep.cl numbers them the same way). */
unsigned clscan__sort_active_shifts(cl_ulong varying, unsigned begin, unsigned end, unsigned radix_bits,
                                    cl_uint *shifts, cl_uint *digits)
{
    unsigned count = 0, digit = 0;
    for (unsigned at = begin; at < end; at += radix_bits, digit++) {
        const cl_uint shift = at + radix_bits > end ? end - radix_bits : at;
        if ((varying >> shift) & ((1u << radix_bits) - 1))
            digits[count] = digit, shifts[count++] = shift;
    }
    return count;
}

/* index[i] = i for i < n, and with copy a copy of keys (clscan_sort_index_init). */
static clscan_status index_init(clscan_context *ctx, const clscan__program *p, cl_mem keys, cl_mem copy, cl_mem index,
                                size_t n)
{
    const cl_ulong n64 = n;
    const clscan__arg args[] = {CLSCAN__MEM(keys), CLSCAN__MEM(copy), CLSCAN__MEM(index), CLSCAN__VAL(n64)};
    return clscan__launch(ctx, p, "clscan_sort_index_init", CLSCAN__ARGS(args), clscan__tiles(n, p->config.wg_size));
}

/* After `count` LSD passes: a single one went to B and is copied home; none (every key equal) writes
 * nothing, but argsort's identity. */
clscan_status clscan__sort_after_passes(clscan_context *ctx, const clscan__program *p, const sort_args *a,
                                        const sort_buffers *b, unsigned count, size_t tiles)
{
    if (count == 1)
        return copy_home(ctx, p, a, b, tiles);
    if (count == 0 && a->values_out)
        return index_init(ctx, p, NULL, NULL, a->values_out, a->n);
    return CLSCAN_SUCCESS;
}

/* Multi-bit LSD: the first histogram (of the lowest digit, gathering `varying`), then only the passes
 * whose digit varies; the first histogram serves its own pass when the lowest digit varies. No digit
 * varying means every key is equal: nothing to do, and A is never written. */
static clscan_status sort_lsd(clscan_context *ctx, const clscan__program *p, const sort_args *a)
{
    const clscan__config *cfg = &p->config;
    const unsigned radix_bits = cfg->param[RADIX_BITS];
    const clscan__sort_shape shape = clscan__sort_geometry(a->n, (size_t)cfg->wg_size * cfg->items, radix_bits);
    sort_buffers b = {{NULL}, {NULL}, NULL, NULL};
    cl_ulong varying = 0;
    clscan_status st = clscan__sort_buffers_get(ctx, cfg, a, shape.counts, &b);
    if (st == CLSCAN_SUCCESS)
        st = clscan__fill_zero(ctx, b.varying, 2 * sizeof(cl_uint));
    if (st == CLSCAN_SUCCESS)
        st = lsd_hist(ctx, p, a, &b, 0, 0, SORT_TRANSFORM_IN | SORT_VARYING | clscan__sort_order(a), shape.tiles);
    if (st == CLSCAN_SUCCESS)
        st = clscan__sort_read_varying(ctx, b.varying, 0, &varying);
    cl_uint shifts[64], digits[64];
    const unsigned count =
        st == CLSCAN_SUCCESS ? clscan__sort_active_shifts(varying, a->begin, a->end, radix_bits, shifts, digits) : 0;
    for (unsigned i = 0; st == CLSCAN_SUCCESS && i < count; i++) {
        const sort_route r = clscan__sort_pass_route(a, i, count);
        if (shifts[i] != 0)
            st = lsd_hist(ctx, p, a, &b, r.from, shifts[i], r.flags & ~SORT_TRANSFORM_OUT, shape.tiles);
        if (st == CLSCAN_SUCCESS)
            st = lsd_scatter(ctx, p, a, &b, r, shifts[i], &shape);
    }
    return st == CLSCAN_SUCCESS ? clscan__sort_after_passes(ctx, p, a, &b, count, shape.tiles) : st;
}

/* The reference (and ranges of one bit): a stable split a bit of [begin, end), routed like the LSD
 * passes (A -> B, then B and C in turn, the last bit back to A; one bit goes to B and home). */
static clscan_status sort_split(clscan_context *ctx, const clscan__program *p, const sort_args *a)
{
    const clscan__config *cfg = &p->config;
    const unsigned bits = a->end - a->begin;
    const size_t groups = clscan__split_groups(a->n, (size_t)cfg->wg_size * cfg->items);
    sort_buffers b = {{NULL}, {NULL}, NULL, NULL};
    clscan_status st = clscan__sort_buffers_get(ctx, cfg, a, a->n, &b);
    const cl_ulong n64 = a->n;
    for (cl_uint bit = a->begin; st == CLSCAN_SUCCESS && bit < a->end; bit++) {
        const sort_route r = clscan__sort_pass_route(a, bit - a->begin, bits);
        clscan__arg scatter[9];
        size_t count = clscan__sort_pair_args(a, &b, r.from, r.to, scatter);   /* from, to (keys, then values) */
        const clscan__arg mark[] = {scatter[0], CLSCAN__MEM(b.hist), CLSCAN__VAL(n64), CLSCAN__VAL(bit),
                                    CLSCAN__VAL(r.flags)};
        st = clscan__launch_into(ctx, p, "clscan_split_flags", CLSCAN__ARGS(mark), groups,
                                 b.hist);
        if (st == CLSCAN_SUCCESS)
            st = clscan__scan_enqueue(ctx, b.hist, b.hist, a->n, count_type(cfg), CLSCAN_ADD, 1, NULL);
        scatter[count++] = CLSCAN__MEM(b.hist);
        scatter[count++] = CLSCAN__VAL(n64);
        scatter[count++] = CLSCAN__VAL(bit);
        scatter[count++] = CLSCAN__VAL(r.flags);
        if (st == CLSCAN_SUCCESS)
            st = clscan__launch_into(ctx, p, "clscan_split_scatter", scatter, count, groups,
                                     clscan__sort_written_by(a, &b, r.to));
    }
    if (st == CLSCAN_SUCCESS && bits == 1)
        st = copy_home(ctx, p, a, &b, clscan__tiles(a->n, cfg->wg_size));
    return st;
}

/* Whether a's keys need passes: two or more, and a range of at least one bit. */
static int has_passes(const sort_args *a)
{
    return a->n > 1 && a->begin < a->end;
}

/* The passes of program p: its digit width picks the LSD passes or the split, the table the kind of
 * LSD passes. */
static clscan_status run_passes(clscan_context *ctx, const clscan__program *p, const sort_args *a)
{
    if (p->config.param[RADIX_BITS] == 1)
        return sort_split(ctx, p, a);
    return clscan__sort_takes_sweep(ctx, &p->config, a) ? clscan__sort_sweep(ctx, p, a) : sort_lsd(ctx, p, a);
}

clscan_status clscan__sort_passes(clscan_context *ctx, const sort_args *a)
{
    if (!has_passes(a))
        return CLSCAN_SUCCESS;
    clscan__config cfg = clscan__sort_config(ctx, a);
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    return st == CLSCAN_SUCCESS ? run_passes(ctx, p, a) : st;
}

/* A copy of the keys sorted with their positions as values (clscan_sort_index_init writes both), whose
 * home is values_out; where nothing needs sorting the positions go straight there. */
clscan_status clscan__sort_argsort(clscan_context *ctx, const sort_args *call)
{
    sort_args a = *call;
    const size_t n = a.n;
    clscan_status st = clscan__scratch(ctx, "argsort keys", n * clscan_type_size(a.key_type), &a.keys);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, "argsort indices", n * sizeof(cl_uint), &a.values);
    clscan__config cfg = clscan__sort_config(ctx, &a);
    clscan__program *p = NULL;
    if (st == CLSCAN_SUCCESS)
        st = clscan__get_program(ctx, &cfg, &p);
    const int passes = has_passes(&a);
    if (st == CLSCAN_SUCCESS)
        st = passes ? index_init(ctx, p, call->keys, a.keys, a.values, n)
                    : index_init(ctx, p, NULL, NULL, a.values_out, n);
    return st == CLSCAN_SUCCESS && passes ? run_passes(ctx, p, &a) : st;
}
