/* The radix sorts' table: work-group size, keys a work-item by key width, digit bits a pass, and
 * which sorts take one-sweep passes (prims/sort_sweep.cl) instead of three launches a pass. */
#include "tuning.h"

typedef struct sort_row {
    clscan__device_key key;
    unsigned wg, items4, items8;     /* keys a work-item for 4- and 8-byte keys */
    unsigned radix_bits;
    int onesweep;                    /* CLSCAN__SWEEP_KEYS | CLSCAN__SWEEP_PAIRS: the sorts that take it */
    unsigned sweep_log4;             /* 4-byte keys alone sweep from 2^sweep_log4 keys on (0: never) */
    unsigned sweep_items4;           /* ... in tiles of that many keys a work-item */
    unsigned sweep_regs4;            /* ... their kernels held to that many registers (0: the compiler's) */
    int sweep_keys8;                 /* 8-byte keys alone sweep at every size, in tiles of items8 */
    unsigned sweep_log8;             /* ... and from 2^sweep_log8 keys on (0: never) in tiles of */
    unsigned sweep_items8;           /* ... that many keys a work-item */
    unsigned sweep_pairs_items4;     /* 4-byte keys with values of up to 4 bytes in one sweep: tiles of */
    unsigned sweep_pairs_log4;       /* ... that many keys a work-item (0: items4) from 2^that keys on
                                      * (0: every size), */
    unsigned sweep_pairs_regs4;      /* ... held to that many registers (0: the compiler's) */
} sort_row;

static const sort_row table[] = {
    /* NVIDIA, each choice the one that won by turns on the H200 at the sizes where it is taken (the
     * history, with every figure, in docs/design.md "Sorting" and docs/benchmarks.md):
     * - pairs sweep at every size (2^28 uint32: 11.53 ms against 12.12 for three launches a pass), in
     *   tiles of 16, of 24 from 2^22 (8.82-8.91 ms against 9.42-9.58; 1.05-1.16x slower at 2^16-2^20),
     *   held to 80 registers (9.41 against 10.75 uncapped; 1.19-1.22x slower at 64);
     * - 4-byte keys alone sweep from 2^24 (0.450 ms against 0.530 there; 1.03-1.10x slower at 2^18-2^22),
     *   in tiles of 32 under 64 registers (5.14 ms at 2^28 against 5.55 under 80, 6.19-6.23 in tiles of
     *   24);
     * - 8-byte keys alone sweep at every size (22.32 ms at 2^28 against 26.92), in tiles of 16 from 2^22
     *   (18.59 against 21.98; 2^18 slower), uncapped (24.55 ms at 80). */
    {.key = {"NVIDIA", NULL, CL_DEVICE_TYPE_GPU}, .wg = 256, .items4 = 16, .items8 = 8, .radix_bits = 8,
     .onesweep = CLSCAN__SWEEP_PAIRS, .sweep_log4 = 24, .sweep_items4 = 32, .sweep_regs4 = 64, .sweep_keys8 = 1,
     .sweep_log8 = 22, .sweep_items8 = 16, .sweep_pairs_items4 = 24, .sweep_pairs_log4 = 22,
     .sweep_pairs_regs4 = 80},
    {.key = {NULL, NULL, CL_DEVICE_TYPE_GPU}, .wg = 256, .items4 = 8, .items8 = 4, .radix_bits = 8},
    {.key = {NULL, NULL, CL_DEVICE_TYPE_CPU}, .wg = 1, .items4 = 8192, .items8 = 8192, .radix_bits = 8},
    {.key = {NULL, NULL, 0}, .wg = 128, .items4 = 8, .items8 = 4, .radix_bits = 8},
};

clscan__sort_tuning clscan__table_sort(const clscan__device_info *dev, size_t key_bytes)
{
    const sort_row *row = CLSCAN__ROW(dev, table);
    clscan__sort_tuning t = {.wg_size = row->wg, .items = key_bytes == 8 ? row->items8 : row->items4,
                             .radix_bits = row->radix_bits, .onesweep = row->onesweep};
    if (key_bytes == 4 && row->sweep_log4) {
        t.onesweep |= CLSCAN__SWEEP_KEYS;
        t.sweep_from = t.tile_from = (size_t)1 << row->sweep_log4, t.sweep_items = row->sweep_items4;
        t.sweep_regs = row->sweep_regs4;
    }
    if (key_bytes == 4) {
        t.pairs_items = row->sweep_pairs_items4, t.pairs_regs = row->sweep_pairs_regs4;
        t.pairs_from = row->sweep_pairs_log4 ? (size_t)1 << row->sweep_pairs_log4 : 0;
    }
    if (key_bytes == 8 && row->sweep_keys8) {
        t.onesweep |= CLSCAN__SWEEP_KEYS;   /* from every size: sweep_from stays 0 */
        if (row->sweep_log8)
            t.tile_from = (size_t)1 << row->sweep_log8, t.sweep_items = row->sweep_items8;
    }
    return t;
}
