/* clscan_compact and clscan_partition. Under the single-pass strategy (the default) and below 2^32
 * elements, a compaction is one launch of clscan_compact_single_pass: each tile ranks its kept elements,
 * publishes its count and learns where they go by look-back over the counts of the tiles before it;
 * flags and elements are read once, the kept ones written once, and the count comes back in the
 * single-pass counters. Under block-sum or reduce-then-scan (clscan_set_algorithm), or from 2^32
 * elements, and for every partition: clscan_count_tiles, an inclusive 64-bit scan of the counts by the
 * scan dispatch, clscan_compact_tiles (the flags read twice). A partition needs the whole count before
 * its first unflagged element can move; one pass that learnt it at the end would have to move them
 * again. One program moves elements as bit patterns of their width for all types, registered ones too.
 * clscan_unique (runs.c) is this compaction with the elements as their own flags: an element is kept
 * where it differs bit for bit from the one before it (CLSCAN_COMPACT_HEADS); below 2^32 elements and
 * under the single-pass strategy one launch, else the three, whose counting launch reads every key
 * twice and a work-item's run where it lies. */
#include "prims.h"

/* What a call selects: the flagged elements, the flagged then the others, or each run's first element
 * (clscan_unique: the elements are their own flags, CLSCAN_COMPACT_HEADS in compact.cl), with its
 * length (clscan_run_length_encode on GPUs, CLSCAN_COMPACT_LENGTHS). */
typedef enum select_kind { SELECT_COMPACT, SELECT_PARTITION, SELECT_UNIQUE, SELECT_LENGTHS } select_kind;

/* The compaction's tiling for the element type (its local memory checked by the context), counting
 * in uint, moving payload-wide patterns. */
static clscan__config compact_config(const clscan_context *ctx, clscan_type type, size_t n, select_kind kind)
{
    clscan__config cfg = clscan__config_with(ctx, CLSCAN__PROGRAM_COMPACT, type, CLSCAN_ADD, n,
                                             clscan__compact_tile(ctx, type));
    clscan__config_define_uint(&cfg, "CLSCAN_PAYLOAD_BYTES", (unsigned)cfg.elem);
    if (kind == SELECT_UNIQUE || kind == SELECT_LENGTHS)
        clscan__config_define(&cfg, "CLSCAN_COMPACT_HEADS", NULL);
    if (kind == SELECT_LENGTHS)
        clscan__config_define(&cfg, "CLSCAN_COMPACT_LENGTHS", NULL);
    if (kind == SELECT_COMPACT)   /* a cap of its own: the other selections lost under it */
        cfg.max_regs = clscan__max_regs(ctx, clscan__table_compaction_regs(&ctx->info));
    cfg.type = CLSCAN_UINT32, cfg.elem = sizeof(cl_uint), cfg.op = CLSCAN_ADD;
    return cfg;
}

/* Whether this compaction takes the single launch: counts fit the uint status values. */
static int single_pass(const clscan_context *ctx, size_t n, size_t tiles)
{
    int strategy_ok = ctx->strategy == CLSCAN_STRATEGY_AUTO || ctx->strategy == CLSCAN_STRATEGY_SINGLE_PASS;
    return strategy_ok && clscan__compact_one_pass_fits(n, tiles);
}

int clscan__compact_one_pass_fits(size_t n, size_t tiles)
{
    return (uint64_t)n <= UINT32_MAX && clscan__sp_tiles_fit(tiles);
}

/* Both paths: the count into *kept, read back, or (count_out not NULL) into count_out's element 0 on
 * the device, and *kept left alone. The single pass's flags are the lengths' output in run-length
 * encoding, whose look-back carries two uints (compact.clh). */
static clscan_status compact_one_pass(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem flags,
                                      cl_mem out, size_t n, size_t tiles, cl_mem count_out, size_t *kept,
                                      select_kind kind)
{
    cl_mem status = NULL;
    const size_t carry = p->config.elem * (kind == SELECT_LENGTHS ? 2 : 1);
    clscan_status st = clscan__sp_state(ctx, tiles, carry, p->config.atomics64, &status);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint epoch = ctx->sp_epoch + 1, count = 0;
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(flags), CLSCAN__MEM(out), CLSCAN__MEM(status),
                                CLSCAN__MEM(ctx->sp_counters), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64),
                                CLSCAN__VAL(epoch), CLSCAN__MEM(count_out)};
    st = clscan__launch(ctx, p, "clscan_compact_single_pass", CLSCAN__ARGS(args),
                        clscan__sp_groups(ctx, tiles));
    if (st != CLSCAN_SUCCESS)
        return st;
    ctx->sp_epoch = epoch;   /* an enqueued launch uses up its epoch */
    if (count_out)
        return CLSCAN_SUCCESS;
    st = clscan__read_back(ctx, ctx->sp_counters, 3 * sizeof count, sizeof count, &count, "compaction count");
    *kept = count;
    return st;
}

static clscan_status compact_three_launches(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem flags,
                                            cl_mem out, size_t n, size_t tiles, cl_mem count_out, size_t *kept,
                                            cl_uint partition)
{
    cl_mem counts = NULL;
    clscan_status st = clscan__scratch(ctx, "compaction tile counts", tiles * sizeof(cl_ulong), &counts);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, tiles64 = tiles, count = 0;
    const clscan__arg counting[] = {CLSCAN__MEM(flags), CLSCAN__MEM(counts), CLSCAN__VAL(n64), CLSCAN__VAL(tiles64)};
    st = clscan__launch(ctx, p, "clscan_count_tiles", CLSCAN__ARGS(counting), tiles);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scan_enqueue(ctx, counts, counts, tiles, CLSCAN_UINT64, CLSCAN_ADD, 0, NULL);
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(flags), CLSCAN__MEM(out), CLSCAN__MEM(counts),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64), CLSCAN__MEM(count_out), CLSCAN__VAL(partition)};
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, "clscan_compact_tiles", CLSCAN__ARGS(args), tiles);
    if (st != CLSCAN_SUCCESS || count_out)
        return st;
    st = clscan__read_back(ctx, counts, (tiles - 1) * sizeof count, sizeof count, &count, "compaction count");
    *kept = (size_t)count;
    return st;
}

/* Validated, n > 0: enqueues the selection and waits for its count, or leaves it in count_out (flags:
 * the elements themselves in unique, the lengths' output in run-length encoding, which
 * clscan__rle_fits has admitted). */
static clscan_status compact_device(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                    clscan_type type, cl_mem count_out, size_t *kept, select_kind kind)
{
    clscan__config cfg = compact_config(ctx, type, n, kind);
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t tile = (size_t)cfg.wg_size * cfg.items, tiles = clscan__tiles(n, tile);
    if (kind == SELECT_LENGTHS || (kind != SELECT_PARTITION && single_pass(ctx, n, tiles)))
        return compact_one_pass(ctx, p, in, flags, out, n, tiles, count_out, kept, kind);
    return compact_three_launches(ctx, p, in, flags, out, n, tiles, count_out, kept, kind == SELECT_PARTITION);
}

clscan_status clscan__unique_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                     cl_mem count_out, size_t *count)
{
    return compact_device(ctx, in, in, out, n, type, count_out, count, SELECT_UNIQUE);
}

int clscan__rle_fits(const clscan_context *ctx, clscan_type type, size_t n)
{
    const clscan__config cfg = compact_config(ctx, type, n, SELECT_LENGTHS);
    return !cfg.stream && (uint64_t)n < UINT32_MAX &&
           clscan__sp_tiles_fit(clscan__tiles(n, (size_t)cfg.wg_size * cfg.items));
}

clscan_status clscan__rle_enqueue(clscan_context *ctx, cl_mem in, cl_mem unique_out, cl_mem lengths_out, size_t n,
                                  clscan_type type, cl_mem count_out, size_t *count)
{
    return compact_device(ctx, in, lengths_out, unique_out, n, type, count_out, count, SELECT_LENGTHS);
}

/* Every check before anything is enqueued: buffers, sizes, access flags, overlaps. */
clscan_status clscan__check_compact(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                    clscan_type type, const size_t *count)
{
    clscan_status st = clscan__check_free_type(ctx, n, type);
    if (st == CLSCAN_SUCCESS && !count)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "the count pointer is NULL");
    if (st != CLSCAN_SUCCESS || n == 0)
        return st;
    size_t elem = clscan__type_size(ctx, type);
    st = clscan__check_buffer(ctx, in, "in", n, elem, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, flags, "flags", n, 1, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, out, "out", n, elem, 0, 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, in, n * elem, out, n * elem, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, flags, n, out, n * elem, 0);
    return st;
}

/* Validated, lock held: the compaction or partition with its count read back (n == 0: 0); *count is
 * written only on success. */
static clscan_status select_run(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n, clscan_type type,
                                size_t *count, select_kind kind)
{
    size_t kept = 0;
    clscan_status st = n ? compact_device(ctx, in, flags, out, n, type, NULL, &kept, kind) : CLSCAN_SUCCESS;
    if (st == CLSCAN_SUCCESS)
        *count = kept;
    return st;
}

clscan_status clscan__compact_run(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                  clscan_type type, size_t *count)
{
    return select_run(ctx, in, flags, out, n, type, count, SELECT_COMPACT);
}

/* The blocking forms: checks, then the work; *count written only on success. */
static clscan_status select_blocking(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                     clscan_type type, size_t *count, select_kind kind)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = clscan__check_compact(ctx, in, flags, out, n, type, count);
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, out, NULL);
        st = select_run(ctx, in, flags, out, n, type, count, kind);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* The _async forms: the count stays on the device, a cl_ulong in element 0 of count (n == 0: 0, written
 * from the host), which must not overlap the other buffers. */
static clscan_status select_async(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                  clscan_type type, cl_mem count, select_kind kind)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    size_t unused = 0;
    clscan_status st = clscan__check_compact(ctx, in, flags, out, n, type, &unused);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, count, "count", 1, sizeof(cl_ulong), 0, 1);
    const size_t elem = st == CLSCAN_SUCCESS ? clscan__type_size(ctx, type) : 0;
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_overlap(ctx, count, sizeof(cl_ulong), in, n * elem, 0);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_overlap(ctx, count, sizeof(cl_ulong), flags, n, 0);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_overlap(ctx, count, sizeof(cl_ulong), out, n * elem, 0);
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, out, count);
        const cl_ulong zero = 0;
        st = n ? compact_device(ctx, in, flags, out, n, type, count, &unused, kind)
               : clscan__write_value(ctx, count, sizeof zero, &zero, "clEnqueueWriteBuffer (selection count)");
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_compact(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n, clscan_type type,
                             size_t *count)
{
    return select_blocking(ctx, in, flags, out, n, type, count, SELECT_COMPACT);
}

clscan_status clscan_compact_async(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n, clscan_type type,
                                   cl_mem count)
{
    return select_async(ctx, in, flags, out, n, type, count, SELECT_COMPACT);
}

clscan_status clscan_partition(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n, clscan_type type,
                               size_t *count)
{
    return select_blocking(ctx, in, flags, out, n, type, count, SELECT_PARTITION);
}

clscan_status clscan_partition_async(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                     clscan_type type, cl_mem count)
{
    return select_async(ctx, in, flags, out, n, type, count, SELECT_PARTITION);
}
