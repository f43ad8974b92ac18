/* clscan-bench --mpi: the global scan over MPI ranks against what each rank's device does alone, all
 * timed in the same run. Every rank holds 2^K int32 (K from --max-log, default 28) and times, median of
 * --runs after two warm-ups: a copy of its slice (the roof), its one-device inclusive add scan (AUTO, and
 * reduce-then-scan, which moves the same bytes as the global scan), clscan_mpi_inclusive_scan (the
 * slowest rank's time, each run starting from a barrier), and the MPI step alone (the collectives the
 * global scan makes: three agreements and one MPI_Exscan). The global result is poisoned first and
 * checked everywhere. Rank 0 prints one row a rank. Part of clscan-bench when built with MPI. */
#define _POSIX_C_SOURCE 200809L
#include "bench_mpi.h"
#include "clscan/clscan_mpi.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one timed call needs. */
typedef struct mpi_bench {
    clscan_context *ctx;
    cl_mem in, out;
    size_t n;
} mpi_bench;

typedef int (*timed_fn)(const mpi_bench *b);

static int run_copy(const mpi_bench *b)
{
    cl_command_queue q = clscan_context_queue(b->ctx);
    return clEnqueueCopyBuffer(q, b->in, b->out, 0, 0, b->n * 4, 0, NULL, NULL) == CL_SUCCESS && clFinish(q) == CL_SUCCESS;
}

static int run_local(const mpi_bench *b)
{
    return clscan_inclusive_scan(b->ctx, b->in, b->out, b->n, CLSCAN_INT32, CLSCAN_ADD) == CLSCAN_SUCCESS &&
           clscan_finish(b->ctx) == CLSCAN_SUCCESS;
}

static int run_global(const mpi_bench *b)
{
    return clscan_mpi_inclusive_scan(b->ctx, MPI_COMM_WORLD, b->in, b->out, b->n, CLSCAN_INT32, CLSCAN_ADD) ==
               CLSCAN_SUCCESS && clscan_finish(b->ctx) == CLSCAN_SUCCESS;
}

/* The collectives of one global scan, without the device work in between. */
static int run_mpi_step(const mpi_bench *b)
{
    int mine[6] = {0, 0, 0, 0, 0, 0}, all[6];
    uint32_t total = (uint32_t)b->n, before = 0;
    for (int k = 0; k < 2; k++)
        MPI_Allreduce(mine, all, 6, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Exscan(&total, &before, 1, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(mine, all, 6, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return 1;
}

/* Median of runs after two warm-ups; -1 when a call failed. across: each run starts from a barrier and
 * counts as the slowest rank's time (all ranks agree on failure); else this rank alone, ranks timing
 * side by side (one-device figures). */
static double median(timed_fn fn, const mpi_bench *b, int runs, double *t, int across)
{
    for (int r = -2; r < runs; r++) {
        if (across)
            MPI_Barrier(MPI_COMM_WORLD);
        double t0 = clscan__bench_seconds();
        int ok = fn(b);
        double took = clscan__bench_seconds() - t0;
        if (across) {
            int all_ok = 0;
            double slowest = 0;
            MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            MPI_Allreduce(&took, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            ok = all_ok, took = slowest;
        }
        if (!ok)
            return -1;
        if (r >= 0)
            t[r] = took;
    }
    return clscan__bench_median(t, runs);
}

/* Input values in [-1000, 1000] from a generator seeded by the rank. */
static void fill_slice(int32_t *x, size_t n, int rank)
{
    uint64_t s = 88172645463325252ull ^ (uint64_t)(rank + 1) * 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        x[i] = (int32_t)(s % 2001) - 1000;
    }
}

/* Every element of this rank's part of the global scan, after poisoning, against C with MPI_Exscan. */
static int verify_global(const mpi_bench *b, const int32_t *x, int32_t *got, int rank)
{
    cl_command_queue q = clscan_context_queue(b->ctx);
    const cl_uint poison = 0xA5A5A5A5u;
    uint32_t total = 0, acc = 0;
    for (size_t i = 0; i < b->n; i++)
        total += (uint32_t)x[i];
    MPI_Exscan(&total, &acc, 1, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        acc = 0;
    if (clEnqueueFillBuffer(q, b->out, &poison, 4, 0, b->n * 4, 0, NULL, NULL) != CL_SUCCESS || !run_global(b) ||
        clEnqueueReadBuffer(q, b->out, CL_TRUE, 0, b->n * 4, got, 0, NULL, NULL) != CL_SUCCESS)
        return 0;
    for (size_t i = 0; i < b->n; i++)
        if ((uint32_t)got[i] != (acc += (uint32_t)x[i]))
            return 0;
    return 1;
}

int clscan__bench_mpi(int argc, char **argv, int max_log, int runs, const char *device)
{
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    mpi_bench b = {NULL, NULL, NULL, (size_t)1 << max_log};
    clscan_status st = device ? clscan_context_create(&b.ctx, device) : clscan_mpi_context_create(&b.ctx, MPI_COMM_WORLD);
    int32_t *x = malloc(b.n * 4), *got = malloc(b.n * 4);
    double *t = malloc(sizeof *t * (size_t)runs), f[6] = {0, 0, 0, 0, 0, 0};
    cl_int e1 = CL_INVALID_VALUE, e2 = CL_INVALID_VALUE;
    if (st == CLSCAN_SUCCESS && x && got && t) {
        fill_slice(x, b.n, rank);
        b.in = clCreateBuffer(clscan_context_cl_context(b.ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, b.n * 4, x, &e1);
        b.out = clCreateBuffer(clscan_context_cl_context(b.ctx), CL_MEM_READ_WRITE, b.n * 4, NULL, &e2);
    }
    int ready = e1 == CL_SUCCESS && e2 == CL_SUCCESS, all_ready = 0;
    MPI_Allreduce(&ready, &all_ready, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ready) {
        fprintf(stderr, "clscan-bench --mpi: rank %d: no context or no room for 2 x 2^%d int32: %s\n", rank, max_log,
                st == CLSCAN_SUCCESS ? "buffers" : clscan_last_error(NULL));
        MPI_Finalize();
        return 3;
    }
    f[0] = median(run_copy, &b, runs, t, 0);
    f[1] = median(run_local, &b, runs, t, 0);
    clscan_set_algorithm(b.ctx, CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_AUTO);
    f[2] = median(run_local, &b, runs, t, 0);
    clscan_set_algorithm(b.ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    f[3] = median(run_global, &b, runs, t, 1);
    f[4] = median(run_mpi_step, &b, runs, t, 1);
    f[5] = verify_global(&b, x, got, rank);
    char name[128] = "";
    clGetDeviceInfo(clscan_context_device(b.ctx), CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    double *all = rank == 0 ? malloc(sizeof *all * 6 * (size_t)ranks) : NULL;
    char *names = rank == 0 ? malloc(128 * (size_t)ranks) : NULL;
    MPI_Gather(f, 6, MPI_DOUBLE, all, 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(name, 128, MPI_CHAR, names, 128, MPI_CHAR, 0, MPI_COMM_WORLD);
    int wrong = 0;
    if (rank == 0) {
        printf("clscan %s bench --mpi: %d ranks, 2^%d int32 a rank, inclusive add, median of %d (global: slowest "
               "rank)\n", clscan_version_string(), ranks, max_log, runs);
        printf("%-4s %-24s %10s %10s %10s %10s %9s %9s %9s %8s\n", "rank", "device", "copy ms", "AUTO ms", "RtS ms",
               "global ms", "/AUTO", "/RtS", "MPI us", "checked");
        for (int r = 0; r < ranks; r++) {
            const double *g = all + 6 * r;
            printf("%-4d %-24.24s %10.3f %10.3f %10.3f %10.3f %9.3f %9.3f %9.1f %8s\n", r, names + 128 * r, g[0] * 1e3,
                   g[1] * 1e3, g[2] * 1e3, g[3] * 1e3, g[3] / g[1], g[3] / g[2], g[4] * 1e6, g[5] > 0 ? "yes" : "WRONG");
            wrong += !(g[5] > 0) || g[0] < 0 || g[1] < 0 || g[2] < 0 || g[3] < 0;
        }
        printf("per rank: %.1f G int32/s global, %.1f one-device AUTO (rank 0)\n", (double)b.n / all[3] * 1e-9,
               (double)b.n / all[1] * 1e-9);
    }
    MPI_Bcast(&wrong, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(all), free(names), free(x), free(got), free(t);
    clReleaseMemObject(b.in), clReleaseMemObject(b.out);
    clscan_context_release(b.ctx);
    MPI_Finalize();
    return wrong ? 1 : 0;
}
