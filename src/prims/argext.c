/* clscan_argmin and clscan_argmax: clscan_arg_partials leaves each work-group's best candidate (value
 * and index) in scratch, clscan_arg_final folds them and writes the index and the value's bits, which
 * the host reads back (argext.cl). One program per (type, MIN or MAX): the operator picks the order. */
#include "prims.h"
#include <string.h>

/* Built-in numeric types only: a registered type has no order. */
static clscan_status check_arg(clscan_context *ctx, const char *name, cl_mem in, size_t n, clscan_type type,
                               const size_t *index)
{
    if (clscan__is_user_value((unsigned)type) && clscan__user_type_of(ctx, type))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s: a registered type has no order; built-in types only", name);
    clscan_status st = clscan__check_type_op(ctx, n, type, CLSCAN_MIN);
    if (st == CLSCAN_SUCCESS && n == 0)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s of no elements (n == 0) has no index", name);
    if (st == CLSCAN_SUCCESS && !index)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s: index is NULL", name);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_buffer(ctx, in, "in", n, clscan__type_size(ctx, type), 1, 0);
    return st;
}

/* Validated, lock held: the two launches and the read-back. */
static clscan_status arg_run(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op order,
                             size_t *index, void *value)
{
    clscan__config cfg = clscan__config_with(ctx, CLSCAN__PROGRAM_ARG, type, order, n, clscan__scan_tile(ctx, type));
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t elem = cfg.elem, per_cu = 8, cus = ctx->info.compute_units ? ctx->info.compute_units : 1;
    const size_t wanted = clscan__tiles(clscan__tiles(n, 4), cfg.wg_size);
    const size_t groups = clscan__launch_groups(wanted < per_cu * cus ? wanted : per_cu * cus);
    cl_mem values = NULL, indices = NULL, result = NULL;
    st = clscan__scratch(ctx, "argmin values", groups * elem, &values);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, "argmin indices", groups * sizeof(cl_ulong), &indices);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, "argmin result", 2 * sizeof(cl_ulong), &result);
    cl_ulong n64 = n, groups64 = groups, got[2] = {0, 0};
    const clscan__arg partials[] = {CLSCAN__MEM(in), CLSCAN__VAL(n64), CLSCAN__MEM(values), CLSCAN__MEM(indices)};
    const clscan__arg final[] = {CLSCAN__MEM(values), CLSCAN__MEM(indices), CLSCAN__VAL(groups64), CLSCAN__MEM(result)};
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, "clscan_arg_partials", CLSCAN__ARGS(partials), groups);
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, "clscan_arg_final", CLSCAN__ARGS(final), 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__read_back(ctx, result, 0, sizeof got, got, "argmin/argmax result");
    if (st != CLSCAN_SUCCESS)
        return st;
    *index = (size_t)got[0];
    if (value) {   /* the value's bits, zero-extended by the kernel, at the element's width */
        const uint8_t u8 = (uint8_t)got[1];
        const uint16_t u16 = (uint16_t)got[1];
        const uint32_t u32 = (uint32_t)got[1];
        memcpy(value, elem == 1 ? (const void *)&u8 : elem == 2 ? (const void *)&u16 : elem == 4 ? (const void *)&u32
                                                                                             : (const void *)&got[1],
               elem);
    }
    return CLSCAN_SUCCESS;
}

static clscan_status arg(clscan_context *ctx, const char *name, cl_mem in, size_t n, clscan_type type, clscan_op order,
                         size_t *index, void *value)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = check_arg(ctx, name, in, n, type, index);
    if (st == CLSCAN_SUCCESS)
        st = arg_run(ctx, in, n, type, order, index, value);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

clscan_status clscan_argmin(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, size_t *index, void *value)
{
    return arg(ctx, "clscan_argmin", in, n, type, CLSCAN_MIN, index, value);
}

clscan_status clscan_argmax(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, size_t *index, void *value)
{
    return arg(ctx, "clscan_argmax", in, n, type, CLSCAN_MAX, index, value);
}
