/* Programs: the one function that writes the #define block, the concatenation of the sources, the
 * in-memory cache (one built program per configuration per context) and the on-disk binary cache
 * keyed by device identity, source and options. Disk files are written to a temporary name and
 * renamed; anything unreadable, corrupt or rejected by the driver is rebuilt from source and replaced. */
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* OpenCL C 1.2, except where the KHR sub-group path is asked for: compilers declare its built-ins from
 * 2.0 on (clang: "implicit declaration of function 'sub_group_scan_inclusive_add'" as 1.2). */
const char *clscan__build_options(const clscan__config *cfg)
{
    return cfg->sg == CLSCAN__SG_KHR ? "-cl-std=CL2.0" : "-cl-std=CL1.2";
}

static const char cache_magic[16] = "CLSCAN-BINARY-1\n";

static const char *type_define(clscan_type t)
{
    static const char *const names[] = {"INT32", "UINT32", "INT64", "UINT64", "FLOAT", "DOUBLE"};
    return names[t];
}

static const char *op_define(clscan_op op)
{
    static const char *const names[] = {"ADD", "MUL", "MIN", "MAX"};
    return names[op];
}

static const char *wg_define(clscan_wg_algorithm wg)
{
    return wg == CLSCAN_WG_BLELLOCH ? "BLELLOCH" : wg == CLSCAN_WG_SUBGROUP ? "SUBGROUP" : "HILLIS_STEELE";
}

static const char *sg_define(clscan__subgroup_kind sg)
{
    static const char *const names[] = {"#define CLSCAN_SG_LOCAL\n", "#define CLSCAN_SG_KHR\n",
                                        "#define CLSCAN_SG_INTEL\n", "#define CLSCAN_SG_NVIDIA_PTX\n"};
    return names[sg];
}

/* The sort program's own lines: key width and kind, value width, digit bits, count width. */
static int sort_defines(const clscan__config *cfg, char *buf, size_t len)
{
    if (!cfg->sort_key)
        return snprintf(buf, len, "%s", "");
    clscan_type key = (clscan_type)(cfg->sort_key - 1);
    const char *kind = key == CLSCAN_INT32 || key == CLSCAN_INT64 ? "#define CLSCAN_SORT_KEY_SIGNED\n"
                     : clscan__type_is_float(key) ? "#define CLSCAN_SORT_KEY_FLOAT\n" : "";
    return snprintf(buf, len,
                    "#define CLSCAN_SORT_KEY_BYTES %zu\n%s#define CLSCAN_SORT_VALUE_BYTES %u\n#define CLSCAN_RADIX_BITS %u\n%s",
                    clscan_type_size(key), kind, cfg->sort_value_bytes, cfg->radix_bits,
                    cfg->hist64 ? "#define CLSCAN_SORT_HIST64\n" : "");
}

int clscan__write_defines(const clscan__config *cfg, char *buf, size_t len)
{
    char sort[256], sat[192] = "", carry[48] = "";
    sort_defines(cfg, sort, sizeof sort);
    if (cfg->sat_carry_rows)
        snprintf(carry, sizeof carry, "#define CLSCAN_SAT_CARRY_ROWS %u\n", cfg->sat_carry_rows);
    if (cfg->sat)   /* the tables look back their own way: no tile look-back (lookback.clh) */
        snprintf(sat, sizeof sat, "#define CLSCAN_SP_WORDS_ONLY\n#define CLSCAN_SAT_BAND %u\n%s%s", cfg->sat_band, carry,
                 cfg->sat_wide ? "#define CLSCAN_SAT_WIDE\n" : "");
    return snprintf(buf, len,
                    "#define CLSCAN_TYPE_%s\n#define CLSCAN_OP_%s\n#define CLSCAN_WG_ALGO_%s\n"
                    "#define CLSCAN_WG_SIZE %u\n#define CLSCAN_ITEMS %u\n#define CLSCAN_PAYLOAD_BYTES %u\n%s%s%s%s%s%s%s%s%s",
                    type_define(cfg->type), op_define(cfg->op), wg_define(cfg->wg), cfg->wg_size, cfg->items,
                    cfg->payload,
                    cfg->stream ? "#define CLSCAN_ITEMS_STREAM\n" : "", sg_define(cfg->sg), cfg->vec_io ? "#define CLSCAN_VEC_IO\n" : "",
                    cfg->vec4 ? "#define CLSCAN_VEC4\n" : "",
                    cfg->atomics64 ? "#define CLSCAN_SP_ATOMIC64\n" : "",
                    cfg->force_fallback ? "#define CLSCAN_SP_FORCE_FALLBACK\n" : "", sort, sat,
                    cfg->volatile_reads ? "#define CLSCAN_SP_VOLATILE_READS\n" : "");
}

/* ---- hashing: two independent 64-bit FNV-1a streams make the 128-bit key --------------------- */
typedef struct hash128 { uint64_t a, b; } hash128;

static void hash_bytes(hash128 *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * 0x100000001b3ull;
        h->b = (h->b ^ p[i]) * 0x100000001b3ull;
        h->b ^= h->b >> 29;
    }
}

/* Each field is followed by a zero byte so that ("ab","c") and ("a","bc") differ. */
static void hash_field(hash128 *h, const char *s)
{
    hash_bytes(h, s, strlen(s) + 1);
}

static uint64_t checksum64(const void *data, size_t len)
{
    hash128 h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    hash_bytes(&h, data, len);
    return h.a ^ (h.b << 1);
}

void clscan__cache_key(const clscan__device_info *dev, const char *source, const char *options, char hex[33])
{
    hash128 h = {0xcbf29ce484222325ull, 0x6c62272e07bb0142ull};
    const char *fields[] = {dev->platform, dev->platform_version, dev->name, dev->vendor,
                            dev->version, dev->driver, options, source};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        hash_field(&h, fields[i]);
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
}

void clscan__default_cache_dir(char *buf, size_t len)
{
    const char *dir = getenv("CLSCAN_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (dir && dir[0])
        snprintf(buf, len, "%s", dir);
    else if (xdg && xdg[0])
        snprintf(buf, len, "%s/clscan", xdg);
    else if (home && home[0])
        snprintf(buf, len, "%s/.cache/clscan", home);
    else
        buf[0] = '\0';
}

/* ---- the disk cache ------------------------------------------------------------------------- */
static void cache_path(const clscan_context *ctx, const char *key, char *path, size_t len)
{
    snprintf(path, len, "%s/%s.bin", ctx->cache_dir, key);
}

/* A cache file is the magic, the 32-digit key, the binary's length and checksum (two host-order
 * uint64), then exactly that many bytes of binary. */
#define CACHE_HEADER (16 + 32 + 8 + 8)
#define CACHE_MAX_BINARY ((uint64_t)1 << 31)   /* longer lengths are taken for corruption */

int clscan__cache_parse(const unsigned char *data, size_t size, const char key[32], size_t *offset, size_t *len)
{
    uint64_t stored_len = 0, sum = 0;
    if (size < CACHE_HEADER || memcmp(data, cache_magic, 16) != 0 || memcmp(data + 16, key, 32) != 0)
        return 0;
    memcpy(&stored_len, data + 48, sizeof stored_len);
    memcpy(&sum, data + 56, sizeof sum);
    /* Compared with what is left rather than as header + length, which could wrap. */
    if (stored_len == 0 || stored_len >= CACHE_MAX_BINARY || stored_len != size - CACHE_HEADER ||
        checksum64(data + CACHE_HEADER, (size_t)stored_len) != sum)
        return 0;
    *offset = CACHE_HEADER;
    *len = (size_t)stored_len;
    return 1;
}

/* The whole file when it could hold a header and the longest binary, or NULL. */
static unsigned char *read_file(FILE *f, size_t *size)
{
    long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (end < CACHE_HEADER || (uint64_t)end - CACHE_HEADER >= CACHE_MAX_BINARY || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    *size = (size_t)end;
    unsigned char *data = malloc(*size);
    /* A file that grew or shrank since ftell is treated as corrupt. */
    if (data && (fread(data, 1, *size, f) != *size || fgetc(f) != EOF)) {
        free(data);
        data = NULL;
    }
    return data;
}

/* Reads and checks a cache file; NULL when absent, short, or not what the header promises. */
static unsigned char *cache_read(const char *path, const char *key, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t file_size = 0, offset = 0;
    unsigned char *data = read_file(f, &file_size);
    fclose(f);
    if (data && clscan__cache_parse(data, file_size, key, &offset, size)) {
        memmove(data, data + offset, *size);   /* the caller frees what it is given */
        return data;
    }
    free(data);
    return NULL;
}

static void make_dirs(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    mkdir(tmp, 0755);
}

/* Best effort: an unwritable cache costs a rebuild next time, nothing else. */
static int cache_write(clscan_context *ctx, const char *key, const unsigned char *bin, size_t size)
{
    char path[4200], tmp[4300];
    make_dirs(ctx->cache_dir);
    cache_path(ctx, key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.%p.tmp", path, (long)getpid(), (void *)ctx);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return 0;
    uint64_t len = size, sum = checksum64(bin, size);
    int ok = fwrite(cache_magic, 1, 16, f) == 16 && fwrite(key, 1, 32, f) == 32 &&
             fwrite(&len, sizeof len, 1, f) == 1 && fwrite(&sum, sizeof sum, 1, f) == 1 &&
             fwrite(bin, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0)
        return 1;
    unlink(tmp);
    return 0;
}

static unsigned char *program_binary(cl_program prog, size_t *size)
{
    cl_uint ndev = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL) != CL_SUCCESS || ndev != 1 ||
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) != CL_SUCCESS || *size == 0)
        return NULL;
    unsigned char *bin = malloc(*size);
    if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
        free(bin);
        bin = NULL;
    }
    return bin;
}

/* ---- building ------------------------------------------------------------------------------- */
/* The layers go into every program, the look-back into those that use it; then the scan and reduce
 * kernels, or the summed-area ones, or the compaction ones, or the sort ones. The summed-area kernels
 * have a program of their own: in every scan program (each type and operator) they took about half
 * of the build time (PoCL). */
static int in_program(const clscan__config *cfg, int source)
{
    if (source == CLSCAN__SRC_COMPACT)
        return cfg->payload != 0;
    if (source == CLSCAN__SRC_SORT)
        return cfg->sort_key != 0;
    if (source == CLSCAN__SRC_SAT)
        return cfg->sat;
    if (source == CLSCAN__SRC_LOOKBACK)
        return cfg->sort_key == 0;
    if (source == CLSCAN__SRC_SCAN || source == CLSCAN__SRC_REDUCE)
        return cfg->payload == 0 && cfg->sort_key == 0 && !cfg->sat;
    return 1;
}

static char *assemble_source(const clscan_context *ctx, const clscan__config *cfg)
{
    char defines[1024];
    int dlen = clscan__write_defines(cfg, defines, sizeof defines);
    size_t total = (size_t)dlen + strlen(ctx->extra_defines) + 1;
    for (int i = 0; i < CLSCAN__SRC_COUNT; i++)
        if (in_program(cfg, i))
            total += strlen(ctx->sources.text[i]) + 64 + strlen(clscan__source_file_name((clscan__source_id)i));
    char *src = malloc(total);
    if (!src)
        return NULL;
    size_t used = (size_t)snprintf(src, total, "%s%s", defines, ctx->extra_defines);
    for (int i = 0; i < CLSCAN__SRC_COUNT; i++)
        if (in_program(cfg, i))
            used += (size_t)snprintf(src + used, total - used, "\n#line 1 /* %s */\n%s",
                                     clscan__source_file_name((clscan__source_id)i), ctx->sources.text[i]);
    return src;
}

static clscan_status build_failed(clscan_context *ctx, cl_program prog, cl_int err)
{
    size_t len = 0;
    char log[12000] = "";
    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) == CL_SUCCESS && len > 0)
        clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, len < sizeof log ? len : sizeof log,
                              len < sizeof log ? log : NULL, NULL);
    log[sizeof log - 1] = '\0';
    if (len >= sizeof log)   /* too long to fetch whole: say so rather than fetch a cut copy */
        snprintf(log, sizeof log, "(build log of %zu bytes is too long to keep)", len);
    return clscan__fail(ctx, CLSCAN_BUILD_FAILED, "clBuildProgram failed: %s (%d); sources from %s; build log:\n%s",
                        clscan__cl_error_name(err), err, ctx->sources.dir, log);
}

/* Tries the disk cache; a program that loads and links from it, or NULL. */
static cl_program load_cached(clscan_context *ctx, const char *key, const char *options)
{
    char path[4200];
    size_t size = 0;
    cache_path(ctx, key, path, sizeof path);
    unsigned char *bin = cache_read(path, key, &size);
    if (!bin) {
        if (access(path, F_OK) == 0)
            ctx->stats.binary_rejects++;   /* present but corrupt: rebuilt below, then replaced */
        return NULL;
    }
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    cl_program prog = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &size, bins, &status, &err);
    free(bin);
    if (prog && err == CL_SUCCESS && status == CL_SUCCESS &&
        clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL) == CL_SUCCESS) {
        ctx->stats.binary_loads++;
        return prog;
    }
    if (prog)
        clReleaseProgram(prog);
    ctx->stats.binary_rejects++;
    return NULL;
}

static clscan_status build_from_source(clscan_context *ctx, const char *source, const char *key, const char *options,
                                       cl_program *out)
{
    cl_int err = CL_SUCCESS;
    cl_program prog = clCreateProgramWithSource(ctx->cl, 1, &source, NULL, &err);
    if (!prog || err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clCreateProgramWithSource", err);
    err = clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        clscan_status st = err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS
                               ? build_failed(ctx, prog, err) : clscan__fail_cl(ctx, "clBuildProgram", err);
        clReleaseProgram(prog);
        return st;
    }
    ctx->stats.source_builds++;
    if (ctx->cache_on) {
        size_t size = 0;
        unsigned char *bin = program_binary(prog, &size);
        if (bin && cache_write(ctx, key, bin, size))
            ctx->stats.binary_writes++;
        free(bin);
    }
    *out = prog;
    return CLSCAN_SUCCESS;
}

static clscan_status create_kernel(clscan_context *ctx, cl_program prog, const char *name, unsigned wg, cl_kernel *out)
{
    cl_int err = CL_SUCCESS;
    *out = clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clCreateKernel", err);
    size_t max_wg = 0;
    err = clGetKernelWorkGroupInfo(*out, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clGetKernelWorkGroupInfo", err);
    if (max_wg < wg)
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "kernel %s runs at most %zu work-items a group on %s, %u needed",
                            name, max_wg, ctx->info.name, wg);
    return CLSCAN_SUCCESS;
}

static void program_free(clscan__program *p)
{
    if (p->scan_tiles) clReleaseKernel(p->scan_tiles);
    if (p->add_offsets) clReleaseKernel(p->add_offsets);
    if (p->scan_one_group) clReleaseKernel(p->scan_one_group);
    if (p->reduce_tiles) clReleaseKernel(p->reduce_tiles);
    if (p->reduce_all) clReleaseKernel(p->reduce_all);
    if (p->single_pass) clReleaseKernel(p->single_pass);
    if (p->sat_band_tables) clReleaseKernel(p->sat_band_tables);
    if (p->sat_single_pass) clReleaseKernel(p->sat_single_pass);
    if (p->sat_band_sums) clReleaseKernel(p->sat_band_sums);
    if (p->sat_scan_sums) clReleaseKernel(p->sat_scan_sums);
    if (p->sat_band_carries) clReleaseKernel(p->sat_band_carries);
    if (p->sat_middle) clReleaseKernel(p->sat_middle);
    if (p->sat_seeded_tiles) clReleaseKernel(p->sat_seeded_tiles);
    if (p->count_tiles) clReleaseKernel(p->count_tiles);
    if (p->compact_tiles) clReleaseKernel(p->compact_tiles);
    if (p->compact_single_pass) clReleaseKernel(p->compact_single_pass);
    if (p->sort_hist) clReleaseKernel(p->sort_hist);
    if (p->sort_scatter) clReleaseKernel(p->sort_scatter);
    if (p->sort_home) clReleaseKernel(p->sort_home);
    if (p->split_flags) clReleaseKernel(p->split_flags);
    if (p->split_scatter) clReleaseKernel(p->split_scatter);
    if (p->program) clReleaseProgram(p->program);
    free(p);
}

void clscan__programs_free(clscan__program *list)
{
    while (list) {
        clscan__program *next = list->next;
        program_free(list);
        list = next;
    }
}

static int same_config(const clscan__config *a, const clscan__config *b)
{
    return a->type == b->type && a->op == b->op && a->wg == b->wg && a->wg_size == b->wg_size &&
           a->items == b->items && a->stream == b->stream && a->sg == b->sg && a->vec_io == b->vec_io && a->vec4 == b->vec4 && a->atomics64 == b->atomics64 &&
           a->force_fallback == b->force_fallback && a->payload == b->payload && a->sort_key == b->sort_key &&
           a->sort_value_bytes == b->sort_value_bytes && a->radix_bits == b->radix_bits && a->hist64 == b->hist64 &&
           a->sat == b->sat && a->sat_band == b->sat_band && a->sat_wide == b->sat_wide &&
           a->sat_carry_rows == b->sat_carry_rows &&
           a->volatile_reads == b->volatile_reads;
}

static clscan_status scan_kernels(clscan_context *ctx, clscan__program *p)
{
    const unsigned wg = p->config.wg_size;
    clscan_status st = create_kernel(ctx, p->program, "clscan_scan_tiles", wg, &p->scan_tiles);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_add_offsets", wg, &p->add_offsets);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_scan_one_group", wg, &p->scan_one_group);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_reduce_tiles", wg, &p->reduce_tiles);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_scan_single_pass", wg, &p->single_pass);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_reduce_all", wg, &p->reduce_all);
    return st;
}

static clscan_status sat_kernels(clscan_context *ctx, clscan__program *p)
{
    const unsigned wg = p->config.wg_size;
    clscan_status st = create_kernel(ctx, p->program, "clscan_sat_band_tables", wg, &p->sat_band_tables);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sat_single_pass", wg, &p->sat_single_pass);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sat_band_sums", wg, &p->sat_band_sums);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sat_scan_sums", wg, &p->sat_scan_sums);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sat_band_carries", wg, &p->sat_band_carries);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sat_middle", wg, &p->sat_middle);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sat_seeded_tiles", wg, &p->sat_seeded_tiles);
    return st;
}

static clscan_status compact_kernels(clscan_context *ctx, clscan__program *p)
{
    clscan_status st = create_kernel(ctx, p->program, "clscan_count_tiles", p->config.wg_size, &p->count_tiles);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_compact_tiles", p->config.wg_size, &p->compact_tiles);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_compact_single_pass", p->config.wg_size, &p->compact_single_pass);
    return st;
}

static clscan_status sort_kernels(clscan_context *ctx, clscan__program *p)
{
    const unsigned wg = p->config.wg_size;
    clscan_status st = create_kernel(ctx, p->program, "clscan_sort_hist", wg, &p->sort_hist);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sort_scatter", wg, &p->sort_scatter);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_sort_home", wg, &p->sort_home);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_split_flags", wg, &p->split_flags);
    if (st == CLSCAN_SUCCESS)
        st = create_kernel(ctx, p->program, "clscan_split_scatter", wg, &p->split_scatter);
    return st;
}

clscan_status clscan__get_program(clscan_context *ctx, const clscan__config *cfg, clscan__program **out)
{
    for (clscan__program *p = ctx->programs; p; p = p->next)
        if (same_config(&p->config, cfg)) {
            *out = p;
            return CLSCAN_SUCCESS;
        }
    clscan__program *p = calloc(1, sizeof *p);
    char *source = assemble_source(ctx, cfg);
    if (!p || !source) {
        free(p);
        free(source);
        return clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "host allocation failed while assembling a program");
    }
    p->config = *cfg;
    char key[33];
    const char *options = clscan__build_options(cfg);
    clscan__cache_key(&ctx->info, source, options, key);
    if (ctx->dump_source) {   /* a debugging aid the user asked for; the only output the library makes */
        char defines[1024];
        clscan__write_defines(cfg, defines, sizeof defines);
        fprintf(stderr, "clscan: program %s for %s, options \"%s\":\n%s%s", key, ctx->info.name, options,
                defines, ctx->extra_defines);
    }
    clscan_status st = CLSCAN_SUCCESS;
    p->program = ctx->cache_on ? load_cached(ctx, key, options) : NULL;
    if (!p->program)
        st = build_from_source(ctx, source, key, options, &p->program);
    free(source);
    if (st == CLSCAN_SUCCESS)
        st = cfg->sort_key  ? sort_kernels(ctx, p)
           : cfg->payload ? compact_kernels(ctx, p)
           : cfg->sat     ? sat_kernels(ctx, p)
                          : scan_kernels(ctx, p);
    if (st != CLSCAN_SUCCESS) {
        program_free(p);
        return st;
    }
    p->next = ctx->programs;
    ctx->programs = p;
    *out = p;
    return CLSCAN_SUCCESS;
}
