/* Runs of equal consecutive keys: clscan_reduce_by_key, clscan_run_length_encode (the reduction of ones,
 * counted in cl_ulong) and clscan_unique (keys only), each with its _async twin. The first two are one
 * launch of clscan_runs_single_pass (runs.cl), a single-pass scan by key whose look-back carries the
 * number of runs before a tile with the value, so each run's key and reduction go straight to the
 * run's index; whatever the strategy set, as for the segmented scans (its fallback needs no scheduling
 * promise). The last tile leaves the number of runs in the caller's buffer (_async) or in scratch,
 * read back. Unique needs no value: it is a compaction of the elements that start runs (compact.c),
 * which took 2^28 uint32 in runs of 8 from 1.02 ms here to 0.65 on the H100; on GPUs below 2^32
 * elements so is run-length encoding, each head writing the length of the run before it (1.27 ms here,
 * 0.98 there). CPUs (streamed items, where this program records the heads) and inputs of 2^32 - 1
 * elements or more keep this program's lengths. */
#include "prims.h"

/* One call: RUNS_LENGTHS counts ones into values_out (cl_ulong, counted in uint below 2^32 elements;
 * values unused), RUNS_KEYS writes keys only (values and values_out unused). */
typedef enum runs_kind { RUNS_REDUCE, RUNS_LENGTHS, RUNS_KEYS } runs_kind;
typedef struct runs_job {
    const char *fn;
    runs_kind kind;
    cl_mem keys, values, keys_out, values_out;
    clscan_type key_type, value_type;
    clscan_op op;
} runs_job;

/* CPUs (streamed items): heads a work-item records in local memory as it first reads its run (runs.cl),
 * so that after the look-back it visits its heads rather than its run: as many as a quarter of the local
 * memory holds, at most its items (record: the bytes of one). PoCL, 2 cores, 2^22, runs of 8: see
 * docs/design.md. */
static void define_records(const clscan_context *ctx, clscan__config *cfg, size_t record)
{
    const size_t fit = ctx->info.local_mem / 4 / ((size_t)cfg->wg_size * record);
    size_t records = fit > 1 ? fit - 1 : 0;   /* and a slot each */
    records = records < cfg->items ? records : cfg->items;
    if (records >= 16)
        clscan__config_define_uint(cfg, "CLSCAN_RUNS_RECORDS", (unsigned)records);
}

/* Validated, n > 0, lock held: the single pass; the count into *runs (read back from scratch) or into
 * runs_out. */
static clscan_status runs_enqueue(clscan_context *ctx, const runs_job *j, size_t n, cl_mem runs_out, size_t *runs)
{
    /* The look-back's carry (segmented.clh): a 32-bit run count below 2^32 elements. There run lengths
     * are counted in uint too (CLSCAN_RUNS_LENGTHS32, runs.cl). */
    const int count32 = (uint64_t)n <= UINT32_MAX && !clscan__tuned(ctx, CLSCAN_TUNE_RUNS_COUNT64);
    const int lengths32 = count32 && j->kind == RUNS_LENGTHS;
    const clscan_type counted = lengths32 ? CLSCAN_UINT32 : j->value_type;
    const size_t key_bytes = clscan__type_size(ctx, j->key_type), vb = clscan__type_size(ctx, counted);
    clscan__config cfg = clscan__segscan_config(ctx, 1, counted, j->op, n, key_bytes);
    if (count32)
        clscan__config_define(&cfg, "CLSCAN_RUNS_COUNT32", NULL);
    if (lengths32)
        clscan__config_define(&cfg, "CLSCAN_RUNS_LENGTHS32", NULL);
    if (cfg.stream)
        define_records(ctx, &cfg, sizeof(cl_uint) + vb);
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t tile = (size_t)cfg.wg_size * cfg.items, tiles = clscan__tiles(n, tile);
    if (!clscan__sp_tiles_fit(tiles))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s of %zu elements needs %zu tiles of %zu; at most 2^31 - 1",
                            j->fn, n, tiles, tile);
    cl_mem count = runs_out, status = NULL;
    if (!count)
        st = clscan__scratch(ctx, "run count", sizeof(cl_ulong), &count);
    /* A status slot carries clscan_run_carry: at most the value rounded up to 8 bytes and 8 more (a
     * 32-bit count after a 64-bit value comes with a word of alignment). */
    const size_t carry = (vb + 7) / 8 * 8 + 8;
    if (st == CLSCAN_SUCCESS)
        st = clscan__sp_state(ctx, tiles, carry, cfg.atomics64, &status);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong n64 = n, tiles64 = tiles;
    cl_uint epoch = ctx->sp_epoch + 1;
    /* The kernel reads NULL values as ones. */
    cl_mem values = j->kind == RUNS_REDUCE ? j->values : NULL;
    const clscan__arg args[] = {CLSCAN__MEM(values), CLSCAN__MEM(j->keys), CLSCAN__MEM(j->keys_out),
                                CLSCAN__MEM(j->values_out), CLSCAN__MEM(status), CLSCAN__MEM(ctx->sp_counters),
                                CLSCAN__VAL(n64), CLSCAN__VAL(tiles64), CLSCAN__VAL(epoch), CLSCAN__MEM(count)};
    st = clscan__launch(ctx, p, "clscan_runs_single_pass", CLSCAN__ARGS(args), clscan__sp_groups(ctx, tiles));
    if (st != CLSCAN_SUCCESS)
        return st;
    ctx->sp_epoch = epoch;   /* an enqueued launch uses up its epoch */
    if (runs_out)
        return CLSCAN_SUCCESS;
    cl_ulong got = 0;
    st = clscan__read_back(ctx, count, 0, sizeof got, &got, "run count");
    if (st == CLSCAN_SUCCESS)
        *runs = (size_t)got;
    return st;
}

/* No two of the buffers overlap, but for the first `inputs`, which are only read and may share memory
 * (keys and values: the contract forbids only the outputs to overlap anything). NULL ones skipped;
 * bytes[i]: what the call touches of bufs[i]. */
static clscan_status check_apart(clscan_context *ctx, const cl_mem *bufs, const size_t *bytes, size_t count,
                                 size_t inputs)
{
    clscan_status st = CLSCAN_SUCCESS;
    for (size_t a = 0; a < count && st == CLSCAN_SUCCESS; a++)
        for (size_t b = a + 1; b < count && st == CLSCAN_SUCCESS; b++)
            if (bufs[a] && bufs[b] && b >= inputs)
                st = clscan__check_overlap(ctx, bufs[a], bytes[a], bufs[b], bytes[b], 0);
    return st;
}

/* Every check: types and operator, each buffer's size and access, no two of them overlapping
 * (runs_buf: the _async count, 1 cl_ulong; NULL for the blocking forms, whose runs pointer is checked). */
static clscan_status check_runs(clscan_context *ctx, const runs_job *j, size_t n, const size_t *runs, cl_mem runs_buf,
                                int async)
{
    clscan_status st = clscan__check_free_type(ctx, n, j->key_type);
    if (st == CLSCAN_SUCCESS && j->kind == RUNS_REDUCE)
        st = clscan__check_type_op(ctx, n, j->value_type, j->op);
    if (st == CLSCAN_SUCCESS && !async && !runs)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: the count pointer is NULL", j->fn);
    if (st == CLSCAN_SUCCESS && async)
        st = clscan__check_buffer(ctx, runs_buf, "count", 1, sizeof(cl_ulong), 0, 1);
    if (st != CLSCAN_SUCCESS || n == 0)
        return st;
    const size_t kb = clscan__type_size(ctx, j->key_type), vb = clscan__type_size(ctx, j->value_type);
    st = clscan__check_buffer(ctx, j->keys, "keys", n, kb, 1, 0);
    if (st == CLSCAN_SUCCESS && j->kind == RUNS_REDUCE)
        st = clscan__check_buffer(ctx, j->values, "values", n, vb, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, j->keys_out, j->kind == RUNS_REDUCE ? "keys_out" : "unique_out", n, kb, 0, 1);
    if (st == CLSCAN_SUCCESS && j->kind != RUNS_KEYS)
        st = clscan__check_buffer(ctx, j->values_out, j->kind == RUNS_REDUCE ? "values_out" : "lengths_out", n, vb, 0, 1);
    const cl_mem bufs[] = {j->keys, j->kind == RUNS_REDUCE ? j->values : NULL, j->keys_out,
                           j->kind == RUNS_KEYS ? NULL : j->values_out, runs_buf};
    const size_t bytes[] = {n * kb, n * vb, n * kb, n * vb, sizeof(cl_ulong)};
    return st == CLSCAN_SUCCESS ? check_apart(ctx, bufs, bytes, 5, 2) : st;
}

/* Validated, n > 0, lock held: the call on the path that takes it (the file's head says which); the
 * count as runs_enqueue leaves it. */
static clscan_status runs_device(clscan_context *ctx, const runs_job *j, size_t n, cl_mem runs_out, size_t *runs)
{
    if (j->kind == RUNS_KEYS)
        return clscan__unique_enqueue(ctx, j->keys, j->keys_out, n, j->key_type, runs_out, runs);
    if (j->kind == RUNS_LENGTHS && !clscan__tuned(ctx, CLSCAN_TUNE_RUNS_COUNT64) &&
        clscan__rle_fits(ctx, j->key_type, n))
        return clscan__rle_enqueue(ctx, j->keys, j->keys_out, j->values_out, n, j->key_type, runs_out, runs);
    return runs_enqueue(ctx, j, n, runs_out, runs);
}

/* The public calls: checks, then the launches (n == 0: count 0). */
static clscan_status runs_call(clscan_context *ctx, const runs_job *j, size_t n, size_t *runs, cl_mem runs_buf,
                               int async)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = check_runs(ctx, j, n, runs, runs_buf, async);
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, j->keys_out, j->kind == RUNS_KEYS ? runs_buf : j->values_out);
        const cl_ulong zero = 0;
        size_t count = 0;
        if (n > 0)
            st = runs_device(ctx, j, n, runs_buf, &count);
        else if (async)
            st = clscan__write_value(ctx, runs_buf, sizeof zero, &zero, "clEnqueueWriteBuffer (run count)");
        if (st == CLSCAN_SUCCESS && !async)
            *runs = count;
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_reduce_by_key(clscan_context *ctx, cl_mem keys, cl_mem values, cl_mem keys_out, cl_mem values_out,
                                   size_t n, clscan_type key_type, clscan_type value_type, clscan_op op, size_t *runs)
{
    const runs_job j = {"clscan_reduce_by_key", RUNS_REDUCE, keys, values, keys_out, values_out, key_type, value_type, op};
    return runs_call(ctx, &j, n, runs, NULL, 0);
}

clscan_status clscan_reduce_by_key_async(clscan_context *ctx, cl_mem keys, cl_mem values, cl_mem keys_out,
                                         cl_mem values_out, size_t n, clscan_type key_type, clscan_type value_type,
                                         clscan_op op, cl_mem runs)
{
    const runs_job j = {"clscan_reduce_by_key_async", RUNS_REDUCE, keys, values, keys_out, values_out, key_type,
                        value_type, op};
    return runs_call(ctx, &j, n, NULL, runs, 1);
}

clscan_status clscan_run_length_encode(clscan_context *ctx, cl_mem in, cl_mem unique_out, cl_mem lengths_out, size_t n,
                                       clscan_type type, size_t *runs)
{
    const runs_job j = {"clscan_run_length_encode", RUNS_LENGTHS, in, NULL, unique_out, lengths_out, type,
                        CLSCAN_UINT64, CLSCAN_ADD};
    return runs_call(ctx, &j, n, runs, NULL, 0);
}

clscan_status clscan_run_length_encode_async(clscan_context *ctx, cl_mem in, cl_mem unique_out, cl_mem lengths_out,
                                             size_t n, clscan_type type, cl_mem runs)
{
    const runs_job j = {"clscan_run_length_encode_async", RUNS_LENGTHS, in, NULL, unique_out, lengths_out, type,
                        CLSCAN_UINT64, CLSCAN_ADD};
    return runs_call(ctx, &j, n, NULL, runs, 1);
}

clscan_status clscan_unique(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, size_t *count)
{
    const runs_job j = {"clscan_unique", RUNS_KEYS, in, NULL, out, NULL, type, CLSCAN_UINT32, CLSCAN_ADD};
    return runs_call(ctx, &j, n, count, NULL, 0);
}

clscan_status clscan_unique_async(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, cl_mem count)
{
    const runs_job j = {"clscan_unique_async", RUNS_KEYS, in, NULL, out, NULL, type, CLSCAN_UINT32, CLSCAN_ADD};
    return runs_call(ctx, &j, n, NULL, count, 1);
}
