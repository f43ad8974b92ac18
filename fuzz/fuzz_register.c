/* Fuzz target: registration (clscan_register_type, clscan_register_op) fed random snippets. Types get
 * names (plain, built-in, reserved, not identifiers, raw from the input), declarations and sizes;
 * operators get combine, preamble and identity texts: raw from the input (cut at a NUL byte, as any C
 * string is), templates that compile, templates with a reserved name spliced in or parentheses left
 * unbalanced, texts repeated or padded to megabytes, on built-in, registered and foreign types. Each
 * call must give the status a second reading of the contract predicts (where only the compiler can
 * tell: success, or CLSCAN_BUILD_FAILED with its log, or for a type a size the device disagrees with);
 * a failure leaves *type or *op untouched and registers nothing: its value stays refused and the next
 * success gets it. A registered operator on a built-in type then scans or reduces up to five tiles of
 * 32, against the CPU for the templates. The context must scan right after every input. One context
 * (the CPU device, PoCL, unless $CLSCAN_DEVICE names another), made again every RENEW registrations. */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "prims/prims.h"
#include "fuzz_reader.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ACTIONS 4
#define MAX_N 160                       /* elements of a scan: five tiles of 32 */
#define RENEW 64                        /* registrations a context: its programs go with it (PoCL holds MBs each) */
#define PAD_MAX ((size_t)1 << 22)       /* bytes of padding (comments, blank lines) in a huge text */
/* Bytes of a text repeated from the input: a chain of thousands of operators already overflows the
 * stack of the compiler inside PoCL (clang, "a + " 50000 times), which is the driver's, not clscan's. */
#define REPEAT_MAX 4096
#define TYPE_COUNT 10                   /* the built-in clscan_type values */

static clscan_context *ctx, *other;     /* other: a second context, whose values ctx must refuse */
static clscan_type anchor_type, other_type;   /* registered first in each context */
static clscan_op anchor_op, other_op;
static size_t n_types, n_ops;           /* registered in ctx after its anchors */
static int verbose;                     /* $CLSCAN_FUZZ_VERBOSE=1: every call and its status */
static struct sigaction fuzzer_abort;   /* libFuzzer's SIGABRT handler, as the first run found it */

static uint64_t next_random(uint64_t *s)   /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_register: %s\n  last error: \"%.2000s\"\n", what, clscan_last_error(ctx));
    /* PoCL's LLVM puts its own SIGABRT handler in front when it first compiles; abort() would then end
     * the process past libFuzzer's handler, which writes the crashing input. */
    sigaction(SIGABRT, &fuzzer_abort, NULL);
    abort();
}

/* ---- texts ------------------------------------------------------------------------------------- */
typedef struct text { char *s; size_t len, cap; int null; } text;   /* always NUL-terminated */

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = 2 * (t->len + n + 1);
        if (!(t->s = realloc(t->s, t->cap)))
            abort();
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

static void put_str(text *t, const char *s) { put(t, s, strlen(s)); }

/* Up to 255 bytes of the input as they are: a NUL among them ends the C string there. */
static void put_raw(text *t, reader *r)
{
    size_t n = take8(r);
    for (size_t i = 0; i < n; i++) {
        char c = (char)take8(r);
        put(t, &c, 1);
    }
}

/* t's C string with s inserted at byte `at` (modulo its length + 1). */
static void splice(text *t, size_t at, const char *s)
{
    text out = {0};
    const size_t len = strlen(t->s ? t->s : "");
    at %= len + 1;
    put(&out, t->s ? t->s : "", at);
    put_str(&out, s);
    put_str(&out, t->s ? t->s + at : "");
    free(t->s);
    *t = out;
}

/* Texts the rule on names must tell apart: reserved (an identifier that begins with clscan_ or
 * CLSCAN_, anywhere, in comments too) or not (the prefix inside an identifier, after a digit, another
 * case, no underscore). */
static const char *const name_snippets[] = {
    "clscan_user_identity()", "CLSCAN_OP(a, b)", " + clscan_x", "/* clscan_ */", "\"CLSCAN_\"", "\nclscan_",
    "CLSCAN_",                "x_clscan_y",      "1clscan_",    "clscan",        "Clscan_",    "__CLSCAN_x",
    "_clscan_",               "clscan_\n",
};
#define SNIPPETS (sizeof name_snippets / sizeof name_snippets[0])

/* Text kinds after a template (or raw bytes): as is, a snippet spliced in, parentheses left unbalanced,
 * padded to megabytes (a comment or blank lines, which compile), repeated up to REPEAT_MAX bytes. */
static void vary(text *t, reader *r)
{
    const unsigned kind = take8(r), at = take16(r);
    switch (kind % 6) {
    case 1: splice(t, at, name_snippets[take8(r) % SNIPPETS]); break;
    case 2: for (unsigned k = 0, n = 1 + take8(r) % 8; k < n; k++) splice(t, at + k, kind & 0x80 ? ")" : "("); break;
    case 3: case 4: {   /* a comment, or blank lines, of up to PAD_MAX bytes before the text */
        const size_t pad = ((size_t)take16(r) << 6) % PAD_MAX;
        text padded = {0};
        put_str(&padded, kind % 6 == 3 ? "/*" : "");
        for (size_t i = 0; i < pad; i++)
            put(&padded, kind % 6 == 3 ? (i % 64 ? "x" : "\n") : "\n", 1);
        put_str(&padded, kind % 6 == 3 ? "*/" : "");
        put_str(&padded, t->s ? t->s : "");
        free(t->s);
        *t = padded;
        break;
    }
    case 5: {
        text once = {0};
        put_str(&once, t->s ? t->s : "");
        for (size_t n = once.len, copies = take8(r); once.len > 0 && copies-- > 0 && n + once.len <= REPEAT_MAX;
             n += once.len)
            put(t, once.s, once.len);
        free(once.s);
        break;
    }
    default: break;
    }
}

/* ---- the rules, read again from API.md ----------------------------------------------------------- */
static int is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A run of word characters that starts with a letter or '_' and begins with clscan_ or CLSCAN_. */
static int has_reserved(const char *s)
{
    for (size_t i = 0; s && s[i];) {
        size_t j = i;
        while (is_word(s[j]))
            j++;
        if (j > i && !(s[i] >= '0' && s[i] <= '9') && (!strncmp(s + i, "clscan_", 7) || !strncmp(s + i, "CLSCAN_", 7)))
            return 1;
        i = j > i ? j : i + 1;
    }
    return 0;
}

static int is_identifier(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!is_word(*s))
            return 0;
    return 1;
}

static int type_ok(clscan_type t) { return (unsigned)t < TYPE_COUNT; }
static int supported(clscan_type t)
{
    return !(clscan_type_size(t) == 8 && !ctx->info.int64) && (t != CLSCAN_DOUBLE || ctx->info.fp64);
}

/* The next value a success must give: the anchor's, plus those registered since. */
static clscan_type next_type(void) { return (clscan_type)((unsigned)anchor_type + 1u + (unsigned)n_types); }
static clscan_op next_op(void) { return (clscan_op)((unsigned)anchor_op + 1u + (unsigned)n_ops); }

/* ANY: success, a build failure, or (a type) a size the device disagrees with: only the compiler knows. */
#define ANY ((clscan_status)1)

static void check_status(const char *call, clscan_status got, clscan_status want, int ctx_null)
{
    if (verbose)
        fprintf(stderr, "  %s -> %s; %.300s\n", call, clscan_status_string(got), ctx_null ? "" : ctx->error);
    const int any = got == CLSCAN_SUCCESS || got == CLSCAN_BUILD_FAILED ||
                    (got == CLSCAN_INVALID_ARGUMENT && !strcmp(call, "register_type") &&
                     strstr(ctx->error, " bytes on "));
    if (want == ANY ? !any : got != want) {
        fprintf(stderr, "fuzz_register: %s gave %s, %s expected\n", call, clscan_status_string(got),
                want == ANY ? "success, a build failure or a size refused" : clscan_status_string(want));
        fail("unexpected status");
    }
    if (got == CLSCAN_SUCCESS || ctx_null)
        return;
    if (ctx->error[0] == '\0')
        fail("a failure left no message");
    if (got == CLSCAN_BUILD_FAILED && !strstr(ctx->error, "build log"))
        fail("a build failure without its log");
}

/* ---- clscan_register_type ------------------------------------------------------------------------ */
/* Names by what the device makes of them with no declaration: sizes known (>0) or not (0). */
static const struct { const char *name; size_t size; } builtin_names[] = {
    {"float2", 8}, {"int", 4}, {"uint4", 16}, {"ulong8", 64}, {"uchar", 1},
    {"void", 0},   {"double", 0}, {"image2d_t", 0}, {"max", 0}, {"b", 0}, {"undeclared", 0},
};
static const char *const plain_names[] = {"pair", "my_type", "a", "T2", "x_clscan_y"};
static const char *const bad_names[] = {"", "pair pair", "2x", "a-b", "int*", "clscan_pair", "CLSCAN_T", "Pair\n"};
/* Declarations of the name '@' and their sizes: 0 for one the probe cannot build. */
static const struct { const char *decl; size_t size; } declarations[] = {
    {"typedef struct { uint m, c; } @;", 8},
    {"typedef struct { float v; uint i; } @;", 8},
    {"typedef union { uint u; float f; } @;", 4},
    {"typedef struct __attribute__((packed)) { uchar a; uint b; } @;", 5},
    {"typedef ushort @[3];", 6},
    {"struct @ { int x; };", 0},
    {"typedef struct { uint m, c; } @", 0},
};
#define COUNT(a) (sizeof a / sizeof a[0])

/* A declaration template with each '@' the name. */
static void put_declaration(text *t, const char *decl, const char *name)
{
    for (const char *p = decl; *p; p++)
        if (*p == '@')
            put_str(t, name);
        else
            put(t, p, 1);
}

/* What the probe of a name and declaration must find: 1 and *size when the size is known (0: the
 * build fails); 0 when only the compiler knows. */
static int known_size(int builtin, int plain, int decl_null, int decl_template, size_t *size)
{
    if (builtin >= 0 && decl_null && builtin_names[builtin].size)
        return *size = builtin_names[builtin].size, 1;
    if (plain >= 0 && decl_template >= 0)
        return *size = declarations[decl_template].size, 1;
    return 0;
}

static void type_action(reader *r, unsigned opt)
{
    text name = {0}, decl = {0};
    const unsigned nb = take8(r), db = take8(r), sb = take8(r);
    int builtin = -1, plain = -1, decl_template = -1;
    if (nb < 0x40)
        builtin = (int)(nb % COUNT(builtin_names)), put_str(&name, builtin_names[builtin].name);
    else if (nb < 0x80)
        plain = (int)(nb % COUNT(plain_names)), put_str(&name, plain_names[plain]);
    else if (nb < 0xa0)
        put_str(&name, bad_names[nb % COUNT(bad_names)]);
    else if (nb < 0xb0)
        for (int i = 0; i < 300; i++)   /* a long name, as long as the message's room and more */
            put(&name, "x", 1);
    else if (nb < 0xf0)
        put_raw(&name, r);
    else
        name.null = 1;
    if (db < 0x40)
        decl.null = 1;
    else if (db < 0xc0) {
        decl_template = (int)(db % COUNT(declarations));
        put_declaration(&decl, declarations[decl_template].decl, name.s ? name.s : "");
    } else {
        if (db & 1)
            put_declaration(&decl, declarations[db / 2 % COUNT(declarations)].decl, name.s ? name.s : "");
        else
            put_raw(&decl, r);
        vary(&decl, r);
    }
    size_t size = 0;
    int known = known_size(builtin, plain, decl.null, decl_template, &size);
    static const size_t edges[] = {0, 1, 3, SIZE_MAX, ((size_t)1 << 32) | 8, 9, 65536, 4};
    size_t given = sb < 0x80 && known && size ? size : sb < 0x80 ? sb % 17 : edges[sb % COUNT(edges)];
    const int ctx_null = (opt & 0x1f) == 0x1f, out_null = opt >> 5 == 7;
    const char *n = name.null ? NULL : name.s ? name.s : "", *d = decl.null ? NULL : decl.s ? decl.s : "";
    clscan_status want = ctx_null || out_null || !n || given == 0 || !is_identifier(n) || has_reserved(n) ||
                                 has_reserved(d)
                             ? CLSCAN_INVALID_ARGUMENT
                         : !known    ? ANY
                         : size == 0 ? CLSCAN_BUILD_FAILED
                         : given == size ? CLSCAN_SUCCESS : CLSCAN_INVALID_ARGUMENT;
    if (verbose)
        fprintf(stderr, "fuzz_register: register_type(%s\"%.60s\", \"%.200s\"%s, %zu)\n", ctx_null ? "NULL ctx, " : "",
                n ? n : "(null)", d ? d : "(null)", d && strlen(d) > 200 ? "..." : "", given);
    clscan_type got = (clscan_type)0x7e57;
    ctx->error[0] = '\0';
    clscan_status st = clscan_register_type(ctx_null ? NULL : ctx, n, d, given, out_null ? NULL : &got);
    check_status("register_type", st, want, ctx_null);
    if (st == CLSCAN_SUCCESS) {
        if (got != next_type() || clscan_context_type_size(ctx, got) != given)
            fail("a registered type is not the next value, or not of its size");
        n_types++;
    } else if (got != (clscan_type)0x7e57 || clscan_context_type_size(ctx, next_type()) != 0)
        fail("a failed type registration wrote *type or registered the type");
    free(name.s), free(decl.s);
}

/* ---- clscan_register_op -------------------------------------------------------------------------- */
static uint32_t add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t bxor(uint32_t a, uint32_t b) { return a ^ b; }
static uint32_t bmax(uint32_t a, uint32_t b) { return a > b ? a : b; }
static uint32_t mul(uint32_t a, uint32_t b) { return a * b; }
static uint32_t affine16(uint32_t a, uint32_t b)   /* x -> m x + c mod 2^16 as m << 16 | c; b after a */
{
    uint32_t am = a >> 16, ac = a & 0xffffu, bm = b >> 16, bc = b & 0xffffu;
    return ((bm * am) & 0xffffu) << 16 | ((bm * ac + bc) & 0xffffu);
}
#define AFFINE16_CL                                                                                     \
    "(((b >> 16) * (a >> 16)) & 0xffffu) << 16 | (((b >> 16) * (a & 0xffffu) + (b & 0xffffu)) & 0xffffu)"

/* Operators on uint with their C twin; set: bits every element has (odd multipliers for the maps). */
static const struct form {
    const char *combine, *preamble;
    uint32_t identity, set;
    uint32_t (*ref)(uint32_t, uint32_t);
    unsigned flags;
} forms[] = {
    {"a + b", NULL, 0, 0, add, CLSCAN_OP_COMMUTATIVE},
    {"a ^ b", NULL, 0, 0, bxor, CLSCAN_OP_COMMUTATIVE},
    {"max(a, b)", NULL, 0, 0, bmax, CLSCAN_OP_COMMUTATIVE},
    {"a * b", NULL, 1, 1, mul, 0},
    {AFFINE16_CL, NULL, 0x10000u, 0x10000u, affine16, 0},
    {"after(a, b)", "uint after(uint a, uint b)\n{\n    return " AFFINE16_CL ";\n}\n", 0x10000u, 0x10000u, affine16, 0},
    {"compose(a, b)", "@ compose(@ a, @ b)\n{\n    @ r;\n    r.m = b.m * a.m;\n    r.c = b.m * a.c + b.c;\n"
     "    return r;\n}\n", 0, 0, NULL, 0},   /* on a registered struct with fields m and c; else a build failure */
};

/* The type of an operator: built-in (in range or not), registered here or in the other context, or the
 * value the next type would have. */
static clscan_type take_type(reader *r, clscan_type last)
{
    const unsigned b = take8(r);
    static const int far[] = {-1, (int)TYPE_COUNT, 0x100, 0x40000000};
    if (b < 0x80)
        return (clscan_type)(b % TYPE_COUNT);
    switch (b % 6) {
    case 0: return last;
    case 1: return anchor_type;
    case 2: return other_type;
    case 3: return next_type();
    case 4: return (clscan_type)far[b / 6 % COUNT(far)];
    default: return CLSCAN_UINT32;
    }
}

/* The status clscan_register_op must give, in the order the checks come. */
static clscan_status expected_op(clscan_type type, const char *combine, const void *identity, const char *preamble,
                                 unsigned flags, int ctx_null, int out_null, int certain)
{
    if (ctx_null || out_null || !combine || !combine[0] || !identity || (flags & ~CLSCAN_OP_COMMUTATIVE))
        return CLSCAN_INVALID_ARGUMENT;
    if (clscan__is_user_value((unsigned)type) ? !clscan__user_type_of(ctx, type) : !type_ok(type))
        return CLSCAN_INVALID_ARGUMENT;
    if (!clscan__is_user_value((unsigned)type) && !supported(type))
        return CLSCAN_UNSUPPORTED;
    if (has_reserved(combine) || has_reserved(preamble))
        return CLSCAN_INVALID_ARGUMENT;
    return certain ? CLSCAN_SUCCESS : ANY;
}

/* Whether a scan may run an operator's code: nothing that loops, recurses, divides (a zero divisor
 * traps on a CPU) or redefines names (a macro reaches the library's code that follows it). A template,
 * or no preamble and a combine without braces, '#', '/', '%', quotes or line splices. */
static int safe_to_run(const struct form *form, const char *combine, const char *preamble)
{
    return form || (!preamble && !strpbrk(combine, "{}#/%\\\"'"));
}

/* A scan (or reduction) of n elements through op on a built-in type; against form's C twin if any. */
static void use_op(reader *r, clscan_type type, clscan_op op, const struct form *form, uint64_t *rng)
{
    const unsigned use = take8(r) % 4;
    const size_t n = 1 + take8(r) % MAX_N, elem = clscan_type_size(type);
    if (use == 0)
        return;
    uint8_t *in = malloc(n * elem), *out = malloc(n * elem), result[8];
    for (size_t i = 0; i < n * elem; i++)
        in[i] = (uint8_t)next_random(rng);
    for (size_t i = 0; form && i < n; i++)
        ((uint32_t *)in)[i] |= form->set;
    cl_int err = CL_SUCCESS;
    cl_mem a = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * elem, in, &err), b = NULL;
    if (err == CL_SUCCESS)
        b = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, n * elem, NULL, &err);
    if (err != CL_SUCCESS)
        abort();
    clscan_status st = use == 3 ? clscan_reduce(ctx, a, n, type, op, result)
                       : use == 2 ? clscan_exclusive_scan(ctx, a, b, n, type, op)
                                  : clscan_inclusive_scan(ctx, a, b, n, type, op);
    check_status(use == 3 ? "reduce" : "scan", st, CLSCAN_SUCCESS, 0);
    if (use < 3 && clEnqueueReadBuffer(ctx->queue, b, CL_TRUE, 0, n * elem, out, 0, NULL, NULL) != CL_SUCCESS)
        abort();
    uint32_t acc = form ? form->identity : 0;
    for (size_t i = 0; form && i < n; i++) {
        const uint32_t before = acc, got = use == 3 ? 0 : ((uint32_t *)out)[i];
        acc = form->ref(acc, ((uint32_t *)in)[i]);
        if (use < 3 && got != (use == 2 ? before : acc))
            fail("a scan with a registered template differs from the CPU");
    }
    if (form && use == 3 && memcmp(result, &acc, 4) != 0)
        fail("a reduction with a registered template differs from the CPU");
    clReleaseMemObject(a), clReleaseMemObject(b);
    free(in), free(out);
}

static void op_action(reader *r, unsigned opt, clscan_type last, uint64_t *rng)
{
    const clscan_type type = take_type(r, last);
    const unsigned fb = take8(r), ib = take8(r), flag_byte = take8(r);
    const struct form *form = fb < 0xa0 ? &forms[fb % COUNT(forms)] : NULL;
    text combine = {0}, preamble = {0};
    const char *tname = clscan__user_type_of(ctx, type) ? clscan__type_name(ctx, type) : "uint";
    if (form) {   /* with harmless noise: parentheses, blank lines, a comment */
        for (unsigned k = 0; k < (fb >> 5) % 3; k++)
            put_str(&combine, "(");
        put_str(&combine, fb & 0x10 ? "\n  /* x */ " : "");
        put_str(&combine, form->combine);
        for (unsigned k = 0; k < (fb >> 5) % 3; k++)
            put_str(&combine, ")");
        if (form->preamble)
            put_declaration(&preamble, form->preamble, tname);
        else
            preamble.null = 1;
    } else {
        if (fb & 1)
            put_str(&combine, forms[fb / 2 % COUNT(forms)].combine);
        else
            put_raw(&combine, r);
        vary(&combine, r);
        if (fb & 2)
            put_raw(&preamble, r), vary(&preamble, r);
        else
            preamble.null = 1;
    }
    /* The identity: the template's, bytes of the input, or NULL; as many bytes as the type has. */
    size_t elem = clscan_context_type_size(ctx, type);
    uint8_t *identity = ib == 0xff ? NULL : calloc(elem > 8 ? elem : 8, 1);
    for (size_t i = 0; identity && ib >= 0x80 && i < elem; i++)
        identity[i] = (uint8_t)take8(r);
    if (identity && ib < 0x80 && form)
        memcpy(identity, &form->identity, 4);
    const unsigned flags = flag_byte < 0xf0 ? (form ? form->flags : flag_byte & 1) : flag_byte;
    const int ctx_null = (opt & 0x1f) == 0x1f, out_null = opt >> 5 == 7;
    const char *c = combine.s ? combine.s : "", *p = preamble.null ? NULL : preamble.s ? preamble.s : "";
    /* Certain to build: a template other than the struct one, on uint. */
    const int certain = form && form->ref && type == CLSCAN_UINT32;
    const clscan_status want = expected_op(type, c, identity, p, flags, ctx_null, out_null, certain);
    if (verbose)
        fprintf(stderr, "fuzz_register: register_op(%stype %#x, \"%.200s\"%s, %s, \"%.200s\", %#x)\n",
                ctx_null ? "NULL ctx, " : "", (unsigned)type, c, strlen(c) > 200 ? "..." : "",
                identity ? "identity" : "NULL", p ? p : "(null)", flags);
    clscan_op got = (clscan_op)0x7e57;
    ctx->error[0] = '\0';
    clscan_status st = clscan_register_op(ctx_null ? NULL : ctx, type, c, identity, p, flags, out_null ? NULL : &got);
    check_status("register_op", st, want, ctx_null);
    uint8_t result[8];
    if (st == CLSCAN_SUCCESS) {
        if (got != next_op())
            fail("a registered operator is not the next value");
        n_ops++;
        if (clscan__is_user_value((unsigned)type)) {   /* an empty reduction gives the identity, up to 128 bytes */
            const size_t bytes = clscan_context_type_size(ctx, type);
            uint8_t *value = malloc(bytes ? bytes : 1);
            if (!value)
                fail("host allocation");
            ctx->error[0] = '\0';
            const clscan_status rst = clscan_reduce(ctx, NULL, 0, type, got, value);
            check_status("reduce", rst, bytes <= CLSCAN__ELEM_MAX ? CLSCAN_SUCCESS : CLSCAN_UNSUPPORTED, 0);
            if (rst == CLSCAN_SUCCESS && memcmp(value, identity, bytes) != 0)
                fail("an empty reduction did not give the registered identity");
            free(value);
        } else if (safe_to_run(form, c, p))   /* checked against the CPU if the operator is the template's */
            use_op(r, type, got, certain && ib < 0x80 && !(flags & ~form->flags) ? form : NULL, rng);
    } else if (got != (clscan_op)0x7e57)
        fail("a failed operator registration wrote *op");
    else {   /* the value it would have had is refused */
        ctx->error[0] = '\0';
        st = clscan_reduce(ctx, NULL, 0, CLSCAN_INT32, next_op(), result);
        if (st != CLSCAN_INVALID_ARGUMENT || !strstr(ctx->error, "not registered"))
            fail("a failed operator registration registered the operator");
    }
    free(combine.s), free(preamble.s), free(identity);
}

/* ---- the contexts -------------------------------------------------------------------------------- */
static clscan_context *context_with_anchors(clscan_type *type, clscan_op *op)
{
    clscan_context *c = NULL;
    const int32_t zero = 0;
    if (clscan_context_create(&c, getenv("CLSCAN_DEVICE") ? NULL : "cpu") != CLSCAN_SUCCESS) {
        fprintf(stderr, "fuzz_register: no OpenCL CPU device (install pocl-opencl-icd): %s\n", clscan_last_error(NULL));
        exit(1);
    }
    /* Tiles of 32 elements: a scan of MAX_N spans five, and block-sum has two levels. */
    clscan_tuning_set(c, CLSCAN_TUNE_WG_SIZE, 8);
    clscan_tuning_set(c, CLSCAN_TUNE_ITEMS, 4);
    if (clscan_register_type(c, "float2", NULL, 8, type) != CLSCAN_SUCCESS ||
        clscan_register_op(c, CLSCAN_INT32, "a + b", &zero, NULL, CLSCAN_OP_COMMUTATIVE, op) != CLSCAN_SUCCESS) {
        fprintf(stderr, "fuzz_register: the anchors' registration failed: %s\n", clscan_last_error(c));
        exit(1);
    }
    return c;
}

/* After every input: the context still scans right, with a built-in operator and with its anchor. */
static void check_usable(void)
{
    static const int32_t in[5] = {3, -1, 4, 1, -5}, want[5] = {3, 2, 6, 7, 2};
    int32_t out[5];
    if (clscan_inclusive_scan_host(ctx, in, out, 5, CLSCAN_INT32, CLSCAN_ADD) != CLSCAN_SUCCESS ||
        memcmp(out, want, sizeof out) != 0)
        fail("the context no longer scans");
    int32_t sum = 0;
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, (void *)in, &err);
    if (err != CL_SUCCESS)
        abort();
    if (clscan_reduce(ctx, m, 5, CLSCAN_INT32, anchor_op, &sum) != CLSCAN_SUCCESS || sum != 2)
        fail("the context no longer reduces with its first registered operator");
    clReleaseMemObject(m);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    setenv("CLSCAN_KERNEL_DIR", CLSCAN_FUZZ_CL_DIR, 0);   /* the program lives outside the build tree's */
    setenv("CLSCAN_CACHE", "0", 0);   /* every operator is new: nothing to gain from the disk cache */
    return 0;
}

/* An input: a head byte (1 + its bits 0-1: the number of actions), a data seed byte, then each action:
 * a selector (even: a type, odd: an operator), an option byte (low five bits all set: ctx NULL; top
 * three: the output pointer NULL) and the action's bytes (make_register_seeds.py shows them). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx) {
        sigaction(SIGABRT, NULL, &fuzzer_abort);
        ctx = context_with_anchors(&anchor_type, &anchor_op);
        other = context_with_anchors(&other_type, &other_op);
        verbose = getenv("CLSCAN_FUZZ_VERBOSE") && !strcmp(getenv("CLSCAN_FUZZ_VERBOSE"), "1");
    }
    if (n_types + n_ops >= RENEW) {
        clscan_context_release(ctx);
        ctx = context_with_anchors(&anchor_type, &anchor_op);
        n_types = n_ops = 0;
    }
    reader r = {data, size};
    const unsigned head = take8(&r);
    uint64_t rng = take8(&r);
    clscan_type last = anchor_type;   /* the type an operator of this input may take: the last registered */
    for (unsigned i = 0; i < 1 + head % MAX_ACTIONS; i++) {
        const unsigned sel = take8(&r), opt = take8(&r);
        const size_t types_before = n_types;
        if (sel % 2 == 0)
            type_action(&r, opt);
        else
            op_action(&r, opt, last, &rng);
        if (n_types > types_before)
            last = (clscan_type)((unsigned)next_type() - 1u);
    }
    check_usable();
    return 0;
}
