/* The clock and the median that every benchmark figure is made of (bench_common.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_common.h"
#include <stdlib.h>
#include <time.h>

double clscan__bench_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double clscan__bench_median(double *t, int runs)
{
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    return runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
}
