/* clscan_tuning.h: UNSTABLE. The knobs behind clscan's per-device tables, for its own tests, for
 * `clscan-bench --tune` and for experiments; and how clscan finds and sees devices, for clscan-info.
 * Nothing here is part of the API contract: keys, values and functions may change or go in any
 * release, and a program that sets them may get slower, never wrong. In normal use nothing is set and
 * every choice comes from the tables (src/tuning/).
 *
 * Every value is 0 when unset, which always means "as the tables say". The environment variable
 * CLSCAN_TUNING ("sat_band=16,force_fallback=1", names as clscan_tuning_key_name gives them) sets
 * keys on every context when it is created. */
#ifndef CLSCAN_TUNING_H
#define CLSCAN_TUNING_H

#include "clscan/clscan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum clscan_tuning_key {
    CLSCAN_TUNE_WG_SIZE,          /* work-items a group of scans, reductions, compaction and sorts */
    CLSCAN_TUNE_ITEMS,            /* items a work-item of the same (set with CLSCAN_TUNE_WG_SIZE) */
    CLSCAN_TUNE_ITEMS_MODE,       /* 1 items held in registers, 2 streamed (read twice from memory) */
    CLSCAN_TUNE_PORTABLE,         /* 1: local-memory sub-groups, scalar tile loads, 32-bit status words */
    CLSCAN_TUNE_FORCE_FALLBACK,   /* 1: every look-back that meets an unfinished tile takes the fallback */
    CLSCAN_TUNE_SP_GROUPS,        /* single-pass groups (also one-sweep sorts') a compute unit; -1 a group a tile */
    CLSCAN_TUNE_REDUCE_STRIDED,   /* 1: integer reductions walk tiles by a fixed stride, as floats do */
    CLSCAN_TUNE_SORT_RADIX_BITS,  /* digit bits a sort pass; 1 the split reference path */
    CLSCAN_TUNE_SAT_PATH,         /* GPU tables: 1 single-pass, 2 three passes */
    CLSCAN_TUNE_SAT_BAND,         /* rows a band; -1 the CPU shape, -k the CPU shape in bands of k rows */
    CLSCAN_TUNE_SAT_SEGMENT,      /* bands a task of the three passes walks */
    CLSCAN_TUNE_SAT_TILE,         /* rows of the three passes' table tiles */
    CLSCAN_TUNE_SAT_WIDE,         /* 1: the GPU kernels' 64-bit element offsets on any image */
    CLSCAN_TUNE_SAT_SEPARATE,     /* 1: the three passes' middle work in two launches on any image */
    CLSCAN_TUNE_SUBGROUPS,        /* a clscan_tuning_subgroups value */
    CLSCAN_TUNE_DUMP_SOURCE,      /* 1: each program built or loaded prints its key and defines to stderr */
    CLSCAN_TUNE_SCRATCH_BYTES,    /* scratch buffers are made at least this large (and so made once) */
    CLSCAN_TUNE_RUNS_COUNT64,     /* 1: the runs carry a 64-bit run count at any n (else past 2^32 only) */
    CLSCAN_TUNE_HIST_MERGE,       /* 1: histogram groups add into one row whenever n < 2^32; -1 never */
    CLSCAN_TUNE_SP_FOLD,          /* every look-back: 1 one work-item folds each window; -1 all work-items */
    CLSCAN_TUNE_SP_BY_ID,         /* single-pass scans of a group a tile: 1 tiles by group number; -1 tickets */
    CLSCAN_TUNE_SORT_ONESWEEP,    /* sorts in groups of more than one work-item: 1 one-sweep passes; -1 three launches */
    CLSCAN_TUNE_MAX_REGISTERS,    /* NVIDIA: every program's kernels held to this many registers; -1 none */
    CLSCAN_TUNE_KEY_COUNT
} clscan_tuning_key;

/* CLSCAN_TUNE_SUBGROUPS: a sub-group path taken where the device offers it. */
enum clscan_tuning_subgroups {
    CLSCAN_SG_DEVICE = 0, CLSCAN_SG_NONE, CLSCAN_SG_KHR, CLSCAN_SG_INTEL, CLSCAN_SG_PTX
};

/* Sets key on ctx for the calls that follow (0: back to the tables). CLSCAN_INVALID_ARGUMENT for an
 * unknown key; CLSCAN_OUT_OF_MEMORY when the first set cannot allocate the override. */
CLSCAN_API clscan_status clscan_tuning_set(clscan_context *ctx, clscan_tuning_key key, long value);
/* The value set for key (0: unset). */
CLSCAN_API long clscan_tuning_get(const clscan_context *ctx, clscan_tuning_key key);
/* Every key back to 0. */
CLSCAN_API void clscan_tuning_reset(clscan_context *ctx);
/* The key's name in CLSCAN_TUNING ("sat_band"), or NULL for an unknown key. */
CLSCAN_API const char *clscan_tuning_key_name(clscan_tuning_key key);

/* The tile a scan (compact = 0) or a compaction (1) of type runs with on ctx now: the tables, the
 * override and the device's limits together. */
typedef struct clscan_tuning_tile { unsigned wg_size, items; int stream; } clscan_tuning_tile;
CLSCAN_API clscan_status clscan_tuning_tile_in_force(clscan_context *ctx, clscan_type type, int compact,
                                                     clscan_tuning_tile *tile);
/* Look-back fallbacks taken on ctx so far (waits for the queue). */
CLSCAN_API clscan_status clscan_tuning_fallbacks(clscan_context *ctx, unsigned long *count);
/* Program cache counters of ctx: built from source, loaded from disk, written to disk, rejected. */
typedef struct clscan_tuning_cache_stats {
    unsigned long source_builds, binary_loads, binary_writes, binary_rejects;
} clscan_tuning_cache_stats;
CLSCAN_API clscan_tuning_cache_stats clscan_tuning_cache_counters(const clscan_context *ctx);

/* The device clscan_context_create(&ctx, spec) would open, found the same way but not opened (spec
 * NULL: $CLSCAN_DEVICE, else the first GPU, else the first device): its id, and its numbers as the
 * specs "<index>" and "<platform>:<device>" take them. CLSCAN_DEVICE_NOT_FOUND when nothing matches,
 * also when no platform is installed; on failure clscan_last_error(NULL) says why, as after a failed
 * creation. */
typedef struct clscan_tuning_device { cl_device_id id; size_t index, platform, device; } clscan_tuning_device;
CLSCAN_API clscan_status clscan_tuning_find_device(const char *spec, clscan_tuning_device *found);
/* What clscan makes of a device where that is its own choice, not an answer of clGetDeviceInfo: the
 * sub-group path its kernels take there while CLSCAN_TUNE_SUBGROUPS is unset (never CLSCAN_SG_DEVICE;
 * CLSCAN_SG_NONE is the local-memory path), and the OpenCL C version the programs of that path are
 * built as (120, 200 or 300: the KHR built-ins as 3.0 where the device takes it, else 2.0). On failure
 * clscan_last_error(NULL) says why. */
typedef struct clscan_tuning_device_facts {
    enum clscan_tuning_subgroups subgroups;
    unsigned c_version;
} clscan_tuning_device_facts;
CLSCAN_API clscan_status clscan_tuning_probe_device(cl_device_id device, clscan_tuning_device_facts *facts);

#ifdef __cplusplus
}
#endif
#endif /* CLSCAN_TUNING_H */
