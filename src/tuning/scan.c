/* The scan engine's table: the tile of scans, reductions and reduce-then-scan by element width, the
 * band of sizes where 8-byte scans take reduce-then-scan, and the single-pass groups a compute unit;
 * with the choices AUTO makes from it. `clscan-bench --tune` prints a row for the current device. */
#include "tuning.h"

typedef struct scan_row {
    clscan__device_key key;
    unsigned wg4, items4;            /* 4-byte elements */
    unsigned wg8, items8;            /* 8-byte elements */
    int stream;                      /* items read twice from memory instead of held in registers */
    size_t rts8_from, rts8_to;       /* 8-byte elements: reduce-then-scan for n in [from, to) */
    unsigned sp_groups_per_cu;       /* single-pass: groups a compute unit (0: a group a tile) */
    int sp_by_id;                    /* single-pass scans of a group a tile: tiles by group number */
} scan_row;

static const scan_row table[] = {
    /* NVIDIA (measured: H100, H200). On the H100, 8-byte single-pass lost to reduce-then-scan by
     * 10-25% at 2^21 and 2^22 in two runs and won below and above: the band is measured, not derived.
     * On the H200 a group a tile lost 5% to 8 groups a compute unit that take tile after tile. Where a
     * scan's launch has a group a tile anyway (up to 8 a compute unit: small inputs), a group's number
     * is its tile: a 2^16 int32 scan on the H200 took 1.110-1.138x the copy's time so over three calls,
     * against 1.137-1.162x before and 1.122-1.141x with one ticket a group (bench/notebook.md,
     * 2026-11-28, seventeenth session). */
    {.key = {"NVIDIA", NULL, CL_DEVICE_TYPE_GPU}, .wg4 = 256, .items4 = 32, .wg8 = 128, .items8 = 32,
     .rts8_from = (size_t)1 << 21, .rts8_to = (size_t)1 << 23, .sp_groups_per_cu = 8, .sp_by_id = 1},
    /* GPUs not measured: modest tiles. */
    {.key = {NULL, NULL, CL_DEVICE_TYPE_GPU}, .wg4 = 256, .items4 = 8, .wg8 = 256, .items8 = 4},
    /* CPUs (PoCL, 2 cores): a work-item a long run, streamed. */
    {.key = {NULL, NULL, CL_DEVICE_TYPE_CPU}, .wg4 = 16, .items4 = 8192, .wg8 = 16, .items8 = 4096, .stream = 1},
    {.key = {NULL, NULL, 0}, .wg4 = 128, .items4 = 8, .wg8 = 128, .items8 = 4},
};

/* Elements wider than 8 bytes (registered types) start from the 8-byte tile; the device's local
 * memory then cuts it down (resolve.c). */
clscan__tuning clscan__table_scan_tile(const clscan__device_info *dev, size_t elem)
{
    const scan_row *row = CLSCAN__ROW(dev, table);
    int wide = elem >= 8;
    return (clscan__tuning){wide ? row->wg8 : row->wg4, wide ? row->items8 : row->items4, row->stream};
}

unsigned clscan__table_sp_groups_per_cu(const clscan__device_info *dev)
{
    return CLSCAN__ROW(dev, table)->sp_groups_per_cu;
}

int clscan__table_sp_by_id(const clscan__device_info *dev)
{
    return CLSCAN__ROW(dev, table)->sp_by_id;
}

/* The programs (a bit each, by clscan__program_id) whose look-back windows one work-item folds, by
 * device. The H200's scan: every work-item folding it had each warp wait on the window's chain of
 * local reads; 2^28 int32, float, int64 at 0.99, 0.91, 0.93 of the time before (2^24: 0.98, 0.96,
 * 0.91). The H200's runs program (reduce by key, 2^28, uint32 keys in runs of 8): 0.91 of the time
 * before (two rounds by turns). Its compaction program: run-length encoding and unique 0.83,
 * partition level, the plain compaction of half 0.97 (2^28 int32, two rounds by turns; sixteenth
 * session). Its segmented scans and scans by key were level (0.99-1.02) and its segmented reduce 1.04x
 * slower, so they keep every work-item folding (bench/notebook.md, 2026-11-28). On the H100 the
 * scan was slower so (0.77 -> 0.80 ms) and the runs lost a group a compute unit to registers, so it
 * is not NVIDIA's at large. */
typedef struct fold_row {
    clscan__device_key key;
    unsigned programs;
} fold_row;

_Static_assert(CLSCAN__PROGRAM_COUNT <= 32, "a bit a program in fold_row.programs");

static const fold_row fold_table[] = {
    {.key = {"NVIDIA", "H200", CL_DEVICE_TYPE_GPU},
     .programs = 1u << CLSCAN__PROGRAM_SCAN | 1u << CLSCAN__PROGRAM_RUNS | 1u << CLSCAN__PROGRAM_COMPACT},
    {.key = {NULL, NULL, 0}, .programs = 0},
};

int clscan__table_sp_fold_one(const clscan__device_info *dev, clscan__program_id id)
{
    return (CLSCAN__ROW(dev, fold_table)->programs >> id) & 1u;
}

clscan_strategy clscan__table_strategy(const clscan__device_info *dev, size_t elem, size_t n)
{
    /* One tile: block-sum is a single scan_tiles launch with no status words, 7-12% faster than
     * single-pass at 2^10..2^13 on the H100. Above, single-pass moves 2n elements in one launch; it
     * has passed the suite on the H100 and on PoCL and was the fastest there from 2^14 up. */
    clscan__tuning t = clscan__table_scan_tile(dev, elem);
    if (n <= (size_t)t.wg_size * t.items)
        return CLSCAN_STRATEGY_BLOCK_SUM;
    const scan_row *row = CLSCAN__ROW(dev, table);
    if (elem == 8 && n >= row->rts8_from && n < row->rts8_to)
        return CLSCAN_STRATEGY_REDUCE_THEN_SCAN;
    return CLSCAN_STRATEGY_SINGLE_PASS;
}

clscan_wg_algorithm clscan__table_wg(const clscan__device_info *dev, clscan_type type, size_t n)
{
    (void)type, (void)n;
    /* With register shuffles a group scan is a few instructions and two barriers; without them,
     * over a few hundred work-item totals the log2 steps of Hillis-Steele beat the 2 log2 steps (and
     * idle halves) of Blelloch, the extra work being on values already in local memory. */
    return dev->subgroups != CLSCAN__SG_NONE ? CLSCAN_WG_SUBGROUP : CLSCAN_WG_HILLIS_STEELE;
}
