/* NVIDIA's PTX: a register cap written into a built program. NVIDIA's OpenCL compiler takes no register
 * budget (-cl-nv-maxrregcount builds and changes nothing), but its programs' binaries are PTX text, and
 * the driver honours a `.maxnreg N` directive on an entry when it builds a program from that text. A
 * program whose configuration asks for a cap (cfg->max_regs, the tables' or the override's) is built
 * from source, its PTX rewritten with the directive on every entry, and built again from the rewritten
 * text, which is what the disk cache then keeps. Anything unexpected (not PTX, no entry, a build that
 * fails) keeps the program as the compiler built it: the cap is a speed choice, never a new failure. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char entry_word[] = ".entry ";

/* Where the directives after entry e's parameter list end (the '{' of its body), or NULL where that
 * is not found or a cap is already among them. */
static const char *entry_body(const char *e, const char *end)
{
    const char *close = memchr(e, ')', (size_t)(end - e));
    const char *open = close ? memchr(close, '{', (size_t)(end - close)) : NULL;
    const char *cap = open ? strstr(close, ".maxnreg") : NULL;
    return cap && cap < open ? NULL : open;
}

/* A copy of the text with `.maxnreg regs` after each entry's parameter list (t: the text, NUL-ended). */
static unsigned char *with_directives(const char *t, size_t size, const char *directive, size_t entries,
                                      size_t *out_size)
{
    const size_t dlen = strlen(directive);
    unsigned char *out = malloc(size + entries * dlen);
    if (!out)
        return NULL;
    size_t used = 0;
    const char *from = t;
    for (const char *e = strstr(t, entry_word); e; e = strstr(e + 1, entry_word)) {
        const char *body = entry_body(e, t + size);
        memcpy(out + used, from, (size_t)(body - from));
        memcpy(out + used + (size_t)(body - from), directive, dlen);
        used += (size_t)(body - from) + dlen;
        from = body;
    }
    memcpy(out + used, from, (size_t)(t + size - from));
    *out_size = used + (size_t)(t + size - from);
    return out;
}

unsigned char *clscan__ptx_with_cap(const unsigned char *ptx, size_t size, unsigned regs, size_t *out_size)
{
    char directive[32], *t = regs ? malloc(size + 1) : NULL;   /* searched as a string: ended by a NUL */
    if (!t)
        return NULL;
    memcpy(t, ptx, size);
    t[size] = '\0';
    snprintf(directive, sizeof directive, ".maxnreg %u\n", regs);
    size_t entries = 0;
    int ok = strstr(t, ".version ") != NULL && strstr(t, ".target ") != NULL;
    for (const char *e = strstr(t, entry_word); ok && e; e = strstr(e + 1, entry_word)) {
        ok = entry_body(e, t + size) != NULL;
        entries++;
    }
    unsigned char *out = ok && entries ? with_directives(t, size, directive, entries, out_size) : NULL;
    free(t);
    return out;
}

cl_program clscan__ptx_capped(clscan_context *ctx, cl_program prog, const char *options, unsigned regs)
{
    size_t size = 0, capped_size = 0;
    unsigned char *bin = clscan__program_binary(prog, &size);
    unsigned char *capped = bin ? clscan__ptx_with_cap(bin, size, regs, &capped_size) : NULL;
    free(bin);
    cl_program out = capped ? clscan__program_from_binary(ctx, capped, capped_size, options) : NULL;
    free(capped);
    return out;
}
