/* The sorts' calls (clscan_sort, clscan_sort_by_key, clscan_sort_ex, clscan_sort_indices): their
 * checks, their options, the lock; the passes are sort.c's. */
#include "prims.h"

/* A key or value type: built-in (sorting moves bit patterns only, so double keys and values need 64-bit
 * integers on the device, not fp64), or, for values, registered with ctx (moved as bytes). Keys of a
 * registered type have no order the sort knows. */
static clscan_status check_sort_type(clscan_context *ctx, clscan_type type, int is_key, const char *fn)
{
    const clscan__user_type *user = clscan__user_type_of(ctx, type);
    if (user && is_key)
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s: keys of a registered type (%s) have no order to sort by; "
                            "registered types are taken as values", fn, user->name);
    if (user)
        return CLSCAN_SUCCESS;
    if (!clscan__type_valid(type))
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: unknown clscan_type %#x%s", fn, (unsigned)type,
                            clscan__is_user_value((unsigned)type) ? " (not registered with this context)" : "");
    if (clscan_type_size(type) == 8 && !ctx->info.int64)
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s has no 64-bit integer support", ctx->info.name);
    return CLSCAN_SUCCESS;
}

/* Every check before anything is enqueued. */
static clscan_status check_sort(clscan_context *ctx, const clscan__sort_args *a, const char *fn)
{
    clscan_status st = check_sort_type(ctx, a->key_type, 1, fn);
    if (st == CLSCAN_SUCCESS && a->by_key)
        st = check_sort_type(ctx, a->value_type, 0, fn);
    if (st != CLSCAN_SUCCESS || a->n == 0)
        return st;
    size_t kb = clscan_type_size(a->key_type), vb = a->value_bytes;
    st = clscan__check_buffer(ctx, a->keys, "keys", a->n, kb, 1, 1);
    if (st == CLSCAN_SUCCESS && a->by_key)
        st = clscan__check_buffer(ctx, a->values, "values", a->n, vb, 1, 1);
    if (st == CLSCAN_SUCCESS && a->by_key)
        st = clscan__check_overlap(ctx, a->keys, a->n * kb, a->values, a->n * vb, 0);
    return st;
}

/* The options into a (NULL, or a range of 0 and 0: ascending, every bit). A range must lie in the key:
 * begin <= end <= its bits; begin == end sorts by nothing (the keys stay as they are). */
static clscan_status take_options(clscan_context *ctx, const clscan_sort_options *o, clscan__sort_args *a,
                                  const char *fn)
{
    const unsigned key_bits = 8 * (unsigned)clscan_type_size(a->key_type);
    a->descending = o && o->descending;
    a->begin = o ? o->begin_bit : 0, a->end = o ? o->end_bit : 0;
    a->flip = a->begin != 0 || a->end != 0;
    if (!a->flip)
        a->end = key_bits;
    if (a->begin > a->end || a->end > key_bits)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: bits [%u, %u) are not a range of a %u-bit key "
                            "(begin_bit <= end_bit <= %u; 0 and 0: every bit)", fn, a->begin, a->end, key_bits,
                            key_bits);
    return CLSCAN_SUCCESS;
}

static clscan_status sort_run(clscan_context *ctx, const clscan__sort_args *call, const clscan_sort_options *options,
                              const char *fn)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan__sort_args args = *call;
    const clscan__sort_args *a = &args;
    args.value_bytes = clscan__type_size(ctx, call->value_type);
    clscan_status st = check_sort(ctx, a, fn);
    if (st == CLSCAN_SUCCESS)
        st = take_options(ctx, options, &args, fn);
    if (st == CLSCAN_SUCCESS) {
        clscan__outputs(ctx, a->keys, a->by_key ? a->values : NULL);
        st = clscan__sort_passes(ctx, a);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_sort(clscan_context *ctx, cl_mem keys, size_t n, clscan_type type)
{
    return clscan_sort_ex(ctx, keys, NULL, n, type, CLSCAN_UINT32, NULL);
}

clscan_status clscan_sort_by_key(clscan_context *ctx, cl_mem keys, cl_mem values, size_t n, clscan_type key_type,
                                 clscan_type value_type)
{
    const clscan__sort_args a = {keys, values, n, key_type, value_type, 1, 0, 0, 0, 0, 0, NULL};
    return sort_run(ctx, &a, NULL, "clscan_sort_by_key");
}

clscan_status clscan_sort_ex(clscan_context *ctx, cl_mem keys, cl_mem values, size_t n, clscan_type key_type,
                             clscan_type value_type, const clscan_sort_options *options)
{
    const clscan_type vt = values ? value_type : CLSCAN_UINT32;   /* without values it is ignored */
    const clscan__sort_args a = {keys, values, n, key_type, vt, values != NULL, 0, 0, 0, 0, 0, NULL};
    return sort_run(ctx, &a, options, values ? "clscan_sort_ex" : "clscan_sort");
}

/* The checks of clscan_sort_indices, before anything is enqueued. */
static clscan_status check_indices(clscan_context *ctx, const clscan__sort_args *a, cl_mem indices, const char *fn)
{
    clscan_status st = check_sort_type(ctx, a->key_type, 1, fn);
    if (st == CLSCAN_SUCCESS && (uint64_t)a->n > (uint64_t)UINT32_MAX + 1)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: n = %zu; cl_uint indices number at most 2^32 keys", fn,
                          a->n);
    if (st != CLSCAN_SUCCESS || a->n == 0)
        return st;
    const size_t kb = clscan_type_size(a->key_type);
    st = clscan__check_buffer(ctx, a->keys, "keys", a->n, kb, 1, 0);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, indices, "indices", a->n, sizeof(cl_uint), 0, 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_overlap(ctx, a->keys, a->n * kb, indices, a->n * sizeof(cl_uint), 0);
    return st;
}

/* Argsort: a copy of the keys sorted with their indices as values, which go home to indices (the
 * caller's keys are only read; indices is written by the last command alone). */
clscan_status clscan_sort_indices(clscan_context *ctx, cl_mem keys, cl_mem indices, size_t n, clscan_type key_type,
                                  const clscan_sort_options *options)
{
    static const char fn[] = "clscan_sort_indices";
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan__sort_args a = {keys, NULL, n, key_type, CLSCAN_UINT32, 1, sizeof(cl_uint), 0, 0, 0, 0, indices};
    clscan_status st = check_indices(ctx, &a, indices, fn);
    if (st == CLSCAN_SUCCESS)
        st = take_options(ctx, options, &a, fn);
    if (st == CLSCAN_SUCCESS && n > 0) {
        clscan__outputs(ctx, indices, NULL);
        st = clscan__sort_argsort(ctx, &a);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
