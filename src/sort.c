/* clscan_sort and clscan_sort_by_key: stable LSD radix sort, in place from the caller's view, through a
 * second key (and value) buffer kept in the context's scratch. The default takes RADIX_BITS a pass:
 * sort_hist, an exclusive scan of the digit-major counts (the scan dispatch), sort_scatter; which passes
 * run is decided on the device (a digit equal in every key is skipped), so nothing waits for the host.
 * The 1-bit split path (flags, exclusive scan, scatter, a pass a bit) is the readable reference. */
#include "internal.h"

#define SORT_TRANSFORM_IN 1u    /* the flags of cl/sort.cl */
#define SORT_TRANSFORM_OUT 2u
#define SORT_VARYING 4u

typedef struct sort_args {
    cl_mem keys, values;
    size_t n;
    clscan_type key_type, value_type;
    int by_key;                 /* 0: keys only, values unused */
} sort_args;

/* The second buffers and the counts, all in place before anything is enqueued. */
typedef struct sort_buffers { cl_mem keys_b, values_b, hist, varying; } sort_buffers;

/* Local memory sort_scatter declares (the group scan's scratch bounded from above). */
static size_t scatter_local_bytes(const clscan__config *cfg, size_t key_bytes)
{
    size_t tile = (size_t)cfg->wg_size * cfg->items, padded = cfg->wg_size > 1 ? tile + tile / 32 : 1;
    size_t radix = (size_t)1 << cfg->radix_bits;
    return padded * (key_bytes + (cfg->sort_value_bytes ? sizeof(cl_ushort) : 0)) + radix * (cfg->hist64 ? 8 : 4) +
           (radix + 1) * 4 + (3 * (size_t)cfg->wg_size + 64) * sizeof(cl_ulong);
}

static clscan__config sort_config(const clscan_context *ctx, const sort_args *a)
{
    size_t key_bytes = clscan_type_size(a->key_type);
    clscan__sort_tuning t = clscan__policy_sort(&ctx->info, key_bytes);
    if (ctx->tuning_override.wg_size)   /* tests: the shape the policy does not pick for this device */
        t.wg_size = ctx->tuning_override.wg_size, t.items = ctx->tuning_override.items;
    /* The program's own scans are of packed ulong counters. */
    clscan__config cfg = clscan__config_for(ctx, CLSCAN_UINT64, CLSCAN_ADD, a->n);
    cfg.wg_size = t.wg_size, cfg.items = t.items, cfg.stream = 0, cfg.vec_io = 0, cfg.vec4 = 0;
    while (cfg.wg_size > 1 && cfg.wg_size > ctx->info.max_wg)
        cfg.wg_size /= 2;
    cfg.radix_bits = ctx->sort_radix_bits ? ctx->sort_radix_bits : t.radix_bits;
    cfg.sort_key = 1 + (int)a->key_type;
    cfg.sort_value_bytes = a->by_key ? (unsigned)clscan_type_size(a->value_type) : 0;
    cfg.hist64 = clscan__sort_hist64(a->n);
    /* Ranks are 16-bit fields: a tile stays under 65536 keys, and inside local memory (a work-group
     * of one ranks nothing: its tile only has to fit). */
    while (cfg.items > 1 && ((cfg.wg_size > 1 && (size_t)cfg.wg_size * cfg.items >= 65536) ||
                             scatter_local_bytes(&cfg, key_bytes) + 1024 > ctx->info.local_mem))
        cfg.items /= 2;
    return cfg;
}

static clscan_status sort_buffers_get(clscan_context *ctx, const clscan__config *cfg, const sort_args *a,
                                      size_t counts, sort_buffers *b)
{
    size_t hist_bytes = cfg->hist64 ? sizeof(cl_ulong) : sizeof(cl_uint);
    clscan_status st = clscan__scratch(ctx, CLSCAN__SCRATCH_SORT_KEYS, a->n * clscan_type_size(a->key_type), &b->keys_b);
    if (st == CLSCAN_SUCCESS && a->by_key)
        st = clscan__scratch(ctx, CLSCAN__SCRATCH_SORT_VALUES, a->n * clscan_type_size(a->value_type), &b->values_b);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, CLSCAN__SCRATCH_SORT_HIST, counts * hist_bytes, &b->hist);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, CLSCAN__SCRATCH_SORT_VARYING, 2 * sizeof(cl_uint), &b->varying);
    return st;
}

/* The keys' (and values') pair of buffers as kernel arguments: A, the caller's, then B, the scratch;
 * swapped, B then A. */
static size_t pair_args(const sort_args *a, const sort_buffers *b, int swapped, clscan__arg *args)
{
    size_t count = 0;
    args[count++] = swapped ? CLSCAN__MEM(b->keys_b) : CLSCAN__MEM(a->keys);
    args[count++] = swapped ? CLSCAN__MEM(a->keys) : CLSCAN__MEM(b->keys_b);
    if (a->by_key) {
        args[count++] = swapped ? CLSCAN__MEM(b->values_b) : CLSCAN__MEM(a->values);
        args[count++] = swapped ? CLSCAN__MEM(a->values) : CLSCAN__MEM(b->values_b);
    }
    return count;
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
    return cfg->hist64 ? CLSCAN_UINT64 : CLSCAN_UINT32;
}

/* Multi-bit LSD: every pass is enqueued; the kernels of a pass whose digit never varies return at once. */
static clscan_status sort_lsd(clscan_context *ctx, const clscan__program *p, const sort_args *a)
{
    const clscan__config *cfg = &p->config;
    const clscan__sort_shape shape = clscan__sort_geometry(a->n, (size_t)cfg->wg_size * cfg->items, cfg->radix_bits);
    const size_t tiles = shape.tiles, counts = shape.counts;
    const unsigned key_bits = 8 * (unsigned)clscan_type_size(a->key_type);
    sort_buffers b = {0};
    clscan_status st = sort_buffers_get(ctx, cfg, a, counts, &b);
    if (st == CLSCAN_SUCCESS)
        st = clscan__fill_zero(ctx, b.varying, 2 * sizeof(cl_uint));
    const cl_ulong n64 = a->n, tiles64 = tiles;
    for (cl_uint shift = 0; st == CLSCAN_SUCCESS && shift < key_bits; shift += cfg->radix_bits) {
        cl_uint flags = shift == 0 ? SORT_VARYING : 0;
        const clscan__arg hist[] = {CLSCAN__MEM(a->keys), CLSCAN__MEM(b.keys_b), CLSCAN__MEM(b.hist),
                                    CLSCAN__MEM(b.varying), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64),
                                    CLSCAN__VAL(shift), CLSCAN__VAL(flags)};
        st = clscan__launch(ctx, p, p->sort_hist, "sort_hist", hist, sizeof hist / sizeof hist[0], tiles);
        if (st == CLSCAN_SUCCESS)
            st = clscan__scan_enqueue(ctx, b.hist, b.hist, counts, count_type(cfg), CLSCAN_ADD, 1);
        clscan__arg scatter[10];
        size_t count = pair_args(a, &b, 0, scatter);
        scatter[count++] = CLSCAN__MEM(b.hist);
        scatter[count++] = CLSCAN__MEM(b.varying);
        scatter[count++] = CLSCAN__VAL(n64);
        scatter[count++] = CLSCAN__VAL(tiles64);
        scatter[count++] = CLSCAN__VAL(shift);
        if (st == CLSCAN_SUCCESS)
            st = clscan__launch(ctx, p, p->sort_scatter, "sort_scatter", scatter, count, tiles);
    }
    clscan__arg home[6];
    size_t count = pair_args(a, &b, 0, home);
    home[count++] = CLSCAN__MEM(b.varying);
    home[count++] = CLSCAN__VAL(n64);
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, p->sort_home, "sort_home", home, count, tiles);
    return st;
}

/* The reference: a stable split a bit, ping-ponging between A and B (an even number of bits ends in A). */
static clscan_status sort_split(clscan_context *ctx, const clscan__program *p, const sort_args *a)
{
    const clscan__config *cfg = &p->config;
    const unsigned key_bits = 8 * (unsigned)clscan_type_size(a->key_type);
    const size_t groups = clscan__split_groups(a->n, (size_t)cfg->wg_size * cfg->items);
    sort_buffers b = {0};
    clscan_status st = sort_buffers_get(ctx, cfg, a, a->n, &b);
    const cl_ulong n64 = a->n;
    for (cl_uint bit = 0; st == CLSCAN_SUCCESS && bit < key_bits; bit++) {
        const int odd = bit % 2;
        cl_uint flags = (bit == 0 ? SORT_TRANSFORM_IN : 0) | (bit + 1 == key_bits ? SORT_TRANSFORM_OUT : 0);
        clscan__arg scatter[9];
        size_t count = pair_args(a, &b, odd, scatter);   /* from, to (keys, then values) */
        const clscan__arg mark[] = {scatter[0], CLSCAN__MEM(b.hist), CLSCAN__VAL(n64), CLSCAN__VAL(bit),
                                    CLSCAN__VAL(flags)};
        st = clscan__launch(ctx, p, p->split_flags, "split_flags", mark, sizeof mark / sizeof mark[0], groups);
        if (st == CLSCAN_SUCCESS)
            st = clscan__scan_enqueue(ctx, b.hist, b.hist, a->n, count_type(cfg), CLSCAN_ADD, 1);
        scatter[count++] = CLSCAN__MEM(b.hist);
        scatter[count++] = CLSCAN__VAL(n64);
        scatter[count++] = CLSCAN__VAL(bit);
        scatter[count++] = CLSCAN__VAL(flags);
        if (st == CLSCAN_SUCCESS)
            st = clscan__launch(ctx, p, p->split_scatter, "split_scatter", scatter, count, groups);
    }
    return st;
}

/* Every check before anything is enqueued. Sorting moves bit patterns only, so double keys and values
 * need 64-bit integers on the device, not fp64. */
static clscan_status check_sort(clscan_context *ctx, const sort_args *a, const char *fn)
{
    const clscan_type types[2] = {a->key_type, a->value_type};
    for (int i = 0; i < (a->by_key ? 2 : 1); i++) {
        if (!clscan__type_valid(types[i]))
            return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: unknown clscan_type %d", fn, (int)types[i]);
        if (clscan_type_size(types[i]) == 8 && !ctx->info.int64)
            return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s has no 64-bit integer support", ctx->info.name);
    }
    if (a->n == 0)
        return CLSCAN_SUCCESS;
    size_t kb = clscan_type_size(a->key_type), vb = clscan_type_size(a->value_type);
    clscan_status st = clscan__check_buffer(ctx, a->keys, "keys", a->n, kb, 1, 1);
    if (st == CLSCAN_SUCCESS && a->by_key)
        st = clscan__check_buffer(ctx, a->values, "values", a->n, vb, 1, 1);
    if (st == CLSCAN_SUCCESS && a->by_key)
        st = clscan__check_overlap(ctx, a->keys, a->n * kb, a->values, a->n * vb, 0);
    return st;
}

static clscan_status sort_run(clscan_context *ctx, const sort_args *a, const char *fn)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = check_sort(ctx, a, fn);
    if (st == CLSCAN_SUCCESS && a->n > 1) {
        clscan__config cfg = sort_config(ctx, a);
        clscan__program *p = NULL;
        st = clscan__get_program(ctx, &cfg, &p);
        if (st == CLSCAN_SUCCESS)
            st = cfg.radix_bits == 1 ? sort_split(ctx, p, a) : sort_lsd(ctx, p, a);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_sort(clscan_context *ctx, cl_mem keys, size_t n, clscan_type type)
{
    const sort_args a = {keys, NULL, n, type, CLSCAN_UINT32, 0};
    return sort_run(ctx, &a, "clscan_sort");
}

clscan_status clscan_sort_by_key(clscan_context *ctx, cl_mem keys, cl_mem values, size_t n, clscan_type key_type,
                                 clscan_type value_type)
{
    const sort_args a = {keys, values, n, key_type, value_type, 1};
    return sort_run(ctx, &a, "clscan_sort_by_key");
}
