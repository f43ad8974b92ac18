/* The single-pass tile state every look-back reads: status words (an aggregate and an inclusive
 * prefix slot a tile), the launch counters that hand out tile numbers, and the epochs that make the
 * words of an earlier launch read as unpublished, so the array is zeroed only when new or when the
 * epoch would overflow its bits. */
#include "engine.h"

#define STATUS "single-pass status words"
int clscan__sp_tiles_fit(size_t tiles) { return tiles < ((size_t)1 << 31); }
/* Two slots a tile (aggregate, prefix), each of 8 bytes per 4 of the element (32-bit pieces in 64-bit
 * words, or 16-bit ones in 32-bit words: lookback.clh), at least 32 bytes a tile as before registered
 * types, so that the array of a 4-byte scan serves an 8-byte one. */
size_t clscan__sp_status_bytes(size_t slots, size_t elem)
{
    const size_t words = (elem + 3) / 4;
    return slots * 2 * 8 * (words > 2 ? words : 2);
}

/* Single-pass state: status words for tiles (zeroed when allocated: clscan__scratch_zeroed) and the
 * counters. Epochs make old words read as unpublished; when the epoch would overflow its bits (30 with
 * 64-bit atomics, else 14: see cl/engine/lookback.clh), everything is zeroed and epochs start again. */
#define SP_EPOCH_LIMIT(wide_words) ((wide_words) ? (1u << 30) : (1u << 14))
clscan_status clscan__sp_state(clscan_context *ctx, size_t tiles, size_t elem, int wide_words, cl_mem *status)
{
    size_t held = 0;
    const cl_mem before = clscan__scratch_peek(ctx, STATUS, &held);
    clscan_status st = clscan__scratch_zeroed(ctx, STATUS, clscan__sp_status_bytes(tiles, elem), status);
    if (st != CLSCAN_SUCCESS)
        return st;
    /* A change of word width (the portable test path) would let old words pass for new tags. */
    int fresh_counters = !ctx->sp_counters, wrap = ctx->sp_epoch + 1 >= SP_EPOCH_LIMIT(wide_words) ||
                                                   wide_words != ctx->sp_wide_words;
    if (fresh_counters) {
        cl_int err = CL_SUCCESS;
        ctx->sp_counters = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, 4 * sizeof(cl_uint), NULL, &err);
        if (err != CL_SUCCESS) {
            ctx->sp_counters = NULL;
            ctx->sp_wide_words = -1;   /* the counters are not zeroed yet: as below */
            return clscan__fail_cl(ctx, "clCreateBuffer (single-pass counters)", err);
        }
    }
    if (wrap && *status == before)   /* a new array is zeroed already; the whole buffer, as it may be */
        st = clscan__fill_zero(ctx, *status, held);   /* larger than asked for */
    if (st == CLSCAN_SUCCESS && (fresh_counters || wrap))
        st = clscan__fill_zero(ctx, ctx->sp_counters, 4 * sizeof(cl_uint));
    if (st == CLSCAN_SUCCESS && wrap) {
        ctx->sp_epoch = 0;
        ctx->sp_wide_words = wide_words;
    }
    /* Zeroing that did not happen must not be forgotten: a width no array has makes the next call wrap,
     * which zeroes the status words and the counters. */
    if (st != CLSCAN_SUCCESS)
        ctx->sp_wide_words = -1;
    return st;
}

