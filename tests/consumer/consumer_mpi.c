/* A program written only against the public contract's MPI part (API.md, "Scale-out over MPI"), built
 * against the installed clscan_mpi through CMake (clscan::mpi) and pkg-config (clscan-mpi), and run as
 * one MPI process: a global inclusive scan of 1..1000 on each rank. */
#include <clscan/clscan_mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1, in[1000], out[1000], bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    clscan_context *ctx = NULL;
    clscan_status st = clscan_mpi_context_create(&ctx, MPI_COMM_WORLD);
    cl_mem a = NULL, b = NULL;
    for (int i = 0; i < 1000; i++)
        in[i] = i + 1;
    if (st == CLSCAN_SUCCESS) {
        a = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL);
        b = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE, sizeof out, NULL, NULL);
        st = clscan_mpi_inclusive_scan(ctx, MPI_COMM_WORLD, a, b, 1000, CLSCAN_INT32, CLSCAN_ADD);
    }
    if (st == CLSCAN_SUCCESS)
        clEnqueueReadBuffer(clscan_context_queue(ctx), b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    for (int i = 0; i < 1000 && st == CLSCAN_SUCCESS; i++)
        bad += out[i] != rank * 500500 + (i + 1) * (i + 2) / 2;
    printf("consumer_mpi: rank %d of %d: %s, %s\n", rank, ranks, clscan_status_string(st), bad ? "WRONG" : "ok");
    if (a) clReleaseMemObject(a);
    if (b) clReleaseMemObject(b);
    clscan_context_release(ctx);
    MPI_Finalize();
    return st != CLSCAN_SUCCESS || bad;
}
