/* Programs: the one function that writes the #define block, the concatenation of a program's files as
 * the registry lists them, the build (from the disk cache of cache.c, else from source), its kernels,
 * and the in-memory list of one built program per configuration per context. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OpenCL C 1.2, except for the KHR sub-group path: compilers declare its built-ins from 2.0 on (clang:
 * "implicit declaration of function 'sub_group_scan_inclusive_add'" as 1.2), and as 3.0 only where the
 * device has __opencl_c_subgroups or the extension. 3.0 where the device takes it (device.c). */
const char *clscan__build_options(const clscan__config *cfg)
{
    return cfg->sg == CLSCAN__SG_KHR_C3 ? "-cl-std=CL3.0" : cfg->sg == CLSCAN__SG_KHR ? "-cl-std=CL2.0" : "-cl-std=CL1.2";
}

/* Registered types and operators are USER (their code comes before the core files: user.c). */
static const char *type_define(clscan_type t)
{
    static const char *const names[] = {"INT32", "UINT32", "INT64", "UINT64", "FLOAT",
                                        "DOUBLE", "INT8", "UINT8", "INT16", "UINT16"};
    return clscan__is_user_value((unsigned)t) ? "USER" : names[t];
}

static const char *op_define(clscan_op op)
{
    static const char *const names[] = {"ADD", "MUL", "MIN", "MAX"};
    return clscan__is_user_value((unsigned)op) ? "USER" : names[op];
}

static const char *wg_define(clscan_wg_algorithm wg)
{
    return wg == CLSCAN_WG_BLELLOCH ? "BLELLOCH" : wg == CLSCAN_WG_SUBGROUP ? "SUBGROUP" : "HILLIS_STEELE";
}

static const char *sg_define(clscan__subgroup_kind sg)
{
    static const char *const names[] = {"#define CLSCAN_SG_LOCAL\n", "#define CLSCAN_SG_KHR\n",
                                        "#define CLSCAN_SG_INTEL\n", "#define CLSCAN_SG_NVIDIA_PTX\n",
                                        "#define CLSCAN_SG_KHR\n"};
    return names[sg];
}

void clscan__config_define(clscan__config *cfg, const char *name, const char *value)
{
    size_t used = strlen(cfg->defines);
    snprintf(cfg->defines + used, sizeof cfg->defines - used, "#define %s%s%s\n", name, value ? " " : "",
             value ? value : "");
}

void clscan__config_define_uint(clscan__config *cfg, const char *name, unsigned value)
{
    char text[16];
    snprintf(text, sizeof text, "%u", value);
    clscan__config_define(cfg, name, text);
}

int clscan__write_defines(const clscan__config *cfg, char *buf, size_t len)
{
    char max_regs[48] = "";   /* no kernel reads it: it tells the cache key and a dump apart */
    if (cfg->max_regs)
        snprintf(max_regs, sizeof max_regs, "#define CLSCAN_MAX_REGISTERS %u\n", cfg->max_regs);
    return snprintf(buf, len,
                    "#define CLSCAN_TYPE_%s\n#define CLSCAN_OP_%s\n#define CLSCAN_WG_ALGO_%s\n"
                    "#define CLSCAN_WG_SIZE %u\n#define CLSCAN_ITEMS %u\n%s%s%s%s%s%s%s%s%s%s%s%s%s",
                    type_define(cfg->type), op_define(cfg->op), wg_define(cfg->wg), cfg->wg_size, cfg->items,
                    cfg->defines, cfg->stream ? "#define CLSCAN_ITEMS_STREAM\n" : "", sg_define(cfg->sg),
                    cfg->vec_io ? "#define CLSCAN_VEC_IO\n" : "", cfg->vec4 ? "#define CLSCAN_VEC4\n" : "",
                    cfg->atomics64 ? "#define CLSCAN_SP_ATOMIC64\n" : "",
                    cfg->force_fallback ? "#define CLSCAN_SP_FORCE_FALLBACK\n" : "",
                    cfg->volatile_reads ? "#define CLSCAN_SP_VOLATILE_READS\n" : "",
                    cfg->sp_fold_one ? "#define CLSCAN_SP_FOLD_ONE\n" : "",
                    cfg->sp_by_id ? "#define CLSCAN_SP_BY_ID\n" : "",
                    cfg->dp4a ? "#define CLSCAN_BYTES_DP4A\n" : "", cfg->llvmpipe ? "#define CLSCAN_LLVMPIPE\n" : "",
                    max_regs);
}

/* ---- building ------------------------------------------------------------------------------- */
/* The defines, the registered type's and operator's code if any, then the program's files in the
 * registry's order. */
static char *assemble_source(const clscan_context *ctx, const clscan__config *cfg)
{
    char defines[1024], *user = NULL;
    const char *files[CLSCAN__MAX_FILES + 1];
    clscan__program_files(cfg->program, files);
    if (!clscan__user_source(ctx, cfg->type, cfg->op, &user))
        return NULL;
    size_t total = (size_t)clscan__write_defines(cfg, defines, sizeof defines) + 1 + (user ? strlen(user) + 1 : 0);
    for (int i = 0; files[i]; i++)
        total += strlen(clscan__source_text(&ctx->sources, files[i])) + 64 + strlen(files[i]);
    char *src = malloc(total);
    if (!src) {
        free(user);
        return NULL;
    }
    size_t used = (size_t)snprintf(src, total, "%s%s", defines, user ? user : "");
    free(user);
    for (int i = 0; files[i]; i++)
        used += (size_t)snprintf(src + used, total - used, "\n#line 1 /* %s */\n%s", files[i],
                                 clscan__source_text(&ctx->sources, files[i]));
    return src;
}

void clscan__build_log(clscan_context *ctx, cl_program prog, char *log, size_t len)
{
    size_t size = 0;
    log[0] = '\0';
    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) == CL_SUCCESS && size > 0)
        clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, size < len ? size : len,
                              size < len ? log : NULL, NULL);
    log[len - 1] = '\0';
    if (size >= len)   /* too long to fetch whole: say so rather than fetch a cut copy */
        snprintf(log, len, "(build log of %zu bytes is too long to keep)", size);
}

static clscan_status build_failed(clscan_context *ctx, cl_program prog, cl_int err)
{
    char log[12000];
    clscan__build_log(ctx, prog, log, sizeof log);
    return clscan__fail(ctx, CLSCAN_BUILD_FAILED, "clBuildProgram failed: %s (%d); sources from %s; build log:\n%s",
                        clscan__cl_error_name(err), err, ctx->sources.dir, log);
}

/* Built from source, then (a cap asked for) again from its PTX with the cap, which the cache keeps. */
static clscan_status build_from_source(clscan_context *ctx, const clscan__config *cfg, const char *source,
                                       const char *key, const char *options, cl_program *out)
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
    cl_program capped = cfg->max_regs ? clscan__ptx_capped(ctx, prog, options, cfg->max_regs) : NULL;
    if (capped) {
        clReleaseProgram(prog);
        prog = capped;
    }
    if (ctx->cache_store)
        clscan__cache_store(ctx, key, prog);
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
    for (int i = 0; i < CLSCAN__MAX_KERNELS; i++)
        if (p->kernels[i])
            clReleaseKernel(p->kernels[i]);
    if (p->program)
        clReleaseProgram(p->program);
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
    return a->program == b->program && a->type == b->type && a->op == b->op && a->wg == b->wg &&
           a->wg_size == b->wg_size && a->items == b->items && a->stream == b->stream && a->sg == b->sg &&
           a->vec_io == b->vec_io && a->vec4 == b->vec4 && a->atomics64 == b->atomics64 &&
           a->force_fallback == b->force_fallback && a->volatile_reads == b->volatile_reads && a->dp4a == b->dp4a &&
           a->llvmpipe == b->llvmpipe && a->sp_fold_one == b->sp_fold_one && a->sp_by_id == b->sp_by_id &&
           a->max_regs == b->max_regs &&
           memcmp(a->param, b->param, sizeof a->param) == 0 && strcmp(a->defines, b->defines) == 0;
}

/* Every kernel the registry lists for the program. */
static clscan_status create_kernels(clscan_context *ctx, clscan__program *p)
{
    const char *const *names = clscan__program_kernels(p->config.program);
    clscan_status st = CLSCAN_SUCCESS;
    for (int i = 0; st == CLSCAN_SUCCESS && names[i]; i++)
        st = create_kernel(ctx, p->program, names[i], p->config.wg_size, &p->kernels[i]);
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
    if (clscan__tuned(ctx, CLSCAN_TUNE_DUMP_SOURCE)) {   /* a debugging aid asked for; the library's only output */
        char defines[1024];
        clscan__write_defines(cfg, defines, sizeof defines);
        fprintf(stderr, "clscan: program %s for %s, options \"%s\":\n%s", key, ctx->info.name, options, defines);
    }
    clscan_status st = CLSCAN_SUCCESS;
    p->program = ctx->cache_on ? clscan__cache_load(ctx, key, options) : NULL;
    if (!p->program)
        st = build_from_source(ctx, cfg, source, key, options, &p->program);
    free(source);
    if (st == CLSCAN_SUCCESS)
        st = create_kernels(ctx, p);
    if (st != CLSCAN_SUCCESS) {
        program_free(p);
        return st;
    }
    p->next = ctx->programs;
    ctx->programs = p;
    *out = p;
    return CLSCAN_SUCCESS;
}
