/* What clscan-bench's files share: the clock and the comparison its medians use (clscan-bench.c). */
#ifndef CLSCAN_BENCH_COMMON_H
#define CLSCAN_BENCH_COMMON_H
/* Monotonic wall clock in seconds; qsort's comparison of doubles. */
double clscan__bench_seconds(void);
int clscan__bench_cmp_double(const void *a, const void *b);
#endif
