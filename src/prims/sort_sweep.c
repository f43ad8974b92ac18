/* The sorts' one-sweep passes (prims/sort_sweep.cl): the digits of every pass counted in one launch,
 * then a launch a pass that looks back over its tiles' digit counts; routed like the three-launch
 * passes of sort.c, whose buffers and steps they share (prims.h). */
#include "prims.h"

/* The digit counts of every pass, then the bits in which keys differ: words of "sort pass digits". */
static size_t sweep_digit_words(const clscan__sort_args *a, unsigned radix_bits)
{
    const size_t key_bits = 8 * clscan_type_size(a->key_type);
    return ((key_bits + radix_bits - 1) / radix_bits << radix_bits) + 2;
}

/* clscan_sort_digits over the caller's keys into `digits` (zeroed first), in a few groups a compute
 * unit, each walking the keys by the launch's stride. */
static clscan_status sweep_digits(clscan_context *ctx, const clscan__program *p, const clscan__sort_args *a,
                                  cl_mem digits, size_t words)
{
    const cl_ulong n64 = a->n;
    const cl_uint begin = a->begin, end = a->end;
    const cl_uint flags = CLSCAN__SORT_TRANSFORM_IN | clscan__sort_order(a);
    const size_t groups = clscan__tiles(a->n, p->config.wg_size), most = 8 * (size_t)ctx->info.compute_units;
    const clscan__arg args[] = {CLSCAN__MEM(a->keys), CLSCAN__MEM(digits), CLSCAN__VAL(n64), CLSCAN__VAL(begin),
                                CLSCAN__VAL(end), CLSCAN__VAL(flags)};
    clscan_status st = clscan__fill_zero(ctx, digits, words * sizeof(cl_uint));
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch_into(ctx, p, "clscan_sort_digits", CLSCAN__ARGS(args), groups < most ? groups : most,
                                 digits);
    return st;
}

/* One pass: clscan_sort_onesweep over status, whose words (and the ticket before them) are zero, zeroing
 * next's for the pass after it; a group a tile (tiles past the launch's groups taken by ticket;
 * CLSCAN_TUNE_SP_GROUPS, for the tests, launches that many groups a compute unit instead, so that
 * groups take tile after tile at any size). */
static clscan_status sweep_pass(clscan_context *ctx, const clscan__program *p, const clscan__sort_args *a,
                                const clscan__sort_buffers *b, cl_mem digits, cl_mem status, cl_mem next,
                                clscan__sort_route r, cl_uint shift, cl_uint digit, const clscan__sort_shape *s)
{
    const cl_ulong n64 = a->n, tiles64 = s->tiles;
    clscan__arg args[13];
    size_t count = clscan__sort_pair_args(a, b, r.from, r.to, args);
    args[count++] = CLSCAN__MEM(status);
    args[count++] = CLSCAN__MEM(next);
    args[count++] = CLSCAN__MEM(digits);
    args[count++] = CLSCAN__VAL(digit);
    args[count++] = CLSCAN__VAL(n64);
    args[count++] = CLSCAN__VAL(tiles64);
    args[count++] = CLSCAN__VAL(shift);
    args[count++] = CLSCAN__VAL(r.flags);
    const long per_unit = clscan__tuned(ctx, CLSCAN_TUNE_SP_GROUPS);
    const size_t few = per_unit > 0 ? (size_t)per_unit * ctx->info.compute_units : s->tiles;
    return clscan__launch_into(ctx, p, "clscan_sort_onesweep", args, count, few < s->tiles ? few : s->tiles,
                               clscan__sort_written_by(a, b, r.to));
}

/* One-sweep LSD: the digits of every pass counted in one launch (which also gathers `varying`), then a
 * launch a pass whose digit varies, routed as sort_lsd's. The status words of even passes take the
 * counts' slot, those of odd passes a slot of their own; the host zeroes the first pass's, each pass
 * the next one's. */
clscan_status clscan__sort_sweep(clscan_context *ctx, const clscan__program *p, const clscan__sort_args *a)
{
    const clscan__config *cfg = &p->config;
    const unsigned radix_bits = cfg->param[CLSCAN__SORT_RADIX_BITS];
    const clscan__sort_shape shape = clscan__sort_geometry(a->n, (size_t)cfg->wg_size * cfg->items, radix_bits);
    const size_t words = sweep_digit_words(a, radix_bits);
    clscan__sort_buffers b = {{NULL}, {NULL}, NULL, NULL};
    cl_mem digits = NULL, status[2] = {NULL, NULL};
    const size_t status_bytes = (1 + shape.counts) * sizeof(cl_uint);
    cl_ulong varying = 0;
    clscan_status st = clscan__sort_buffers_get(ctx, cfg, a, 1 + shape.counts, &b);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, "sort pass status", status_bytes, &status[1]);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, "sort pass digits", words * sizeof(cl_uint), &digits);
    if (st == CLSCAN_SUCCESS)
        st = sweep_digits(ctx, p, a, digits, words);
    if (st == CLSCAN_SUCCESS)
        st = clscan__sort_read_varying(ctx, digits, (words - 2) * sizeof(cl_uint), &varying);
    cl_uint shifts[64], numbers[64];
    const unsigned count =
        st == CLSCAN_SUCCESS ? clscan__sort_active_shifts(varying, a->begin, a->end, radix_bits, shifts, numbers) : 0;
    status[0] = b.hist;
    if (st == CLSCAN_SUCCESS && count > 0)
        st = clscan__fill_zero(ctx, status[0], status_bytes);
    for (unsigned i = 0; st == CLSCAN_SUCCESS && i < count; i++)
        st = sweep_pass(ctx, p, a, &b, digits, status[i % 2], status[(i + 1) % 2], clscan__sort_pass_route(a, i, count),
                        shifts[i], numbers[i], &shape);
    return st == CLSCAN_SUCCESS ? clscan__sort_after_passes(ctx, p, a, &b, count, shape.tiles) : st;
}
