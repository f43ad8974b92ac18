/* Argument checks shared by every public operation: enum ranges, buffers (context, size via
 * CL_MEM_SIZE, access flags) and overlap through sub-buffers. Each check records what is wrong and
 * returns CLSCAN_INVALID_ARGUMENT before anything is enqueued. */
#include "core.h"

int clscan__type_valid(clscan_type type) { return (unsigned)type <= CLSCAN_UINT16; }
int clscan__op_valid(clscan_op op) { return (unsigned)op <= CLSCAN_MAX; }

clscan_status clscan__check_count(clscan_context *ctx, size_t n, size_t elem)
{
    if (elem != 0 && n > SIZE_MAX / elem)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "n = %zu elements of %zu bytes overflows size_t", n, elem);
    return CLSCAN_SUCCESS;
}

clscan_status clscan__check_buffer(clscan_context *ctx, cl_mem buf, const char *what, size_t n, size_t elem,
                                   int want_read, int want_write)
{
    if (!buf)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s is NULL", what);
    cl_mem_object_type type = 0;
    cl_context owner = NULL;
    cl_mem_flags flags = 0;
    size_t size = 0;
    cl_int err = clGetMemObjectInfo(buf, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS) err = clGetMemObjectInfo(buf, CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
    if (err == CL_SUCCESS) err = clGetMemObjectInfo(buf, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    if (err == CL_SUCCESS) err = clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY)   /* the driver failed, not the argument */
        return clscan__fail(ctx, clscan__status_from_cl(err), "clGetMemObjectInfo (%s) failed: %s (%d)", what,
                            clscan__cl_error_name(err), err);
    if (err != CL_SUCCESS)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s is not a valid cl_mem: clGetMemObjectInfo gave %s (%d)",
                            what, clscan__cl_error_name(err), err);
    if (type != CL_MEM_OBJECT_BUFFER)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s is an image, not a buffer", what);
    if (owner != ctx->cl)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s belongs to another cl_context than this clscan context", what);
    clscan_status st = clscan__check_count(ctx, n, elem);
    if (st != CLSCAN_SUCCESS)
        return st;
    if (size < n * elem)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s holds %zu bytes, %zu elements of %zu bytes need %zu",
                            what, size, n, elem, n * elem);
    if (want_read && (flags & CL_MEM_WRITE_ONLY))
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s is CL_MEM_WRITE_ONLY but is read", what);
    if (want_write && (flags & CL_MEM_READ_ONLY))
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s is CL_MEM_READ_ONLY but is written", what);
    return CLSCAN_SUCCESS;
}

/* The buffer a sub-buffer was made from (or itself), and the byte offset into it. A failed query is
 * returned, never taken for "not a sub-buffer": that would hide an overlap. */
static cl_int root_of(cl_mem m, cl_mem *root, size_t *offset)
{
    cl_mem parent = NULL;
    *root = m, *offset = 0;
    cl_int err = clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    if (err == CL_SUCCESS && parent)
        err = clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof *offset, offset, NULL);
    if (err == CL_SUCCESS && parent)
        *root = parent;
    return err;
}

/* Both buffers' roots and offsets; a failed query fails the call. */
static clscan_status roots_of(clscan_context *ctx, cl_mem a, cl_mem b, cl_mem root[2], size_t offset[2])
{
    cl_int err = root_of(a, &root[0], &offset[0]);
    if (err == CL_SUCCESS)
        err = root_of(b, &root[1], &offset[1]);
    return err == CL_SUCCESS ? CLSCAN_SUCCESS
                             : clscan__fail_cl(ctx, "clGetMemObjectInfo (the buffer a sub-buffer belongs to)", err);
}

/* A failed query is an error, not "in place": assuming in place would build and keep the in-place
 * variant of a program for a call that then runs out of place. */
clscan_status clscan__same_memory(clscan_context *ctx, cl_mem a, cl_mem b, cl_uint *same)
{
    cl_mem r[2] = {NULL, NULL};
    size_t o[2] = {0, 0};
    clscan_status st = roots_of(ctx, a, b, r, o);
    if (st == CLSCAN_SUCCESS)
        *same = r[0] == r[1] && o[0] == o[1];
    return st;
}

clscan_status clscan__check_overlap(clscan_context *ctx, cl_mem a, size_t a_bytes, cl_mem b, size_t b_bytes,
                                    int same_allowed)
{
    cl_mem r[2] = {NULL, NULL};
    size_t o[2] = {0, 0};
    clscan_status st = roots_of(ctx, a, b, r, o);
    if (st != CLSCAN_SUCCESS || r[0] != r[1] || a_bytes == 0 || b_bytes == 0)
        return st;
    if (o[0] == o[1] && same_allowed)
        return CLSCAN_SUCCESS;
    if (o[0] < o[1] + b_bytes && o[1] < o[0] + a_bytes)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT,
                            "input and output overlap (same buffer, %zu bytes at offset %zu and %zu at %zu)%s", a_bytes,
                            o[0], b_bytes, o[1], same_allowed ? "; only exactly the same range is allowed" : "");
    return CLSCAN_SUCCESS;
}

/* A registered operator: this context's, and of this type. */
static clscan_status check_user_op(clscan_context *ctx, clscan_type type, clscan_op op)
{
    const clscan__user_op *user = clscan__user_op_of(ctx, op);
    if (!user)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_op %#x was not registered with this context",
                            (unsigned)op);
    if (user->type != type)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_op %#x was registered for %s, not %s", (unsigned)op,
                            clscan__type_name(ctx, user->type), clscan__type_name(ctx, type));
    return CLSCAN_SUCCESS;
}

/* A registered type of this context; combined (scans, reductions) only by a registered operator of its
 * own and only up to CLSCAN__ELEM_MAX bytes, moved (compaction, sort values) at any size. */
static clscan_status check_user_type(clscan_context *ctx, size_t n, clscan_type type, const clscan_op *op)
{
    const clscan__user_type *user = clscan__user_type_of(ctx, type);
    if (!user)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_type %#x was not registered with this context",
                            (unsigned)type);
    if (op && !clscan__is_user_value((unsigned)*op))
        return clscan__fail(ctx, clscan__op_valid(*op) ? CLSCAN_UNSUPPORTED : CLSCAN_INVALID_ARGUMENT,
                            "clscan_op %d is not a registered operator, and built-in operators do not take the "
                            "registered type %s", (int)*op, user->name);
    clscan_status st = op ? check_user_op(ctx, type, *op) : CLSCAN_SUCCESS;
    if (st == CLSCAN_SUCCESS && op && user->size > CLSCAN__ELEM_MAX)
        st = clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s is %zu bytes: scans and reductions take registered types of "
                          "up to %d bytes", user->name, user->size, CLSCAN__ELEM_MAX);
    return st == CLSCAN_SUCCESS ? clscan__check_count(ctx, n, user->size) : st;
}

/* A built-in type this device holds, n of them addressable. */
static clscan_status check_builtin_type(clscan_context *ctx, size_t n, clscan_type type)
{
    if (!clscan__type_valid(type))
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "unknown clscan_type %d", (int)type);
    clscan_status st = clscan__check_count(ctx, n, clscan_type_size(type));
    if (st != CLSCAN_SUCCESS)
        return st;
    if (!clscan__device_supports_type(&ctx->info, type))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "%s has no %s support", ctx->info.name,
                            type == CLSCAN_DOUBLE ? "fp64 (cl_khr_fp64)" : "64-bit integer");
    return CLSCAN_SUCCESS;
}

clscan_status clscan__check_free_type(clscan_context *ctx, size_t n, clscan_type type)
{
    return clscan__is_user_value((unsigned)type) ? check_user_type(ctx, n, type, NULL)
                                                 : check_builtin_type(ctx, n, type);
}

clscan_status clscan__check_type_op(clscan_context *ctx, size_t n, clscan_type type, clscan_op op)
{
    if (clscan__is_user_value((unsigned)type))
        return check_user_type(ctx, n, type, &op);
    if (!clscan__type_valid(type))
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "unknown clscan_type %d", (int)type);
    if (clscan__is_user_value((unsigned)op)) {
        clscan_status st = check_user_op(ctx, type, op);
        if (st != CLSCAN_SUCCESS)
            return st;
    } else if (!clscan__op_valid(op))
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "unknown clscan_op %d", (int)op);
    return check_builtin_type(ctx, n, type);
}
