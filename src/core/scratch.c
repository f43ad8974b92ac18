/* Scratch buffers of the context, each called by a name its owner gives (a string literal: "sort
 * keys B"), kept between calls and grown on demand, some of them kept zero between calls. A fixed
 * table: no host allocation of its own, so a failure can only be the buffer's. */
#include "core.h"
#include <string.h>

static clscan__scratch_slot *find(clscan_context *ctx, const char *name)
{
    for (unsigned i = 0; i < CLSCAN__MAX_SCRATCH; i++)
        if (ctx->scratch[i].name && strcmp(ctx->scratch[i].name, name) == 0)
            return &ctx->scratch[i];
    return NULL;
}

cl_mem clscan__scratch_peek(const clscan_context *ctx, const char *name, size_t *bytes)
{
    const clscan__scratch_slot *slot = find((clscan_context *)ctx, name);
    *bytes = slot ? slot->bytes : 0;
    return slot ? slot->mem : NULL;
}

clscan_status clscan__scratch(clscan_context *ctx, const char *name, size_t bytes, cl_mem *out)
{
    clscan__scratch_slot *slot = find(ctx, name);
    for (unsigned i = 0; !slot && i < CLSCAN__MAX_SCRATCH; i++)
        if (!ctx->scratch[i].name)
            slot = &ctx->scratch[i];
    if (!slot)   /* a library bug: more names than the table holds */
        return clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "no scratch slot left for %s", name);
    if (slot->bytes < bytes) {
        const long least = clscan__tuned(ctx, CLSCAN_TUNE_SCRATCH_BYTES);
        bytes = least > 0 && bytes < (size_t)least ? (size_t)least : bytes;
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err != CL_SUCCESS)
            return clscan__fail_cl(ctx, "clCreateBuffer (scan scratch)", err);
        /* Commands already enqueued keep the old buffer alive until they complete. */
        if (slot->mem)
            clReleaseMemObject(slot->mem);
        slot->name = name, slot->mem = m, slot->bytes = bytes;
    }
    *out = slot->mem;
    return CLSCAN_SUCCESS;
}

/* The buffer is zero when made, and its kernels leave zero again what they need zero, so no call pays
 * a fill. Where its fill fails it is dropped: the next call makes and zeroes it anew. */
clscan_status clscan__scratch_zeroed(clscan_context *ctx, const char *name, size_t bytes, cl_mem *out)
{
    const clscan__scratch_slot *had = find(ctx, name);
    const cl_mem before = had ? had->mem : NULL;
    clscan_status st = clscan__scratch(ctx, name, bytes, out);
    if (st != CLSCAN_SUCCESS || *out == before)
        return st;
    clscan__scratch_slot *slot = find(ctx, name);
    st = clscan__fill_zero(ctx, *out, slot->bytes);   /* the whole buffer, which may be larger than asked for */
    if (st != CLSCAN_SUCCESS) {
        clReleaseMemObject(slot->mem);
        *slot = (clscan__scratch_slot){NULL, NULL, 0};
        *out = NULL;
    }
    return st;
}

void clscan__scratch_free(clscan_context *ctx)
{
    for (unsigned i = 0; i < CLSCAN__MAX_SCRATCH; i++)
        if (ctx->scratch[i].mem)
            clReleaseMemObject(ctx->scratch[i].mem);
    memset(ctx->scratch, 0, sizeof ctx->scratch);
}
