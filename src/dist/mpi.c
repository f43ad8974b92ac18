/* clscan_mpi: one device a rank, one value a rank over the network. The ranks agree on every status
 * through the hooks of collective.h (an MPI_Allreduce of the status, which MPI_MIN makes the most
 * negative, i.e. a failure when any rank failed); scans add the MPI_Exscan of the rank totals as the
 * seed of each rank's part, compaction the MPI_Exscan and MPI_Allreduce of the counts. A registered
 * operator's totals only cross as bytes (MPI_Allgather): collective.c combines them on the device, as it
 * does every segmented scan's (head, value) pairs, whatever the operator.
 * MPI's own errors go to the communicator's error handler (by default MPI_ERRORS_ARE_FATAL). */
#include "clscan/clscan_mpi.h"
#include "prims/collective.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the hooks need: the communicator and the MPI datatype and operation of a built-in operator. */
typedef struct mpi_step {
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Op op;
} mpi_step;

/* One MPI_Allreduce (MPI_MIN) of the status, of the key of the type and operator in two 31-bit halves
 * with both signs (ranks that passed different types or operators would otherwise combine mismatched
 * values, so that fails the call too) and of whether the rank wrote its outputs (then no rank may
 * report "nothing written"). */
static clscan_status agree(void *arg, clscan_status local, int written, uint64_t key)
{
    const mpi_step *s = arg;
    const int low = (int)(key & 0x7fffffffu), high = (int)(key >> 31 & 0x7fffffffu);
    int mine[6] = {(int)local, low, -low, high, -high, -(written != 0)}, all[6];
    MPI_Allreduce(mine, all, 6, MPI_INT, MPI_MIN, s->comm);
    if (all[0] == CLSCAN_SUCCESS && (all[1] != -all[2] || all[3] != -all[4]))
        return CLSCAN_INVALID_ARGUMENT;
    if (all[0] == CLSCAN_OUT_OF_MEMORY && all[5] < 0)
        return CLSCAN_OPENCL_ERROR;
    return (clscan_status)all[0];
}

/* MPI_Exscan leaves rank 0's result undefined: its seed stays the identity. Built-in types only, none
 * wider than 8 bytes. */
static clscan_status exscan_seed(void *arg, const void *total, void *seed)
{
    const mpi_step *s = arg;
    char before[8];
    int rank = 0;
    MPI_Exscan((void *)total, before, 1, s->type, s->op, s->comm);
    MPI_Comm_rank(s->comm, &rank);
    if (rank > 0) {
        int bytes = 0;
        MPI_Type_size(s->type, &bytes);
        memcpy(seed, before, (size_t)bytes);
    }
    return CLSCAN_SUCCESS;
}

static clscan_status allreduce_all(void *arg, const void *value, void *all)
{
    const mpi_step *s = arg;
    MPI_Allreduce((void *)value, all, 1, s->type, s->op, s->comm);
    return CLSCAN_SUCCESS;
}

static void place(void *arg, int *rank, int *ranks)
{
    const mpi_step *s = arg;
    MPI_Comm_rank(s->comm, rank);
    MPI_Comm_size(s->comm, ranks);
}

static void gather(void *arg, const void *mine, size_t size, void *gathered)
{
    const mpi_step *s = arg;
    MPI_Allgather((void *)mine, (int)size, MPI_BYTE, gathered, (int)size, MPI_BYTE, s->comm);
}

/* Float min and max as the kernels do them (fmin, fmax: a NaN loses to a number); MPI_MIN and MPI_MAX
 * leave NaN handling to the implementation. */
#define ELEMENTWISE(name, T, fn)                                                  \
    static void name(void *in, void *inout, int *len, MPI_Datatype *type)        \
    {                                                                             \
        (void)type;                                                               \
        for (int i = 0; i < *len; i++)                                            \
            ((T *)inout)[i] = fn(((const T *)in)[i], ((T *)inout)[i]);            \
    }
ELEMENTWISE(float_min, float, fminf)
ELEMENTWISE(float_max, float, fmaxf)
ELEMENTWISE(double_min, double, fmin)
ELEMENTWISE(double_max, double, fmax)

/* The MPI datatype and operation of (type, op). Integer add and mul run on the unsigned type of the
 * same width: its wrap-around has the bits of two's-complement wrap-around, which signed MPI types
 * leave undefined. Float min and max are user operations (freed by step_end). Unknown type or op:
 * MPI_DATATYPE_NULL or MPI_OP_NULL (the checks then fail the call before any step, or, for a registered
 * operator, collective.c combines through place and gather instead). */
static mpi_step step_begin(MPI_Comm comm, clscan_type type, clscan_op op)
{
    mpi_step s = {comm, MPI_DATATYPE_NULL, MPI_OP_NULL};
    int wrap = op == CLSCAN_ADD || op == CLSCAN_MUL, is_float = type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE;
    switch (type) {
    case CLSCAN_INT8: s.type = wrap ? MPI_UINT8_T : MPI_INT8_T; break;
    case CLSCAN_UINT8: s.type = MPI_UINT8_T; break;
    case CLSCAN_INT16: s.type = wrap ? MPI_UINT16_T : MPI_INT16_T; break;
    case CLSCAN_UINT16: s.type = MPI_UINT16_T; break;
    case CLSCAN_INT32: s.type = wrap ? MPI_UINT32_T : MPI_INT32_T; break;
    case CLSCAN_UINT32: s.type = MPI_UINT32_T; break;
    case CLSCAN_INT64: s.type = wrap ? MPI_UINT64_T : MPI_INT64_T; break;
    case CLSCAN_UINT64: s.type = MPI_UINT64_T; break;
    case CLSCAN_FLOAT: s.type = MPI_FLOAT; break;
    case CLSCAN_DOUBLE: s.type = MPI_DOUBLE; break;
    default: return s;
    }
    if (op == CLSCAN_ADD)
        s.op = MPI_SUM;
    else if (op == CLSCAN_MUL)
        s.op = MPI_PROD;
    else if ((op == CLSCAN_MIN || op == CLSCAN_MAX) && !is_float)
        s.op = op == CLSCAN_MIN ? MPI_MIN : MPI_MAX;
    else if (op == CLSCAN_MIN || op == CLSCAN_MAX) {
        MPI_User_function *fn = type == CLSCAN_FLOAT ? (op == CLSCAN_MIN ? float_min : float_max)
                                                     : (op == CLSCAN_MIN ? double_min : double_max);
        MPI_Op_create(fn, 1, &s.op);
    }
    return s;
}

static void step_end(mpi_step *s)
{
    if (s->op != MPI_OP_NULL && s->op != MPI_SUM && s->op != MPI_PROD && s->op != MPI_MIN && s->op != MPI_MAX)
        MPI_Op_free(&s->op);
}

/* MPI_Allreduce takes an int count: the counts go in pieces of 2^30. */
static void sum_counts(void *arg, uint64_t *counts, size_t n)
{
    const mpi_step *s = arg;
    const size_t piece = (size_t)1 << 30;
    for (size_t at = 0; at < n; at += piece)
        MPI_Allreduce(MPI_IN_PLACE, counts + at, (int)(n - at < piece ? n - at : piece), MPI_UINT64_T, MPI_SUM, s->comm);
}

static clscan__collective hooks(mpi_step *s, const char *name, const char *invalid)
{
    clscan__collective c = {s, name, invalid, agree, exscan_seed, allreduce_all, place, gather, sum_counts};
    return c;
}

/* A problem with comm itself cannot be agreed on: it is this rank's alone. */
static int comm_usable(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL;
}

static clscan_status mpi_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem out, size_t n,
                              clscan_type type, clscan_op op, int exclusive)
{
    if (!comm_usable(comm))
        return CLSCAN_INVALID_ARGUMENT;
    mpi_step s = step_begin(comm, type, op);
    const clscan__collective c = hooks(&s, exclusive ? "clscan_mpi_exclusive_scan" : "clscan_mpi_inclusive_scan",
                                       NULL);
    clscan_status st = clscan__scan_collective(ctx, in, out, n, type, op, exclusive, &c);
    step_end(&s);
    return st;
}

clscan_status clscan_mpi_inclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem out, size_t n,
                                        clscan_type type, clscan_op op)
{
    return mpi_scan(ctx, comm, in, out, n, type, op, 0);
}

clscan_status clscan_mpi_exclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem out, size_t n,
                                        clscan_type type, clscan_op op)
{
    return mpi_scan(ctx, comm, in, out, n, type, op, 1);
}

static clscan_status mpi_segmented_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem heads, cl_mem out,
                                        size_t n, clscan_type type, clscan_op op, int exclusive)
{
    if (!comm_usable(comm))
        return CLSCAN_INVALID_ARGUMENT;
    /* No MPI operation: the pairs cross as bytes and are folded on the device (collective.c). */
    mpi_step s = {comm, MPI_DATATYPE_NULL, MPI_OP_NULL};
    const clscan__collective c = hooks(&s, exclusive ? "clscan_mpi_segmented_exclusive_scan"
                                                     : "clscan_mpi_segmented_inclusive_scan", NULL);
    return clscan__segscan_collective(ctx, in, heads, out, n, type, op, exclusive, &c);
}

clscan_status clscan_mpi_segmented_inclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem heads,
                                                  cl_mem out, size_t n, clscan_type type, clscan_op op)
{
    return mpi_segmented_scan(ctx, comm, in, heads, out, n, type, op, 0);
}

clscan_status clscan_mpi_segmented_exclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem heads,
                                                  cl_mem out, size_t n, clscan_type type, clscan_op op)
{
    return mpi_segmented_scan(ctx, comm, in, heads, out, n, type, op, 1);
}

clscan_status clscan_mpi_reduce(clscan_context *ctx, MPI_Comm comm, cl_mem in, size_t n, clscan_type type,
                                clscan_op op, void *result)
{
    if (!comm_usable(comm))
        return CLSCAN_INVALID_ARGUMENT;
    mpi_step s = step_begin(comm, type, op);
    const clscan__collective c = hooks(&s, "clscan_mpi_reduce", result ? NULL : "result is NULL");
    clscan_status st = clscan__reduce_collective(ctx, in, n, type, op, result, &c);
    step_end(&s);
    return st;
}

clscan_status clscan_mpi_compact(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                 clscan_type type, size_t *count, size_t *offset, size_t *total)
{
    if (!comm_usable(comm))
        return CLSCAN_INVALID_ARGUMENT;
    mpi_step s = {comm, MPI_UINT64_T, MPI_SUM};
    const clscan__collective c = hooks(&s, "clscan_mpi_compact", !offset ? "offset is NULL" : !total ? "total is NULL"
                                                                                                      : NULL);
    size_t kept = 0;
    clscan_status st = clscan__compact_collective(ctx, in, flags, out, n, type, count ? &kept : NULL, &c);
    if (st == CLSCAN_SUCCESS) {
        uint64_t mine = kept, before = 0, all = 0;
        int rank = 0;
        MPI_Exscan(&mine, &before, 1, MPI_UINT64_T, MPI_SUM, comm);
        MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, comm);
        MPI_Comm_rank(comm, &rank);
        *count = kept;
        *offset = rank > 0 ? (size_t)before : 0;
        *total = (size_t)all;
    }
    return st;
}

clscan_status clscan_mpi_histogram_even(clscan_context *ctx, MPI_Comm comm, cl_mem in, size_t n, clscan_type type,
                                        const void *lower, const void *upper, size_t bins, cl_mem counts)
{
    if (!comm_usable(comm))
        return CLSCAN_INVALID_ARGUMENT;
    mpi_step s = {comm, MPI_UINT64_T, MPI_SUM};
    const clscan__collective c = hooks(&s, "clscan_mpi_histogram_even", NULL);
    return clscan__histogram_even_collective(ctx, in, n, type, lower, upper, bins, counts, &c);
}

/* "<platform>:<device>" (numbered as clscan-info does: every device of a platform counts) of the GPU
 * this rank takes, or "cpu" where there is none. */
#define MAX_IDS 64
static void device_for_rank(int node_rank, char *spec, size_t len)
{
    cl_platform_id platforms[MAX_IDS];
    cl_uint np = 0, gpus = 0, where[MAX_IDS][2];
    snprintf(spec, len, "cpu");
    if (clGetPlatformIDs(MAX_IDS, platforms, &np) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < np && p < MAX_IDS; p++) {
        cl_device_id devs[MAX_IDS];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_IDS, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < MAX_IDS && gpus < MAX_IDS; d++) {
            cl_device_type t = 0;
            if (clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof t, &t, NULL) == CL_SUCCESS && (t & CL_DEVICE_TYPE_GPU))
                where[gpus][0] = p, where[gpus][1] = d, gpus++;
        }
    }
    if (gpus > 0) {
        cl_uint k = (cl_uint)node_rank % gpus;
        snprintf(spec, len, "%u:%u", where[k][0], where[k][1]);
    }
}

clscan_status clscan_mpi_context_create(clscan_context **ctx, MPI_Comm comm)
{
    if (!comm_usable(comm))
        return CLSCAN_INVALID_ARGUMENT;
    MPI_Comm node;
    int node_rank = 0;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_free(&node);
    clscan_status st = CLSCAN_INVALID_ARGUMENT;
    if (ctx) {
        const char *env = getenv("CLSCAN_DEVICE");
        char spec[64];
        device_for_rank(node_rank, spec, sizeof spec);
        st = clscan_context_create(ctx, env && *env ? NULL : spec);
    }
    mpi_step s = {comm, MPI_DATATYPE_NULL, MPI_OP_NULL};
    clscan_status all = agree(&s, st, 0, 0);
    if (all != CLSCAN_SUCCESS && ctx) {
        clscan_context_release(*ctx);
        *ctx = NULL;
    }
    return all;
}
