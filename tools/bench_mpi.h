/* What tools/clscan-bench.c and tools/bench_mpi.c (clscan-bench --mpi, built when MPI is found) share. */
#ifndef CLSCAN_BENCH_MPI_H
#define CLSCAN_BENCH_MPI_H
#include "bench_common.h"
/* Runs the MPI benchmark over MPI_COMM_WORLD; device NULL: clscan_mpi_context_create's choice. Returns the
 * exit status. */
int clscan__bench_mpi(int argc, char **argv, int max_log, int runs, const char *device);
#endif
