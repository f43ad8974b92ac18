/* The tuning layer: a table per primitive with named fields, rows keyed from specific to general
 * (device name, vendor and type, any), and the resolution of a table's value with the override of
 * clscan_tuning.h and the device's limits. Read by the engine and the primitives; needs only core.
 * The figures behind each value are in bench/notebook.md. */
#ifndef CLSCAN_TUNING_LAYER_H
#define CLSCAN_TUNING_LAYER_H

#include "core/core.h"

/* Which devices a row is for: every field that is set must match (substrings of vendor and name). */
typedef struct clscan__device_key {
    const char *vendor, *name;
    cl_device_type type;            /* 0: any */
} clscan__device_key;
/* The first of count rows (each stride bytes, starting with a clscan__device_key) that matches dev;
 * the last row matches every device. */
const void *clscan__table_row(const clscan__device_info *dev, const void *rows, size_t count, size_t stride);
#define CLSCAN__ROW(dev, table) \
    ((const __typeof__(table[0]) *)clscan__table_row(dev, table, sizeof table / sizeof table[0], sizeof table[0]))

/* A tile: work-group size, items per work-item, and whether those items stay in global memory and are
 * read twice (CLSCAN_ITEMS_STREAM, CPUs). */
typedef struct clscan__tuning { unsigned wg_size, items; int stream; } clscan__tuning;

/* ---- the scan engine's table (scan.c) --------------------------------------------------------- */
/* The table's tile for elements of elem bytes (before the device's limits). */
clscan__tuning clscan__table_scan_tile(const clscan__device_info *dev, size_t elem);
/* The strategy and work-group algorithm AUTO stand for. */
clscan_strategy clscan__table_strategy(const clscan__device_info *dev, size_t elem, size_t n);
clscan_wg_algorithm clscan__table_wg(const clscan__device_info *dev, clscan_type type, size_t n);
/* Single-pass launches: work-groups a compute unit, each taking tile after tile (0: a group a tile). */
unsigned clscan__table_sp_groups_per_cu(const clscan__device_info *dev);
/* Single-pass scan launches of a group a tile: 1 when each group takes the tile of its number. */
int clscan__table_sp_by_id(const clscan__device_info *dev);
/* Whether one work-item folds each look-back window of program id (else every work-item). */
int clscan__table_sp_fold_one(const clscan__device_info *dev, clscan__program_id id);

/* ---- the other primitives' tables (compact.c, histogram.c, sort.c, sat.c) ---------------------- */
clscan__tuning clscan__table_compact_tile(const clscan__device_info *dev, size_t elem);
unsigned clscan__table_hist_wg(const clscan__device_info *dev);   /* 0: the scan's */
/* onesweep: which sorts take one-sweep passes, keys alone and (or) keys with values. */
enum { CLSCAN__SWEEP_KEYS = 1, CLSCAN__SWEEP_PAIRS = 2 };
/* Sorts: work-group, keys a work-item, digit bits; which sorts take one-sweep passes, and sorts of keys
 * alone from sweep_from keys on (0: every size); from tile_from keys on those take tiles of
 * sweep_items keys a work-item (0: items), their kernels held to sweep_regs registers (core/ptx.c);
 * sorts by key with values of up to 4 bytes in one sweep take tiles of pairs_items (0: items) from
 * pairs_from keys on (0: every size) and are held to pairs_regs. */
typedef struct clscan__sort_tuning {
    unsigned wg_size, items, radix_bits;
    int onesweep;
    size_t sweep_from, tile_from;
    unsigned sweep_items;
    unsigned sweep_regs;             /* NVIDIA: the registers those one-sweep kernels are held to (0: no cap) */
    size_t pairs_from;
    unsigned pairs_items, pairs_regs;
} clscan__sort_tuning;
clscan__sort_tuning clscan__table_sort(const clscan__device_info *dev, size_t key_bytes);
/* The registers program id's kernels are held to on dev (0: the compiler's choice; registers.c). */
unsigned clscan__table_max_regs(const clscan__device_info *dev, clscan__program_id id);
/* ... and the compaction program's where it is built for clscan_compact alone (its other selections
 * keep the program's cap; registers.c). */
unsigned clscan__table_compaction_regs(const clscan__device_info *dev);
/* Summed-area tables: rows per band (0: the CPU shape), tiles a group from which three-pass tasks are
 * one band (0: never), rows of the table pass's tiles for elem-byte elements (0: a band). */
unsigned clscan__table_sat_band(const clscan__device_info *dev);
unsigned clscan__table_sat_split(const clscan__device_info *dev);
unsigned clscan__table_sat_tile(const clscan__device_info *dev, size_t elem);

/* ---- in force on a context (resolve.c): table, override, device limits ------------------------- */
/* Whether programs of this type may load vectors: the override does not ask for the portable paths
 * and the type has vector types (registered types of a scalar's width). clscan__vec4: and every
 * buffer start is aligned to 4-wide ones (CLSCAN_VEC4). */
int clscan__vectors(const clscan_context *ctx, clscan_type type);
int clscan__vec4(const clscan_context *ctx, clscan_type type);
clscan__tuning clscan__scan_tile(const clscan_context *ctx, clscan_type type);
clscan__tuning clscan__compact_tile(const clscan_context *ctx, clscan_type type);
clscan__tuning clscan__hist_tile(const clscan_context *ctx, clscan_type type);
clscan__tuning clscan__segscan_tile(const clscan_context *ctx, clscan_type type, size_t key_bytes);   /* 0: heads */
clscan__tuning clscan__runs_tile(const clscan_context *ctx, clscan_type type, size_t key_bytes);
clscan__tuning clscan__segreduce_tile(const clscan_context *ctx, clscan_type type);
clscan__sort_tuning clscan__sort_tuning_for(const clscan_context *ctx, size_t key_bytes);
/* Rows per band of single-pass summed-area tables under tile t (override, table, local memory). */
unsigned clscan__sat_band(const clscan_context *ctx, clscan__tuning t, size_t elem);
/* Rows of the three-pass table pass's tiles for bands of `band` rows (a power of two up to the band). */
unsigned clscan__sat_tile(const clscan_context *ctx, unsigned band, size_t elem);
/* Work-groups a single-pass launch over `tiles` tiles starts. */
size_t clscan__sp_groups(const clscan_context *ctx, size_t tiles);
/* Whether one work-item folds program id's look-back windows (the override: every program's; the table). */
int clscan__sp_fold_one(const clscan_context *ctx, clscan__program_id id);
/* The register cap of a program whose table sets `table` (0: none): the override's where it sets one
 * (-1: none), and none off NVIDIA (core/ptx.c). */
unsigned clscan__max_regs(const clscan_context *ctx, unsigned table);
/* Whether a single-pass scan launch of a group a tile numbers its tiles by group (the table's choice,
 * or CLSCAN_TUNE_SP_BY_ID). */
int clscan__sp_by_id(const clscan_context *ctx);
/* The largest power of two not above v (at least 1, at most 2^30). */
unsigned clscan__floor_pow2(size_t v);

#endif /* CLSCAN_TUNING_LAYER_H */
