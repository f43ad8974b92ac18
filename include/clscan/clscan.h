/* clscan: parallel prefix scans on any OpenCL 1.2+ device.
 * This header is the whole public API (the contract is shared/API.md); C99, usable from C++.
 * Every function returns a clscan_status unless it says otherwise; details of a failure are in
 * clscan_last_error(ctx). */
#ifndef CLSCAN_CLSCAN_H
#define CLSCAN_CLSCAN_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>

#if defined(_WIN32) && defined(CLSCAN_BUILDING_SHARED)
#define CLSCAN_API __declspec(dllexport)
#elif defined(_WIN32) && defined(CLSCAN_SHARED)
#define CLSCAN_API __declspec(dllimport)
#elif defined(__GNUC__)
#define CLSCAN_API __attribute__((visibility("default")))
#else
#define CLSCAN_API
#endif

#define CLSCAN_VERSION_MAJOR 0
#define CLSCAN_VERSION_MINOR 1
#define CLSCAN_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results -------------------------------------------------------------- */
typedef enum clscan_status {
    CLSCAN_SUCCESS          =  0,
    CLSCAN_INVALID_ARGUMENT = -1, /* NULL where a value is needed, unknown enum value, n larger than a buffer holds, in/out overlap where not allowed */
    CLSCAN_UNSUPPORTED      = -2, /* the device cannot run this type/op/algorithm (e.g. double without fp64) */
    CLSCAN_DEVICE_NOT_FOUND = -3, /* no OpenCL device matches the request */
    CLSCAN_KERNEL_NOT_FOUND = -4, /* a .cl source could not be found or read; clscan_last_error names the paths tried */
    CLSCAN_BUILD_FAILED     = -5, /* clBuildProgram failed; clscan_last_error holds the build log */
    CLSCAN_OUT_OF_MEMORY    = -6, /* host or device allocation failed; nothing was written to the outputs */
    CLSCAN_OPENCL_ERROR     = -7  /* any other OpenCL failure; clscan_last_error names the call and the CL error code */
} clscan_status;

/* A short English name of the status; never NULL, also for unknown values. */
CLSCAN_API const char *clscan_status_string(clscan_status status);

/* "major.minor.patch" of the library actually linked. */
CLSCAN_API const char *clscan_version_string(void);

/* ---- element types and operators --------------------------------------- */
/* 8- and 16-bit integers (0.2) are appended: the values of the others are as in 0.1. */
typedef enum clscan_type {
    CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64, CLSCAN_UINT64, CLSCAN_FLOAT, CLSCAN_DOUBLE,
    CLSCAN_INT8, CLSCAN_UINT8, CLSCAN_INT16, CLSCAN_UINT16
} clscan_type;
typedef enum clscan_op   { CLSCAN_ADD, CLSCAN_MUL, CLSCAN_MIN, CLSCAN_MAX } clscan_op;

/* Bytes of one element; 0 for an unknown type. */
CLSCAN_API size_t clscan_type_size(clscan_type type);

/* ---- algorithms: how a scan is composed ---------------------------------- */
/* Inside one work-group: */
typedef enum clscan_wg_algorithm {
    CLSCAN_WG_AUTO = 0,
    CLSCAN_WG_HILLIS_STEELE,   /* Kogge-Stone, double-buffered local memory, log2(n) steps, n log n work */
    CLSCAN_WG_BLELLOCH,        /* Brent-Kung up-sweep / down-sweep, work-efficient, bank-conflict-free layout */
    CLSCAN_WG_SUBGROUP         /* sub-group (warp/wavefront) scans, then a scan of the sub-group totals */
} clscan_wg_algorithm;
/* Across work-groups (the whole array): */
typedef enum clscan_strategy {
    CLSCAN_STRATEGY_AUTO = 0,
    CLSCAN_STRATEGY_BLOCK_SUM,       /* hierarchical: scan blocks, scan the block sums recursively, add them back */
    CLSCAN_STRATEGY_REDUCE_THEN_SCAN,/* reduce tiles, scan the tile totals, scan tiles seeded with their offsets */
    CLSCAN_STRATEGY_SINGLE_PASS      /* one pass with decoupled look-back over tile status words */
} clscan_strategy;

/* ---- context: one device, one in-order queue ----------------------------- */
typedef struct clscan_context clscan_context;

/* device: NULL means $CLSCAN_DEVICE if set, else the first GPU, else the first device of any kind.
 * Accepted forms: "gpu", "cpu", "<index>" (as numbered by clscan-info), "<platform>:<device>",
 * or a case-insensitive substring of the device name, platform name or platform vendor ("h200", "pocl").
 * On failure *ctx = NULL and clscan_last_error(NULL) says why (per thread). */
CLSCAN_API clscan_status clscan_context_create(clscan_context **ctx, const char *device);
/* Use the application's own queue (retained, released with the context); its context and device are used.
 * An out-of-order queue is accepted: clscan then orders its own commands with barriers. */
CLSCAN_API clscan_status clscan_context_create_from_queue(clscan_context **ctx, cl_command_queue queue);
/* Releases everything the context holds; waits for nothing. NULL is a no-op. */
CLSCAN_API void          clscan_context_release(clscan_context *ctx);

CLSCAN_API cl_context       clscan_context_cl_context(const clscan_context *ctx);
CLSCAN_API cl_command_queue clscan_context_queue(const clscan_context *ctx);
CLSCAN_API cl_device_id     clscan_context_device(const clscan_context *ctx);
/* What went wrong last on this context, "" if nothing; never NULL. With ctx == NULL: the last failed
 * context creation of the calling thread. The text belongs to the context, whichever thread's call
 * failed; what is returned is the calling thread's copy, taken under the context's lock, and it stays
 * as it is until the same thread calls clscan_last_error again. */
CLSCAN_API const char      *clscan_last_error(const clscan_context *ctx);

/* Pick the algorithms used by later scans on this context (AUTO: fastest known for the device and size).
 * A pair the device cannot run makes later scans return CLSCAN_UNSUPPORTED. */
CLSCAN_API clscan_status clscan_set_algorithm(clscan_context *ctx, clscan_strategy strategy, clscan_wg_algorithm wg);
/* Wait for everything enqueued on the context's queue. */
CLSCAN_API clscan_status clscan_finish(clscan_context *ctx);

/* ---- your own types and operators, written in OpenCL C (0.2) ----------------- */
/* Bytes of one element of type: built-in types as clscan_type_size, registered ones of ctx too; 0 if
 * unknown. */
CLSCAN_API size_t clscan_context_type_size(const clscan_context *ctx, clscan_type type);
/* A type of `size` bytes named `name` in OpenCL C; `declaration` (NULL for an existing OpenCL C type such
 * as "float2") is placed before every program that uses it. A probe is built on the device: a declaration
 * that does not compile gives CLSCAN_BUILD_FAILED with the log (its lines numbered as in the declaration);
 * a device sizeof other than `size` gives CLSCAN_INVALID_ARGUMENT. *type is usable with this context only:
 * compaction and sort_by_key values move it at any size; scans and reductions combine it (up to 128 bytes)
 * with a registered operator of its own; a built-in operator on it, sort keys and summed-area tables of it
 * are CLSCAN_UNSUPPORTED. Names beginning with clscan_ or CLSCAN_ are the library's. At least 64 types a
 * context. */
CLSCAN_API clscan_status clscan_register_type(clscan_context *ctx, const char *name, const char *declaration,
                                              size_t size, clscan_type *type);
#define CLSCAN_OP_COMMUTATIVE 1u   /* combine(a, b) == combine(b, a): the library may reorder operands */
/* An associative operator on `type` (built-in or registered): `combine` is an OpenCL C expression of `a`
 * (the earlier operand) and `b` (the later one) whose value has the type; `identity` points to one element
 * with combine(identity, x) == combine(x, identity) == x; `preamble` (may be NULL) holds helper functions it
 * calls. A combine that does not compile gives CLSCAN_BUILD_FAILED with the build log. *op is usable with
 * this context and this type only, wherever an operator is taken. An operator not marked commutative is
 * never reordered. At least 64 operators a context. */
CLSCAN_API clscan_status clscan_register_op(clscan_context *ctx, clscan_type type, const char *combine,
                                            const void *identity, const char *preamble, unsigned flags,
                                            clscan_op *op);

/* ---- operations on device buffers ---------------------------------------- */
/* Enqueued on the context's queue; they return once enqueued. n == 0 is a valid no-op.
 * Each buffer must hold at least n elements of the type, else CLSCAN_INVALID_ARGUMENT and
 * nothing is enqueued. in == out is allowed (in place); partly overlapping sub-buffers are not.
 * Offsets: use sub-buffers. Exclusive: out[0] is the identity of op: 0 for ADD, 1 for MUL,
 * the type's largest value for MIN, smallest for MAX (for float/double: +INFINITY and -INFINITY).
 * Float MIN/MAX follow fmin/fmax (a NaN is ignored when the other operand is a number). */
CLSCAN_API clscan_status clscan_inclusive_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, clscan_op op);
CLSCAN_API clscan_status clscan_exclusive_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type, clscan_op op);

/* Scans with an initial value (0.2): exclusive: out[0] = init, out[i] = init op in[0] op ... op in[i-1];
 * inclusive: out[i] = init op in[0] op ... op in[i]. init: one element on the host, or, when init_buf is
 * not NULL (init must then be NULL), element 0 of init_buf, read on the device when the scan runs, so a
 * running total can pass from one chunk to the next without the host (clscan_reduce_async writes one).
 * init_buf must not overlap out. */
CLSCAN_API clscan_status clscan_exclusive_scan_init(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                                    clscan_op op, const void *init, cl_mem init_buf);
CLSCAN_API clscan_status clscan_inclusive_scan_init(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                                    clscan_op op, const void *init, cl_mem init_buf);

/* Segmented scans (0.2): heads holds n cl_uchar; a segment starts at element 0 and wherever heads[i] != 0,
 * and each segment is scanned on its own (exclusive: the first element of each segment gets the identity).
 * in == out is allowed; heads must not overlap out. Enqueued; they return at once. */
CLSCAN_API clscan_status clscan_segmented_inclusive_scan(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n,
                                                         clscan_type type, clscan_op op);
CLSCAN_API clscan_status clscan_segmented_exclusive_scan(clscan_context *ctx, cl_mem in, cl_mem heads, cl_mem out, size_t n,
                                                         clscan_type type, clscan_op op);
/* By key (0.2): a segment is a run of consecutive keys with equal bits; key_type any type, registered ones
 * too. keys must not overlap out. */
CLSCAN_API clscan_status clscan_inclusive_scan_by_key(clscan_context *ctx, cl_mem keys, clscan_type key_type, cl_mem in,
                                                      cl_mem out, size_t n, clscan_type type, clscan_op op);
CLSCAN_API clscan_status clscan_exclusive_scan_by_key(clscan_context *ctx, cl_mem keys, clscan_type key_type, cl_mem in,
                                                      cl_mem out, size_t n, clscan_type type, clscan_op op);

/* Segmented reduction (0.2): offsets holds n_segments + 1 cl_ulong, non-decreasing, the last at most the
 * elements in holds; out[s] is the combination of in[offsets[s] .. offsets[s+1]) (the identity when empty).
 * The offsets stay on the device and are not read back to be checked: one past the buffer is cut to its end
 * and a segment that ends before it starts is empty, so nothing is read or written out of bounds. out
 * must not overlap in or offsets. Enqueued; returns at once. */
CLSCAN_API clscan_status clscan_segmented_reduce(clscan_context *ctx, cl_mem in, cl_mem offsets, cl_mem out,
                                                 size_t n_segments, clscan_type type, clscan_op op);

/* Combines in[0..n) with op and writes one element of the type to *result, waiting for it; n == 0
 * gives the identity. *result is written only on success. */
CLSCAN_API clscan_status clscan_reduce(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op, void *result);
/* The same value written into element 0 of result on the device (0.2), enqueued like the scans: a
 * pipeline goes on without the host waiting (clscan_*_scan_init reads it from there). n == 0 writes the
 * identity. result holds one element of the type and does not overlap in. */
CLSCAN_API clscan_status clscan_reduce_async(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                             cl_mem result);

/* The index of the first smallest (clscan_argmin) or largest (clscan_argmax) of in[0..n) into *index
 * and, if value is not NULL, that element (0.2); waits for them. Built-in types only (a registered type
 * is CLSCAN_UNSUPPORTED); floats: NaNs are skipped, and all NaN gives index 0. n == 0 is
 * CLSCAN_INVALID_ARGUMENT. *index and *value are written only on success. */
CLSCAN_API clscan_status clscan_argmin(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, size_t *index, void *value);
CLSCAN_API clscan_status clscan_argmax(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, size_t *index, void *value);

/* Stream compaction: flags holds n cl_uchar; the elements of in whose flag is non-zero are written to
 * the front of out in their original order (stable), and *count receives how many (waiting for it).
 * in and out must not overlap, nor flags and out. *count is written only on success. */
CLSCAN_API clscan_status clscan_compact(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n, clscan_type type, size_t *count);
/* The same compaction with the count left on the device (0.2): a cl_ulong written into element 0 of
 * count, which must not overlap the other buffers; enqueued, it returns at once. n == 0 writes 0. */
CLSCAN_API clscan_status clscan_compact_async(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                              clscan_type type, cl_mem count);

/* Stable partition (0.2): the flagged elements of in (flags[i] != 0) first, in order, then the others,
 * in order, into out (n elements); *count receives how many were flagged (waiting for it). Buffers as
 * for clscan_compact. */
CLSCAN_API clscan_status clscan_partition(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                          clscan_type type, size_t *count);
CLSCAN_API clscan_status clscan_partition_async(clscan_context *ctx, cl_mem in, cl_mem flags, cl_mem out, size_t n,
                                                clscan_type type, cl_mem count);

/* Runs of equal consecutive elements, compared by their bits (0.2; any type, registered ones too). The
 * outputs hold n elements (as many runs as there can be) and overlap no other buffer; the run count
 * comes back to the host (waiting for it; written only on success) or, in the _async forms, as a
 * cl_ulong in element 0 of a buffer on the device (n == 0 writes 0). */
/* keys_out[r]: run r's key; values_out[r]: its values combined with op (value_type and op as for the
 * scans, registered ones too). */
CLSCAN_API clscan_status clscan_reduce_by_key(clscan_context *ctx, cl_mem keys, cl_mem values, cl_mem keys_out,
                                              cl_mem values_out, size_t n, clscan_type key_type,
                                              clscan_type value_type, clscan_op op, size_t *runs);
CLSCAN_API clscan_status clscan_reduce_by_key_async(clscan_context *ctx, cl_mem keys, cl_mem values, cl_mem keys_out,
                                                    cl_mem values_out, size_t n, clscan_type key_type,
                                                    clscan_type value_type, clscan_op op, cl_mem runs);
/* out: the first element of every run. */
CLSCAN_API clscan_status clscan_unique(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                       size_t *count);
CLSCAN_API clscan_status clscan_unique_async(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                             cl_mem count);
/* unique_out[r]: run r's element; lengths_out[r]: its length (n cl_ulong). */
CLSCAN_API clscan_status clscan_run_length_encode(clscan_context *ctx, cl_mem in, cl_mem unique_out, cl_mem lengths_out,
                                                  size_t n, clscan_type type, size_t *runs);
CLSCAN_API clscan_status clscan_run_length_encode_async(clscan_context *ctx, cl_mem in, cl_mem unique_out,
                                                        cl_mem lengths_out, size_t n, clscan_type type, cl_mem runs);

/* Ascending radix sort of n keys in place, stable. Floats order as -inf < negatives < -0.0 < +0.0 <
 * positives < +inf < NaN (NaNs last, among themselves by their bits as unsigned integers). Enqueued;
 * returns at once. Two more buffers of n keys stay in the context's scratch for later sorts (the
 * caller's buffer is written by the last command alone, so a failed sort leaves it as it was). */
CLSCAN_API clscan_status clscan_sort(clscan_context *ctx, cl_mem keys, size_t n, clscan_type type);
/* The same order of the keys; values[i] moves with keys[i] (any type; keys and values must not
 * overlap). Equal keys keep their values in their original order. */
CLSCAN_API clscan_status clscan_sort_by_key(clscan_context *ctx, cl_mem keys, cl_mem values, size_t n, clscan_type key_type, clscan_type value_type);

/* Sorting with options (0.2). */
typedef struct clscan_sort_options {
    int      descending;   /* 0: ascending; otherwise descending (still stable: equal keys keep their order) */
    unsigned begin_bit;    /* sort by bits [begin_bit, end_bit) of the key's order-preserving unsigned image */
    unsigned end_bit;      /* (unsigned: the key; signed: sign bit flipped; floats: the usual flip); */
} clscan_sort_options;     /* 0, 0 means every bit. NULL options: ascending, every bit. */
/* clscan_sort / clscan_sort_by_key under options; values may be NULL (keys only; value_type is then
 * ignored); value_type any type, registered ones too. Descending is the reverse of the ascending
 * order (NaNs first), stable. Keys equal in the range's bits keep their order; begin_bit == end_bit
 * (other than 0, 0) sorts by nothing. A range outside the key is CLSCAN_INVALID_ARGUMENT. */
CLSCAN_API clscan_status clscan_sort_ex(clscan_context *ctx, cl_mem keys, cl_mem values, size_t n, clscan_type key_type, clscan_type value_type, const clscan_sort_options *options);
/* keys unchanged; indices receives n cl_uint (n <= 2^32) such that keys[indices[0]], keys[indices[1]], ... is
 * the stable sorted order. A copy of the keys and the indices stay in the context's scratch; indices is
 * written by the last command alone. */
CLSCAN_API clscan_status clscan_sort_indices(clscan_context *ctx, cl_mem keys, cl_mem indices, size_t n, clscan_type key_type, const clscan_sort_options *options);

/* Summed-area table of a row-major width x height image: out[y][x] = sum of in[j][i] for all j <= y,
 * i <= x (integer sums wrap). in == out is allowed. Enqueued; returns at once. On GPUs its look-back
 * status (32 bytes per column per band of 32 rows) stays in the context's scratch for later calls. */
CLSCAN_API clscan_status clscan_summed_area_table(clscan_context *ctx, cl_mem in, cl_mem out, size_t width, size_t height, clscan_type type);

/* Histograms (0.2), built-in numeric types (a registered type is CLSCAN_UNSUPPORTED). counts: bins
 * cl_ulong, overwritten, not accumulated (n == 0 writes zeros); it must not overlap in or edges.
 * Elements outside the bins, and NaNs, are not counted. Enqueued; returns at once.
 * Even: bins of equal width over [lower, upper) (one element of the type each, finite, lower < upper).
 * Integers: bin floor((x - lower) * bins / (upper - lower)), exact at every width. Floats: bin
 * (x - lower) * scale truncated, scale = (T)bins / (upper - lower) rounded in the type (both halved
 * when upper - lower overflows), capped at bins - 1: an element within rounding of an edge may fall on
 * either side of it. */
CLSCAN_API clscan_status clscan_histogram_even(clscan_context *ctx, cl_mem in, size_t n, clscan_type type,
                                               const void *lower, const void *upper, size_t bins, cl_mem counts);
/* Range: edges holds bins + 1 increasing elements of the type on the device; bin b holds
 * edges[b] <= x < edges[b + 1]. Edges are not read back to be checked: ones that do not increase give
 * some counts, never an access out of bounds. */
CLSCAN_API clscan_status clscan_histogram_range(clscan_context *ctx, cl_mem in, size_t n, clscan_type type,
                                                cl_mem edges, size_t bins, cl_mem counts);

/* ---- host-memory conveniences (blocking) -------------------------------- */
/* Copy n elements to the device, scan, copy back; in == out allowed. */
CLSCAN_API clscan_status clscan_inclusive_scan_host(clscan_context *ctx, const void *in, void *out, size_t n, clscan_type type, clscan_op op);
CLSCAN_API clscan_status clscan_exclusive_scan_host(clscan_context *ctx, const void *in, void *out, size_t n, clscan_type type, clscan_op op);

#ifdef __cplusplus
}
#endif
#endif /* CLSCAN_CLSCAN_H */
