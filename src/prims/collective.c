/* The scan, reduction, compaction and even histogram with the agreement points of
 * src/prims/collective.h: the same checks and device work as the one-device functions, with every rank
 * calling the hooks in the same order whatever fails where, so that a failing rank never leaves the
 * others waiting in a collective. The ranks' totals of a registered operator are gathered and combined
 * here, on the device. */
#include "collective.h"
#include "prims.h"
#include <stdlib.h>
#include <string.h>

/* The agreed status; a rank that was fine records why it fails all the same. */
static clscan_status agree(clscan_context *ctx, const clscan__collective *c, uint64_t key, clscan_status local)
{
    clscan_status all = c->agree(c->arg, local, ctx->outputs_written, key);
    if (local == CLSCAN_SUCCESS && all != CLSCAN_SUCCESS)
        return clscan__fail(ctx, all, "%s: another rank failed (%s), or the ranks passed different types or "
                            "operators", c->name, clscan_status_string(all));
    return all;
}

/* The caller's own argument problem when it has one, else the function's checks. */
#define CHECKS(ctx, c, checks) \
    ((c)->invalid ? clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: %s", (c)->name, (c)->invalid) : (checks))

/* What a scan or reduction carries between its steps, elements of the type's size (a registered type
 * may have any): this rank's total, what it gets (its seed or the reduction, the identity until then)
 * and, for a registered operator or a segmented scan (pairs), every rank's total; for a segmented scan
 * also every rank's head byte and then this rank's (heads[count]). One allocation, made before the first
 * agreement so that its failure is agreed on too. */
typedef struct elems {
    unsigned char *mine, *got, *ranks, *heads;
    size_t size;
    int rank, count;
} elems;

static clscan_status elems_alloc(clscan_context *ctx, const clscan__collective *c, clscan_type type, clscan_op op,
                                 int pairs, elems *e)
{
    e->size = clscan__type_size(ctx, type);
    if (pairs || clscan__is_user_value((unsigned)op))
        c->place(c->arg, &e->rank, &e->count);
    e->mine = calloc(1, ((size_t)e->count + 2) * e->size + (size_t)e->count + 1);
    if (!e->mine)
        return clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "%s: no host memory for %d elements of %zu bytes", c->name,
                            e->count + 2, e->size);
    e->got = e->mine + e->size, e->ranks = e->got + e->size, e->heads = e->ranks + (size_t)e->count * e->size;
    clscan__identity(ctx, type, op, e->mine);
    clscan__identity(ctx, type, op, e->got);
    return CLSCAN_SUCCESS;
}

/* The opening agreement of a scan or reduction: the checks' status, then the element buffers, agreed on
 * with the key of the type and operator (*key, for the later agreements). */
static clscan_status open_step(clscan_context *ctx, const clscan__collective *c, clscan_status checked,
                               clscan_type type, clscan_op op, int pairs, elems *e, uint64_t *key)
{
    if (checked == CLSCAN_SUCCESS)
        checked = elems_alloc(ctx, c, type, op, pairs, e);
    *key = clscan__op_key(ctx, type, op);
    return agree(ctx, c, *key, checked);
}

/* count > 0 values of ranks (from e->ranks + first) combined into e->got on this device by the one-device
 * reduction, in rank order with earlier ranks on the left (the operator need not commute). Never an MPI
 * operation: only a device runs the user's OpenCL C. */
static clscan_status fold_ranks(clscan_context *ctx, clscan_type type, clscan_op op, elems *e, int first, int count)
{
    const unsigned char *values = e->ranks + (size_t)first * e->size;
    if (count == 1) {
        memcpy(e->got, values, e->size);
        return CLSCAN_SUCCESS;
    }
    cl_int err = CL_SUCCESS;
    cl_mem totals = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)count * e->size,
                                   (void *)values, &err);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clCreateBuffer (the ranks' totals)", err);
    clscan_status st = clscan__reduce_run(ctx, totals, (size_t)count, type, op, e->got);
    clReleaseMemObject(totals);
    return st;
}

/* Registered operators: every rank's total gathered here, then those of ranks 0 .. upto - 1 combined
 * into e->got (the identity where upto is 0). */
static clscan_status combine_ranks(clscan_context *ctx, const clscan__collective *c, clscan_type type,
                                   clscan_op op, elems *e, int upto)
{
    c->gather(c->arg, e->mine, e->size, e->ranks);
    return upto == 0 ? CLSCAN_SUCCESS : fold_ranks(ctx, type, op, e, 0, upto);
}

clscan_status clscan__scan_collective(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                      clscan_op op, int exclusive, const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0, 0);
    pthread_mutex_lock(&ctx->lock);
    elems e = {NULL, NULL, NULL, NULL, 0, 0, 0};
    uint64_t key = 0;
    clscan_status st = open_step(ctx, c, CHECKS(ctx, c, clscan__check_scan(ctx, in, out, n, type, op)), type, op, 0,
                                 &e, &key);
    /* Up to the last agreement: a rank that wrote its part and learns there that another failed must not
     * report CLSCAN_OUT_OF_MEMORY (nothing written) either. */
    if (st == CLSCAN_SUCCESS)
        clscan__outputs(ctx, out, NULL);
    /* The first half writes only scratch: a failure there still leaves every output as it was. */
    if (st == CLSCAN_SUCCESS)
        st = agree(ctx, c, key, n ? clscan__scan_split_total(ctx, in, n, type, op, e.mine) : CLSCAN_SUCCESS);
    if (st == CLSCAN_SUCCESS) {
        /* A registered operator's seed is device work, which may fail: agreed before any output is written. */
        st = clscan__is_user_value((unsigned)op) ? agree(ctx, c, key, combine_ranks(ctx, c, type, op, &e, e.rank))
                                                 : c->seed(c->arg, e.mine, e.got);
        if (st == CLSCAN_SUCCESS && n)
            st = clscan__scan_split_finish(ctx, in, out, n, type, op, exclusive, e.got);
        st = agree(ctx, c, key, st);
    }
    clscan__outputs(ctx, NULL, NULL);
    pthread_mutex_unlock(&ctx->lock);
    free(e.mine);
    return st;
}

clscan_status clscan__reduce_collective(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                        void *result, const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0, 0);
    pthread_mutex_lock(&ctx->lock);
    elems e = {NULL, NULL, NULL, NULL, 0, 0, 0};
    uint64_t key = 0;
    clscan_status st = open_step(ctx, c, CHECKS(ctx, c, clscan__check_reduce(ctx, in, n, type, op, result)), type,
                                 op, 0, &e, &key);
    if (st == CLSCAN_SUCCESS)
        st = agree(ctx, c, key, clscan__reduce_run(ctx, in, n, type, op, e.mine));
    if (st == CLSCAN_SUCCESS)
        st = clscan__is_user_value((unsigned)op) ? agree(ctx, c, key, combine_ranks(ctx, c, type, op, &e, e.count))
                                                 : c->all(c->arg, e.mine, e.got);
    if (st == CLSCAN_SUCCESS)
        memcpy(result, e.got, e.size);
    pthread_mutex_unlock(&ctx->lock);
    free(e.mine);
    return st;
}

clscan_status clscan__compact_collective(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                         clscan_type type, size_t *count, const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0, 0);
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = CHECKS(ctx, c, clscan__check_compact(ctx, in, flags, out, n, type, count));
    const uint64_t key = clscan__type_key(ctx, type);
    st = agree(ctx, c, key, st);
    size_t kept = 0;
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, out, NULL);   /* as in the scan: through the last agreement */
        st = agree(ctx, c, key, clscan__compact_run(ctx, in, flags, out, n, type, &kept));
    }
    if (st == CLSCAN_SUCCESS)
        *count = kept;
    clscan__outputs(ctx, NULL, NULL);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* What ranks of a histogram must share beyond the type: the bins (their counts are summed element by
 * element, so a different number would mismatch the MPI call) and the bounds' bits, mixed into the key. */
static uint64_t histogram_key(clscan_context *ctx, clscan_type type, size_t bins, const void *lower,
                              const void *upper)
{
    uint64_t key = clscan__type_key(ctx, type) ^ (uint64_t)bins * 0x9e3779b97f4a7c15ull;
    uint64_t l = 0, u = 0;
    const size_t elem = clscan_type_size(type);
    if (lower && upper && elem && elem <= 8)
        memcpy(&l, lower, elem), memcpy(&u, upper, elem);
    key ^= (l * 0xbf58476d1ce4e5b9ull) ^ (u * 0x94d049bb133111ebull + 1);
    return key ^ key >> 31;
}

clscan_status clscan__histogram_even_collective(clscan_context *ctx, cl_mem in, size_t n, clscan_type type,
                                                const void *lower, const void *upper, size_t bins, cl_mem counts,
                                                const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0, 0);
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = CHECKS(ctx, c, clscan__check_histogram_even(ctx, c->name, in, n, type, lower, upper, bins, counts));
    uint64_t *sums = NULL;
    if (st == CLSCAN_SUCCESS && !(sums = malloc(bins * sizeof *sums)))
        st = clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "%s: no host memory for %zu counts", c->name, bins);
    const uint64_t key = st == CLSCAN_SUCCESS ? histogram_key(ctx, type, bins, lower, upper) : clscan__type_key(ctx, type);
    st = agree(ctx, c, key, st);
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, counts, NULL);   /* as in the scan: through the last agreement */
        st = agree(ctx, c, key, clscan__histogram_even_run(ctx, in, n, type, lower, upper, bins, counts));
    }
    if (st == CLSCAN_SUCCESS)
        st = agree(ctx, c, key, clscan__read_back(ctx, counts, 0, bins * sizeof *sums, sums, "this rank's counts"));
    if (st == CLSCAN_SUCCESS) {
        c->sum_counts(c->arg, sums, bins);
        st = agree(ctx, c, key, clscan__write_value(ctx, counts, bins * sizeof *sums, sums,
                                                    "clEnqueueWriteBuffer (the ranks' summed counts)"));
    }
    clscan__outputs(ctx, NULL, NULL);
    pthread_mutex_unlock(&ctx->lock);
    free(sums);
    return st;
}

/* The segmented scan's carry: every rank's pair gathered (its value and head byte), then the values of
 * ranks k .. rank - 1 folded into e->got, k the last rank before this one whose slice holds a head (rank
 * 0 counts as one: its element 0 starts a segment). Folding the values from there is the flag-carrying
 * operator's fold; a slice of n == 0 (the identity, no head) passes the carry on. Every operator folds
 * on the device, the built-in ones too: the kernels' arithmetic (wrap-around, fmin and fmax), no copy of
 * it on the host. */
static clscan_status segscan_carry(clscan_context *ctx, const clscan__collective *c, clscan_type type, clscan_op op,
                                   elems *e, int head)
{
    e->heads[e->count] = head != 0;
    c->gather(c->arg, e->mine, e->size, e->ranks);
    c->gather(c->arg, e->heads + e->count, 1, e->heads);
    if (e->rank == 0)
        return CLSCAN_SUCCESS;   /* e->got holds the identity */
    int k = e->rank - 1;
    while (k > 0 && !e->heads[k])
        k--;
    return fold_ranks(ctx, type, op, e, k, e->rank - k);
}

clscan_status clscan__segscan_collective(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n,
                                         clscan_type type, clscan_op op, int exclusive, const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0, 0);
    pthread_mutex_lock(&ctx->lock);
    elems e = {NULL, NULL, NULL, NULL, 0, 0, 0};
    uint64_t key = 0;
    clscan_status st = open_step(ctx, c, CHECKS(ctx, c, clscan__check_segscan(ctx, in, heads, out, n, type, op)), type,
                                 op, 1, &e, &key);
    int head = 0;
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, out, NULL);   /* as in the scan: through the last agreement */
        /* The pair's pass writes no output: a failure there still leaves every output as it was. */
        st = agree(ctx, c, key, n ? clscan__segscan_total(ctx, in, heads, n, type, op, e.mine, &head) : CLSCAN_SUCCESS);
    }
    if (st == CLSCAN_SUCCESS)
        st = agree(ctx, c, key, segscan_carry(ctx, c, type, op, &e, head));
    if (st == CLSCAN_SUCCESS) {
        st = n ? clscan__segscan_run(ctx, in, heads, out, n, type, op, exclusive, e.got, e.rank > 0) : CLSCAN_SUCCESS;
        st = agree(ctx, c, key, st);
    }
    clscan__outputs(ctx, NULL, NULL);
    pthread_mutex_unlock(&ctx->lock);
    free(e.mine);
    return st;
}
