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
    /* H200, 2^28 uint32: pairs one sweep 11.53-11.57 ms against 12.12-12.15 (a tile of 16 keys a work-item: 24
     * with their values leaves no local memory), keys alone one sweep in tiles of 24 keys a work-item 7.97
     * against 9.48, but slower below 2^24 (bench/notebook.md, 2026-11-29). Those keys' one-sweep pass held to
     * 80 registers (3 groups a compute unit instead of 2, some 36 bytes spilled) 2^26: 385 us against 437 at
     * ptxas's 127; at 64, 400 us. Pairs then gained nothing at 80 (653 against 654 us) and lost at 64 (889)
     * (bench/notebook.md, 2026-11-29, twenty-third session). uint64 keys alone one sweep, by turns against
     * three launches a pass: 2^28 22.32 ms against 26.92, 2^24 1.49 against 1.68, 2^20 level, 2^16 0.141
     * against 0.159-0.194; at 80 registers 24.55 (twenty-fourth session). Once the place step computed each
     * key's digit again instead of holding it across the barrier (prims/sort_rank.clh), pairs held to 80
     * registers, by turns against no cap at 2^28: 9.41 against 10.75-10.79 ms, 2^26 2.43 against 2.77-2.80; and
     * with the group scan's scratch in the tile's room (prims/sort.cl) uint64 keys fit 16 a work-item: 2^28
     * 18.59 against 21.98 ms, 2^26 4.79 against 5.55, 2^22 0.440-0.446 against 0.467, but 2^16 0.131-0.141
     * against 0.128 (twenty-fifth session). Tiles that room let in, by turns against the table before
     * (twenty-sixth session, medians of two rounds): keys alone in tiles of 32 under 80 registers 2^28
     * 5.54-5.55 ms against 6.19-6.23, 2^26 1.47-1.48 against 1.61-1.64; under 64 then 5.14 against 5.55 and
     * 1.38 against 1.47 (pairs under 64: 1.19-1.22x slower); one sweep at 2^24 0.450 against 0.530 ms, but
     * at 2^18-2^22 1.03-1.10x slower; pairs in tiles of 24 2^28 8.82-8.91 against 9.42-9.58, 2^26 2.33-2.39
     * against 2.44-2.48, 2^22 0.98-0.99x, but 2^18-2^20 1.05-1.07x (2^16 1.16x) slower. */
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
