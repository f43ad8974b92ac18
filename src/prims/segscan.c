/* The segmented scans: by heads (clscan_segmented_*_scan) and by key (clscan_*_scan_by_key). One
 * launch of clscan_seg_scan_single_pass, a single-pass scan of (head, value) pairs with decoupled
 * look-back (segscan.cl), whatever the strategy set: its look-back falls back to recomputing a tile
 * rather than wait, so it needs no forward-progress guarantee, and a tile with a head ends every walk,
 * so reduce-then-scan or block-sum would only read or write the values once more. One program per
 * (value type, operator, key width); keys are compared by their bits. clscan_mpi's segmented scans run
 * the same launch twice: once for the slice's pair (nothing written), once with the carry of the ranks
 * before (clscan__segscan_total, clscan__segscan_run). */
#include "prims.h"
#include <string.h>

clscan__config clscan__segscan_config(const clscan_context *ctx, int runs, clscan_type type, clscan_op op, size_t n,
                                      size_t key_bytes)
{
    clscan__config cfg = clscan__config_with(ctx, runs ? CLSCAN__PROGRAM_RUNS : CLSCAN__PROGRAM_SEGSCAN, type, op, n,
                                             runs ? clscan__runs_tile(ctx, type, key_bytes)
                                                  : clscan__segscan_tile(ctx, type, key_bytes));
    /* No CLSCAN_VEC4: the values stay one element a register (8- and 16-bit ones unpacked); byte heads
     * of whole runs load as 16-byte vectors where every buffer starts on 16 bytes. */
    if (cfg.vec4)
        clscan__config_define(&cfg, "CLSCAN_SEG_HEADS16", NULL);
    cfg.vec4 = 0;
    if (key_bytes)
        clscan__config_define_uint(&cfg, "CLSCAN_SEG_KEY_BYTES", (unsigned)key_bytes);
    /* The segmented scan: a tile with a head ends a look-back; the runs: the look-back carries counts */
    clscan__config_define(&cfg, runs ? "CLSCAN_SP_RUNS" : "CLSCAN_SP_CLOSING", NULL);
    return cfg;
}

/* What clscan_mpi adds to a launch (segscan.cl): what precedes element 0 in its segment where it
 * continues one (carry, NULL: the identity), and the buffer of the slice's pair (total, NULL: a scan into
 * out). */
typedef struct segscan_link {
    const void *carry;
    cl_uint continues;
    cl_mem total;
} segscan_link;

/* The launch's arguments and the launch; the first pass (link->total) writes only its pair, even where
 * in is the caller's out. */
static clscan_status segscan_launch(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem marks,
                                    cl_mem out, cl_mem status, size_t n, size_t tiles, int exclusive,
                                    cl_uint in_place, const segscan_link *link)
{
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint excl = exclusive != 0, epoch = ctx->sp_epoch + 1, continues = link ? link->continues : 0;
    char carry[CLSCAN__ELEM_MAX];
    if (link && link->carry)
        memcpy(carry, link->carry, p->config.elem);
    else
        clscan__identity(ctx, p->config.type, p->config.op, carry);
    cl_mem total = link ? link->total : NULL;
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(marks), CLSCAN__MEM(out), CLSCAN__MEM(status),
                                CLSCAN__MEM(ctx->sp_counters), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64),
                                CLSCAN__VAL(excl), CLSCAN__VAL(epoch), CLSCAN__VAL(in_place),
                                {p->config.elem, carry}, CLSCAN__VAL(continues), CLSCAN__MEM(total)};
    const char *name = "clscan_seg_scan_single_pass";
    clscan_status st = total ? clscan__launch_into(ctx, p, name, CLSCAN__ARGS(args), clscan__sp_groups(ctx, tiles), total)
                             : clscan__launch(ctx, p, name, CLSCAN__ARGS(args), clscan__sp_groups(ctx, tiles));
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* an enqueued launch uses up its epoch */
    return st;
}

/* Validated, n > 0, lock held: one single-pass launch (link NULL: the one-device scan). */
static clscan_status segscan_enqueue(clscan_context *ctx, cl_mem in, cl_mem marks, cl_mem out, size_t n,
                                     clscan_type type, clscan_op op, size_t key_bytes, int exclusive,
                                     const segscan_link *link)
{
    clscan__config cfg = clscan__segscan_config(ctx, 0, type, op, n, key_bytes);
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t tile = (size_t)cfg.wg_size * cfg.items, tiles = clscan__tiles(n, tile);
    if (!clscan__sp_tiles_fit(tiles))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "segmented scan of %zu elements needs %zu tiles of %zu; at most "
                            "2^31 - 1", n, tiles, tile);
    cl_mem status = NULL;
    cl_uint in_place = 0;
    if (out)   /* the first pass writes no outputs */
        st = clscan__same_memory(ctx, in, out, &in_place);
    if (st == CLSCAN_SUCCESS)
        st = clscan__sp_state(ctx, tiles, cfg.elem, cfg.atomics64, &status);
    if (st != CLSCAN_SUCCESS)
        return st;
    return segscan_launch(ctx, p, in, marks, out, status, n, tiles, exclusive, in_place, link);
}

/* Marks: byte heads, or keys of a type. */
typedef struct segscan_marks {
    cl_mem buf;
    int by_key;
    clscan_type key_type;
} segscan_marks;

/* Every check: the scan's (type, operator, in and out, in == out allowed), then the marks (n heads or
 * keys, read, apart from out). *key_bytes: 0 for heads. */
static clscan_status check_segscan(clscan_context *ctx, cl_mem in, segscan_marks m, cl_mem out, size_t n,
                                   clscan_type type, clscan_op op, size_t *key_bytes)
{
    clscan_status st = clscan__check_scan(ctx, in, out, n, type, op);
    if (st == CLSCAN_SUCCESS && m.by_key)
        st = clscan__check_free_type(ctx, n, m.key_type);
    if (st != CLSCAN_SUCCESS || n == 0)
        return st;
    *key_bytes = m.by_key ? clscan__type_size(ctx, m.key_type) : 0;
    const size_t mark = m.by_key ? *key_bytes : 1, elem = clscan__type_size(ctx, type);
    st = clscan__check_buffer(ctx, m.buf, m.by_key ? "keys" : "heads", n, mark, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, m.buf, n * mark, out, n * elem, 0);
    return st;
}

static clscan_status segscan(clscan_context *ctx, cl_mem in, segscan_marks m, cl_mem out, size_t n, clscan_type type,
                             clscan_op op, int exclusive)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    size_t key_bytes = 0;
    clscan_status st = check_segscan(ctx, in, m, out, n, type, op, &key_bytes);
    if (st == CLSCAN_SUCCESS && n > 0) {
        clscan__outputs(ctx, out, NULL);
        st = segscan_enqueue(ctx, in, m.buf, out, n, type, op, key_bytes, exclusive, NULL);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_segmented_inclusive_scan(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n,
                                              clscan_type type, clscan_op op)
{
    return segscan(ctx, in, (segscan_marks){heads, 0, CLSCAN_INT32}, out, n, type, op, 0);
}

clscan_status clscan_segmented_exclusive_scan(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n,
                                              clscan_type type, clscan_op op)
{
    return segscan(ctx, in, (segscan_marks){heads, 0, CLSCAN_INT32}, out, n, type, op, 1);
}

clscan_status clscan_inclusive_scan_by_key(clscan_context *ctx, cl_mem keys, clscan_type key_type, cl_mem in, cl_mem out,
                                           size_t n, clscan_type type, clscan_op op)
{
    return segscan(ctx, in, (segscan_marks){keys, 1, key_type}, out, n, type, op, 0);
}

clscan_status clscan_exclusive_scan_by_key(clscan_context *ctx, cl_mem keys, clscan_type key_type, cl_mem in, cl_mem out,
                                           size_t n, clscan_type type, clscan_op op)
{
    return segscan(ctx, in, (segscan_marks){keys, 1, key_type}, out, n, type, op, 1);
}

/* ---- clscan_mpi (src/prims/collective.c) ---------------------------------------------------------- */
clscan_status clscan__check_segscan(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n,
                                    clscan_type type, clscan_op op)
{
    size_t key_bytes = 0;
    return check_segscan(ctx, in, (segscan_marks){heads, 0, CLSCAN_INT32}, out, n, type, op, &key_bytes);
}

/* The kernel's clscan_seg_pair: the value, then a uint at the next multiple of 4 bytes (a type's size is
 * a multiple of its alignment, so none comes between). Room for the struct's tail padding too. */
static size_t pair_head_offset(size_t elem)
{
    return (elem + 3) / 4 * 4;
}

clscan_status clscan__segscan_total(clscan_context *ctx, cl_mem in, cl_mem heads, size_t n, clscan_type type,
                                    clscan_op op, void *value, int *has_head)
{
    const size_t elem = clscan__type_size(ctx, type), at = pair_head_offset(elem), bytes = at + 4 + CLSCAN__ELEM_MAX;
    unsigned char pair[3 * CLSCAN__ELEM_MAX];
    cl_mem total = NULL;
    clscan_status st = clscan__scratch(ctx, "segmented scan's pair", bytes, &total);
    if (st == CLSCAN_SUCCESS)   /* the kernel only sets the head word */
        st = clscan__fill_zero(ctx, total, bytes);
    const segscan_link link = {NULL, 1, total};
    if (st == CLSCAN_SUCCESS)
        st = segscan_enqueue(ctx, in, heads, NULL, n, type, op, 0, 0, &link);
    if (st == CLSCAN_SUCCESS)
        st = clscan__read_back(ctx, total, 0, at + 4, pair, "segmented scan's pair");
    if (st == CLSCAN_SUCCESS) {
        cl_uint head = 0;
        memcpy(&head, pair + at, sizeof head);
        memcpy(value, pair, elem);
        *has_head = head != 0;
    }
    return st;
}

clscan_status clscan__segscan_run(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n, clscan_type type,
                                  clscan_op op, int exclusive, const void *carry, int continues)
{
    const segscan_link link = {carry, continues != 0, NULL};
    return segscan_enqueue(ctx, in, heads, out, n, type, op, 0, exclusive, &link);
}
