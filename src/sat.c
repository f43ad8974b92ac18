/* clscan_summed_area_table. GPUs: sat_single_pass, one launch that reads and writes the image once
 * (bands of rows, a look-back down each column). CPUs: a work-item a band of rows, in three launches
 * (band column sums, their scan down the bands, each band's table). A single row or column is a plain
 * scan and goes through the scan dispatch, which spreads one long line over the whole device. */
#include "internal.h"

/* CPUs: enough bands of whole rows to keep every core busy (eight a compute unit); a work-item each. */
static clscan_status sat_cpu_bands(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                   size_t width, size_t height, size_t elem)
{
    size_t want = 8 * (size_t)ctx->info.compute_units, rows = height / want + (height % want != 0);
    const size_t bands = height / rows + (height % rows != 0), wg = p->config.wg_size;
    cl_mem sums = NULL;   /* bands x width elements: no more than the image, whose size was checked */
    clscan_status st = clscan__scratch(ctx, CLSCAN__SCRATCH_SAT_SUMS, bands * width * elem, &sums);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong w = width, h = height, r = rows, bands64 = bands;
    const clscan__arg sum_args[] = {CLSCAN__MEM(in), CLSCAN__MEM(sums), CLSCAN__VAL(w), CLSCAN__VAL(h), CLSCAN__VAL(r),
                                    CLSCAN__VAL(bands64)};
    const clscan__arg off_args[] = {CLSCAN__MEM(sums), CLSCAN__VAL(w), CLSCAN__VAL(bands64)};
    const clscan__arg table_args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(sums), CLSCAN__VAL(w),
                                      CLSCAN__VAL(h), CLSCAN__VAL(r), CLSCAN__VAL(bands64)};
#define COUNT(a) (sizeof a / sizeof a[0])
    st = clscan__launch(ctx, p, p->sat_band_sums, "sat_band_sums", sum_args, COUNT(sum_args), bands / wg + 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, p->sat_band_offsets, "sat_band_offsets", off_args, COUNT(off_args), width / wg + 1);
    if (st == CLSCAN_SUCCESS)
        st = clscan__launch(ctx, p, p->sat_band_tables, "sat_band_tables", table_args, COUNT(table_args),
                            bands / wg + 1);
#undef COUNT
    return st;
}

/* One launch over bands of sat_band rows; a status slot per column of every band, with the epochs
 * and counters of the single-pass scan. */
static clscan_status sat_one_pass(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                  size_t width, size_t height)
{
    const size_t band = p->config.sat_band, bands = height / band + (height % band != 0);
    if (bands >= ((size_t)1 << 31) || width > SIZE_MAX / 64 / bands)
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "a %zu x %zu summed-area table needs too many status words",
                            width, height);
    cl_mem status = NULL;
    clscan_status st = clscan__sp_state(ctx, bands * width, p->config.atomics64, &status);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong w = width, h = height, bands64 = bands;
    cl_uint epoch = ctx->sp_epoch + 1, in_place = clscan__same_memory(in, out);
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(status), CLSCAN__MEM(ctx->sp_counters),
                                CLSCAN__VAL(w), CLSCAN__VAL(h), CLSCAN__VAL(bands64), CLSCAN__VAL(epoch),
                                CLSCAN__VAL(in_place)};
    st = clscan__launch(ctx, p, p->sat_single_pass, "sat_single_pass", args, sizeof args / sizeof args[0], bands);
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* as for the scan: an enqueued launch uses up its epoch */
    return st;
}

static clscan_status sat_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t width, size_t height,
                                 clscan_type type)
{
    if (width == 1 || height == 1)
        return clscan__scan_enqueue(ctx, in, out, width * height, type, CLSCAN_ADD, 0);
    /* Rows start anywhere, so tiles are never assumed aligned for vector loads. */
    clscan__config cfg = clscan__config_for(ctx, type, CLSCAN_ADD, width);
    cfg.vec_io = 0;
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    return cfg.sat_band ? sat_one_pass(ctx, p, in, out, width, height)
                        : sat_cpu_bands(ctx, p, in, out, width, height, clscan_type_size(type));
}

clscan_status clscan_summed_area_table(clscan_context *ctx, cl_mem in, cl_mem out, size_t width, size_t height,
                                       clscan_type type)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = CLSCAN_SUCCESS;
    if (width != 0 && height > SIZE_MAX / width)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "a %zu x %zu image overflows size_t", width, height);
    const size_t n = st == CLSCAN_SUCCESS ? width * height : 0, elem = clscan_type_size(type);
    if (st == CLSCAN_SUCCESS)
        st = clscan__check_type_op(ctx, n, type, CLSCAN_ADD);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_buffer(ctx, in, "in", n, elem, 1, 0);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_buffer(ctx, out, "out", n, elem, 0, 1);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = clscan__check_overlap(ctx, in, n * elem, out, n * elem, 1);
    if (st == CLSCAN_SUCCESS && n > 0)
        st = sat_enqueue(ctx, in, out, width, height, type);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
