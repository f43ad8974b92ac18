/* clscan-bench --mpi (tools/bench_mpi.c), built when MPI is found. */
#ifndef CLSCAN_BENCH_MPI_H
#define CLSCAN_BENCH_MPI_H
/* Runs the MPI benchmark over MPI_COMM_WORLD; device NULL: clscan_mpi_context_create's choice. Returns the
 * exit status. */
int clscan__bench_mpi(int argc, char **argv, int max_log, int runs, const char *device);
#endif
