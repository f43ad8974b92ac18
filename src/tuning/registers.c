/* The register caps of whole programs (core/ptx.c writes them into NVIDIA's PTX): per device, the
 * registers each program's kernels are held to, 0 for the compiler's own choice. The sort's one-sweep
 * cap is the sort table's (sort.c): it depends on the pass, not only on the program. */
#include "tuning.h"

typedef struct regs_row {
    clscan__device_key key;
    unsigned char caps[CLSCAN__PROGRAM_COUNT];
} regs_row;

static const regs_row table[] = {
    /* H200, 2^26 int32, one round against the compiler's choice (bench/notebook.md, 2026-11-29,
     * twenty-third session): the segmented scans' program (112 registers, two groups of 256 a compute
     * unit) held to 80 took 0.86 of its time, its scans by key level (1.00); at 64 the same 0.86 but
     * by key 1.09. The segmented reduction 0.96 at 80, 0.92 at 64. Programs not here lost or moved
     * nothing: the scan, the runs and the compaction's (whose partition, unique and run-length
     * encoding lost 1.09-1.18 at 64 and 80 while its plain compaction gained 0.92 at 64), the tables. */
    {.key = {"NVIDIA", NULL, CL_DEVICE_TYPE_GPU},
     .caps = {[CLSCAN__PROGRAM_SEGSCAN] = 80, [CLSCAN__PROGRAM_SEGREDUCE] = 64}},
    {.key = {NULL, NULL, 0}, .caps = {0}},
};

unsigned clscan__table_max_regs(const clscan__device_info *dev, clscan__program_id id)
{
    return CLSCAN__ROW(dev, table)->caps[id];
}
