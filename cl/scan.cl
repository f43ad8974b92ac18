/* Device-wide scan kernels, each work-group striding over tiles so any n fits any grid.
 * Block-sum: scan_tiles scans each tile and records its total; the totals are scanned the same way
 * (recursively) and add_offsets folds each tile's exclusive prefix back in.
 * Reduce-then-scan: reduce_tiles records each tile's total; the totals are scanned (exclusive);
 * scan_tiles then scans each tile seeded with its prefix, so the output is written only once.
 * Single-pass: scan_single_pass reads and writes each element once; tiles find their prefix by
 * decoupled look-back over status words published by the tiles before them. */

/* tile_totals (may be NULL) receives each tile's total; tile_prefix (may be NULL) seeds each tile. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void scan_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global CLSCAN_T *tile_totals,
                __global const CLSCAN_T *tile_prefix, ulong n, ulong num_tiles, uint exclusive)
{
    __local CLSCAN_T tile[TILE_LOCAL];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T seed = tile_prefix ? tile_prefix[t] : CLSCAN_IDENTITY;
        CLSCAN_T total = wg_scan_tile(in, out, t * TILE, n, exclusive, seed, tile, scratch);
        if (tile_totals && get_local_id(0) == 0)
            tile_totals[t] = total;
    }
}

/* out[i] = prefix[tile of i] op out[i]; prefix holds each tile's exclusive prefix (tile 0: identity). */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void add_offsets(__global CLSCAN_T *out, __global const CLSCAN_T *prefix, ulong n, ulong num_tiles)
{
    for (ulong t = get_group_id(0) + 1; t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T p = prefix[t];
        for (uint i = 0; i < ITEMS; i++) {
            ulong g = t * TILE + i * WG_SIZE + get_local_id(0);
            if (g < n)
                out[g] = CLSCAN_OP(p, out[g]);
        }
    }
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_tiles(__global const CLSCAN_T *in, __global CLSCAN_T *tile_totals, ulong n, ulong num_tiles)
{
    __local CLSCAN_T scratch[WG_SIZE];
    for (ulong t = get_group_id(0); t < num_tiles; t += get_num_groups(0)) {
        CLSCAN_T total = wg_reduce_tile(in, t * TILE, n, scratch);
        if (get_local_id(0) == 0)
            tile_totals[t] = total;
    }
}

/* ---- single-pass: status words and decoupled look-back ------------------------------------------
 * Each tile publishes its aggregate (flag A), then its inclusive prefix (flag P), each in its own
 * slot. A value is cut into pieces and every piece travels in its own atomic word beside a tag
 * (epoch << 2 | flag): a reader trusts a slot only when every piece carries this launch's tag, so no
 * ordering between words is needed (OpenCL 1.2 fences order only within a work-group). The host
 * gives each launch a new epoch, so words of earlier launches read as unpublished and the array
 * never needs clearing. Every status access is an atomic, visible to race checkers as such.
 * With 64-bit atomics a word is 32 bits of value and a 32-bit tag (30-bit epoch); without, 16 and
 * 16 (14-bit epoch). */
#define SP_FLAG_A 1u
#define SP_FLAG_P 2u
#ifndef SP_SPIN_LIMIT
#define SP_SPIN_LIMIT 64       /* look-back rounds without progress before a tile computes it itself */
#endif
#if defined(SP_FORCE_FALLBACK)
#undef SP_SPIN_LIMIT
#define SP_SPIN_LIMIT 0
#endif
#define SP_WINDOW (WG_SIZE < 32 ? WG_SIZE : 32)   /* predecessors read per look-back round */

/* Loads of status words are atomics that change nothing, the only loads OpenCL C 1.2 promises to
 * see other groups' atomics. SP_VOLATILE_READS (NVIDIA GPUs, from device.c) reads them as volatile
 * loads, which go to L2 there; a stale word carries an old tag and reads as unpublished. */
#if defined(SP_ATOMIC64)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
typedef ulong sp_word;
#define SP_PIECE_BITS 32
#define SP_STORE(p, w) atom_xchg((volatile __global ulong *)(p), (w))
#if defined(SP_VOLATILE_READS)
#define SP_LOAD(p) (*(volatile __global ulong *)(p))
#else
#define SP_LOAD(p) atom_add((volatile __global ulong *)(p), 0ul)
#endif
#else
typedef uint sp_word;
#define SP_PIECE_BITS 16
#define SP_STORE(p, w) atomic_xchg((volatile __global uint *)(p), (w))
#if defined(SP_VOLATILE_READS)
#define SP_LOAD(p) (*(volatile __global uint *)(p))
#else
#define SP_LOAD(p) atomic_add((volatile __global uint *)(p), 0u)
#endif
#endif
#if defined(CLSCAN_WIDE)
#define SP_PIECES (64 / SP_PIECE_BITS)
#else
#define SP_PIECES (32 / SP_PIECE_BITS)
#endif
#define SP_PIECE_MASK ((1ul << SP_PIECE_BITS) - 1)
#define SP_TAG(epoch, flag) ((sp_word)((((epoch) << 2) | (flag)) & SP_PIECE_MASK))

/* The first word of tile t's slot for flag. */
__global sp_word *sp_slot(__global sp_word *status, ulong t, uint flag)
{
    return status + (2 * t + (flag == SP_FLAG_P)) * SP_PIECES;
}

void sp_publish(__global sp_word *status, ulong t, uint flag, uint epoch, CLSCAN_T value)
{
    __global sp_word *slot = sp_slot(status, t, flag);
    ulong bits = CLSCAN_TO_BITS(value);
    for (uint k = 0; k < SP_PIECES; k++)
        SP_STORE(&slot[k], (sp_word)(((bits >> (k * SP_PIECE_BITS)) & SP_PIECE_MASK) << SP_PIECE_BITS) |
                               SP_TAG(epoch, flag));
}

/* 1 with the value when every piece of the slot carries this launch's tag. */
int sp_read_slot(__global sp_word *status, ulong t, uint flag, uint epoch, CLSCAN_T *value)
{
    __global sp_word *slot = sp_slot(status, t, flag);
    ulong bits = 0;
    int complete = 1;
    for (uint k = 0; k < SP_PIECES; k++) {
        sp_word w = SP_LOAD(&slot[k]);
        complete &= (w & SP_PIECE_MASK) == SP_TAG(epoch, flag);
        bits |= (ulong)(w >> SP_PIECE_BITS) << (k * SP_PIECE_BITS);
    }
    if (complete)
        *value = CLSCAN_FROM_BITS((CLSCAN_BITS)bits);
    return complete;
}

/* The flag tile t has published in this launch (0: none yet) and its value. The aggregate is read
 * only when the inclusive prefix is not there: every status read is an atomic at the cache. */
uint sp_read(__global sp_word *status, ulong t, uint epoch, CLSCAN_T *value)
{
#if defined(SP_READ_BOTH)   /* experiments: both slots at once, one round trip fewer when P is absent */
    CLSCAN_T p = CLSCAN_IDENTITY, a = CLSCAN_IDENTITY;
    int has_p = sp_read_slot(status, t, SP_FLAG_P, epoch, &p);
    int has_a = sp_read_slot(status, t, SP_FLAG_A, epoch, &a);
    *value = has_p ? p : a;
    return has_p ? SP_FLAG_P : has_a ? SP_FLAG_A : 0u;
#else
    *value = CLSCAN_IDENTITY;
    if (sp_read_slot(status, t, SP_FLAG_P, epoch, value))
        return SP_FLAG_P;
    return sp_read_slot(status, t, SP_FLAG_A, epoch, value) ? SP_FLAG_A : 0u;
#endif
}

/* Everything the look-back shares across its work-group. */
typedef struct sp_shared {
    uint flag[SP_WINDOW];
    CLSCAN_T value[SP_WINDOW];
} sp_shared;

/* Decoupled fallback (Smith, Levien and Owens): rather than wait on tile j, reduce it from the input.
 * In place, tile j may already have overwritten its input once it published, so after reading, the
 * status is checked again and a published value wins. Returns the flag behind *value (0: computed). */
uint sp_fallback(__global const CLSCAN_T *in, ulong n, __global sp_word *status, ulong j,
                 uint epoch, uint in_place, __global uint *fallbacks, __local sp_shared *sh,
                 __local CLSCAN_T *scratch, CLSCAN_T *value)
{
    (void)in_place;            /* read only when the fallback is forced */
    CLSCAN_T agg = wg_reduce_tile(in, j * TILE, n, scratch);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);   /* every read of tile j is done */
    if (get_local_id(0) == 0) {
        CLSCAN_T published;
        uint f = sp_read(status, j, epoch, &published);
#if defined(SP_FORCE_FALLBACK)
        if (f == SP_FLAG_A && !in_place)
            f = 0;
#endif
        sh->flag[0] = f;
        sh->value[0] = f ? published : agg;
        atomic_inc(fallbacks);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint f = sh->flag[0];
    *value = sh->value[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return f;
}

/* The combination of tiles 0 .. t-1. Rounds read a window of predecessors (nearest first) and fold
 * aggregates until an inclusive prefix ends the walk; a round that finds the nearest one unpublished
 * spins, up to SP_SPIN_LIMIT rounds, then takes the fallback. All work-items walk the same window, so
 * the loop stays uniform across the group. */
CLSCAN_T sp_look_back(__global const CLSCAN_T *in, ulong n, __global sp_word *status, ulong t,
                      uint epoch, uint in_place, __global uint *fallbacks, __local sp_shared *sh,
                      __local CLSCAN_T *scratch)
{
    const uint lid = get_local_id(0);
    CLSCAN_T acc = CLSCAN_IDENTITY;   /* tiles j+1 .. t-1 */
    long j = (long)t - 1;
    uint spins = 0, done = 0;
    while (!done && j >= 0) {
        if (lid < SP_WINDOW) {
            CLSCAN_T v = CLSCAN_IDENTITY;
            uint f = j - (long)lid >= 0 ? sp_read(status, (ulong)(j - lid), epoch, &v) : 0;
#if defined(SP_FORCE_FALLBACK)
            /* Forced: aggregates count as unpublished, and so does everything of the nearest tile, so
             * that every tile after the first reduces it from the input, however the groups were
             * scheduled (on CPUs they run nearly in order and would find it done). */
            if (f == SP_FLAG_A || j - (long)lid == (long)t - 1)
                f = 0;
#endif
            sh->flag[lid] = f;
            sh->value[lid] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        CLSCAN_T got = CLSCAN_IDENTITY;
        uint k = 0;
        while (k < SP_WINDOW && !done && sh->flag[k] != 0) {
            got = CLSCAN_OP(sh->value[k], got);
            done = sh->flag[k] == SP_FLAG_P;
            k++;
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* the window is read before anyone refills it */
        acc = CLSCAN_OP(got, acc);
        j -= k;
        spins = k ? 0 : spins + 1;
        if (!done && j >= 0 && spins > SP_SPIN_LIMIT) {
            CLSCAN_T v;
            uint f = sp_fallback(in, n, status, (ulong)j, epoch, in_place, fallbacks, sh, scratch, &v);
            acc = CLSCAN_OP(v, acc);
            done = f == SP_FLAG_P;
            j--;
            spins = 0;
        }
    }
    return acc;
}

/* One launch: work-groups take tiles in the order of an atomic counter, so a tile only ever waits on
 * tiles that some running group already holds. counters[epoch & 1] hands out tiles (zero at the
 * start: the launch before cleared it), counters[2] counts fallbacks. num_tiles < 2^31. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void scan_single_pass(__global const CLSCAN_T *in, __global CLSCAN_T *out, __global sp_word *status,
                      __global uint *counters, ulong n, ulong num_tiles, uint exclusive, uint epoch,
                      uint in_place)
{
    __local CLSCAN_T tile[TILE_LOCAL];
    __local CLSCAN_T scratch[WG_SCAN_LOCAL > WG_SIZE ? WG_SCAN_LOCAL : WG_SIZE];
    __local sp_shared sh;
    __local uint next;
    const uint lid = get_local_id(0);
    if (get_group_id(0) == 0 && lid == 0)
        atomic_xchg(&counters[(epoch & 1) ^ 1], 0u);   /* ready for the next launch */
    for (;;) {
        if (lid == 0)
            next = atomic_inc(&counters[epoch & 1]);
        barrier(CLK_LOCAL_MEM_FENCE);
        const ulong t = next;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t >= num_tiles)
            break;
        CLSCAN_T v[ITEMS_HELD], total;
        CLSCAN_T excl = wg_tile_up(in, t * TILE, n, v, tile, scratch, &total);
        CLSCAN_T prefix = CLSCAN_IDENTITY;
        if (t > 0) {
            if (lid == 0)
                sp_publish(status, t, SP_FLAG_A, epoch, total);
            prefix = sp_look_back(in, n, status, t, epoch, in_place, &counters[2], &sh, scratch);
        }
        if (lid == 0)
            sp_publish(status, t, SP_FLAG_P, epoch, CLSCAN_OP(prefix, total));
        wg_tile_down(in, out, t * TILE, n, v, CLSCAN_OP(prefix, excl), exclusive, tile);
    }
}
