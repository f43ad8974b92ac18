/* Types and operators that the application writes in OpenCL C (clscan_register_type, clscan_register_op):
 * the context's list of them, the probe program that checks each on the device before it is kept, the
 * checks every function makes of a type or operator value, and the text they add to a program.
 * A registered value is USER_BASE | the context's tag << 16 | its index, so that a value of another
 * context is told from one of this context (docs/design.md, "Your own types and operators"). */
#include "core.h"
#include <ctype.h>
#include <stdarg.h>
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
    const clscan__user_type *t = clscan__is_user_value((unsigned)type) ? clscan__user_type_of(ctx, type) : NULL;
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
    const clscan__user_type *t = clscan__is_user_value((unsigned)type) ? clscan__user_type_of(ctx, type) : NULL;
    return t ? t->name : builtin_name(type);
}

/* ---- the text a program gets --------------------------------------------------------------------- */
/* Program text as it is written, with the line each piece of user code starts on, so that a build log's
 * line numbers can be turned into the user's own (rename_lines): compilers do not all honour #line
 * (NVIDIA's does not). */
typedef struct user_piece { const char *name; unsigned first, count; } user_piece;
typedef struct text_buf {
    char *s;
    size_t len, cap;
    unsigned line;                  /* of the next character, from 1 */
    user_piece pieces[3];           /* declaration, preamble, combine; count 0: absent */
    int ok;                         /* 0 once an allocation failed */
} text_buf;

static unsigned newlines(const char *s)
{
    unsigned k = 0;
    for (; *s; s++)
        k += *s == '\n';
    return k;
}

/* Appends to t (grown as needed). */
static void append(text_buf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = t->ok ? vsnprintf(NULL, 0, fmt, ap) : -1;
    va_end(ap);
    if (need >= 0 && t->len + (size_t)need + 1 > t->cap) {
        const size_t cap = (t->len + (size_t)need + 1) * 2;
        char *grown = realloc(t->s, cap);
        if (grown)
            t->s = grown, t->cap = cap;
        else
            need = -1;
    }
    if (need < 0) {
        t->ok = 0;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->line += newlines(t->s + t->len);
    t->len += (size_t)need;
}

/* A piece of user code on lines of its own (k: 0 declaration, 1 preamble, 2 combine). */
static void user_lines(text_buf *t, int k, const char *code)
{
    static const char *const names[] = {"declaration", "preamble", "combine"};
    t->pieces[k] = (user_piece){names[k], t->line, newlines(code) + 1};
    append(t, "%s\n", code);
}

/* The preamble, the combine as clscan_user_combine and the identity as clscan_user_identity(). */
static void op_text(text_buf *t, const char *tname, const clscan__user_op *op, size_t size)
{
    if (op->preamble)
        user_lines(t, 1, op->preamble);
    append(t, "%s clscan_user_combine(%s a, %s b)\n{\n    return (\n", tname, tname, tname);
    user_lines(t, 2, op->combine);
    append(t, "    );\n}\n%s clscan_user_identity(void)\n{\n    const uchar bytes[%zu] = {", tname, size);
    for (size_t i = 0; i < size; i++)
        append(t, "%s%u", i ? ", " : "", (unsigned)op->identity[i]);
    append(t, "};\n    union { uchar b[%zu]; %s t; } u;\n    for (uint i = 0; i < %zu; i++)\n"
              "        u.b[i] = bytes[i];\n    return u.t;\n}\n", size, tname, size);
}

/* The code of type and op (either may be built-in) that a program or probe starts with. */
static void user_text(const clscan_context *ctx, clscan_type type, clscan_op op, text_buf *t)
{
    const clscan__user_type *ut = clscan__is_user_value((unsigned)type) ? clscan__user_type_of(ctx, type) : NULL;
    const clscan__user_op *uo = clscan__is_user_value((unsigned)op) ? clscan__user_op_of(ctx, op) : NULL;
    if (type == CLSCAN_DOUBLE)
        append(t, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    if (ut && ut->declaration)
        user_lines(t, 0, ut->declaration);
    if (uo)
        op_text(t, clscan__type_name(ctx, type), uo, clscan__type_size(ctx, type));
    if (uo && (uo->flags & CLSCAN_OP_COMMUTATIVE))
        append(t, "#define CLSCAN_OP_COMMUTATIVE\n");
}

int clscan__user_source(const clscan_context *ctx, clscan_type type, clscan_op op, char **text)
{
    text_buf t = {.line = 1, .ok = 1};
    if (clscan__is_user_value((unsigned)type) || clscan__is_user_value((unsigned)op))
        user_text(ctx, type, op, &t);
    if (!t.ok)
        free(t.s);
    *text = t.ok ? t.s : NULL;
    return t.ok;
}

/* The piece of user code that line of the text falls in, or NULL. */
static const user_piece *piece_of(const text_buf *t, unsigned long line)
{
    for (int k = 0; k < 3; k++)
        if (t->pieces[k].count && line >= t->pieces[k].first && line < t->pieces[k].first + t->pieces[k].count)
            return &t->pieces[k];
    return NULL;
}

/* One line of a build log, its first "file:LINE:" of user code written "combine:k:" (the piece's k-th
 * line); returns the bytes written to out. */
static size_t rename_line(const text_buf *t, const char *p, size_t n, char *out, size_t len)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (p[i] != ':' || !isdigit((unsigned char)p[i + 1]))
            continue;
        char *end = NULL;
        const unsigned long line = strtoul(p + i + 1, &end, 10);
        const user_piece *piece = (size_t)(end - p) < n && *end == ':' ? piece_of(t, line) : NULL;
        if (!piece)
            continue;
        size_t start = i;   /* the file name: back to the space before it */
        while (start > 0 && !isspace((unsigned char)p[start - 1]))
            start--;
        int w = snprintf(out, len, "%.*s%s:%lu%.*s", (int)start, p, piece->name, line - piece->first + 1,
                         (int)(n - (size_t)(end - p)), end);
        return w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
    }
    int w = snprintf(out, len, "%.*s", (int)n, p);
    return w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
}

/* A build log with every line's user code renamed as rename_line does, into out. */
static void rename_lines(const text_buf *t, const char *log, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = log; *p && used + 1 < len;) {
        const char *eol = strchr(p, '\n');
        const size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
        used += rename_line(t, p, n, out + used, len - used);
        p += n;
    }
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
static clscan_status probe(clscan_context *ctx, const text_buf *t, int want_size, size_t *size)
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
        rename_lines(t, log, renamed, sizeof renamed);
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
    text_buf t = {.line = 1, .ok = 1};
    size_t got = 0;
    if (st == CLSCAN_SUCCESS) {
        if (declaration)
            user_lines(&t, 0, declaration);
        append(&t, "__kernel void clscan_probe_size(__global ulong *out) { out[0] = sizeof(%s); }\n", name);
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
static void op_probe_text(const clscan_context *ctx, clscan_type type, const clscan__user_op *entry, text_buf *t)
{
    const clscan__user_type *ut = clscan__is_user_value((unsigned)type) ? clscan__user_type_of(ctx, type) : NULL;
    const char *tname = clscan__type_name(ctx, type);
    if (type == CLSCAN_DOUBLE)
        append(t, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    if (ut && ut->declaration)
        user_lines(t, 0, ut->declaration);
    op_text(t, tname, entry, clscan__type_size(ctx, type));
    append(t, "__kernel void clscan_probe_op(__global %s *x)\n{\n    x[0] = clscan_user_combine(x[0], "
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
    text_buf t = {.line = 1, .ok = 1};
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
