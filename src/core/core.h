/* The core layer: what every other layer of src/ stands on and which needs nothing above it. Statuses
 * and error text, device facts and the device-spec grammar, the context and its lock, the keyed
 * override of clscan_tuning.h, scratch buffers, launching (barriers, output tracking, read-back), the
 * kernel sources, program assembly and the binary cache. Nothing here is public. */
#ifndef CLSCAN_CORE_H
#define CLSCAN_CORE_H

#include "clscan/clscan.h"
#include "clscan/clscan_tuning.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>

#define CLSCAN__NAME_LEN 256

/* ---- statuses (status.c) and error text (error.c) --------------------------------------------- */
const char *clscan__cl_error_name(cl_int err);
/* The status an OpenCL error code stands for: allocation failures -> OUT_OF_MEMORY, else OPENCL_ERROR. */
clscan_status clscan__status_from_cl(cl_int err);
/* Whether type is float or double. */
int clscan__type_is_float(clscan_type type);
/* Records a formatted message as the context's last error (NULL: the thread's) and returns status. */
clscan_status clscan__fail(clscan_context *ctx, clscan_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Records "<call> failed: <CL name> (<code>)" and returns the status the code maps to. */
clscan_status clscan__fail_cl(clscan_context *ctx, const char *call, cl_int err);
/* The thread's own error buffer, for messages written in pieces before a context exists. */
char *clscan__thread_error(size_t *len);

/* ---- device facts (device.c) ------------------------------------------------------------------ */
/* KHR: the cl_khr_subgroups built-ins, built as OpenCL C 2.0; KHR_C3: the same built-ins built as
 * OpenCL C 3.0 (__opencl_c_subgroups, or the extension on a device that takes OpenCL C 3.0). */
typedef enum clscan__subgroup_kind {
    CLSCAN__SG_NONE = 0, CLSCAN__SG_KHR, CLSCAN__SG_INTEL, CLSCAN__SG_NVIDIA_PTX, CLSCAN__SG_KHR_C3
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
    int llvmpipe;                   /* Mesa's llvmpipe (rusticl): its compiler's workarounds (see device.c) */
    int own_kernel_cache;           /* PoCL: the driver caches compiled kernels itself (see device.c) */
    int c3, c3_subgroups;           /* OpenCL C 3.0 taken; __opencl_c_subgroups among its features */
    int dp4a;                       /* NVIDIA's byte dot product in inline PTX (compute capability 6.1 on) */
    clscan__subgroup_kind subgroups;
} clscan__device_info;

/* Reads every fact clscan uses about dev; forced_sg: a CLSCAN_SG_* choice of clscan_tuning.h
 * (CLSCAN_SG_DEVICE: the device's own). Returns the CL error of the first query that failed. */
cl_int clscan__device_probe(cl_device_id dev, clscan__device_info *info, long forced_sg, const char **failed_call);
/* A string property, cut to len - 1 characters when longer (never an error for that). */
cl_int clscan__device_string(cl_device_id dev, cl_device_info what, char *buf, size_t len);
cl_int clscan__platform_string(cl_platform_id platform, cl_platform_info what, char *buf, size_t len);
const char *clscan__device_type_name(cl_device_type type);
/* The sub-group mechanism for a device (its type, vendor, platform and device names, OpenCL C 3.0
 * facts) with this extension list; forced: a CLSCAN_SG_* value of clscan_tuning.h, CLSCAN_SG_DEVICE
 * for the device's own (device.c says why). */
clscan__subgroup_kind clscan__pick_subgroups(const clscan__device_info *dev, const char *extensions, long forced);
/* Whether the device can hold elements of the type at all (fp64 for double, 64-bit ints). */
int clscan__device_supports_type(const clscan__device_info *info, clscan_type type);

/* ---- device selection (select.c) -------------------------------------------------------------- */
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

/* ---- the registry (src/registry.def) and the kernel sources (source.c) ------------------------- */
/* One id per program kind of the registry, in its order. */
typedef enum clscan__program_id {
#define CLSCAN_CORE_FILES(...)
#define CLSCAN_PROGRAM(id, files, kernels) CLSCAN__PROGRAM_##id,
#include "registry.def"
#undef CLSCAN_CORE_FILES
#undef CLSCAN_PROGRAM
    CLSCAN__PROGRAM_COUNT
} clscan__program_id;
#define CLSCAN__MAX_FILES 32       /* distinct kernel files of the registry (test_host: all fit) */
#define CLSCAN__MAX_KERNELS 8      /* kernels of one program */
/* The files of the registry, each once, core files first: index i of clscan__sources.text. */
unsigned clscan__source_count(void);
const char *clscan__source_path(unsigned i);
/* The files of a program (core files included), in the order they are concatenated; NULL-terminated. */
void clscan__program_files(clscan__program_id id, const char *out[CLSCAN__MAX_FILES + 1]);
/* The kernel names of a program, NULL-terminated; and the index of name among them (-1: none). */
const char *const *clscan__program_kernels(clscan__program_id id);
int clscan__kernel_index(clscan__program_id id, const char *name);

typedef struct clscan__sources {
    char *text[CLSCAN__MAX_FILES];
    char dir[4096];                 /* where they were found */
} clscan__sources;
/* Finds and reads every kernel file. On failure err lists each path tried. */
clscan_status clscan__sources_load(clscan__sources *src, const char *env_dir, char *err, size_t err_len);
void clscan__sources_free(clscan__sources *src);
/* The text of a file of the registry by its path (cl/-relative), or NULL. */
const char *clscan__source_text(const clscan__sources *src, const char *path);

/* ---- programs (program.c) and the binary cache (cache.c) -------------------------------------- */
/* What a program is built for. The common part describes the tile every kernel shares; `defines`
 * holds the primitive's own #define lines and `param` the values its host code reads back (their
 * meaning is the primitive's: src/prims/<name>.c). Filled by name, never by position. */
#define CLSCAN__MAX_PARAMS 4
typedef struct clscan__config {
    clscan__program_id program;
    clscan_type type;
    size_t elem;                    /* bytes of an element of type (registered types too) */
    clscan_op op;
    clscan_wg_algorithm wg;         /* never AUTO here */
    unsigned wg_size, items;
    int stream;                     /* items read twice from global memory, not held in registers */
    clscan__subgroup_kind sg;       /* NONE: the local-memory sub-group path */
    int vec_io;                     /* full tiles move as ITEMS-wide vectors */
    int vec4;                       /* buffers are aligned to 4-wide vectors (reductions load them) */
    int atomics64;                  /* 64-bit global atomics: 32-bit pieces in single-pass status words */
    int force_fallback;             /* every unfinished look-back takes the decoupled fallback */
    int volatile_reads;             /* status words read by volatile loads, not atomics */
    int sp_fold_one;                /* one work-item folds each look-back window (CLSCAN_SP_FOLD_ONE) */
    int sp_by_id;                   /* scans of a group a tile number tiles by group (CLSCAN_SP_BY_ID) */
    int dp4a;                       /* 8-bit sums by NVIDIA's dp4a (CLSCAN_BYTES_DP4A) */
    int llvmpipe;                   /* llvmpipe's compiler workarounds (CLSCAN_LLVMPIPE) */
    unsigned max_regs;              /* NVIDIA: each kernel held to this many registers (ptx.c); 0 none */
    unsigned param[CLSCAN__MAX_PARAMS];
    char defines[256];
} clscan__config;

/* Appends one "#define name value" line to cfg->defines (value NULL: a bare flag). */
void clscan__config_define(clscan__config *cfg, const char *name, const char *value);
void clscan__config_define_uint(clscan__config *cfg, const char *name, unsigned value);

typedef struct clscan__program {
    clscan__config config;
    cl_program program;
    cl_kernel kernels[CLSCAN__MAX_KERNELS];   /* in the registry's order */
    struct clscan__program *next;
} clscan__program;

typedef struct clscan__stats {
    unsigned long source_builds, binary_loads, binary_writes, binary_rejects;
} clscan__stats;

/* The generated #define block for a configuration; returns its length (snprintf rules). */
int clscan__write_defines(const clscan__config *cfg, char *buf, size_t len);
/* The clBuildProgram options of a program. */
const char *clscan__build_options(const clscan__config *cfg);
/* The program for cfg on ctx: from memory, else the disk cache, else built from source. Lock held. */
clscan_status clscan__get_program(clscan_context *ctx, const clscan__config *cfg, clscan__program **out);
void clscan__programs_free(clscan__program *list);

/* 128-bit content hash as 32 hex digits: the disk-cache key of (device identity, source, options). */
void clscan__cache_key(const clscan__device_info *dev, const char *source, const char *options, char hex[33]);
/* Checks the bytes of a disk-cache file against the key (32 hex digits): 1 and where the binary lies
 * in data (offset, len) when magic, key, length and checksum all hold, else 0. Pure: fuzzed alone. */
int clscan__cache_parse(const unsigned char *data, size_t size, const char key[32], size_t *offset, size_t *len);
/* The default cache directory from the environment; "" if none can be formed. */
void clscan__default_cache_dir(char *buf, size_t len);
/* The program binary cached under key, built for this device (NULL: none usable; counted). */
cl_program clscan__cache_load(clscan_context *ctx, const char *key, const char *options);
/* Writes prog's binary under key; an unwritable cache is not an error. */
void clscan__cache_store(clscan_context *ctx, const char *key, cl_program prog);
/* A program built for the context's device from a binary of it (NULL where the driver refuses either
 * step; nothing counted): the cache's load and core/ptx.c's capped rebuild. */
cl_program clscan__program_from_binary(clscan_context *ctx, const unsigned char *bin, size_t size, const char *options);
/* prog's binary for its one device (malloc'd; NULL if it has none or more devices). */
unsigned char *clscan__program_binary(cl_program prog, size_t *size);

/* ---- NVIDIA's PTX (ptx.c) ------------------------------------------------------------------------ */
/* A copy of PTX text (size bytes, NUL-ended or not) with `.maxnreg regs` on every entry (malloc'd,
 * *out_size its length); NULL where it is not PTX, has no entry, already caps one, or regs is 0. Pure. */
unsigned char *clscan__ptx_with_cap(const unsigned char *ptx, size_t size, unsigned regs, size_t *out_size);
/* prog built again from its own PTX with every entry capped at regs registers; NULL where it cannot be
 * (not PTX, the driver refuses): prog is left as it was either way. */
cl_program clscan__ptx_capped(clscan_context *ctx, cl_program prog, const char *options, unsigned regs);

/* ---- the context (context.c) and its override (override.c) ------------------------------------ */
#define CLSCAN__MAX_SCRATCH 32
typedef struct clscan__scratch_slot {
    const char *name;               /* a string literal of the owner's: "sort keys B" */
    cl_mem mem;
    size_t bytes;
} clscan__scratch_slot;

/* Registered types and operators (user.c). */
typedef struct clscan__user_type { char *name, *declaration; size_t size; } clscan__user_type;
typedef struct clscan__user_op {
    clscan_type type;
    char *combine, *preamble;
    unsigned char *identity;        /* one element of the type */
    unsigned flags;
} clscan__user_op;
typedef struct clscan__user {
    clscan__user_type *types;
    clscan__user_op *ops;
    size_t n_types, n_ops;
    unsigned tag;                   /* in every registered value, to tell another context's */
} clscan__user;

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
    long *override;                 /* clscan_tuning.h's keys; NULL in normal use: every value 0 */
    clscan__sources sources;
    clscan__program *programs;
    clscan__scratch_slot scratch[CLSCAN__MAX_SCRATCH];
    cl_mem sp_counters;             /* single-pass tile counters (two, by epoch parity) and fallbacks */
    cl_mem landing;                 /* host memory, mapped for the context's life, where read_back reads into */
    void *landing_host;
    cl_uint sp_epoch;               /* the last single-pass launch's epoch; 0 before the first */
    int sp_wide_words;              /* the status words in the array are 64-bit */
    int cache_on;                   /* binaries are looked for in cache_dir */
    int cache_store;                /* and built ones stored there (context.c says when not) */
    char cache_dir[4096];
    clscan__stats stats;
    cl_mem outputs[2];              /* the caller's output buffers of the call in progress (NULL: none) */
    int outputs_written;            /* a command that may write one of them has been enqueued in this call */
    clscan__user user;
};

/* ---- registered types and operators (user.c) --------------------------------------------------- */
void clscan__user_init(clscan_context *ctx);
void clscan__user_free(clscan_context *ctx);
int clscan__is_user_value(unsigned value);   /* a registered type or operator's value, of any context */
const clscan__user_type *clscan__user_type_of(const clscan_context *ctx, clscan_type type);   /* NULL: not ctx's */
const clscan__user_op *clscan__user_op_of(const clscan_context *ctx, clscan_op op);
size_t clscan__type_size(const clscan_context *ctx, clscan_type type);   /* registered ones too; 0: unknown */
/* The largest element scans and reductions combine (registered types; every built-in one is smaller):
 * host copies of an element (identities, totals, seeds) are this many bytes. */
#define CLSCAN__ELEM_MAX 128
const char *clscan__type_name(const clscan_context *ctx, clscan_type type);   /* its OpenCL C name */
/* What type, and op on it, mean on ctx, as 64 bits that are equal wherever the same ones were registered
 * (in another context or process, at another index): a built-in value stands for itself, a registered
 * one for its code, size, identity and flags. clscan_mpi's ranks compare these, not the values, which
 * hold the context's tag. */
uint64_t clscan__type_key(const clscan_context *ctx, clscan_type type);
uint64_t clscan__op_key(const clscan_context *ctx, clscan_type type, clscan_op op);
/* *text: the registered code a program of (type, op) starts with, or NULL for none; 0 when out of
 * memory. Free with free(). */
int clscan__user_source(const clscan_context *ctx, clscan_type type, clscan_op op, char **text);
/* A program's build log into log (len bytes), or a note that it is too long to keep. */
void clscan__build_log(clscan_context *ctx, cl_program prog, char *log, size_t len);

/* The override's value of key on ctx: 0 when unset (the tables decide). */
long clscan__tuned(const clscan_context *ctx, clscan_tuning_key key);
/* Reads $CLSCAN_TUNING ("key=value,key=value", names as clscan_tuning_key_name gives them) into the
 * override of a new context; a malformed text is CLSCAN_INVALID_ARGUMENT with the reason in err. */
clscan_status clscan__override_from_env(clscan_context *ctx, const char *text, char *err, size_t err_len);
void clscan__override_free(clscan_context *ctx);

/* ---- scratch (scratch.c) ---------------------------------------------------------------------- */
/* The context's scratch buffer called name (a string literal), of at least bytes, grown on demand.
 * Lock held. */
clscan_status clscan__scratch(clscan_context *ctx, const char *name, size_t bytes, cl_mem *out);
/* The buffer called name and its size as it is now (NULL, 0: none yet). */
cl_mem clscan__scratch_peek(const clscan_context *ctx, const char *name, size_t *bytes);
/* As clscan__scratch, for a buffer zeroed (enqueued) when it is made, which the kernels given it leave
 * zero where they need it zero, so that no call pays a fill (the histogram's merged row; the
 * single-pass status words, whose epochs make old words read as unpublished). */
clscan_status clscan__scratch_zeroed(clscan_context *ctx, const char *name, size_t bytes, cl_mem *out);
void clscan__scratch_free(clscan_context *ctx);

/* ---- launching (launch.c) --------------------------------------------------------------------- */
/* Reads size bytes at offset of buf, which the enqueued launches leave there, into value, waiting for
 * them; what names the value in an error. Callers read into a temporary of their own: after a failure
 * it may hold anything. Up to CLSCAN__LANDING_BYTES go through the context's pinned landing area. */
#define CLSCAN__LANDING_BYTES 64
clscan_status clscan__read_back(clscan_context *ctx, cl_mem buf, size_t offset, size_t size, void *value,
                                const char *what);
void clscan__landing_free(clscan_context *ctx);
/* One kernel argument: a buffer (NULL allowed) or a scalar. */
typedef struct clscan__arg { size_t size; const void *value; } clscan__arg;
#define CLSCAN__MEM(m) ((clscan__arg){sizeof(cl_mem), (m) ? (const void *)&(m) : NULL})
#define CLSCAN__VAL(v) ((clscan__arg){sizeof(v), &(v)})
#define CLSCAN__ARGS(a) (a), (sizeof (a) / sizeof (a)[0])
/* Work-groups launched per kernel; more tiles than this are walked by each group in turn. */
#define CLSCAN__MAX_GROUPS 65536u
/* Sets every argument of p's kernel `name`, then launches min(groups, CLSCAN__MAX_GROUPS) groups; on an
 * out-of-order application queue barriers go around it, so commands stay ordered. */
clscan_status clscan__launch(clscan_context *ctx, const clscan__program *p, const char *name,
                             const clscan__arg *args, size_t count, size_t groups);
/* clscan__launch of a kernel whose only write to a caller's buffer can be to `written` (it may read the
 * others, as a sort's first pass reads the keys): the outputs count as written only if `written` is one. */
clscan_status clscan__launch_into(clscan_context *ctx, const clscan__program *p, const char *name,
                                  const clscan__arg *args, size_t count, size_t groups, cl_mem written);
/* Work-groups actually launched for `groups` (tiles beyond are walked by stride). */
size_t clscan__launch_groups(size_t groups);
/* The caller's output buffers of the public call in progress, set after its checks (b may be NULL) and
 * cleared (NULL, NULL) before it returns; lock held. Once a command that may write one of them is
 * enqueued, CLSCAN_OUT_OF_MEMORY ("nothing was written") is no longer true: the call's later failures
 * are CLSCAN_OPENCL_ERROR, their message saying so (clscan__fail). clscan__launch takes a kernel with
 * an output among its arguments as writing it. */
void clscan__outputs(clscan_context *ctx, cl_mem a, cl_mem b);
/* Enqueues a zero fill of bytes of buf (ordered like clscan__launch). */
clscan_status clscan__fill_zero(clscan_context *ctx, cl_mem buf, size_t bytes);
/* Writes bytes of value at the start of buf, waiting for the write (value need not outlive the call;
 * ordered like clscan__launch); what names the call in a failure's message. */
clscan_status clscan__write_value(clscan_context *ctx, cl_mem buf, size_t bytes, const void *value, const char *what);

/* ---- argument checks (validate.c) ------------------------------------------------------------- */
int clscan__type_valid(clscan_type type);
int clscan__op_valid(clscan_op op);
/* INVALID_ARGUMENT when n elements of elem bytes overflow size_t. */
clscan_status clscan__check_count(clscan_context *ctx, size_t n, size_t elem);
/* Type and operator known, n elements addressable, the type supported by the device. */
clscan_status clscan__check_type_op(clscan_context *ctx, size_t n, clscan_type type, clscan_op op);
/* A type a function only moves (compaction, sort values): built-in, or registered with ctx at any size. */
clscan_status clscan__check_free_type(clscan_context *ctx, size_t n, clscan_type type);
/* Checks that buf belongs to ctx, holds n elements of elem bytes, and allows the access
 * (want_read / want_write). Records the problem and returns INVALID_ARGUMENT. */
clscan_status clscan__check_buffer(clscan_context *ctx, cl_mem buf, const char *what, size_t n, size_t elem,
                                   int want_read, int want_write);
/* *same: whether a and b start at the same place of the same memory (also through sub-buffers). */
clscan_status clscan__same_memory(clscan_context *ctx, cl_mem a, cl_mem b, cl_uint *same);
/* INVALID_ARGUMENT when the first a_bytes of a and b_bytes of b overlap in memory, unless they start at
 * the same place and same_allowed. */
clscan_status clscan__check_overlap(clscan_context *ctx, cl_mem a, size_t a_bytes, cl_mem b, size_t b_bytes,
                                    int same_allowed);

/* ceil(n / tile) for tile > 0, without forming n + tile - 1 (status.c). */
size_t clscan__tiles(size_t n, size_t tile);

#endif /* CLSCAN_CORE_H */
