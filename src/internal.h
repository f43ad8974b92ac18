/* clscan internals shared by the files of src/: the context structure, device facts, the program
 * cache, the tuning policy and the argument-check helpers. Nothing here is public; tests and the
 * tools link the static library to reach it. */
#ifndef CLSCAN_INTERNAL_H
#define CLSCAN_INTERNAL_H

#include "clscan/clscan.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>

#define CLSCAN__MAX_LEVELS 8   /* block-sum recursion depth; tile >= 64 makes 8 levels cover 2^48 */
#define CLSCAN__SCRATCH_TOTALS CLSCAN__MAX_LEVELS   /* reduce-then-scan's tile totals, past the levels */
#define CLSCAN__SCRATCH_STATUS (CLSCAN__MAX_LEVELS + 1) /* single-pass status words */
#define CLSCAN__SCRATCH_PARTIALS (CLSCAN__MAX_LEVELS + 2) /* the reduction's result; compaction counts */
#define CLSCAN__SCRATCH_SORT_KEYS (CLSCAN__MAX_LEVELS + 3)   /* sorts: key buffer B */
#define CLSCAN__SCRATCH_SORT_VALUES (CLSCAN__MAX_LEVELS + 4) /* value buffer B */
#define CLSCAN__SCRATCH_SORT_HIST (CLSCAN__MAX_LEVELS + 5)   /* digit counts, then their offsets */
#define CLSCAN__SCRATCH_SORT_VARYING (CLSCAN__MAX_LEVELS + 6) /* the bits in which keys differ */
#define CLSCAN__SCRATCH_SAT_SUMS (CLSCAN__MAX_LEVELS + 7)   /* summed-area tables: band sums */
#define CLSCAN__SCRATCH_SORT_KEYS_C (CLSCAN__MAX_LEVELS + 8)   /* key buffer C: passes go A, B, C, ..., A */
#define CLSCAN__SCRATCH_SORT_VALUES_C (CLSCAN__MAX_LEVELS + 9) /* value buffer C */
#define CLSCAN__SCRATCH_SAT_CARRIES (CLSCAN__MAX_LEVELS + 10) /* summed-area tables on GPUs: rows' sums left of tiles */
#define CLSCAN__SCRATCH_SLOTS (CLSCAN__MAX_LEVELS + 11)
#define CLSCAN__NAME_LEN 256

/* ---- errors (status.c) --------------------------------------------------- */
const char *clscan__cl_error_name(cl_int err);
/* The status an OpenCL error code stands for: allocation failures -> OUT_OF_MEMORY, else OPENCL_ERROR. */
clscan_status clscan__status_from_cl(cl_int err);
/* Whether type is float or double (status.c, beside clscan_type_size). */
int clscan__type_is_float(clscan_type type);

/* ---- device facts (device.c) ---------------------------------------------- */
typedef enum clscan__subgroup_kind {
    CLSCAN__SG_NONE = 0, CLSCAN__SG_KHR, CLSCAN__SG_INTEL, CLSCAN__SG_NVIDIA_PTX
} clscan__subgroup_kind;

typedef struct clscan__device_info {
    char name[CLSCAN__NAME_LEN], vendor[CLSCAN__NAME_LEN], version[CLSCAN__NAME_LEN];
    char driver[CLSCAN__NAME_LEN], c_version[CLSCAN__NAME_LEN], profile[64];
    char platform[CLSCAN__NAME_LEN], platform_version[CLSCAN__NAME_LEN];
    cl_device_type type;
    cl_uint compute_units, vendor_id;
    size_t max_wg;
    cl_ulong local_mem, max_alloc, global_mem;
    cl_uint base_align;             /* bytes every buffer and sub-buffer start is aligned to */
    int fp64, int64, int64_atomics, is_nvidia;
    int volatile_status;            /* look-back status words read by volatile loads (see device.c) */
    int zero_by_write;              /* scratch zeroed by a buffer write, not a fill (see device.c) */
    clscan__subgroup_kind subgroups;
} clscan__device_info;

/* Reads every fact clscan uses about dev. Returns the CL error of the first query that failed. */
cl_int clscan__device_probe(cl_device_id dev, clscan__device_info *info, const char **failed_call);
/* A string property, cut to len - 1 characters when longer (never an error for that). */
cl_int clscan__device_string(cl_device_id dev, cl_device_info what, char *buf, size_t len);
cl_int clscan__platform_string(cl_platform_id platform, cl_platform_info what, char *buf, size_t len);
const char *clscan__device_type_name(cl_device_type type);
const char *clscan__subgroup_name(clscan__subgroup_kind kind);
/* The sub-group mechanism for a device with this extension list, type and vendor; forced: the value of
 * $CLSCAN_SUBGROUPS or NULL (device.c says why). */
clscan__subgroup_kind clscan__pick_subgroups(const char *extensions, cl_device_type type, int is_nvidia,
                                             const char *forced);
/* Whether the device can hold elements of the type at all (fp64 for double, 64-bit ints). */
int clscan__device_supports_type(const clscan__device_info *info, clscan_type type);

/* ---- device selection (select.c) ----------------------------------------- */
typedef enum clscan__spec_kind {
    CLSCAN__SPEC_DEFAULT, CLSCAN__SPEC_GPU, CLSCAN__SPEC_CPU, CLSCAN__SPEC_INDEX,
    CLSCAN__SPEC_PAIR, CLSCAN__SPEC_NAME, CLSCAN__SPEC_INVALID
} clscan__spec_kind;

typedef struct clscan__device_spec {
    clscan__spec_kind kind;
    size_t index, platform, device;      /* INDEX: index; PAIR: platform, device */
    char name[CLSCAN__NAME_LEN];          /* NAME: the substring as given */
} clscan__device_spec;

/* Parses one device spec ("gpu", "cpu", "3", "1:0", "h200"); NULL or "" is DEFAULT. Pure.
 * A NAME spec matches a substring of the device name, platform name or platform vendor. */
clscan__device_spec clscan__parse_device_spec(const char *text);

/* One device as numbered by clscan-info: the global index is the position in the list. */
typedef struct clscan__device_entry {
    size_t platform, device;
    cl_device_type type;
    char name[CLSCAN__NAME_LEN], platform_name[CLSCAN__NAME_LEN], platform_vendor[CLSCAN__NAME_LEN];
    cl_platform_id platform_id;
    cl_device_id device_id;
} clscan__device_entry;

/* Index into entries of the device the spec names, or -1. DEFAULT: first GPU, else first device. Pure. */
long clscan__match_device(const clscan__device_spec *spec, const clscan__device_entry *entries, size_t count);
/* Every device of every platform, in the order clscan-info numbers them (malloc'd; free it).
 * A CL error leaves *entries NULL; no platform at all is CL_PLATFORM_NOT_FOUND_KHR (-1001). */
cl_int clscan__list_devices(clscan__device_entry **entries, size_t *count, const char **failed_call);

/* ---- kernel sources (source.c) ------------------------------------------- */
typedef enum clscan__source_id {
    CLSCAN__SRC_TYPES, CLSCAN__SRC_SUBGROUP, CLSCAN__SRC_WORKGROUP, CLSCAN__SRC_LOOKBACK, CLSCAN__SRC_SCAN,
    CLSCAN__SRC_REDUCE, CLSCAN__SRC_SAT, CLSCAN__SRC_COMPACT, CLSCAN__SRC_SORT,
    CLSCAN__SRC_COUNT
} clscan__source_id;
typedef struct clscan__sources {
    char *text[CLSCAN__SRC_COUNT];
    char dir[4096];                 /* where they were found */
} clscan__sources;
/* Finds and reads every .cl file. On failure err lists each path tried. */
clscan_status clscan__sources_load(clscan__sources *src, const char *env_dir, char *err, size_t err_len);
void clscan__sources_free(clscan__sources *src);
const char *clscan__source_file_name(clscan__source_id id);

/* ---- tuning policy (policy.c) --------------------------------------------- */
/* stream: a work-item's items stay in global memory and are read twice (CLSCAN_ITEMS_STREAM, CPUs). */
typedef struct clscan__tuning { unsigned wg_size, items; int stream; } clscan__tuning;
/* Work-group size, items per work-item and item mode for the device and element type (before device
 * limits). */
clscan__tuning clscan__policy_tuning(const clscan__device_info *dev, clscan_type type);
/* The same for stream compaction of that element type. */
clscan__tuning clscan__policy_compact_tuning(const clscan__device_info *dev, clscan_type type);
/* The strategy AUTO stands for. */
clscan_strategy clscan__policy_strategy(const clscan__device_info *dev, clscan_type type, size_t n);
/* The work-group algorithm AUTO stands for. */
clscan_wg_algorithm clscan__policy_wg(const clscan__device_info *dev, clscan_type type, size_t n);
/* Radix sorts: work-group size, keys per work-item and digit bits per pass for keys of key_bytes
 * (radix_bits 1: the 1-bit split reference path). */
typedef struct clscan__sort_tuning { unsigned wg_size, items, radix_bits; } clscan__sort_tuning;
clscan__sort_tuning clscan__policy_sort(const clscan__device_info *dev, size_t key_bytes);
/* Summed-area tables: rows per band of the single-pass kernel (0: the CPU shape, a work-item a band). */
unsigned clscan__policy_sat_band(const clscan__device_info *dev);
/* Single-pass scans and compactions: work-groups launched a compute unit, each taking tile after
 * tile (0: as many groups as tiles). */
unsigned clscan__policy_sp_groups_per_cu(const clscan__device_info *dev);
/* Three-pass summed-area tables: tiles a group from which tasks are one band (0: never). */
unsigned clscan__policy_sat_split(const clscan__device_info *dev);
/* Three-pass summed-area tables of elem-byte elements: rows of the table pass's tiles (0: a band). */
unsigned clscan__policy_sat_tile(const clscan__device_info *dev, size_t elem);
/* Whether this build of the library implements the pair (the rest are CLSCAN_UNSUPPORTED). */
int clscan__algorithm_implemented(clscan_strategy strategy, clscan_wg_algorithm wg);
/* Levels block-sum needs for n elements at this tile size, and the scratch elements of each level. */
unsigned clscan__block_sum_levels(size_t n, size_t tile, size_t level_elems[CLSCAN__MAX_LEVELS]);

/* ---- programs and the binary cache (program.c) ----------------------------- */
typedef struct clscan__config {
    clscan_type type;
    clscan_op op;
    clscan_wg_algorithm wg;         /* never AUTO here */
    unsigned wg_size, items;
    int stream;                     /* items read twice from global memory, not held in registers */
    clscan__subgroup_kind sg;       /* NONE: the local-memory sub-group path */
    int vec_io;                     /* full tiles move as ITEMS-wide vectors */
    int vec4;                       /* buffers are aligned to 4-wide vectors (reductions load them) */
    int atomics64;                  /* 64-bit global atomics: 32-bit pieces in single-pass status words */
    int force_fallback;             /* every unfinished look-back takes the decoupled fallback */
    unsigned payload;               /* 0: scans and reductions; 4 or 8: compaction of elements that wide */
    int sort_key;                   /* 0: not a sort program; else 1 + the key's clscan_type */
    unsigned sort_value_bytes;      /* sorts: 0 (keys only), 4 or 8 */
    unsigned radix_bits;            /* sorts: digit bits a pass (1: the split reference path) */
    int hist64;                     /* sorts: 64-bit counts and offsets (n past 2^32) */
    int sat;                        /* 1: a summed-area table program (its kernels and the status words) */
    unsigned sat_band;              /* tables: rows per band of the GPU kernels; 0: the CPU's band tables */
    int volatile_reads;             /* status words read by volatile loads, not atomics */
    int sat_wide;                   /* tables: 64-bit element offsets (images past 2^32 elements) */
    unsigned sat_carry_rows;        /* tables: rows of the bands whose carries the table pass reads, a
                                     * multiple of sat_band (its tiles; 0: sat_band) */
} clscan__config;

typedef struct clscan__program {
    clscan__config config;
    cl_program program;
    cl_kernel scan_tiles, add_offsets, reduce_tiles, single_pass, reduce_all, scan_one_group;   /* scan programs */
    cl_kernel sat_band_tables, sat_single_pass, sat_band_sums, sat_scan_sums, sat_band_carries, sat_middle,
        sat_seeded_tiles;                                                            /* summed-area tables */
    cl_kernel count_tiles, compact_tiles, compact_single_pass;                       /* compaction */
    cl_kernel sort_hist, sort_scatter, sort_home, split_flags, split_scatter;        /* sorts */
    struct clscan__program *next;
} clscan__program;

typedef struct clscan__stats {
    unsigned long source_builds, binary_loads, binary_writes, binary_rejects;
} clscan__stats;

/* The generated #define block for a configuration; returns its length (snprintf rules). */
int clscan__write_defines(const clscan__config *cfg, char *buf, size_t len);
/* 128-bit content hash as 32 hex digits: the disk-cache key of (device identity, source, options). */
void clscan__cache_key(const clscan__device_info *dev, const char *source, const char *options, char hex[33]);
/* The clBuildProgram options of a program (program.c). */
const char *clscan__build_options(const clscan__config *cfg);
/* Checks the bytes of a disk-cache file against the key (32 hex digits): 1 and where the binary lies
 * in data (offset, len) when magic, key, length and checksum all hold, else 0. Pure: fuzzed alone. */
int clscan__cache_parse(const unsigned char *data, size_t size, const char key[32], size_t *offset, size_t *len);
/* The program for cfg on ctx: from memory, else the disk cache, else built from source. Lock held. */
clscan_status clscan__get_program(clscan_context *ctx, const clscan__config *cfg, clscan__program **out);
void clscan__programs_free(clscan__program *list);
/* The default cache directory from the environment; "" if none can be formed. */
void clscan__default_cache_dir(char *buf, size_t len);

/* ---- the context (context.c) ---------------------------------------------- */
struct clscan_context {
    cl_context cl;
    cl_command_queue queue;
    cl_device_id device;
    int out_of_order;               /* an application queue without in-order execution */
    clscan__device_info info;
    pthread_mutex_t lock;
    char error[16384];
    clscan_strategy strategy;
    clscan_wg_algorithm wg;
    clscan__tuning tuning_override;  /* zeros: use the policy (tests and experiments only) */
    clscan__sources sources;
    clscan__program *programs;
    cl_mem scratch[CLSCAN__SCRATCH_SLOTS];
    size_t scratch_bytes[CLSCAN__SCRATCH_SLOTS];
    int portable;                   /* tests: local-memory sub-groups, scalar tile loads, 32-bit atomic status */
    int force_fallback;             /* tests, or $CLSCAN_FORCE_LOOKBACK_FALLBACK=1 */
    int items_mode;                 /* tests: 0 the policy's, 1 items in registers, 2 streamed */
    unsigned sort_radix_bits;       /* tests: 0 the policy's, 1 the split reference path, else bits */
    int sat_band;                   /* tests: 0 the policy's, -1 the CPU shape (-k: bands of k rows), else rows per band */
    int sat_path;                   /* tests: GPU tables by CLSCAN__SAT_POLICY, _SINGLE_PASS or _THREE_PASS */
    int sat_segment;                /* tests: 0 the policy's, else bands a task of the GPU three passes walks */
    int sat_wide;                   /* tests: 1 the GPU kernels' 64-bit element offsets on any image */
    int sat_separate;               /* tests: 1 the three passes' middle work in two launches on any image */
    int sat_tile;                   /* tests: 0 the policy's, else rows of the three passes' table tiles */
    int sp_groups_per_cu;           /* tests: 0 the policy's, -1 a group a tile, else groups a compute unit */
    int reduce_strided;             /* tests: integer reductions walk tiles by a fixed stride, as floats do */
    int dump_source;                /* $CLSCAN_DUMP_SOURCE=1: each new program's defines go to stderr */
    char extra_defines[512];        /* experiments only: $CLSCAN_EXTRA_DEFINES as #define lines */
    cl_mem sp_counters;             /* single-pass tile counters (two, by epoch parity) and fallbacks */
    cl_mem landing;                 /* host memory, mapped for the context's life, where read_back reads into */
    void *landing_host;
    cl_uint sp_epoch;               /* the last single-pass launch's epoch; 0 before the first */
    int sp_wide_words;              /* the status words in the array are 64-bit */
    int cache_on;
    char cache_dir[4096];
    clscan__stats stats;
    cl_mem outputs[2];              /* the caller's output buffers of the call in progress (NULL: none) */
    int outputs_written;            /* a command that may write one of them has been enqueued in this call */
};

/* Records a formatted message as the context's last error and returns status. */
clscan_status clscan__fail(clscan_context *ctx, clscan_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Records "<call> failed: <CL name> (<code>)" and returns the status the code maps to. */
clscan_status clscan__fail_cl(clscan_context *ctx, const char *call, cl_int err);
/* Scratch buffer of at least bytes in slot (a block-sum level, or CLSCAN__SCRATCH_TOTALS), grown on
 * demand. Lock held. */
clscan_status clscan__scratch(clscan_context *ctx, unsigned slot, size_t bytes, cl_mem *out);
/* Reads size bytes at offset of buf, which the enqueued launches leave there, into value, waiting for
 * them; what names the value in an error. Callers read into a temporary of their own: after a failure
 * it may hold anything. Up to CLSCAN__LANDING_BYTES go through the context's pinned landing area. */
#define CLSCAN__LANDING_BYTES 64
clscan_status clscan__read_back(clscan_context *ctx, cl_mem buf, size_t offset, size_t size, void *value,
                                const char *what);
/* One kernel argument: a buffer (NULL allowed) or a scalar. */
typedef struct clscan__arg { size_t size; const void *value; } clscan__arg;
#define CLSCAN__MEM(m) ((clscan__arg){sizeof(cl_mem), (m) ? (const void *)&(m) : NULL})
#define CLSCAN__VAL(v) ((clscan__arg){sizeof(v), &(v)})
/* Work-groups launched per kernel; more tiles than this are walked by each group in turn. */
#define CLSCAN__MAX_GROUPS 65536u
/* Sets every argument of k (from program p), then launches min(groups, CLSCAN__MAX_GROUPS) groups; on an
 * out-of-order application queue barriers go around it, so commands stay ordered. */
clscan_status clscan__launch(clscan_context *ctx, const clscan__program *p, cl_kernel k, const char *name,
                             const clscan__arg *args, size_t count, size_t groups);
/* clscan__launch of a kernel whose only write to a caller's buffer can be to `written` (it may read the
 * others, as a sort's first pass reads the keys): the outputs count as written only if `written` is one. */
clscan_status clscan__launch_into(clscan_context *ctx, const clscan__program *p, cl_kernel k, const char *name,
                                  const clscan__arg *args, size_t count, size_t groups, cl_mem written);
/* The caller's output buffers of the public call in progress, set after its checks (b may be NULL) and
 * cleared (NULL, NULL) before it returns; lock held. Once a command that may write one of them is
 * enqueued, CLSCAN_OUT_OF_MEMORY ("nothing was written") is no longer true: the call's later failures
 * are CLSCAN_OPENCL_ERROR, their message saying so (clscan__fail). clscan__launch takes a kernel with
 * an output among its arguments as writing it. */
void clscan__outputs(clscan_context *ctx, cl_mem a, cl_mem b);
/* The tuning in force for this type on this context (override, policy, device limits); the second
 * for stream compaction. */
clscan__tuning clscan__context_tuning(const clscan_context *ctx, clscan_type type);
clscan__tuning clscan__context_compact_tuning(const clscan_context *ctx, clscan_type type);
/* Rows per band of single-pass summed-area tables under tuning t (override, policy, local memory). */
unsigned clscan__context_sat_band(const clscan_context *ctx, clscan__tuning t, size_t elem);
/* Rows of the three-pass table pass's tiles for bands of `band` rows of elem-byte elements (override,
 * policy): a power of two up to the band. */
unsigned clscan__context_sat_tile(const clscan_context *ctx, unsigned band, size_t elem);
/* Internal, for tests and experiments: force wg_size/items (0, 0 returns to the policy). */
void clscan__set_tuning(clscan_context *ctx, unsigned wg_size, unsigned items);
/* Internal, for tests: run only the portable paths (local-memory sub-groups, scalar tile loads,
 * 32-bit status words read by atomics). */
void clscan__set_portable(clscan_context *ctx, int portable);
/* Internal, for tests: 0 the policy's item mode, 1 items held in registers, 2 streamed. */
void clscan__set_items_mode(clscan_context *ctx, int mode);
/* Internal, for tests: digit bits of later sorts (0 the policy's, 1 the split reference path). */
void clscan__set_sort_radix(clscan_context *ctx, unsigned bits);
/* Internal, for tests: rows per band of later summed-area tables (0 the policy's; -1 the CPU shape). */
void clscan__set_sat_band(clscan_context *ctx, int band);
void clscan__set_sat_wide(clscan_context *ctx, int wide);
void clscan__set_sat_separate(clscan_context *ctx, int separate);
void clscan__set_sat_segment(clscan_context *ctx, int bands);
void clscan__set_sat_tile(clscan_context *ctx, int rows);
/* Internal, for tests: work-groups a compute unit of later single-pass scans and compactions (0 the
 * policy's, -1 a group a tile). */
void clscan__set_sp_groups(clscan_context *ctx, int per_cu);
/* Work-groups a single-pass launch over tiles starts: the context's setting or the policy's. */
size_t clscan__sp_groups(const clscan_context *ctx, size_t tiles);
/* Internal, for tests: integer reductions walk their tiles by a fixed stride (1) or take them as
 * they go (0, the default). */
void clscan__set_reduce_strided(clscan_context *ctx, int strided);
/* Internal, for tests: which GPU summed-area strategy later tables take. */
enum { CLSCAN__SAT_POLICY, CLSCAN__SAT_SINGLE_PASS, CLSCAN__SAT_THREE_PASS };
void clscan__set_sat_path(clscan_context *ctx, int path);
/* Internal, for tests: make every look-back that meets an unfinished tile take the fallback. */
void clscan__set_force_fallback(clscan_context *ctx, int force);
/* Internal, for tests: look-back fallbacks taken on this context so far (a blocking read). */
clscan_status clscan__fallback_count(clscan_context *ctx, cl_uint *count);
/* Enqueues a zero fill of bytes of buf (ordered like clscan__launch). */
clscan_status clscan__fill_zero(clscan_context *ctx, cl_mem buf, size_t bytes);
/* Internal, for tests: the cache counters of this context. */
clscan__stats clscan__context_stats(const clscan_context *ctx);

/* ---- argument checks (validate.c) ----------------------------------------- */
int clscan__type_valid(clscan_type type);
int clscan__op_valid(clscan_op op);
/* INVALID_ARGUMENT when n elements of elem bytes overflow size_t. */
clscan_status clscan__check_count(clscan_context *ctx, size_t n, size_t elem);
/* Type and operator known, n elements addressable, the type supported by the device. */
clscan_status clscan__check_type_op(clscan_context *ctx, size_t n, clscan_type type, clscan_op op);
/* Checks that buf belongs to ctx, holds n elements of elem bytes, and allows the access
 * (want_read / want_write). Records the problem and returns INVALID_ARGUMENT. */
clscan_status clscan__check_buffer(clscan_context *ctx, cl_mem buf, const char *what, size_t n, size_t elem,
                                   int want_read, int want_write);
/* Whether a and b start at the same place of the same memory (also through sub-buffers). */
int clscan__same_memory(cl_mem a, cl_mem b);   /* 1 also when the driver cannot tell: the safe answer */
/* INVALID_ARGUMENT when the first a_bytes of a and b_bytes of b overlap in memory, unless they start at
 * the same place and same_allowed. */
clscan_status clscan__check_overlap(clscan_context *ctx, cl_mem a, size_t a_bytes, cl_mem b, size_t b_bytes,
                                    int same_allowed);

/* ---- scans (scan.c) ------------------------------------------------------- */
/* The configuration for (type, op) at size n on this context: tuning, work-group algorithm and
 * device features as the context's settings and policy give them. */
clscan__config clscan__config_for(const clscan_context *ctx, clscan_type type, clscan_op op, size_t n);
/* The same under tuning t (the compaction's). */
clscan__config clscan__config_with(const clscan_context *ctx, clscan_type type, clscan_op op, size_t n,
                                   clscan__tuning t);
/* Single-pass status words for `tiles` slots and the counters; zeroed where new or when epochs wrap. */
clscan_status clscan__sp_state(clscan_context *ctx, size_t tiles, int wide_words, cl_mem *status);
/* The program of that configuration, built or found. Lock held. */
clscan_status clscan__program_for(clscan_context *ctx, clscan_type type, clscan_op op, size_t n,
                                  clscan__program **p);
/* Validated, lock held: enqueue the scan of n > 0 elements. */
clscan_status clscan__scan_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                   clscan_op op, int exclusive);

/* Every check of the public scan, nothing enqueued (lock held). */
clscan_status clscan__check_scan(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                 clscan_op op);
/* A scan in two halves around a step off the device (clscan_mpi), reduce-then-scan cut in two; validated,
 * n > 0, lock held throughout: the first leaves the tiles' prefixes in scratch and gives the total of
 * in, the second scans each tile seeded with seed (one element) and its prefix. */
clscan_status clscan__scan_split_total(clscan_context *ctx, cl_mem in, size_t n, clscan_type type, clscan_op op,
                                       void *total);
clscan_status clscan__scan_split_finish(clscan_context *ctx, cl_mem in, cl_mem out, size_t n, clscan_type type,
                                        clscan_op op, int exclusive, const void *seed);

/* ---- reduction and compaction (reduce.c, compact.c): checks, then the validated work, lock held ------ */
/* The identity of op for type, as the kernels define it (types.clh), into out. */
void clscan__identity(clscan_type type, clscan_op op, void *out);
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

/* ---- launch geometry: pure size arithmetic, checked to n = 2^40 by test_host ---------------------- */
/* ceil(n / tile) for tile > 0, without forming n + tile - 1 (scan.c). */
size_t clscan__tiles(size_t n, size_t tile);
/* Whether single-pass launches can number `tiles` tiles (or bands): the uint tile counter runs past
 * the last by up to CLSCAN__MAX_GROUPS, and look-backs index tiles as long (scan.c). */
int clscan__sp_tiles_fit(size_t tiles);
/* Bytes of single-pass status words for `slots` tiles (or band columns) (scan.c). */
size_t clscan__sp_status_bytes(size_t slots);
/* Work-groups actually launched for `groups` (tiles beyond are walked by stride) (context.c). */
size_t clscan__launch_groups(size_t groups);
/* Reductions: tiles, tiles a group and groups for n elements at tile, at most 8 groups a compute unit
 * (reduce.c); all zero for n == 0. */
typedef struct clscan__reduce_shape { size_t tiles, per_group, groups; } clscan__reduce_shape;
clscan__reduce_shape clscan__reduce_geometry(size_t n, size_t tile, size_t compute_units);
/* Compaction: whether the single launch fits, its count and status values being uint (compact.c). */
int clscan__compact_one_pass_fits(size_t n, size_t tiles);
/* Sorts: tiles, digit counts (tiles << radix_bits), whether counts need 64 bits, and the split path's
 * groups (sort.c). */
typedef struct clscan__sort_shape { size_t tiles, counts; } clscan__sort_shape;
clscan__sort_shape clscan__sort_geometry(size_t n, size_t tile, unsigned radix_bits);
int clscan__sort_hist64(size_t n);
size_t clscan__split_groups(size_t n, size_t tile);
/* Summed-area tables: rows per band of the CPU shape (sat_band < -1: -sat_band rows, a test
 * override), and whether the bands' status words and scratch stay addressable (sat.c). */
size_t clscan__sat_cpu_rows(size_t height, size_t compute_units, int sat_band);
int clscan__sat_bands_fit(size_t width, size_t bands);
/* Whether a table of n elements needs the GPU kernels' 64-bit element offsets. */
int clscan__sat_wide(size_t n);

#endif /* CLSCAN_INTERNAL_H */
