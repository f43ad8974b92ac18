/* Particles spread over MPI ranks, each rank holding its own (a different number on each): every rank
 * keeps the particles whose energy passes a cut, on its own device, and learns where its kept ones
 * start in the global list of kept particles, for example to write them into one shared file at the
 * right place. clscan_mpi_compact does the local compaction and exchanges one count a rank.
 * Checks every rank's kept particles, offset and the total against C loops.
 * Run: mpirun -np 4 example_mpi_compact [particles per rank] */
#include <clscan/clscan_mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A rank's particles: energies from a small generator seeded by the rank, so every run is the same. */
static void make_particles(int rank, size_t n, float *energy, unsigned char *keep, float cut)
{
    uint32_t x = 2463534242u ^ (uint32_t)(rank + 1) * 2654435761u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        energy[i] = (float)(x >> 8) / 16777216.0f * 10.0f;   /* uniform in [0, 10) */
        keep[i] = energy[i] > cut;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const size_t base = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000;
    const size_t n = base + (size_t)rank * 1234;   /* ranks hold different numbers of particles */
    const float cut = 9.0f;
    clscan_context *ctx = NULL;
    clscan_status st = clscan_mpi_context_create(&ctx, MPI_COMM_WORLD);
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "mpi_compact: rank %d: %s: %s\n", rank, clscan_status_string(st), clscan_last_error(NULL));
        MPI_Finalize();
        return 1;
    }
    float *energy = malloc((n + 1) * sizeof *energy), *kept = malloc((n + 1) * sizeof *kept);
    unsigned char *keep = malloc(n + 1);
    if (!energy || !kept || !keep)
        MPI_Abort(MPI_COMM_WORLD, 1);
    make_particles(rank, n, energy, keep, cut);
    cl_context cl = clscan_context_cl_context(ctx);
    cl_mem d_energy = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float) + 4, energy, NULL);
    cl_mem d_keep = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n + 1, keep, NULL);
    cl_mem d_kept = clCreateBuffer(cl, CL_MEM_WRITE_ONLY, n * sizeof(float) + 4, NULL, NULL);
    size_t count = 0, offset = 0, total = 0;
    st = clscan_mpi_compact(ctx, MPI_COMM_WORLD, d_energy, d_keep, d_kept, n, CLSCAN_FLOAT, &count, &offset, &total);
    if (st == CLSCAN_SUCCESS)
        clEnqueueReadBuffer(clscan_context_queue(ctx), d_kept, CL_TRUE, 0, count * sizeof(float), kept, 0, NULL, NULL);

    /* The same with C loops and plain MPI. */
    unsigned long long mine = 0, before = 0, all = 0, wrong = st != CLSCAN_SUCCESS;
    for (size_t i = 0; i < n && !wrong; i++)
        if (keep[i])
            wrong += mine >= count || kept[mine] != energy[i], mine++;
    MPI_Exscan(&mine, &before, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    wrong += mine != count || (rank > 0 ? before : 0) != offset || all != total;
    char device[128] = "";
    clGetDeviceInfo(clscan_context_device(ctx), CL_DEVICE_NAME, sizeof device - 1, device, NULL);
    if (st != CLSCAN_SUCCESS)
        fprintf(stderr, "mpi_compact: rank %d: %s: %s\n", rank, clscan_status_string(st), clscan_last_error(ctx));
    printf("rank %d of %d on %s: %zu particles, %zu above %.1f kept at global [%zu, %zu) of %zu; %s\n", rank, ranks,
           device, n, count, (double)cut, offset, offset + count, total, wrong ? "WRONG" : "matches C loops");
    unsigned long long any_wrong = 0;
    MPI_Allreduce(&wrong, &any_wrong, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    clReleaseMemObject(d_energy), clReleaseMemObject(d_keep), clReleaseMemObject(d_kept);
    free(energy), free(kept), free(keep);
    clscan_context_release(ctx);
    MPI_Finalize();
    return any_wrong ? 1 : 0;
}
