/* The points where ranks of a distributed call must agree, as hooks into the scan, the reduction and
 * the compaction: what clscan_mpi (src/mpi.c) is built on. Exported from the shared library for
 * clscan_mpi only; not part of the API (shared/API.md) and free to change with any version. */
#ifndef CLSCAN_COLLECTIVE_H
#define CLSCAN_COLLECTIVE_H

#include "clscan/clscan.h"
#include <stdint.h>

typedef struct clscan__collective {
    void *arg;
    const char *name;           /* the public function, for messages */
    const char *invalid;        /* the caller's own argument problem (NULL: none): INVALID_ARGUMENT */
    /* Called by every rank at the same points with its own status, whether it may have written its
     * outputs in this call, and what the call's type and operator mean on this rank (key: equal on
     * ranks that registered the same code, whatever the values); returns the status all ranks agreed
     * on: a failure when any rank failed, CLSCAN_INVALID_ARGUMENT when the keys differ, and
     * CLSCAN_OPENCL_ERROR, never CLSCAN_OUT_OF_MEMORY (nothing written), when any rank wrote. */
    clscan_status (*agree)(void *arg, clscan_status local, int written, uint64_t key);
    /* Built-in operators. Scans: from this rank's total (the identity for an empty slice) the seed of
     * its part, the combination of the totals of the ranks before it; seed holds the identity on
     * entry. Reductions: every rank's value combined into all. */
    clscan_status (*seed)(void *arg, const void *total, void *seed);
    clscan_status (*all)(void *arg, const void *value, void *all);
    /* Registered operators, whose OpenCL C only a device runs: this rank's place and the number of
     * ranks; every rank's `size` bytes at mine into gathered (ranks * size bytes) in rank order. */
    void (*place)(void *arg, int *rank, int *ranks);
    void (*gather)(void *arg, const void *mine, size_t size, void *gathered);
    /* Histograms: every rank's n counts summed, element by element, into counts on every rank. */
    void (*sum_counts)(void *arg, uint64_t *counts, size_t n);
} clscan__collective;

/* Each runs: checks (and c->invalid) -> agree -> this rank's device work -> agree -> the ranks'
 * values combined; the scan splits its device work (clscan__scan_split_total, the seed,
 * clscan__scan_split_finish) with an agreement after the first half. A registered operator combines
 * the gathered totals on this device and agrees on that before anything more. A failure agreed
 * before the device work leaves every output as it was. Results go to *result / *count only when all
 * ranks succeeded. NULL ctx: agrees on CLSCAN_INVALID_ARGUMENT. */
CLSCAN_API clscan_status clscan__scan_collective(clscan_context *ctx, cl_mem in, cl_mem out, size_t n,
                                                 clscan_type type, clscan_op op, int exclusive,
                                                 const clscan__collective *c);
CLSCAN_API clscan_status clscan__reduce_collective(clscan_context *ctx, cl_mem in, size_t n, clscan_type type,
                                                   clscan_op op, void *result, const clscan__collective *c);
CLSCAN_API clscan_status clscan__compact_collective(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out,
                                                    size_t n, clscan_type type, size_t *count,
                                                    const clscan__collective *c);
/* The histogram: checks -> agree (on the type, bins and bounds too) -> this rank's counts into counts ->
 * agree -> read back -> agree -> sum_counts -> the sums written to counts -> agree. */
CLSCAN_API clscan_status clscan__histogram_even_collective(clscan_context *ctx, cl_mem in, size_t n, clscan_type type,
                                                           const void *lower, const void *upper, size_t bins,
                                                           cl_mem counts, const clscan__collective *c);

/* The segmented scan by byte heads: checks -> agree -> this rank's pair (clscan__segscan_total) -> agree
 * -> every rank's pair gathered, those before this rank folded on this device -> agree -> the scan
 * seeded with that carry (clscan__segscan_run; a rank other than the first continues the segment of
 * the ranks before it) -> agree. */
CLSCAN_API clscan_status clscan__segscan_collective(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out,
                                                    size_t n, clscan_type type, clscan_op op, int exclusive,
                                                    const clscan__collective *c);

#endif /* CLSCAN_COLLECTIVE_H */
