/* What tools/clscan-bench.c and tools/bench_family.c (the rows of 0.2's segmented and by-key functions)
 * share. */
#ifndef CLSCAN_BENCH_FAMILY_H
#define CLSCAN_BENCH_FAMILY_H
#include "bench_common.h"
#include "clscan/clscan.h"
#include <stdio.h>
#include <stddef.h>

/* One row: seconds (< 0: the call failed), the bytes the row counts (read + written), the copy roof in
 * bytes per second, a trivial launch's seconds, whether the output was right. */
typedef void (*clscan__bench_row_fn)(void *report, size_t n, const char *type, const char *name, double sec,
                                     double bytes, double roof, double launch_s, int ok);
/* Every row of the family at n elements; returns the number of wrong results. */
int clscan__bench_family(clscan_context *ctx, size_t n, int runs, double *t, double launch_s, double roof,
                         clscan__bench_row_fn row, void *report);
#endif
