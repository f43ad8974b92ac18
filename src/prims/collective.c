/* The scan, reduction and compaction with the agreement points of src/prims/collective.h: the same checks
 * and device work as the one-device functions, with every rank calling the hooks in the same order
 * whatever fails where, so that a failing rank never leaves the others waiting in a collective. */
#include "collective.h"
#include "prims.h"
#include <string.h>

/* The agreed status; a rank that was fine records why it fails all the same. */
static clscan_status agree(clscan_context *ctx, const clscan__collective *c, clscan_status local)
{
    clscan_status all = c->agree(c->arg, local, ctx->outputs_written);
    if (local == CLSCAN_SUCCESS && all != CLSCAN_SUCCESS)
        return clscan__fail(ctx, all, "%s: another rank failed (%s), or the ranks passed different types or "
                            "operators", c->name, clscan_status_string(all));
    return all;
}

/* The caller's own argument problem when it has one, else the function's checks. */
#define CHECKS(ctx, c, checks) \
    ((c)->invalid ? clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: %s", (c)->name, (c)->invalid) : (checks))

/* Registered operators: the ranks' totals would need the operator on the device, not an MPI one. */
static clscan_status no_user_op(clscan_context *ctx, const clscan__collective *c, clscan_status st, clscan_op op)
{
    if (st == CLSCAN_SUCCESS && clscan__is_user_value((unsigned)op))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s: registered operators are not taken across ranks yet",
                            c->name);
    return st;
}

clscan_status clscan__scan_collective(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                      clscan_op op, int exclusive, const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0);
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = no_user_op(ctx, c, CHECKS(ctx, c, clscan__check_scan(ctx, in, out, n, type, op)), op);
    st = agree(ctx, c, st);
    /* Up to the last agreement: a rank that wrote its part and learns there that another failed must not
     * report CLSCAN_OUT_OF_MEMORY (nothing written) either. */
    if (st == CLSCAN_SUCCESS)
        clscan__outputs(ctx, out, NULL);
    char total[8], seed[8];
    if (st == CLSCAN_SUCCESS) {
        clscan__identity(ctx, type, op, total);
        clscan__identity(ctx, type, op, seed);
        /* The first half writes only scratch: a failure there still leaves every output as it was. */
        st = agree(ctx, c, n ? clscan__scan_split_total(ctx, in, n, type, op, total) : CLSCAN_SUCCESS);
    }
    if (st == CLSCAN_SUCCESS) {
        st = c->seed(c->arg, total, seed);
        if (st == CLSCAN_SUCCESS && n)
            st = clscan__scan_split_finish(ctx, in, out, n, type, op, exclusive, seed);
        st = agree(ctx, c, st);
    }
    clscan__outputs(ctx, NULL, NULL);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan__reduce_collective(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                        void *result, const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0);
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = no_user_op(ctx, c, CHECKS(ctx, c, clscan__check_reduce(ctx, in, n, type, op, result)), op);
    st = agree(ctx, c, st);
    char value[8];
    if (st == CLSCAN_SUCCESS)
        st = agree(ctx, c, clscan__reduce_run(ctx, in, n, type, op, value));
    if (st == CLSCAN_SUCCESS)
        memcpy(result, value, clscan_type_size(type));
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan__compact_collective(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                         clscan_type type, size_t *count, const clscan__collective *c)
{
    if (!ctx)
        return c->agree(c->arg, CLSCAN_INVALID_ARGUMENT, 0);
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = CHECKS(ctx, c, clscan__check_compact(ctx, in, flags, out, n, type, count));
    st = agree(ctx, c, st);
    size_t kept = 0;
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, out, NULL);   /* as in the scan: through the last agreement */
        st = agree(ctx, c, clscan__compact_run(ctx, in, flags, out, n, type, &kept));
    }
    if (st == CLSCAN_SUCCESS)
        *count = kept;
    clscan__outputs(ctx, NULL, NULL);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
