/* The largest value of an array and where it first occurs, by one reduction over a struct of your own:
 * {float value; uint index;} registered as an OpenCL C type (clscan_register_type), and an operator that
 * keeps the larger value, or on a tie the smaller index (clscan_register_op). That order is total, so
 * the operator is commutative as well as associative, and it is registered as such: the library may
 * then fold the elements in any order. Checks the result against a loop on the host and exits non-zero
 * on a difference. Usage: argmax_struct [device] [n] */
#include <clscan/clscan.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { float value; uint32_t index; } value_at;   /* the same layout as the OpenCL C type */

static const char declaration[] = "typedef struct { float value; uint index; } value_at;";
static const char larger[] = "(b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a";

static int fail(clscan_context *ctx, clscan_status st)
{
    fprintf(stderr, "argmax_struct: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
    clscan_context_release(ctx);
    return 1;
}

int main(int argc, char **argv)
{
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000;
    clscan_context *ctx = NULL;
    if (n == 0 || clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "argmax_struct: %s\n", n ? clscan_last_error(NULL) : "n must be at least 1");
        return 1;
    }
    value_at *data = malloc(n * sizeof *data);
    uint64_t seed = 88172645463325252ull;
    if (!data)
        return fail(ctx, CLSCAN_OUT_OF_MEMORY);
    for (size_t i = 0; i < n; i++) {   /* values on a coarse grid, so that the maximum occurs many times */
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        data[i] = (value_at){(float)(seed % 100000) / 100.0f, (uint32_t)i};
    }
    clscan_type type;
    clscan_op op;
    const value_at identity = {-INFINITY, UINT32_MAX};   /* loses to every element */
    clscan_status st = clscan_register_type(ctx, "value_at", declaration, sizeof(value_at), &type);
    if (st == CLSCAN_SUCCESS)
        st = clscan_register_op(ctx, type, larger, &identity, NULL, CLSCAN_OP_COMMUTATIVE, &op);
    cl_int err = CL_SUCCESS;
    cl_mem buf = st == CLSCAN_SUCCESS ? clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                                       n * sizeof *data, data, &err)
                                      : NULL;
    value_at best = identity;
    if (st == CLSCAN_SUCCESS && err != CL_SUCCESS)
        st = CLSCAN_OUT_OF_MEMORY;
    if (st == CLSCAN_SUCCESS)
        st = clscan_reduce(ctx, buf, n, type, op, &best);
    if (buf)
        clReleaseMemObject(buf);
    if (st != CLSCAN_SUCCESS) {
        free(data);
        return fail(ctx, st);
    }
    size_t at = 0;   /* the same on the host: the first largest */
    for (size_t i = 1; i < n; i++)
        at = data[i].value > data[at].value ? i : at;
    const int right = best.index == at && best.value == data[at].value;
    printf("argmax_struct: %zu values, the largest %.2f first at %u (%s)\n", n, best.value, best.index,
           right ? "as on the host" : "WRONG");
    free(data);
    clscan_context_release(ctx);
    return !right;
}
