/* The register caps of whole programs (core/ptx.c writes them into NVIDIA's PTX): per device, the
 * registers each program's kernels are held to, 0 for the compiler's own choice, and the compaction
 * program's where clscan_compact builds it (prims/compact.c). The sort's one-sweep cap is the sort
 * table's (sort.c): it depends on the pass, not only on the program. */
#include "tuning.h"

typedef struct regs_row {
    clscan__device_key key;
    unsigned char caps[CLSCAN__PROGRAM_COUNT];
    unsigned char compaction;        /* the compaction program built for clscan_compact alone */
} regs_row;

static const regs_row table[] = {
    /* H200, 2^26 int32, one round against the compiler's choice (bench/notebook.md, 2026-11-29,
     * twenty-third session): the segmented scans' program (112 registers, two groups of 256 a compute
     * unit) held to 80 took 0.86 of its time, its scans by key level (1.00); at 64 the same 0.86 but
     * by key 1.09. The segmented reduction 0.96 at 80, 0.92 at 64. Programs not here lost or moved
     * nothing: the scan, the runs and the compaction's (whose partition, unique and run-length
     * encoding lost 1.09-1.18 at 64 and 80 while its plain compaction gained 0.92 at 64), the tables.
     * So clscan_compact alone is held to 64, in a build of its own (75 registers to 64, nothing
     * spilled; the H200, 2^28 int32, two rounds by turns against every cap off: 0.643-0.644 ms against
     * 0.679-0.687, 1.24x the copy instead of 1.31x; 2^26 0.96, 2^24 level; twenty-fourth session). */
    {.key = {"NVIDIA", NULL, CL_DEVICE_TYPE_GPU},
     .caps = {[CLSCAN__PROGRAM_SEGSCAN] = 80, [CLSCAN__PROGRAM_SEGREDUCE] = 64}, .compaction = 64},
    {.key = {NULL, NULL, 0}, .caps = {0}},
};

unsigned clscan__table_max_regs(const clscan__device_info *dev, clscan__program_id id)
{
    return CLSCAN__ROW(dev, table)->caps[id];
}

unsigned clscan__table_compaction_regs(const clscan__device_info *dev)
{
    return CLSCAN__ROW(dev, table)->compaction;
}
