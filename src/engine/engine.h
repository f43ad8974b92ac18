/* The engine layer: what several primitives share. The scan engine (block-sum, reduce-then-scan,
 * single-pass) that compaction, sort and tables call for their own scans; the single-pass tile state
 * (status words, epochs, counters); the configuration of a program from the context's tile and
 * device facts; identities of the operators. Needs tuning and core. */
#ifndef CLSCAN_ENGINE_H
#define CLSCAN_ENGINE_H

#include "core/core.h"
#include "tuning/tuning.h"

/* ---- configurations (config.c) ---------------------------------------------------------------- */
/* The configuration of program `id` for (type, op) at size n under tile t: work-group algorithm and
 * device features as the context's settings, the override and the tables give them. */
clscan__config clscan__config_with(const clscan_context *ctx, clscan__program_id id, clscan_type type, clscan_op op,
                                   size_t n, clscan__tuning t);
/* The scan engine's program for (type, op) at size n, built or found. Lock held. */
clscan_status clscan__scan_program(clscan_context *ctx, clscan_type type, clscan_op op, size_t n,
                                   clscan__program **p);
/* The identity of op for type, as the kernels define it (types.clh), into out. */
void clscan__identity(const clscan_context *ctx, clscan_type type, clscan_op op, void *out);

/* ---- single-pass state (single_pass.c) -------------------------------------------------------- */
/* Status words for `tiles` slots of elem-byte values and the counters; zeroed where new or when epochs
 * wrap. */
clscan_status clscan__sp_state(clscan_context *ctx, size_t tiles, size_t elem, int wide_words, cl_mem *status);
/* Whether single-pass launches can number `tiles` tiles (or bands): the uint tile counter runs past
 * the last by up to CLSCAN__MAX_GROUPS, and look-backs index tiles as long. */
int clscan__sp_tiles_fit(size_t tiles);
/* Bytes of single-pass status words for `slots` tiles (or band columns) of elem-byte values. */
size_t clscan__sp_status_bytes(size_t slots, size_t elem);

/* ---- the scan engine (scan.c) ----------------------------------------------------------------- */
#define CLSCAN__MAX_LEVELS 8   /* block-sum recursion depth; tile >= 64 makes 8 levels cover 2^48 */
/* Levels block-sum needs for n elements at this tile size, and the scratch elements of each level. */
unsigned clscan__block_sum_levels(size_t n, size_t tile, size_t level_elems[CLSCAN__MAX_LEVELS]);
/* A scan's initial value, combined before every element: one element on the host (value), or element 0
 * of buf read on the device when the scan runs (buf not NULL). */
typedef struct clscan__seed {
    const void *value;
    cl_mem buf;
} clscan__seed;
/* Validated, lock held: enqueue the scan of n > 0 elements by the strategy the context picks, from seed
 * (NULL: the identity). */
clscan_status clscan__scan_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                   clscan_op op, int exclusive, const clscan__seed *seed);
/* A scan in two halves around a step off the device (clscan_mpi), reduce-then-scan cut in two; validated,
 * n > 0, lock held throughout: the first leaves the tiles' prefixes in scratch and gives the total of
 * in, the second scans each tile seeded with seed (one element) and its prefix. */
clscan_status clscan__scan_split_total(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                       void *total);
clscan_status clscan__scan_split_finish(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                        clscan_op op, int exclusive, const void *seed);

#endif /* CLSCAN_ENGINE_H */
