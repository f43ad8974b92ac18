/* What tools/clscan-bench.c and tools/bench_mpi.c (clscan-bench --mpi, built when MPI is found) share. */
#ifndef CLSCAN_BENCH_MPI_H
#define CLSCAN_BENCH_MPI_H
/* Runs the MPI benchmark over MPI_COMM_WORLD; device NULL: clscan_mpi_context_create's choice. Returns the
 * exit status. */
int clscan__bench_mpi(int argc, char **argv, int max_log, int runs, const char *device);
/* Monotonic wall clock in seconds; qsort's comparison of doubles (clscan-bench.c). */
double clscan__bench_seconds(void);
int clscan__bench_cmp_double(const void *a, const void *b);
#endif
