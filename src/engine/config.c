/* A program's configuration from the context: the tile in force, the work-group algorithm, the
 * look-back's fold, and the device features each program may use (sub-groups, vector loads, 64-bit
 * status words, volatile reads) unless the override asks for the portable paths; and the operators'
 * identities. */
#include "engine.h"
#include <math.h>
#include <string.h>

/* Whether full tiles can move as ITEMS-wide vectors: a vector type of that width exists and every
 * buffer start is aligned to it. Not 2-wide: PoCL 6.0's compiler stops on an assertion in the tile
 * kernels built so (its work-item loops, "Cannot add context restore for a PHI node at the region
 * entry"), and pairs gain next to nothing over scalar loads. */
static int vector_io(const clscan_context *ctx, unsigned items, int stream, size_t elem)
{
    int width_ok = !stream && (items == 4 || items == 8 || items == 16);
    return width_ok && ctx->info.base_align >= items * elem;
}

clscan__config clscan__config_with(const clscan_context *ctx, clscan__program_id id, clscan_type type, clscan_op op,
                                   size_t n, clscan__tuning t)
{
    const int portable = clscan__tuned(ctx, CLSCAN_TUNE_PORTABLE) != 0;
    const size_t elem = clscan__type_size(ctx, type);
    const int vectors = clscan__vectors(ctx, type);
    clscan__config cfg = {.program = id, .type = type, .elem = elem, .op = op};
    cfg.wg = ctx->wg == CLSCAN_WG_AUTO ? clscan__table_wg(&ctx->info, type, n) : ctx->wg;
    cfg.sg = cfg.wg == CLSCAN_WG_SUBGROUP && !portable ? ctx->info.subgroups : CLSCAN__SG_NONE;
    cfg.wg_size = t.wg_size, cfg.items = t.items, cfg.stream = t.stream;
    cfg.vec_io = vectors && vector_io(ctx, t.items, t.stream, elem);
    cfg.vec4 = clscan__vec4(ctx, type);
    cfg.atomics64 = ctx->info.int64_atomics && !portable;
    cfg.force_fallback = clscan__tuned(ctx, CLSCAN_TUNE_FORCE_FALLBACK) != 0;
    cfg.volatile_reads = ctx->info.volatile_status && !portable;
    cfg.sp_fold_one = clscan__sp_fold_one(ctx, id);
    cfg.sp_by_id = id == CLSCAN__PROGRAM_SCAN && clscan__sp_by_id(ctx);   /* the scan's loop alone reads it */
    cfg.dp4a = ctx->info.dp4a && !portable && elem == 1;
    cfg.llvmpipe = ctx->info.llvmpipe;
    cfg.max_regs = clscan__max_regs(ctx, clscan__table_max_regs(&ctx->info, id));
    return cfg;
}

clscan_status clscan__scan_program(clscan_context *ctx, clscan_type type, clscan_op op, size_t n,
                                   clscan__program **p)
{
    clscan__config cfg = clscan__config_with(ctx, CLSCAN__PROGRAM_SCAN, type, op, n, clscan__scan_tile(ctx, type));
    return clscan__get_program(ctx, &cfg, p);
}

void clscan__identity(const clscan_context *ctx, clscan_type type, clscan_op op, void *out)
{
    const clscan__user_op *user = clscan__user_op_of(ctx, op);
    if (user) {
        memcpy(out, user->identity, clscan__type_size(ctx, type));
        return;
    }
    union { int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32; int64_t i64; uint64_t u64;
            float f; double d; } v;
    int add = op == CLSCAN_ADD, mul = op == CLSCAN_MUL, min = op == CLSCAN_MIN;
    switch (type) {
    case CLSCAN_INT8: v.i8 = add ? 0 : mul ? 1 : min ? INT8_MAX : INT8_MIN; break;
    case CLSCAN_UINT8: v.u8 = add ? 0u : mul ? 1u : min ? UINT8_MAX : 0u; break;
    case CLSCAN_INT16: v.i16 = add ? 0 : mul ? 1 : min ? INT16_MAX : INT16_MIN; break;
    case CLSCAN_UINT16: v.u16 = add ? 0u : mul ? 1u : min ? UINT16_MAX : 0u; break;
    case CLSCAN_INT32: v.i32 = add ? 0 : mul ? 1 : min ? INT32_MAX : INT32_MIN; break;
    case CLSCAN_UINT32: v.u32 = add ? 0u : mul ? 1u : min ? UINT32_MAX : 0u; break;
    case CLSCAN_INT64: v.i64 = add ? 0 : mul ? 1 : min ? INT64_MAX : INT64_MIN; break;
    case CLSCAN_UINT64: v.u64 = add ? 0u : mul ? 1u : min ? UINT64_MAX : 0u; break;
    case CLSCAN_FLOAT: v.f = add ? 0.0f : mul ? 1.0f : min ? INFINITY : -INFINITY; break;
    default: v.d = add ? 0.0 : mul ? 1.0 : min ? (double)INFINITY : -(double)INFINITY; break;
    }
    memcpy(out, &v, clscan_type_size(type));
}

