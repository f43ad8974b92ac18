/* Program text with registered code in it: the registered type's declaration, the operator's preamble,
 * combine and identity, each piece of user code on lines of its own and where it starts remembered, so
 * that a build log's line numbers can be renamed to the user's own (compilers do not all honour #line:
 * NVIDIA's does not). */
#include "user_text.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned newlines(const char *s)
{
    unsigned k = 0;
    for (; *s; s++)
        k += *s == '\n';
    return k;
}

/* Appends to t (grown as needed). */
void clscan__text_append(clscan__text *t, const char *fmt, ...)
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
void clscan__text_user_lines(clscan__text *t, int k, const char *code)
{
    static const char *const names[] = {"declaration", "preamble", "combine"};
    t->pieces[k] = (clscan__user_piece){names[k], t->line, newlines(code) + 1};
    clscan__text_append(t, "%s\n", code);
}

/* The preamble, the combine as clscan_user_combine and the identity as clscan_user_identity(). */
static void text_op(clscan__text *t, const char *tname, const clscan__user_op *op, size_t size)
{
    if (op->preamble)
        clscan__text_user_lines(t, 1, op->preamble);
    clscan__text_append(t, "%s clscan_user_combine(%s a, %s b)\n{\n    return (\n", tname, tname, tname);
    clscan__text_user_lines(t, 2, op->combine);
    clscan__text_append(t, "    );\n}\n%s clscan_user_identity(void)\n{\n    const uchar bytes[%zu] = {", tname, size);
    for (size_t i = 0; i < size; i++)
        clscan__text_append(t, "%s%u", i ? ", " : "", (unsigned)op->identity[i]);
    clscan__text_append(t, "};\n    union { uchar b[%zu]; %s t; } u;\n    for (uint i = 0; i < %zu; i++)\n"
              "        u.b[i] = bytes[i];\n    return u.t;\n}\n", size, tname, size);
}

void clscan__text_code(const clscan_context *ctx, clscan_type type, const clscan__user_op *uo, clscan__text *t)
{
    const clscan__user_type *ut = clscan__user_type_of(ctx, type);
    if (type == CLSCAN_DOUBLE)
        clscan__text_append(t, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    if (ut)   /* the element of CLSCAN_TYPE_USER (cl/core/types.clh) */
        clscan__text_append(t, "#define CLSCAN_T_NAME %s\n#define CLSCAN_T_SIZE %zu\n", ut->name, ut->size);
    if (ut && ut->declaration)
        clscan__text_user_lines(t, 0, ut->declaration);
    if (uo)
        text_op(t, clscan__type_name(ctx, type), uo, clscan__type_size(ctx, type));
    if (uo && (uo->flags & CLSCAN_OP_COMMUTATIVE))
        clscan__text_append(t, "#define CLSCAN_OP_COMMUTATIVE\n");
}

int clscan__user_source(const clscan_context *ctx, clscan_type type, clscan_op op, char **text)
{
    clscan__text t = CLSCAN__TEXT_INIT;
    if (clscan__is_user_value((unsigned)type) || clscan__is_user_value((unsigned)op))
        clscan__text_code(ctx, type, clscan__user_op_of(ctx, op), &t);
    if (!t.ok)
        free(t.s);
    *text = t.ok ? t.s : NULL;
    return t.ok;
}

/* The piece of user code that line of the text falls in, or NULL. */
static const clscan__user_piece *piece_of(const clscan__text *t, unsigned long line)
{
    for (int k = 0; k < 3; k++)
        if (t->pieces[k].count && line >= t->pieces[k].first && line < t->pieces[k].first + t->pieces[k].count)
            return &t->pieces[k];
    return NULL;
}

/* One line of a build log, its first "file:LINE:" of user code written "combine:k:" (the piece's k-th
 * line); returns the bytes written to out. */
static size_t rename_line(const clscan__text *t, const char *p, size_t n, char *out, size_t len)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (p[i] != ':' || !isdigit((unsigned char)p[i + 1]))
            continue;
        char *end = NULL;
        const unsigned long line = strtoul(p + i + 1, &end, 10);
        const clscan__user_piece *piece = (size_t)(end - p) < n && *end == ':' ? piece_of(t, line) : NULL;
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
void clscan__text_rename_log(const clscan__text *t, const char *log, char *out, size_t len)
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

