/* Types and operators that the application writes in OpenCL C (clscan_register_type, clscan_register_op):
 * the context's list of them, the probe program that checks each on the device before it is kept, and
 * the lookups every function makes of a type or operator value (the program text: user_text.c).
 * A registered value is USER_BASE | the context's tag << 16 | its index, so that a value of another
 * context is told from one of this context (docs/design.md, "Your own types and operators"). */
#include "user_text.h"
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USER_BASE 0x40000000u
#define USER_MAX 4096u   /* of each kind, a context; the contract asks for at least 64 */

static atomic_uint next_tag;

void clscan__user_init(clscan_context *ctx)
{
    ctx->user.tag = (atomic_fetch_add(&next_tag, 1u) % 0x3fffu) + 1u;
}

void clscan__user_free(clscan_context *ctx)
{
    for (size_t i = 0; i < ctx->user.n_types; i++)
        free(ctx->user.types[i].name), free(ctx->user.types[i].declaration);
    for (size_t i = 0; i < ctx->user.n_ops; i++)
        free(ctx->user.ops[i].combine), free(ctx->user.ops[i].preamble), free(ctx->user.ops[i].identity);
    free(ctx->user.types);
    free(ctx->user.ops);
    memset(&ctx->user, 0, sizeof ctx->user);
}

int clscan__is_user_value(unsigned value)
{
    return (value & 0xc0000000u) == USER_BASE;
}

/* The index of a value registered with ctx, or -1 (another context's, or no registered value). */
static long user_index(const clscan_context *ctx, unsigned value, size_t count)
{
    if (!clscan__is_user_value(value) || ((value >> 16) & 0x3fffu) != ctx->user.tag)
        return -1;
    return (value & 0xffffu) < count ? (long)(value & 0xffffu) : -1;
}

const clscan__user_type *clscan__user_type_of(const clscan_context *ctx, clscan_type type)
{
    long i = user_index(ctx, (unsigned)type, ctx->user.n_types);
    return i < 0 ? NULL : &ctx->user.types[i];
}

const clscan__user_op *clscan__user_op_of(const clscan_context *ctx, clscan_op op)
{
    long i = user_index(ctx, (unsigned)op, ctx->user.n_ops);
    return i < 0 ? NULL : &ctx->user.ops[i];
}

size_t clscan__type_size(const clscan_context *ctx, clscan_type type)
{
    const clscan__user_type *t = clscan__user_type_of(ctx, type);
    return t ? t->size : clscan_type_size(type);
}

size_t clscan_context_type_size(const clscan_context *ctx, clscan_type type)
{
    if (!ctx)
        return clscan_type_size(type);
    pthread_mutex_lock((pthread_mutex_t *)&ctx->lock);
    size_t size = clscan__type_size(ctx, type);
    pthread_mutex_unlock((pthread_mutex_t *)&ctx->lock);
    return size;
}

/* The OpenCL C name of a built-in type. */
static const char *builtin_name(clscan_type type)
{
    static const char *const names[] = {"int", "uint", "long", "ulong", "float", "double", "char", "uchar",
                                        "short", "ushort"};
    return (unsigned)type < sizeof names / sizeof names[0] ? names[type] : "an unknown type";
}

const char *clscan__type_name(const clscan_context *ctx, clscan_type type)
{
    const clscan__user_type *t = clscan__user_type_of(ctx, type);
    return t ? t->name : builtin_name(type);
}

/* ---- registration ---------------------------------------------------------------------------------- */
/* Whether text uses an identifier that begins with clscan_ or CLSCAN_ (the library's names). */
static const char *reserved_name(const char *text)
{
    for (const char *p = text; p && *p; p++) {
        if (!(isalpha((unsigned char)*p) || *p == '_') || (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            continue;
        if (strncmp(p, "clscan_", 7) == 0 || strncmp(p, "CLSCAN_", 7) == 0)
            return p;
    }
    return NULL;
}

static clscan_status check_names(clscan_context *ctx, const char *what, const char *text)
{
    const char *r = reserved_name(text);
    if (r)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "%s uses \"%.32s\": names beginning with clscan_ or CLSCAN_ "
                            "are the library's", what, r);
    return CLSCAN_SUCCESS;
}

static int is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

/* Runs the probe's one work-item of clscan_probe_size, which writes sizeof the type. */
static clscan_status run_probe(clscan_context *ctx, cl_program prog, size_t *size)
{
    cl_int err = CL_SUCCESS;
    cl_ulong value = 0;
    const size_t one = 1;
    cl_kernel k = clCreateKernel(prog, "clscan_probe_size", &err);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clCreateKernel (probe)", err);
    const char *call = "clCreateBuffer (probe)";
    cl_mem buf = clCreateBuffer(ctx->cl, CL_MEM_WRITE_ONLY, sizeof value, NULL, &err);
    if (err == CL_SUCCESS) {
        call = "clSetKernelArg (probe)";
        err = clSetKernelArg(k, 0, sizeof buf, &buf);
    }
    if (err == CL_SUCCESS) {
        call = "clEnqueueNDRangeKernel (probe)";
        err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
    }
    if (err == CL_SUCCESS) {
        call = "clEnqueueReadBuffer (probe)";
        err = clEnqueueReadBuffer(ctx->queue, buf, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL);
    }
    if (buf)
        clReleaseMemObject(buf);
    clReleaseKernel(k);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, call, err);
    *size = (size_t)value;
    return CLSCAN_SUCCESS;
}

/* Builds t's text on the device and, for a type, reads its sizeof (kernel clscan_probe_size); on a
 * failed build the log, its lines of user code numbered as the user wrote them. */
static clscan_status probe(clscan_context *ctx, const clscan__text *t, int want_size, size_t *size)
{
    if (!t->ok)
        return clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "host allocation for a registration failed");
    cl_int err = CL_SUCCESS;
    const char *text = t->s;
    cl_program prog = clCreateProgramWithSource(ctx->cl, 1, &text, NULL, &err);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(ctx, "clCreateProgramWithSource (probe)", err);
    err = clBuildProgram(prog, 1, &ctx->device, "-cl-std=CL1.2", NULL, NULL);
    clscan_status st = err == CL_SUCCESS ? CLSCAN_SUCCESS : clscan__fail_cl(ctx, "clBuildProgram (probe)", err);
    if (err == CL_BUILD_PROGRAM_FAILURE) {
        char log[8192], renamed[8192];
        clscan__build_log(ctx, prog, log, sizeof log);
        clscan__text_rename_log(t, log, renamed, sizeof renamed);
        st = clscan__fail(ctx, CLSCAN_BUILD_FAILED, "the registered code does not build on %s; build log:\n%s",
                          ctx->info.name, renamed);
    }
    if (st == CLSCAN_SUCCESS && want_size)
        st = run_probe(ctx, prog, size);
    clReleaseProgram(prog);
    return st;
}

/* Room for one more entry in an array of count elements of elem bytes. */
static clscan_status grow(clscan_context *ctx, void **array, size_t count, size_t elem)
{
    if (count >= USER_MAX)
        return clscan__fail(ctx, CLSCAN_UNSUPPORTED, "at most %u registered types and %u operators a context",
                            USER_MAX, USER_MAX);
    void *grown = realloc(*array, (count + 1) * elem);
    if (!grown)
        return clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "host allocation for a registration failed");
    *array = grown;
    return CLSCAN_SUCCESS;
}

static char *copy_text(const char *text)
{
    char *copy = text ? malloc(strlen(text) + 1) : NULL;
    return copy ? memcpy(copy, text, strlen(text) + 1) : NULL;
}

static clscan_status check_type_args(clscan_context *ctx, const char *name, const char *declaration, size_t size,
                                     const clscan_type *type)
{
    if (!type || !name || size == 0)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_register_type: %s",
                            !type ? "type is NULL" : !name ? "name is NULL" : "size is 0");
    if (!is_identifier(name))
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_register_type: \"%.64s\" is not an OpenCL C type name",
                            name);
    clscan_status st = check_names(ctx, "the type's name", name);
    return st == CLSCAN_SUCCESS ? check_names(ctx, "the type's declaration", declaration) : st;
}

clscan_status clscan_register_type(clscan_context *ctx, const char *name, const char *declaration, size_t size,
                                   clscan_type *type)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = check_type_args(ctx, name, declaration, size, type);
    clscan__text t = CLSCAN__TEXT_INIT;
    size_t got = 0;
    if (st == CLSCAN_SUCCESS) {
        if (declaration)
            clscan__text_user_lines(&t, 0, declaration);
        clscan__text_append(&t, "__kernel void clscan_probe_size(__global ulong *out) { out[0] = sizeof(%s); }\n", name);
        st = probe(ctx, &t, 1, &got);
    }
    free(t.s);
    if (st == CLSCAN_SUCCESS && got != size)
        st = clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_register_type: %s is %zu bytes on %s, not the %zu given",
                          name, got, ctx->info.name, size);
    if (st == CLSCAN_SUCCESS)
        st = grow(ctx, (void **)&ctx->user.types, ctx->user.n_types, sizeof *ctx->user.types);
    clscan__user_type entry = {copy_text(name), copy_text(declaration), size};
    if (st == CLSCAN_SUCCESS && (!entry.name || (declaration && !entry.declaration)))
        st = clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "host allocation for a registration failed");
    if (st == CLSCAN_SUCCESS) {
        *type = (clscan_type)(USER_BASE | ctx->user.tag << 16 | (unsigned)ctx->user.n_types);
        ctx->user.types[ctx->user.n_types++] = entry;
    } else
        free(entry.name), free(entry.declaration);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* A type an operator may be registered on: a built-in one the device holds, or one of ctx's. */
static clscan_status check_op_type(clscan_context *ctx, clscan_type type)
{
    if (clscan__is_user_value((unsigned)type))
        return clscan__user_type_of(ctx, type) ? CLSCAN_SUCCESS
               : clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_register_op: type %#x was not registered with "
                              "this context", (unsigned)type);
    return clscan__check_type_op(ctx, 0, type, CLSCAN_ADD);
}

static clscan_status check_op_args(clscan_context *ctx, clscan_type type, const char *combine, const void *identity,
                                   const char *preamble, unsigned flags, const clscan_op *op)
{
    if (!op || !combine || !combine[0] || !identity)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_register_op: %s",
                            !op ? "op is NULL" : !identity ? "identity is NULL" : "combine is NULL or empty");
    if (flags & ~CLSCAN_OP_COMMUTATIVE)
        return clscan__fail(ctx, CLSCAN_INVALID_ARGUMENT, "clscan_register_op: unknown flags %#x", flags);
    clscan_status st = check_op_type(ctx, type);
    if (st == CLSCAN_SUCCESS)
        st = check_names(ctx, "the combine", combine);
    return st == CLSCAN_SUCCESS ? check_names(ctx, "the preamble", preamble) : st;
}

/* The probe of an operator: its program text and a kernel that combines through it. */
static void op_probe_text(const clscan_context *ctx, clscan_type type, const clscan__user_op *entry, clscan__text *t)
{
    const char *tname = clscan__type_name(ctx, type);
    clscan__text_code(ctx, type, entry, t);
    clscan__text_append(t, "__kernel void clscan_probe_op(__global %s *x)\n{\n    x[0] = clscan_user_combine(x[0], "
              "clscan_user_identity());\n}\n", tname);
}

clscan_status clscan_register_op(clscan_context *ctx, clscan_type type, const char *combine, const void *identity,
                                 const char *preamble, unsigned flags, clscan_op *op)
{
    if (!ctx)
        return CLSCAN_INVALID_ARGUMENT;
    pthread_mutex_lock(&ctx->lock);
    clscan_status st = check_op_args(ctx, type, combine, identity, preamble, flags, op);
    const size_t size = st == CLSCAN_SUCCESS ? clscan__type_size(ctx, type) : 0;
    clscan__user_op entry = {type, copy_text(combine), copy_text(preamble), malloc(size ? size : 1), flags};
    if (st == CLSCAN_SUCCESS && (!entry.combine || (preamble && !entry.preamble) || !entry.identity))
        st = clscan__fail(ctx, CLSCAN_OUT_OF_MEMORY, "host allocation for a registration failed");
    if (st == CLSCAN_SUCCESS)
        memcpy(entry.identity, identity, size);
    clscan__text t = CLSCAN__TEXT_INIT;
    if (st == CLSCAN_SUCCESS) {
        op_probe_text(ctx, type, &entry, &t);
        st = probe(ctx, &t, 0, NULL);
    }
    free(t.s);
    if (st == CLSCAN_SUCCESS)
        st = grow(ctx, (void **)&ctx->user.ops, ctx->user.n_ops, sizeof *ctx->user.ops);
    if (st == CLSCAN_SUCCESS) {
        *op = (clscan_op)(USER_BASE | ctx->user.tag << 16 | (unsigned)ctx->user.n_ops);
        ctx->user.ops[ctx->user.n_ops++] = entry;
    } else
        free(entry.combine), free(entry.preamble), free(entry.identity);
    pthread_mutex_unlock(&ctx->lock);
    return st;
}

/* ---- what a value means, across contexts (clscan_mpi) ---------------------------------------------- */
/* FNV-1a over len bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ ((const unsigned char *)data)[i]) * 0x100000001b3ull;
    return h;
}

/* A text with its terminating zero, told from no text at all. */
static uint64_t fnv_text(uint64_t h, const char *s)
{
    return s ? fnv(fnv(h, "s", 1), s, strlen(s) + 1) : fnv(h, "n", 1);
}

uint64_t clscan__type_key(const clscan_context *ctx, clscan_type type)
{
    const clscan__user_type *t = clscan__user_type_of(ctx, type);
    const unsigned value = (unsigned)type;
    uint64_t h = 0xcbf29ce484222325ull;
    if (!t)
        return fnv(fnv(h, "B", 1), &value, sizeof value);
    const uint64_t size = t->size;   /* the same bytes whatever the width of size_t */
    h = fnv(fnv(h, "T", 1), &size, sizeof size);
    return fnv_text(fnv_text(h, t->name), t->declaration);
}

uint64_t clscan__op_key(const clscan_context *ctx, clscan_type type, clscan_op op)
{
    const clscan__user_op *o = clscan__user_op_of(ctx, op);
    const unsigned value = (unsigned)op;
    uint64_t h = clscan__type_key(ctx, o ? o->type : type);
    if (!o)
        return fnv(fnv(h, "b", 1), &value, sizeof value);
    h = fnv(fnv(h, "O", 1), &o->flags, sizeof o->flags);
    h = fnv_text(fnv_text(h, o->combine), o->preamble);
    return fnv(h, o->identity, clscan__type_size(ctx, o->type));
}
