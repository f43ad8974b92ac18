/* What clscan-bench's files (clscan-bench.c, bench_family.c, bench_mpi.c) and the peer programs of
 * bench/peers/ share: the clock and the median of timed runs (bench_common.c). */
#ifndef CLSCAN_BENCH_COMMON_H
#define CLSCAN_BENCH_COMMON_H
#ifdef __cplusplus
extern "C" {
#endif
/* Monotonic wall clock in seconds. */
double clscan__bench_seconds(void);
/* The median of t[0 .. runs), sorting t. */
double clscan__bench_median(double *t, int runs);
#ifdef __cplusplus
}
#endif
#endif
