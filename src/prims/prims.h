/* What the primitives share among themselves and with their tests: their checks and validated work
 * (for collective.c, the agreement points of clscan_mpi) and their pure geometry. Each primitive's
 * own code stays in its file; a primitive never calls another's. Needs engine, tuning, core. */
#ifndef CLSCAN_PRIMS_H
#define CLSCAN_PRIMS_H

#include "engine/engine.h"

/* ---- checks, then the validated work, lock held ----------------------------------------------- */
/* Every check of the public scan, nothing enqueued. */
clscan_status clscan__check_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                 clscan_op op);
clscan_status clscan__check_reduce(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                   const void *result);
/* Writes *result only on success; n == 0 gives the identity. */
clscan_status clscan__reduce_run(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                 void *result);
clscan_status clscan__check_compact(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                    clscan_type type, const size_t *count);
/* Writes *count only on success. */
clscan_status clscan__compact_run(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                  clscan_type type, size_t *count);
/* Validated, n > 0, lock held: unique as a compaction of the elements that start runs (compact.c); the
 * count into *count, read back, or into count_out's element 0 (cl_ulong) on the device. */
clscan_status clscan__unique_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                     cl_mem count_out, size_t *count);
/* Run-length encoding as unique that writes lengths too (compact.c): whether it applies (held items,
 * fewer than 2^32 - 1 elements), then the same contract with the lengths in lengths_out (cl_ulong). */
int clscan__rle_fits(const clscan_context *ctx, clscan_type type, size_t n);
clscan_status clscan__rle_enqueue(clscan_context *ctx, cl_mem in, cl_mem unique_out, cl_mem lengths_out, size_t n,
                                  clscan_type type, cl_mem count_out, size_t *count);
/* Histograms: every check of clscan_histogram_even (name: the public function, for messages), nothing
 * enqueued; then the validated work into counts (histogram.c). */
clscan_status clscan__check_histogram_even(clscan_context *ctx, const char *name, cl_mem in, size_t n,
                                           clscan_type type, const void *lower, const void *upper, size_t bins,
                                           cl_mem counts);
clscan_status clscan__histogram_even_run(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, const void *lower,
                                         const void *upper, size_t bins, cl_mem counts);

/* ---- programs two primitives share --------------------------------------------------------------- */
/* The program of the segmented scans (segscan.c) or, with runs, of the runs (runs.c), which differ in
 * their last file and what their look-back carries, for values of (type, op) and keys of key_bytes
 * (0: byte heads). */
clscan__config clscan__segscan_config(const clscan_context *ctx, int runs, clscan_type type, clscan_op op, size_t n,
                                      size_t key_bytes);

/* Segmented scans by byte heads split around a step off the device (clscan_mpi). Validated, n > 0, lock
 * held. The slice's pair, nothing written to an output: *has_head whether any heads[i] != 0 (element 0
 * too only by its byte) and, at value, the reduction of the values from the last head on (of all of them
 * if none). The scan into out; where continues, element 0 starts a segment only where heads[0] != 0 and
 * the elements before the first head follow carry (one element; exclusive: element 0 gets it). */
clscan_status clscan__check_segscan(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n,
                                    clscan_type type, clscan_op op);
clscan_status clscan__segscan_total(clscan_context *ctx, cl_mem in, cl_mem heads, size_t n, clscan_type type,
                                    clscan_op op, void *value, int *has_head);
clscan_status clscan__segscan_run(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n, clscan_type type,
                                  clscan_op op, int exclusive, const void *carry, int continues);

/* ---- sorts (sort.c, sort_sweep.c: the passes; sort_calls.c: the calls) ------------------------- */
typedef struct clscan__sort_args {
    cl_mem keys, values;
    size_t n;
    clscan_type key_type, value_type;
    int by_key;                 /* 0: keys only, values unused */
    size_t value_bytes;         /* registered value types too */
    int descending, flip;       /* flip: a range was given (floats then take the usual flip's bits) */
    unsigned begin, end;        /* the image's bits [begin, end) sorted by (clscan_sort_options) */
    cl_mem values_out;          /* where the last pass writes the values (NULL: values): argsort's indices */
} clscan__sort_args;
/* What sort.c (three launches a pass, the split, argsort) and sort_sweep.c (one-sweep passes) share:
 * the kernels' flags, the program's parameters, the buffers keys travel through, each pass's route,
 * and the steps both kinds of LSD passes take. */
#define CLSCAN__SORT_TRANSFORM_IN 1u    /* the flags of cl/prims/sort.cl */
#define CLSCAN__SORT_TRANSFORM_OUT 2u
#define CLSCAN__SORT_VARYING 4u
#define CLSCAN__SORT_DESCEND 8u         /* on every launch of a descending sort: clscan__sort_order */

/* Where keys (and values) travel: [0] the caller's A, [1] and [2] the scratch B and C; and the counts.
 * All in place before anything is enqueued, so a failed allocation changes nothing. */
typedef struct clscan__sort_buffers { cl_mem keys[3], values[3], hist, varying; } clscan__sort_buffers;

/* The program's parameters (clscan__config.param), and the values of CLSCAN__SORT_BALLOT: how tiles are
 * ranked (cl/prims/sort_rank.clh). */
enum { CLSCAN__SORT_RADIX_BITS, CLSCAN__SORT_HIST64, CLSCAN__SORT_BALLOT };
enum { CLSCAN__SORT_SPLITS, CLSCAN__SORT_BALLOT_PTX, CLSCAN__SORT_BALLOT_KHR };

/* Pass i of count reads `from` and writes `to` (0: A, 1: B, 2: C): the first reads A, the others take
 * turns between B and C, and the last writes A, so A changes only in the last command and a call that
 * fails before it leaves A as it was. A single pass goes to B, and clscan_sort_home copies it back.
 * Its flags: the transforms of the first and the last pass, and the sort's order. */
typedef struct clscan__sort_route { unsigned from, to; cl_uint flags; } clscan__sort_route;

/* The program a sort of a builds (sort_program.c), and whether its multi-bit passes are one-sweep: not a
 * parameter of the program, which holds both kinds of passes (where the tile is the same, it builds
 * once for either). */
clscan__config clscan__sort_config(const clscan_context *ctx, const clscan__sort_args *a);
int clscan__sort_takes_sweep(const clscan_context *ctx, const clscan__config *cfg, const clscan__sort_args *a);
clscan_status clscan__sort_buffers_get(clscan_context *ctx, const clscan__config *cfg, const clscan__sort_args *a,
                                       size_t counts, clscan__sort_buffers *b);
cl_uint clscan__sort_order(const clscan__sort_args *a);
clscan__sort_route clscan__sort_pass_route(const clscan__sort_args *a, unsigned i, unsigned count);
cl_mem clscan__sort_written_by(const clscan__sort_args *a, const clscan__sort_buffers *b, unsigned to);
size_t clscan__sort_pair_args(const clscan__sort_args *a, const clscan__sort_buffers *b, unsigned from, unsigned to,
                              clscan__arg *args);
clscan_status clscan__sort_read_varying(clscan_context *ctx, cl_mem buf, size_t offset, cl_ulong *varying);
unsigned clscan__sort_active_shifts(cl_ulong varying, unsigned begin, unsigned end, unsigned radix_bits,
                                    cl_uint *shifts, cl_uint *digits);
clscan_status clscan__sort_after_passes(clscan_context *ctx, const clscan__program *p, const clscan__sort_args *a,
                                        const clscan__sort_buffers *b, unsigned count, size_t tiles);
/* One-sweep LSD passes of a on program p (sort_sweep.c). */
clscan_status clscan__sort_sweep(clscan_context *ctx, const clscan__program *p, const clscan__sort_args *a);

/* Lock held, arguments checked: the passes, where there is anything to sort. */
clscan_status clscan__sort_passes(clscan_context *ctx, const clscan__sort_args *a);
/* Lock held, arguments checked, n > 0: argsort of a's keys into a->values_out (written last). */
clscan_status clscan__sort_argsort(clscan_context *ctx, const clscan__sort_args *a);

/* ---- geometry: pure size arithmetic, checked to n = 2^40 by test_host -------------------------- */
/* Reductions: tiles, tiles a group and groups for n elements at tile, at most 8 groups a compute unit
 * (reduce.c); all zero for n == 0. */
typedef struct clscan__reduce_shape { size_t tiles, per_group, groups; } clscan__reduce_shape;
clscan__reduce_shape clscan__reduce_geometry(size_t n, size_t tile, size_t compute_units);
/* Compaction: whether the single launch fits, its count and status values being uint (compact.c). */
int clscan__compact_one_pass_fits(size_t n, size_t tiles);
/* Sorts: tiles and digit counts (tiles << radix_bits), whether counts need 64 bits, and the split
 * path's groups (sort.c). */
typedef struct clscan__sort_shape { size_t tiles, counts; } clscan__sort_shape;
clscan__sort_shape clscan__sort_geometry(size_t n, size_t tile, unsigned radix_bits);
int clscan__sort_hist64(size_t n);
size_t clscan__split_groups(size_t n, size_t tile);
/* Summed-area tables: rows per band of the CPU shape (sat_band < -1: -sat_band rows, an override), and
 * whether the bands' status words and scratch stay addressable; whether a table of n elements needs
 * the GPU kernels' 64-bit element offsets (sat.c). */
size_t clscan__sat_cpu_rows(size_t height, size_t compute_units, long sat_band);
int clscan__sat_bands_fit(size_t width, size_t bands);
int clscan__sat_wide(size_t n);

#endif /* CLSCAN_PRIMS_H */
