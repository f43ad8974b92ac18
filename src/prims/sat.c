/* clscan_summed_area_table. GPUs, bands of rows: clscan_sat_single_pass, one launch that reads and writes the
 * image once (a look-back down each column), or reduce-then-scan over tiles, three or four launches
 * that read it twice with no band waiting on another (sat_takes_three_passes picks). CPUs:
 * clscan_sat_band_tables, one launch, a work-item a band of rows (its column sums, a look-back down each
 * column, its table).
 * A single row or column is a plain scan and goes through the scan dispatch, which spreads one long
 * line over the whole device. */
#include "prims.h"
#include <string.h>

/* The program's parameters (clscan__config.param): rows a band of the kernels, rows of the bands
 * whose carries the table pass reads (0: the same), 64-bit element offsets, in place (single-pass). */
enum { BAND, CARRY_ROWS, WIDE, IN_PLACE };

/* The parameters as #defines; the tables walk columns, not tiles (cl/engine/lookback.clh). */
static void sat_defines(clscan__config *cfg)
{
    cfg->defines[0] = '\0';
    clscan__config_define(cfg, "CLSCAN_SP_COLUMNS", NULL);
    clscan__config_define_uint(cfg, "CLSCAN_SAT_BAND", cfg->param[BAND]);
    if (cfg->param[CARRY_ROWS])
        clscan__config_define_uint(cfg, "CLSCAN_SAT_CARRY_ROWS", cfg->param[CARRY_ROWS]);
    if (cfg->param[WIDE])
        clscan__config_define(cfg, "CLSCAN_SAT_WIDE", NULL);
    if (cfg->param[IN_PLACE])
        clscan__config_define(cfg, "CLSCAN_SAT_IN_PLACE", NULL);
}
#define SUMS "table band sums"     /* the scratch buffers, by name */
#define CARRIES "table carries"

/* A status slot per column of every band; the band counter hands out 31-bit numbers. */
int clscan__sat_bands_fit(size_t width, size_t bands)
{
    return bands > 0 && clscan__sp_tiles_fit(bands) && width <= SIZE_MAX / 64 / bands;
}

/* What both single-pass launches need first: room for their status words, whether they work in place,
 * and those words (of the single-pass scan: epochs and counters too). */
static clscan_status sat_status(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out, size_t width,
                                size_t height, size_t bands, cl_uint *in_place, cl_mem *status)
{
    if (!clscan__sat_bands_fit(width, bands))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "a %zu x %zu summed-area table needs too many status words",
                            width, height);
    clscan_status st = clscan__same_memory(ctx, in, out, in_place);
    return st == CLSCAN_SUCCESS ? clscan__sp_state(ctx, bands * width, p->config.elem, p->config.atomics64, status) : st;
}

/* CPUs: a band a compute unit, but no band under SAT_CPU_MIN_ROWS rows: each band costs three status
 * words a column, and with their cache lines passing from core to core they took as long as about
 * a hundred elements of work a column on PoCL (bench/notebook.md). Tests ask for other heights. */
#define SAT_CPU_MIN_ROWS 128
size_t clscan__sat_cpu_rows(size_t height, size_t compute_units, long sat_band)
{
    if (sat_band < -1)
        return (size_t)-sat_band;
    size_t bands = compute_units, most = height / SAT_CPU_MIN_ROWS;
    bands = bands < most ? bands : most;
    return bands > 1 ? clscan__tiles(height, bands) : height;
}

/* CPUs: one launch, a work-item a band (cl/prims/sat_cpu.cl), two rows of scratch a band (sizes as sat_status). */
static clscan_status sat_cpu_bands(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                   size_t width, size_t height, size_t elem)
{
    const size_t rows = clscan__sat_cpu_rows(height, ctx->info.compute_units, clscan__tuned(ctx, CLSCAN_TUNE_SAT_BAND));
    const size_t bands = clscan__tiles(height, rows);
    /* A group a band up to a few a compute unit: on CPUs the work-items of a group run one after
     * another on one core, so the first of them takes bands until none are left. */
    size_t most = 4 * (size_t)ctx->info.compute_units, groups = bands < most ? bands : most;
    cl_mem status = NULL, scratch = NULL;
    cl_uint in_place = 0;
    clscan_status st = sat_status(ctx, p, in, out, width, height, bands, &in_place, &status);
    if (st == CLSCAN_SUCCESS)
        st = clscan__scratch(ctx, SUMS, 2 * bands * width * elem, &scratch);
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong w = width, h = height, r = rows, bands64 = bands;
    cl_uint epoch = ctx->sp_epoch + 1;
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(status), CLSCAN__MEM(ctx->sp_counters),
                                CLSCAN__MEM(scratch), CLSCAN__VAL(w), CLSCAN__VAL(h), CLSCAN__VAL(r),
                                CLSCAN__VAL(bands64), CLSCAN__VAL(epoch), CLSCAN__VAL(in_place)};
    st = clscan__launch(ctx, p, "clscan_sat_band_tables", CLSCAN__ARGS(args), groups);
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* as for the scan: an enqueued launch uses up its epoch */
    return st;
}

/* The table program of cfg's parameters, into *p where it is built or found. */
static clscan_status sat_variant(clscan_context *ctx, clscan__config cfg, const clscan__program **p)
{
    sat_defines(&cfg);
    clscan__program *q = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &q);
    if (st == CLSCAN_SUCCESS)
        *p = q;
    return st;
}

/* One launch over bands of sat_band rows; a status slot per column of every band, with the epochs
 * and counters of the single-pass scan. */
static clscan_status sat_one_pass(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                  size_t width, size_t height)
{
    const size_t band = p->config.param[BAND], bands = clscan__tiles(height, band);
    cl_mem status = NULL;
    cl_uint in_place = 0;
    clscan_status st = sat_status(ctx, p, in, out, width, height, bands, &in_place, &status);
    if (st == CLSCAN_SUCCESS && in_place) {   /* in place: fences before stores, in a program of its own */
        clscan__config cfg = p->config;       /* (out of place they cost 2-2.5%, even behind a branch) */
        cfg.param[IN_PLACE] = 1;
        st = sat_variant(ctx, cfg, &p);
    }
    if (st != CLSCAN_SUCCESS)
        return st;
    cl_ulong w = width, h = height, bands64 = bands;
    cl_uint epoch = ctx->sp_epoch + 1;
    const clscan__arg args[] = {CLSCAN__MEM(in), CLSCAN__MEM(out), CLSCAN__MEM(status), CLSCAN__MEM(ctx->sp_counters),
                                CLSCAN__VAL(w), CLSCAN__VAL(h), CLSCAN__VAL(bands64), CLSCAN__VAL(epoch),
                                CLSCAN__VAL(in_place)};
    st = clscan__launch(ctx, p, "clscan_sat_single_pass", CLSCAN__ARGS(args), bands);
    if (st == CLSCAN_SUCCESS)
        ctx->sp_epoch = epoch;   /* as for the scan: an enqueued launch uses up its epoch */
    return st;
}

/* Columns a group of clscan_sat_scan_sums takes: as many as leave it parts of SAT_SCAN_PART rows (as
 * cl/prims/sat_three_pass.cl) enough to cover the array in one block, so that short arrays keep every work-item busy,
 * but at least 8 (a 32-byte sector a row for 4-byte elements): taller arrays take several blocks.
 * The kernel walks however many blocks there are: were the two values to differ, only speed would. */
#define SAT_SCAN_PART 32
static cl_uint sat_scan_cols(unsigned wg, size_t rows)
{
    cl_uint cols = wg;   /* a power of two */
    while (cols > 8 && (size_t)(wg / cols) * SAT_SCAN_PART < rows)
        cols /= 2;
    return cols;
}

/* Work-groups of the GPU kernels a compute unit at once: two on an H100 (they hold about 110-128
 * registers a work-item). */
#define SAT_WAVE 2

/* Bands a task of the passes over the image walks down its chunk (a segment): the column sums are
 * carried in registers from tile to tile, so the sums written, scanned and read again shrink by that
 * much (8 MB of each for float 8192 x 8192 in bands of 32 rows). The most, up to SAT_SEGMENT_MAX,
 * that leave the busiest group no more tiles than a task a tile would. Where the policy says so
 * (sat_split: the H100), groups with at least that many tiles take tasks of one band instead: with
 * tasks taken from a counter (cl/prims/sat_three_pass.cl) short ones end more evenly, which on the H100
 * outweighs the sums and on the H200 does not (bench/notebook.md). CLSCAN_TUNE_SAT_SEGMENT sets it. */
#define SAT_SEGMENT_MAX 32
static size_t sat_segment(const clscan_context *ctx, size_t bands, size_t chunks, size_t groups)
{
    const long set = clscan__tuned(ctx, CLSCAN_TUNE_SAT_SEGMENT);
    if (set > 0)
        return (size_t)set < bands ? (size_t)set : bands;
    const size_t busiest = clscan__tiles(bands * chunks, groups), split = clscan__table_sat_split(&ctx->info);
    if (split && busiest >= split)
        return 1;
    size_t seg = 1;
    for (size_t k = 2; k <= SAT_SEGMENT_MAX && k <= bands; k++)
        if (clscan__tiles(clscan__tiles(bands, k) * chunks, groups) * k <= busiest)
            seg = k;
    return seg;
}

/* Element offsets of up to 2^32 - 1 fit the kernels' 32-bit ones (cl/prims/sat.clh, clscan_sat_offset). */
int clscan__sat_wide(size_t n)
{
    return n > 0 && n - 1 > (size_t)UINT32_MAX;
}

/* Whether the scratch of sat_three_pass fits size_t (bands - 1 rows of width + chunks sums, and a
 * band's SAT_ROWS carries a tile, elements of up to 8 bytes) and its tile numbers fit the kernels'
 * uint (with room for the tasks a wave of groups runs past the last): the table pass's tiles, of
 * part of a band, are the most numerous. */
static int sat_tiles_fit(size_t width, size_t chunks, size_t bands, size_t band, size_t table_bands)
{
    return width + chunks > width && bands <= SIZE_MAX / 8 / (width + chunks) &&
           chunks <= SIZE_MAX / 8 / band / bands &&
           chunks <= (UINT32_MAX - 65536) / (table_bands + 1);   /* the kernels' uint numbers: tiles, tasks + groups */
}

/* The epoch of the next launch that takes tasks from the single-pass counters (which it makes sure
 * exist, zeroed as they should be); the caller records it once the launch is enqueued. */
static clscan_status sat_next_epoch(clscan_context *ctx, const clscan__program *p, cl_uint *epoch)
{
    cl_mem status = NULL;
    clscan_status st = clscan__sp_state(ctx, 1, p->config.elem, p->config.atomics64, &status);
    *epoch = ctx->sp_epoch + 1;
    return st;
}

/* Bands x chunks up to which clscan_sat_middle's groups add up the chunk totals above their band themselves
 * (a band's group at most bands x chunks loads, from L2, 16 at a time a work-item) rather than wait
 * on their scan in a launch of its own: one launch fewer, faster up to 8192 x 8192 on the H200 and
 * even on the H100 (bench/notebook.md). */
#define SAT_MIDDLE_TILES 8192

/* The middle of sat_three_pass (cl/prims/sat_three_pass.cl): the segments' column sums and the bands' chunk totals
 * scanned down, then every band's carries. In one launch (clscan_sat_middle) where the chunk totals are few;
 * else in two, clscan_sat_scan_sums then clscan_sat_band_carries. */
static clscan_status sat_middle_work(clscan_context *ctx, const clscan__program *p, cl_mem sums, cl_mem carries,
                                     size_t width, size_t bands, size_t chunks, size_t segments)
{
    const unsigned wg = p->config.wg_size;
    cl_ulong w = width, bands64 = bands, stride = width + chunks, seg_rows = segments - 1, band_rows = bands - 1;
    const cl_uint seg_cols = sat_scan_cols(wg, segments > 1 ? segments - 1 : 1);
    const size_t scanners = segments > 1 ? clscan__tiles(width, seg_cols) : 0;
    if (!clscan__tuned(ctx, CLSCAN_TUNE_SAT_SEPARATE) && chunks <= wg && bands * chunks <= SAT_MIDDLE_TILES &&
        bands + scanners <= CLSCAN__MAX_GROUPS) {   /* a group for every band: none may be left out */
        const clscan__arg args[] = {CLSCAN__MEM(sums),    CLSCAN__MEM(carries), CLSCAN__VAL(w),
                                    CLSCAN__VAL(bands64), CLSCAN__VAL(seg_rows), CLSCAN__VAL(seg_cols)};
        return clscan__launch_into(ctx, p, "clscan_sat_middle", CLSCAN__ARGS(args),
                                   bands + scanners, carries);
    }
    clscan_status st = CLSCAN_SUCCESS;
    if (bands > 2) {
        const cl_uint cols = sat_scan_cols(wg, bands - 1);
        const clscan__arg args[] = {CLSCAN__MEM(sums), CLSCAN__VAL(stride), CLSCAN__VAL(w), CLSCAN__VAL(seg_rows),
                                    CLSCAN__VAL(band_rows), CLSCAN__VAL(cols)};
        st = clscan__launch_into(ctx, p, "clscan_sat_scan_sums", CLSCAN__ARGS(args),
                                 clscan__tiles(width + chunks, cols), sums);
    }
    if (st == CLSCAN_SUCCESS) {
        const clscan__arg args[] = {CLSCAN__MEM(sums), CLSCAN__MEM(carries), CLSCAN__VAL(w), CLSCAN__VAL(bands64)};
        st = clscan__launch_into(ctx, p, "clscan_sat_band_carries", CLSCAN__ARGS(args),
                                 bands, carries);
    }
    return st;
}

/* Bands a segment needs before the table pass takes it in tiles of part of a band: faster from
 * segments of 5 bands up on the H200, slower at 2 (float, tiles of 16 rows against 32;
 * bench/notebook.md). Tests ask for part-band tiles on any shape. */
#define SAT_TILE_MIN_SEGMENT 4

/* The table pass's program: p's, in tiles of part of a band where the context says so
 * (clscan__context_sat_tile) and segments are long, reading the carries of whole bands. */
static clscan_status sat_table_program(clscan_context *ctx, const clscan__program *p, size_t seg,
                                       const clscan__program **table)
{
    const unsigned band = p->config.param[BAND];
    const unsigned rows = clscan__sat_tile(ctx, band, clscan_type_size(p->config.type));
    if (rows == band || (seg < SAT_TILE_MIN_SEGMENT && clscan__tuned(ctx, CLSCAN_TUNE_SAT_TILE) == 0)) {
        *table = p;
        return CLSCAN_SUCCESS;
    }
    clscan__config cfg = p->config;
    cfg.param[BAND] = rows;
    cfg.param[CARRY_ROWS] = band;
    return sat_variant(ctx, cfg, table);
}

/* Reduce-then-scan over tiles of a band's rows x a group's columns: each segment's column sums and
 * each tile's rows' prefix totals (the image read once), their scans down the segments and along each
 * band (small arrays: a row of sums a segment, SAT_ROWS values a tile), then every tile's table,
 * seeded from above and from the left (read and written once more), a segment's tiles down a chunk by
 * one group. Three or four launches, no band waits on another: 1.5 copies' traffic against
 * single-pass's one, but not its chain of look-backs through every band. */
static clscan_status sat_three_pass(clscan_context *ctx, const clscan__program *p, cl_mem in, cl_mem out,
                                    size_t width, size_t height, size_t elem)
{
    const size_t band = p->config.param[BAND], bands = clscan__tiles(height, band);
    const size_t chunks = clscan__tiles(width, p->config.wg_size), tiles = bands * chunks;
    /* The passes over the image: groups that stay, a wave of them, each loading its next tile while
     * it works on this one. */
    const size_t wave = SAT_WAVE * (size_t)ctx->info.compute_units, groups = tiles < wave ? tiles : wave;
    const size_t seg = sat_segment(ctx, bands, chunks, groups), segments = clscan__tiles(bands, seg);
    const clscan__program *table = NULL;
    clscan_status st = sat_table_program(ctx, p, seg, &table);
    if (st != CLSCAN_SUCCESS)
        return st;
    const size_t sub = band / table->config.param[BAND], table_bands = clscan__tiles(height, table->config.param[BAND]);
    if (!sat_tiles_fit(width, chunks, bands, band, table_bands))
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "a %zu x %zu summed-area table needs too much scratch", width,
                            height);
    cl_mem sums = NULL, carries = NULL;
    st = clscan__scratch(ctx, CARRIES, tiles * band * elem, &carries);
    if (st == CLSCAN_SUCCESS && bands > 1)
        st = clscan__scratch(ctx, SUMS, (bands - 1) * (width + chunks) * elem, &sums);
    cl_ulong w = width, h = height;
    const cl_uint bands32 = (cl_uint)bands, seg32 = (cl_uint)seg;
    cl_uint epoch = 0;
    if (st == CLSCAN_SUCCESS)
        st = sat_next_epoch(ctx, p, &epoch);
    if (st == CLSCAN_SUCCESS) {
        const clscan__arg args[] = {CLSCAN__MEM(in),  CLSCAN__MEM(sums), CLSCAN__MEM(carries), CLSCAN__VAL(w),
                                    CLSCAN__VAL(h),   CLSCAN__VAL(bands32), CLSCAN__VAL(seg32),
                                    CLSCAN__MEM(ctx->sp_counters), CLSCAN__VAL(epoch)};
        st = clscan__launch_into(ctx, p, "clscan_sat_band_sums", CLSCAN__ARGS(args), groups,
                                 carries);
        if (st == CLSCAN_SUCCESS)
            ctx->sp_epoch = epoch;
    }
    if (st == CLSCAN_SUCCESS)
        st = sat_middle_work(ctx, p, sums, carries, width, bands, chunks, segments);
    if (st == CLSCAN_SUCCESS)
        st = sat_next_epoch(ctx, p, &epoch);
    if (st == CLSCAN_SUCCESS) {   /* the same tasks, counted in the table pass's tiles */
        const cl_uint tiles_down = (cl_uint)table_bands, tiles_seg = (cl_uint)(seg * sub);
        const clscan__arg args[] = {CLSCAN__MEM(in),        CLSCAN__MEM(out),       CLSCAN__MEM(sums),
                                    CLSCAN__MEM(carries),   CLSCAN__VAL(w),         CLSCAN__VAL(h),
                                    CLSCAN__VAL(tiles_down), CLSCAN__VAL(tiles_seg), CLSCAN__MEM(ctx->sp_counters),
                                    CLSCAN__VAL(epoch)};
        st = clscan__launch(ctx, table, "clscan_sat_seeded_tiles", CLSCAN__ARGS(args), groups);
        if (st == CLSCAN_SUCCESS)
            ctx->sp_epoch = epoch;
    }
    return st;
}

/* Tiles (bands x chunks) up to which a GPU table takes single-pass: one launch against three, where
 * the chain of look-backs is still short; on the H100 and H200 the two crossed between 90 and 128
 * tiles (both paths forced, bench/notebook.md). */
#define SAT_SINGLE_TILES 96

/* GPUs: single-pass for the smallest images (SAT_SINGLE_TILES); else three passes while the bands fit
 * in about one wave of work-groups, where single-pass's chain of look-backs, a band after the band
 * above it, is the critical path, and at any height for images of 8 to 32 chunks a row. With more
 * bands the chain runs beside the bands already going, and single-pass's lighter traffic wins where
 * its band walks are long (64 chunks) or its bands very many (4 chunks). Measured on the H100 with
 * segments of bands, each path forced, two rounds in one call (bench/notebook.md): three passes 5%
 * faster for 8192 x 12288, 2% for 4096 x 16384 and 1-2% for 2048 x 32768; 1-2% slower for 16384 x
 * 16384 and 0-1% for 1024 x 65536. */
static int sat_takes_three_passes(const clscan_context *ctx, size_t bands, size_t chunks)
{
    const long path = clscan__tuned(ctx, CLSCAN_TUNE_SAT_PATH);
    if (path)
        return path == 2;
    if (bands * chunks <= SAT_SINGLE_TILES)
        return 0;
    return bands <= SAT_WAVE * (size_t)ctx->info.compute_units || (chunks >= 8 && chunks <= 32);
}

/* The summed-area program: its kernels read the type, work-group size, band, offset width and
 * status-word settings; the scan's work-group algorithm, item mode, vector loads and sub-groups,
 * which they do not read, are set to one value so that switching them (tests, tuning) builds no new
 * table program. Rows start anywhere, so tiles are never assumed aligned for vector loads anyway. */
static clscan__config sat_config(const clscan_context *ctx, clscan_type type, size_t width, size_t height)
{
    const clscan__tuning t = clscan__scan_tile(ctx, type);
    clscan__config cfg = clscan__config_with(ctx, CLSCAN__PROGRAM_SAT, type, CLSCAN_ADD, width, t);
    cfg.param[BAND] = clscan__sat_band(ctx, t, clscan_type_size(type));
    cfg.param[WIDE] = clscan__tuned(ctx, CLSCAN_TUNE_SAT_WIDE) || clscan__sat_wide(width * height);
    cfg.wg = CLSCAN_WG_HILLIS_STEELE;
    cfg.stream = 0;
    cfg.sg = CLSCAN__SG_NONE;
    cfg.vec_io = 0;
    cfg.vec4 = 0;
    sat_defines(&cfg);
    return cfg;
}

static clscan_status sat_enqueue(clscan_context *ctx, cl_mem in, cl_mem out, size_t width, size_t height,
                                 clscan_type type)
{
    if (width == 1 || height == 1)
        return clscan__scan_enqueue(ctx, in, out, width * height, type, CLSCAN_ADD, 0, NULL);
    clscan__config cfg = sat_config(ctx, type, width, height);
    clscan__program *p = NULL;
    clscan_status st = clscan__get_program(ctx, &cfg, &p);
    if (st != CLSCAN_SUCCESS)
        return st;
    if (!cfg.param[BAND])
        return sat_cpu_bands(ctx, p, in, out, width, height, clscan_type_size(type));
    return sat_takes_three_passes(ctx, clscan__tiles(height, cfg.param[BAND]), clscan__tiles(width, cfg.wg_size))
               ? sat_three_pass(ctx, p, in, out, width, height, clscan_type_size(type))
               : sat_one_pass(ctx, p, in, out, width, height);
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
    if (st == CLSCAN_SUCCESS && n > 0) {
        clscan__outputs(ctx, out, NULL);
        st = sat_enqueue(ctx, in, out, width, height, type);
        clscan__outputs(ctx, NULL, NULL);
    }
    pthread_mutex_unlock(&ctx->lock);
    return st;
}
