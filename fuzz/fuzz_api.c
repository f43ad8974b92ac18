/* Fuzz target: the argument checks of the public functions of include/clscan/clscan.h (of 0.2's, so far
 * the partition and unique), on one
 * long-lived context (the CPU device, PoCL, unless $CLSCAN_DEVICE names another) with small sizes.
 * An input decodes into a few calls: the function, its enums (out-of-range values too), its counts
 * (some that overflow), and each buffer as NULL, exact, larger, too small, read-only, write-only, from
 * another cl_context, an image, the argument before it again, or a sub-buffer apart from or partly over
 * it. Each call must give the status a second reading of the contract predicts; a failure must leave a
 * message and every buffer as it was; a success must match a CPU reference (data chosen so that float
 * results are exact in any order); and the context must scan correctly afterwards. Calls that pass
 * the checks run on tiles of 32 elements and on a few kernel configurations (canonical_types). */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "prims/prims.h"
#include "fuzz_reader.h"
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 4096                            /* elements; a run stays in milliseconds */
#define MAX_CALLS 4
#define MAX_ROOTS 8                           /* buffers made by one call (sub-buffers live in them) */
#define BYTE_CAP ((size_t)MAX_N * 8 + 512)    /* no buffer is larger: a bigger need is "too small" */

static clscan_context *ctx;
static cl_context foreign_cl;                 /* a second cl_context on the same device */
static cl_command_queue foreign_queue;
static cl_mem image;                          /* NULL where the device has no images */
static size_t align;                          /* sub-buffer offsets are multiples of this */
static int verbose;                           /* $CLSCAN_FUZZ_VERBOSE=1: every call and its status */
static int every_config;                      /* $CLSCAN_FUZZ_EVERY_CONFIG=1: see canonical_types */
static struct sigaction fuzzer_abort;         /* libFuzzer's SIGABRT handler, as the first run found it */

/* ---- reading the input (fuzz_reader.h) ---------------------------------------------------------- */

/* Mostly one of the count members of an enum; else just past its end, or far outside it. */
static int take_enum(reader *r, int count)
{
    static const int far[] = {-1, -2, INT_MIN, INT_MAX, 0x100, 0x10000};
    unsigned b = take8(r);
    if (b < 0xe0)
        return (int)(b % (unsigned)count);
    unsigned k = b & 7;
    return k < 2 ? count + (int)k : far[k - 2];
}

/* Mostly 0..MAX_N; else a size at an edge: past the buffers, or overflowing n * element size. */
static size_t take_count(reader *r)
{
    static const size_t edge[] = {SIZE_MAX, SIZE_MAX / 2 + 1, SIZE_MAX / 4 + 1, SIZE_MAX / 8 + 1, SIZE_MAX / 8,
                                  (size_t)1 << 32, ((size_t)1 << 32) + 1, UINT32_MAX, (size_t)1 << 62, MAX_N + 1};
    unsigned v = take16(r);
    return v >= 0xf000 ? edge[v % (sizeof edge / sizeof edge[0])] : v % (MAX_N + 1);
}

/* An image side: mostly 0..64 (at most MAX_N pixels), else one whose product overflows. */
static size_t take_side(reader *r)
{
    static const size_t edge[] = {SIZE_MAX, SIZE_MAX / 2 + 1, (size_t)1 << 32, ((size_t)1 << 32) + 1, UINT32_MAX,
                                  (size_t)1 << 33, 65, 1};
    unsigned v = take8(r);
    return v >= 0xf8 ? edge[v & 7] : v % 65;
}

static uint64_t next_random(uint64_t *s)   /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- element values and the CPU reference -------------------------------------------------------- */
#define TYPE_COUNT 10   /* clscan_type values, CLSCAN_INT32 .. CLSCAN_UINT16 */
static int type_ok(clscan_type t) { return (unsigned)t < TYPE_COUNT; }
static int op_ok(clscan_op op) { return (unsigned)op <= CLSCAN_MAX; }
static int is_float(clscan_type t) { return t == CLSCAN_FLOAT || t == CLSCAN_DOUBLE; }
static int is_signed(clscan_type t)
{
    return t == CLSCAN_INT8 || t == CLSCAN_INT16 || t == CLSCAN_INT32 || t == CLSCAN_INT64;
}
static uint64_t width_mask(clscan_type t)
{
    return clscan_type_size(t) == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * clscan_type_size(t))) - 1;
}

static uint64_t load(const uint8_t *p, size_t elem)
{
    uint64_t v = 0;
    memcpy(&v, p, elem);   /* little-endian hosts */
    return v;
}

static void store(uint8_t *p, size_t elem, uint64_t v) { memcpy(p, &v, elem); }

static uint64_t from_double(clscan_type t, double d)
{
    uint64_t bits = 0;
    if (t == CLSCAN_FLOAT) {
        float f = (float)d;
        memcpy(&bits, &f, sizeof f);
    } else
        memcpy(&bits, &d, sizeof d);
    return bits;
}

static double to_double(clscan_type t, uint64_t bits)
{
    if (t == CLSCAN_FLOAT) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t int_combine(clscan_type t, clscan_op op, uint64_t a, uint64_t b)
{
    uint64_t mask = width_mask(t), flip = is_signed(t) ? (mask >> 1) + 1 : 0;
    switch (op) {
    case CLSCAN_ADD: return (a + b) & mask;   /* wraps, as the contract says */
    case CLSCAN_MUL: return (a * b) & mask;
    case CLSCAN_MIN: return ((a ^ flip) < (b ^ flip) ? a : b);
    default: return ((a ^ flip) > (b ^ flip) ? a : b);
    }
}

static uint64_t combine(clscan_type t, clscan_op op, uint64_t a, uint64_t b)
{
    if (!is_float(t))
        return int_combine(t, op, a, b);
    double x = to_double(t, a), y = to_double(t, b);
    double r = op == CLSCAN_ADD ? x + y : op == CLSCAN_MUL ? x * y : op == CLSCAN_MIN ? fmin(x, y) : fmax(x, y);
    return from_double(t, r);   /* exact: the data keep float sums and products exact */
}

static uint64_t identity(clscan_type t, clscan_op op)
{
    if (is_float(t))
        return from_double(t, op == CLSCAN_ADD ? 0.0 : op == CLSCAN_MUL ? 1.0 : op == CLSCAN_MIN ? INFINITY : -INFINITY);
    int sign = is_signed(t);
    uint64_t mask = width_mask(t);
    uint64_t largest = sign ? mask >> 1 : mask, smallest = sign ? (mask >> 1) + 1 : 0;
    return op == CLSCAN_ADD ? 0 : op == CLSCAN_MUL ? 1 : op == CLSCAN_MIN ? largest : smallest;
}

/* Equal as results: floats by value (NaN equals NaN, -0 equals +0), integers bit for bit. */
static int same_value(clscan_type t, uint64_t a, uint64_t b)
{
    if (!is_float(t))
        return a == b;
    double x = to_double(t, a), y = to_double(t, b);
    return (isnan(x) && isnan(y)) || x == y;
}

/* A value for op: integers any bits; floats small integers for ADD (sums stay exact), +-1 or 0 for
 * MUL (products stay exact), anything with NaN, infinities and -0 for MIN and MAX. */
static uint64_t value_for(clscan_type t, clscan_op op, uint64_t *rng)
{
    uint64_t r = next_random(rng);
    if (!is_float(t))
        return r;
    if (op == CLSCAN_ADD)
        return from_double(t, (double)((int)(r % 17) - 8));
    if (op == CLSCAN_MUL)
        return from_double(t, r % 8 == 0 ? 0.0 : r % 8 < 4 ? -1.0 : 1.0);
    static const double special[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0};
    return from_double(t, r % 16 < 5 ? special[r % 16] : (double)(int64_t)(r >> 8) / 4096.0);
}

/* A sort key: few distinct values so that stability shows, float specials and NaNs with payloads. */
static uint64_t key_for(clscan_type t, uint64_t *rng)
{
    uint64_t r = next_random(rng);
    if (is_float(t) && r % 4 == 0)
        return value_for(t, CLSCAN_MIN, rng) ^ (r % 3 == 0 ? 1 : 0);   /* the low bit: another NaN payload */
    return r % 2 ? (r >> 8) % 8 * 0x0101010101010101ull : next_random(rng);
}

/* ---- buffers ----------------------------------------------------------------------------------- */
typedef enum fill { FILL_POISON, FILL_OP, FILL_BITS, FILL_FLAGS, FILL_KEYS } fill;

typedef struct root {         /* a buffer one call made; its sub-buffers point into it */
    cl_mem mem;
    cl_command_queue queue;
    size_t size;
    uint8_t *init, *expect;   /* what was written, what the call must leave */
    void *host;               /* CL_MEM_USE_HOST_PTR memory */
} root;

typedef struct arg {          /* one buffer argument as the call gets it */
    cl_mem mem;
    int root;                 /* -1: NULL or the image */
    size_t offset, size;      /* within the root */
    cl_mem_flags flags;
    int foreign, sub;
} arg;

typedef enum kind { B_EXACT, B_NULL, B_LARGER, B_SHORT, B_READ_ONLY, B_WRITE_ONLY, B_FOREIGN, B_IMAGE,
                    B_HOST_PTR, B_SAME, B_SUB_APART, B_SUB_OVER, B_KINDS } kind;

typedef struct exec {
    root roots[MAX_ROOTS];
    int nroots;
    cl_mem subs[MAX_ROOTS];
    int nsubs;
    uint64_t rng;
} exec;

static void fill_bytes(uint8_t *p, size_t bytes, clscan_type t, clscan_op op, fill f, uint64_t *rng)
{
    size_t elem = type_ok(t) ? clscan_type_size(t) : 4, density = next_random(rng) % 4;
    clscan_op o = op_ok(op) ? op : CLSCAN_ADD;
    for (size_t i = 0; i < bytes; i++)
        p[i] = f == FILL_POISON ? 0xA5 : f == FILL_FLAGS ? (next_random(rng) % 4 < density ? 0 : 1 + i % 255)
                                                        : (uint8_t)next_random(rng);
    if (f != FILL_OP && f != FILL_KEYS)
        return;
    for (size_t i = 0; i + elem <= bytes; i += elem)
        store(p + i, elem, f == FILL_KEYS ? key_for(t, rng) : value_for(t, o, rng));
}

static root *new_root(exec *e, size_t size, cl_mem_flags flags, int foreign)
{
    root *r = &e->roots[e->nroots++];
    memset(r, 0, sizeof *r);
    r->size = size;
    r->init = malloc(size);
    r->expect = malloc(size);
    r->queue = foreign ? foreign_queue : ctx->queue;
    if (flags & CL_MEM_USE_HOST_PTR)
        r->host = malloc(size);
    cl_int err = CL_SUCCESS;
    r->mem = clCreateBuffer(foreign ? foreign_cl : ctx->cl, flags, size, r->host, &err);
    if (!r->init || !r->expect || err != CL_SUCCESS) {
        fprintf(stderr, "fuzz_api: a buffer of %zu bytes could not be made (%d)\n", size, err);
        abort();
    }
    return r;
}

static void write_root(root *r, clscan_type t, clscan_op op, fill f, uint64_t *rng)
{
    fill_bytes(r->init, r->size, t, op, f, rng);
    memcpy(r->expect, r->init, r->size);
    if (clEnqueueWriteBuffer(r->queue, r->mem, CL_TRUE, 0, r->size, r->init, 0, NULL, NULL) != CL_SUCCESS)
        abort();
}

static cl_mem sub_buffer(exec *e, cl_mem parent, size_t offset, size_t size)
{
    cl_buffer_region region = {offset, size};
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err != CL_SUCCESS)
        abort();
    e->subs[e->nsubs++] = m;
    return m;
}

static void free_exec(exec *e)
{
    for (int i = 0; i < e->nsubs; i++)
        clReleaseMemObject(e->subs[i]);
    for (int i = 0; i < e->nroots; i++) {
        clReleaseMemObject(e->roots[i].mem);
        free(e->roots[i].init);
        free(e->roots[i].expect);
        free(e->roots[i].host);
    }
    e->nroots = e->nsubs = 0;
}

/* n elements of elem bytes, saturating: a saturated need is larger than any buffer. */
static size_t bytes_of(size_t n, size_t elem)
{
    return elem != 0 && n > SIZE_MAX / elem ? SIZE_MAX : n * elem;
}

/* A plain buffer of size bytes with flags, filled as its role wants. */
static arg plain_arg(exec *e, size_t size, cl_mem_flags flags, int foreign, clscan_type t, clscan_op op, fill f)
{
    root *r = new_root(e, size, flags, foreign);
    write_root(r, t, op, f, &e->rng);
    return (arg){r->mem, e->nroots - 1, 0, size, flags, foreign, 0};
}

/* A sub-buffer of prev's root one alignment step after (or before) it, or at its very place. */
static arg over_arg(exec *e, const arg *prev, size_t size, int earlier)
{
    const root *r = &e->roots[prev->root];
    size_t at = prev->offset;
    if (!earlier && at + align + size <= r->size)
        at += align;
    else if (at >= align && at - align + size <= r->size)
        at -= align;
    if (at + size > r->size)
        size = r->size - at;
    return (arg){sub_buffer(e, r->mem, at, size), prev->root, at, size, prev->flags, prev->foreign, 1};
}

/* Decodes and makes argument i, covering need bytes, after the arguments before it. */
static arg make_arg(exec *e, reader *rd, const arg *before, int i, size_t need, clscan_type t, clscan_op op, fill f)
{
    unsigned b = take8(rd);
    kind k = b < 0x80 ? B_EXACT : (kind)(b % B_KINDS);
    size_t exact = need == 0 ? 8 : need > BYTE_CAP ? BYTE_CAP : need;
    /* SAME and SUB_OVER refer to the argument one or two before (compact's in, flags, out). */
    const arg *prev = i > 1 && b / B_KINDS % 2 ? &before[i - 2] : i > 0 ? &before[i - 1] : NULL;
    switch (k) {
    case B_NULL: return (arg){NULL, -1, 0, 0, 0, 0, 0};
    case B_IMAGE: return (arg){image, -1, 0, 0, 0, 0, 0};
    case B_LARGER: return plain_arg(e, exact + 1 + take8(rd), CL_MEM_READ_WRITE, 0, t, op, f);
    case B_SHORT: return plain_arg(e, exact > 1 ? exact - 1 - take8(rd) % (exact - 1) : 1, CL_MEM_READ_WRITE, 0, t, op, f);
    case B_READ_ONLY: return plain_arg(e, exact, CL_MEM_READ_ONLY, 0, t, op, f);
    case B_WRITE_ONLY: return plain_arg(e, exact, CL_MEM_WRITE_ONLY, 0, t, op, f);
    case B_FOREIGN: return plain_arg(e, exact, CL_MEM_READ_WRITE, 1, t, op, f);
    case B_HOST_PTR: return plain_arg(e, exact, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 0, t, op, f);
    case B_SAME: if (prev) return *prev; break;
    case B_SUB_OVER: if (prev && prev->root >= 0) return over_arg(e, prev, exact, b / B_KINDS / 2 % 2); break;
    case B_SUB_APART: {
        arg a = plain_arg(e, exact + 2 * align, CL_MEM_READ_WRITE, 0, t, op, f);
        return (arg){sub_buffer(e, a.mem, align, exact), a.root, align, exact, a.flags, 0, 1};
    }
    default: break;
    }
    return plain_arg(e, exact, CL_MEM_READ_WRITE, 0, t, op, f);
}

/* ---- calls ------------------------------------------------------------------------------------- */
typedef enum fn { F_INCLUSIVE, F_EXCLUSIVE, F_REDUCE, F_COMPACT, F_SORT, F_SORT_BY_KEY, F_SAT, F_INCLUSIVE_HOST,
                  F_EXCLUSIVE_HOST, F_SET_ALGORITHM, F_FINISH, F_CREATE, F_CREATE_FROM_QUEUE, F_MISC,
                  F_PARTITION, F_UNIQUE, F_COUNT } fn;
/* The functions of 0.2 come after: a selector byte from 0xf0 on takes them, so that the inputs written
 * before (corpus, regressions) decode as they did. */
#define F_ADDED F_PARTITION

static const char *const fn_names[F_COUNT] = {
    "inclusive_scan", "exclusive_scan", "reduce", "compact", "sort", "sort_by_key", "summed_area_table",
    "inclusive_scan_host", "exclusive_scan_host", "set_algorithm", "finish", "context_create",
    "context_create_from_queue", "misc", "partition", "unique"};

typedef struct call {
    fn f;
    int ctx_null, ptr_null;   /* ctx, and reduce's result or compact's count, passed as NULL */
    clscan_type type, vtype;
    clscan_op op;
    size_t n, width, height;
    int nbuf;
    arg args[3];
    size_t need[3];           /* bytes of each buffer the call covers */
} call;

static void describe(const call *c)
{
    fprintf(stderr, "fuzz_api: clscan_%s(ctx%s, n = %zu (%zu x %zu), type %d, value type %d, op %d%s)\n",
            fn_names[c->f], c->ctx_null ? " = NULL" : "", c->n, c->width, c->height, (int)c->type, (int)c->vtype,
            (int)c->op, c->ptr_null ? ", NULL result" : "");
    for (int i = 0; i < c->nbuf; i++)
        fprintf(stderr, "  buffer %d: %p root %d offset %zu size %zu (covers %zu) flags %#llx%s%s\n", i,
                (void *)c->args[i].mem, c->args[i].root, c->args[i].offset, c->args[i].size, c->need[i],
                (unsigned long long)c->args[i].flags, c->args[i].foreign ? " foreign" : "",
                c->args[i].sub ? " sub-buffer" : "");
}

static void fail(const call *c, const char *what)
{
    if (c)
        describe(c);
    fprintf(stderr, "fuzz_api: %s\n  last error: \"%s\"\n", what, clscan_last_error(ctx));
    /* PoCL's LLVM puts its own SIGABRT handler in front when it first compiles; abort() would then
     * end the process past libFuzzer's handler, which writes the crashing input. */
    sigaction(SIGABRT, &fuzzer_abort, NULL);
    abort();
}

/* Roles of the buffers: what each is filled with and how it is accessed. */
static void device_roles(const call *c, fill f[3], int reads[3], int writes[3])
{
    static const struct { fill f[3]; int r[3], w[3]; } roles[] = {
        [F_INCLUSIVE] = {{FILL_OP, FILL_POISON}, {1, 0}, {0, 1}},
        [F_EXCLUSIVE] = {{FILL_OP, FILL_POISON}, {1, 0}, {0, 1}},
        [F_REDUCE] = {{FILL_OP}, {1}, {0}},
        [F_COMPACT] = {{FILL_BITS, FILL_FLAGS, FILL_POISON}, {1, 1, 0}, {0, 0, 1}},
        [F_PARTITION] = {{FILL_BITS, FILL_FLAGS, FILL_POISON}, {1, 1, 0}, {0, 0, 1}},
        [F_UNIQUE] = {{FILL_KEYS, FILL_POISON}, {1, 0}, {0, 1}},
        [F_SORT] = {{FILL_KEYS}, {1}, {1}},
        [F_SORT_BY_KEY] = {{FILL_KEYS, FILL_BITS}, {1, 1}, {1, 1}},
        [F_SAT] = {{FILL_OP, FILL_POISON}, {1, 0}, {0, 1}},
    };
    for (int i = 0; i < 3; i++)
        f[i] = roles[c->f].f[i], reads[i] = roles[c->f].r[i], writes[i] = roles[c->f].w[i];
}

static int device_nbuf(fn f)
{
    return f == F_REDUCE || f == F_SORT ? 1 : f == F_COMPACT || f == F_PARTITION ? 3 : 2;
}

static void decode_device_call(exec *e, reader *r, call *c)
{
    c->type = (clscan_type)take_enum(r, TYPE_COUNT);
    c->vtype = (clscan_type)take_enum(r, TYPE_COUNT);
    const int moves = c->f == F_COMPACT || c->f == F_PARTITION || c->f == F_UNIQUE;   /* bits, no operator */
    c->op = c->f == F_SAT || moves ? CLSCAN_ADD : (clscan_op)take_enum(r, 4);
    if (c->f == F_SAT) {
        c->width = take_side(r);
        c->height = take_side(r);
        c->n = c->width != 0 && c->height > SIZE_MAX / c->width ? SIZE_MAX : c->width * c->height;
    } else
        c->n = take_count(r);
    size_t elem = clscan_type_size(c->type);
    c->nbuf = device_nbuf(c->f);
    for (int i = 0; i < c->nbuf; i++)
        c->need[i] = bytes_of(c->n, elem);
    if (c->f == F_COMPACT || c->f == F_PARTITION)
        c->need[1] = c->n;
    if (c->f == F_SORT_BY_KEY)
        c->need[1] = bytes_of(c->n, clscan_type_size(c->vtype));
    fill f[3];
    int reads[3], writes[3];
    device_roles(c, f, reads, writes);
    clscan_type fill_type[3] = {c->type, c->f == F_SORT_BY_KEY ? c->vtype : c->type, c->type};
    for (int i = 0; i < c->nbuf; i++)
        c->args[i] = make_arg(e, r, c->args, i, c->need[i], fill_type[i], c->op, f[i]);
}

/* ---- the status the contract gives ------------------------------------------------------------- */
static int supported(clscan_type t, int bits_only)
{
    if (clscan_type_size(t) == 8 && !ctx->info.int64)
        return 0;
    return bits_only || t != CLSCAN_DOUBLE || ctx->info.fp64;
}

static int buffer_ok(const arg *a, size_t need, int reads, int writes)
{
    if (!a->mem || a->root < 0 || a->foreign || a->size < need)
        return 0;
    return !(reads && (a->flags & CL_MEM_WRITE_ONLY)) && !(writes && (a->flags & CL_MEM_READ_ONLY));
}

/* Whether the covered bytes of two arguments share memory, other than exactly (when that is allowed). */
static int overlap(const call *c, int i, int j, int same_allowed)
{
    const arg *a = &c->args[i], *b = &c->args[j];
    if (a->root < 0 || a->root != b->root || c->need[i] == 0 || c->need[j] == 0)
        return 0;
    if (a->offset == b->offset && same_allowed)
        return 0;
    return a->offset < b->offset + c->need[j] && b->offset < a->offset + c->need[i];
}

static int overlaps_forbidden(const call *c)
{
    switch (c->f) {
    case F_COMPACT: case F_PARTITION: return overlap(c, 0, 2, 0) || overlap(c, 1, 2, 0);
    case F_UNIQUE: return overlap(c, 0, 1, 0);
    case F_SORT_BY_KEY: return overlap(c, 0, 1, 0);
    case F_SORT: case F_REDUCE: return 0;
    default: return overlap(c, 0, 1, 1);
    }
}

/* Enums and element support, in the order the library checks them. */
static clscan_status expected_types(const call *c)
{
    if (c->f == F_SORT || c->f == F_SORT_BY_KEY) {
        for (int i = 0; i < (c->f == F_SORT_BY_KEY ? 2 : 1); i++) {
            clscan_type t = i ? c->vtype : c->type;
            if (!type_ok(t))
                return CLSCAN_INVALID_ARGUMENT;
            if (!supported(t, 1))
                return CLSCAN_UNSUPPORTED;
        }
        return CLSCAN_SUCCESS;
    }
    if (c->n == SIZE_MAX && c->f == F_SAT)   /* width * height overflows: checked first */
        return CLSCAN_INVALID_ARGUMENT;
    if (!type_ok(c->type) || !op_ok(c->op) || bytes_of(c->n, clscan_type_size(c->type)) == SIZE_MAX)
        return CLSCAN_INVALID_ARGUMENT;
    return supported(c->type, 0) ? CLSCAN_SUCCESS : CLSCAN_UNSUPPORTED;
}

static clscan_status expected_device(const call *c)
{
    if (c->ctx_null)
        return CLSCAN_INVALID_ARGUMENT;
    clscan_status st = expected_types(c);
    if (st != CLSCAN_SUCCESS)
        return st;
    if (c->ptr_null && (c->f == F_REDUCE || c->f == F_COMPACT || c->f == F_PARTITION || c->f == F_UNIQUE))
        return CLSCAN_INVALID_ARGUMENT;
    if (c->n == 0)
        return CLSCAN_SUCCESS;
    fill f[3];
    int reads[3], writes[3];
    device_roles(c, f, reads, writes);
    for (int i = 0; i < c->nbuf; i++)
        if (!buffer_ok(&c->args[i], c->need[i], reads[i], writes[i]))
            return CLSCAN_INVALID_ARGUMENT;
    return overlaps_forbidden(c) ? CLSCAN_INVALID_ARGUMENT : CLSCAN_SUCCESS;
}

/* The signed (value: unsigned) integer of an element's size; a sort key of 4 bytes is a float. */
static clscan_type of_size(size_t elem, int sort_key, int value)
{
    switch (elem) {
    case 1: return value ? CLSCAN_UINT8 : CLSCAN_INT8;
    case 2: return value ? CLSCAN_UINT16 : CLSCAN_INT16;
    case 8: return value ? CLSCAN_UINT64 : CLSCAN_INT64;
    default: return sort_key ? CLSCAN_FLOAT : value ? CLSCAN_UINT32 : CLSCAN_INT32;
    }
}

/* A call the contract lets through runs on one of a few kernel configurations: each new one costs
 * PoCL a build of seconds, which would leave a bounded run little time for the argument checks, and
 * the kernels' results for every type, operator and algorithm are the unit tests' part. The element
 * size (so every size check) and the expected status stay as decoded; the data are read as the new
 * type. Scans, reductions and tables: the signed integer of the size, ADD; sorts: float at 4 bytes,
 * else the signed integer (NaN order, sign flip), values the unsigned integer of their width.
 * Longer runs can take every configuration as decoded, work-group algorithms included:
 * CLSCAN_FUZZ_EVERY_CONFIG=1 (some 500 builds). */
static void canonical_types(call *c)
{
    if (every_config)
        return;
    const int sort = c->f == F_SORT || c->f == F_SORT_BY_KEY;
    if (c->f == F_COMPACT || c->f == F_PARTITION)   /* compaction builds by element size alone */
        return;
    c->type = of_size(clscan_type_size(c->type), sort, 0);
    if (sort)
        c->vtype = of_size(clscan_type_size(c->vtype), 0, 1);
    else
        c->op = CLSCAN_ADD;
}

/* ---- the reference, applied to the expected contents of the roots -------------------------------- */
static uint8_t *at(exec *e, const arg *a) { return e->roots[a->root].expect + a->offset; }

/* A copy of what an argument covers before the call (so that in-place results are computed right). */
static uint8_t *gather(exec *e, const arg *a, size_t bytes)
{
    uint8_t *copy = malloc(bytes ? bytes : 1);
    if (!copy)
        abort();
    memcpy(copy, at(e, a), bytes);
    return copy;
}

static void scan_reference(const uint8_t *in, uint8_t *out, size_t n, clscan_type t, clscan_op op, int exclusive)
{
    size_t elem = clscan_type_size(t);
    uint64_t acc = identity(t, op);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = load(in + i * elem, elem);
        if (exclusive)
            store(out + i * elem, elem, acc);
        acc = combine(t, op, acc, x);
        if (!exclusive)
            store(out + i * elem, elem, acc);
    }
}

static void sat_reference(const uint8_t *in, uint8_t *out, size_t w, size_t h, clscan_type t)
{
    size_t elem = clscan_type_size(t);
    for (size_t y = 0; y < h; y++)   /* rows scanned, then each column added down */
        scan_reference(in + y * w * elem, out + y * w * elem, w, t, CLSCAN_ADD, 0);
    for (size_t y = 1; y < h; y++)
        for (size_t x = 0; x < w; x++) {
            size_t i = (y * w + x) * elem, up = ((y - 1) * w + x) * elem;
            store(out + i, elem, combine(t, CLSCAN_ADD, load(out + i, elem), load(out + up, elem)));
        }
}

/* The sort order of the contract as an integer pair: NaNs after every number, by their bits. */
static void sort_rank(clscan_type t, uint64_t bits, int *nan, uint64_t *rank)
{
    uint64_t mask = width_mask(t), sign = (mask >> 1) + 1;
    *nan = is_float(t) && isnan(to_double(t, bits));
    if (*nan || (!is_float(t) && !is_signed(t)))
        *rank = bits;
    else if (!is_float(t))
        *rank = bits ^ sign;
    else
        *rank = bits & sign ? ~bits & mask : bits | sign;
}

static int key_less(clscan_type t, const uint8_t *keys, size_t a, size_t b)
{
    size_t elem = clscan_type_size(t);
    int na, nb;
    uint64_t ra, rb;
    sort_rank(t, load(keys + a * elem, elem), &na, &ra);
    sort_rank(t, load(keys + b * elem, elem), &nb, &rb);
    return na != nb ? na < nb : ra < rb;
}

/* A stable merge sort of the indices 0..n-1 by key. */
static void stable_order(clscan_type t, const uint8_t *keys, size_t n, size_t *idx)
{
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        abort();
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid || j < hi)
                tmp[k++] = j >= hi || (i < mid && !key_less(t, keys, idx[j], idx[i])) ? idx[i++] : idx[j++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
    free(tmp);
}

static void sort_reference(exec *e, const call *c)
{
    size_t kb = clscan_type_size(c->type), vb = clscan_type_size(c->vtype), n = c->n;
    uint8_t *keys = gather(e, &c->args[0], n * kb);
    uint8_t *values = c->f == F_SORT_BY_KEY ? gather(e, &c->args[1], n * vb) : NULL;
    size_t *idx = malloc(n * sizeof *idx);
    if (!idx)
        abort();
    stable_order(c->type, keys, n, idx);
    for (size_t i = 0; i < n; i++) {
        memcpy(at(e, &c->args[0]) + i * kb, keys + idx[i] * kb, kb);
        if (values)
            memcpy(at(e, &c->args[1]) + i * vb, values + idx[i] * vb, vb);
    }
    free(idx);
    free(keys);
    free(values);
}

/* The part of an output compared as values, not bytes (float results), and one left unspecified. */
typedef struct region { int root; size_t offset, bytes; clscan_type type; } region;

static void compact_reference(exec *e, const call *c, size_t count, region *loose)
{
    size_t elem = clscan_type_size(c->type), kept = 0;
    uint8_t *in = gather(e, &c->args[0], c->n * elem), *flags = gather(e, &c->args[1], c->n);
    for (size_t i = 0; i < c->n; i++)
        if (flags[i])
            memcpy(at(e, &c->args[2]) + kept++ * elem, in + i * elem, elem);
    if (kept != count)
        fail(c, "compact: the count differs from the reference");
    /* Behind the kept elements, out is not specified. */
    *loose = (region){c->args[2].root, c->args[2].offset + kept * elem, (c->n - kept) * elem, CLSCAN_UINT32};
    free(in);
    free(flags);
}

/* The flagged elements in order, then the others in order: every byte of out specified. */
static void partition_reference(exec *e, const call *c, size_t count)
{
    size_t elem = clscan_type_size(c->type), kept = 0, other = 0;
    uint8_t *in = gather(e, &c->args[0], c->n * elem), *flags = gather(e, &c->args[1], c->n);
    for (size_t i = 0; i < c->n; i++)
        kept += flags[i] != 0;
    if (kept != count)
        fail(c, "partition: the count differs from the reference");
    for (size_t i = 0, front = 0; i < c->n; i++)
        memcpy(at(e, &c->args[2]) + (flags[i] ? front++ : kept + other++) * elem, in + i * elem, elem);
    free(in);
    free(flags);
}

/* The first element of each run of equal bits; out past them unspecified. */
static void unique_reference(exec *e, const call *c, size_t count, region *loose)
{
    size_t elem = clscan_type_size(c->type), runs = 0;
    uint8_t *in = gather(e, &c->args[0], c->n * elem);
    for (size_t i = 0; i < c->n; i++)
        if (i == 0 || memcmp(in + i * elem, in + (i - 1) * elem, elem) != 0)
            memcpy(at(e, &c->args[1]) + runs++ * elem, in + i * elem, elem);
    if (runs != count)
        fail(c, "unique: the count differs from the reference");
    *loose = (region){c->args[1].root, c->args[1].offset + runs * elem, (c->n - runs) * elem, CLSCAN_UINT32};
    free(in);
}

static void apply_reference(exec *e, const call *c, const uint8_t *result, size_t count, region *typed, region *loose)
{
    size_t elem = clscan_type_size(c->type), bytes = c->n * elem;
    if (c->n == 0)
        return;
    if (c->f == F_INCLUSIVE || c->f == F_EXCLUSIVE || c->f == F_SAT) {
        uint8_t *in = gather(e, &c->args[0], bytes);
        if (c->f == F_SAT)
            sat_reference(in, at(e, &c->args[1]), c->width, c->height, c->type);
        else
            scan_reference(in, at(e, &c->args[1]), c->n, c->type, c->op, c->f == F_EXCLUSIVE);
        *typed = (region){c->args[1].root, c->args[1].offset, bytes, c->type};
        free(in);
    } else if (c->f == F_REDUCE) {
        uint8_t *in = gather(e, &c->args[0], bytes), *last = malloc(bytes);
        if (!last)
            abort();
        scan_reference(in, last, c->n, c->type, c->op, 0);
        if (!same_value(c->type, load(last + bytes - elem, elem), load(result, elem)))
            fail(c, "reduce: the result differs from the reference");
        free(in);
        free(last);
    } else if (c->f == F_COMPACT)
        compact_reference(e, c, count, loose);
    else if (c->f == F_PARTITION)
        partition_reference(e, c, count);
    else if (c->f == F_UNIQUE)
        unique_reference(e, c, count, loose);
    else
        sort_reference(e, c);
}

/* ---- checking the buffers afterwards ----------------------------------------------------------- */
static void compare_root(exec *e, int i, const call *c, const region *typed, const region *loose)
{
    root *r = &e->roots[i];
    uint8_t *got = malloc(r->size);
    if (!got || clEnqueueReadBuffer(r->queue, r->mem, CL_TRUE, 0, r->size, got, 0, NULL, NULL) != CL_SUCCESS)
        fail(c, "a buffer could not be read back");
    if (loose && loose->root == i)
        memcpy(r->expect + loose->offset, got + loose->offset, loose->bytes);
    if (typed && typed->root == i) {
        size_t elem = clscan_type_size(typed->type);
        for (size_t o = typed->offset; o < typed->offset + typed->bytes; o += elem) {
            if (!same_value(typed->type, load(got + o, elem), load(r->expect + o, elem))) {
                fprintf(stderr, "fuzz_api: element %zu\n", (o - typed->offset) / elem);
                fail(c, "the result differs from the reference");
            }
            memcpy(r->expect + o, got + o, elem);
        }
    }
    for (size_t b = 0; b < r->size; b++)
        if (got[b] != r->expect[b]) {
            fprintf(stderr, "fuzz_api: buffer %d byte %zu is %#x, %#x expected\n", i, b, got[b], r->expect[b]);
            fail(c, "a buffer holds what the call should not have left there");
        }
    free(got);
}

static void check_status(const call *c, clscan_status got, clscan_status want)
{
    int creation = c->f == F_CREATE || c->f == F_CREATE_FROM_QUEUE;   /* their message: check_created */
    if (verbose) {   /* to see what an input does: CLSCAN_FUZZ_VERBOSE=1 ./fuzz_api <file> */
        describe(c);
        fprintf(stderr, "  -> %s; %s\n", clscan_status_string(got),
                creation ? clscan_last_error(NULL) : c->ctx_null ? "" : ctx->error);
    }
    if (got < CLSCAN_OPENCL_ERROR || got > CLSCAN_SUCCESS)
        fail(c, "the status is not one of clscan_status");
    if (got != want) {
        fprintf(stderr, "fuzz_api: status %d (%s), %d (%s) expected\n", (int)got, clscan_status_string(got),
                (int)want, clscan_status_string(want));
        fail(c, "unexpected status");
    }
    if (got != CLSCAN_SUCCESS && !c->ctx_null && !creation && ctx->error[0] == '\0')
        fail(c, "a failure left no message in clscan_last_error");
}

static clscan_status invoke_device(const call *c, uint8_t *result, size_t *count)
{
    clscan_context *x = c->ctx_null ? NULL : ctx;
    cl_mem a = c->args[0].mem, b = c->args[1].mem, d = c->args[2].mem;
    void *res = c->ptr_null ? NULL : result;
    size_t *cnt = c->ptr_null ? NULL : count;
    switch (c->f) {
    case F_INCLUSIVE: return clscan_inclusive_scan(x, a, b, c->n, c->type, c->op);
    case F_EXCLUSIVE: return clscan_exclusive_scan(x, a, b, c->n, c->type, c->op);
    case F_REDUCE: return clscan_reduce(x, a, c->n, c->type, c->op, res);
    case F_COMPACT: return clscan_compact(x, a, b, d, c->n, c->type, cnt);
    case F_PARTITION: return clscan_partition(x, a, b, d, c->n, c->type, cnt);
    case F_UNIQUE: return clscan_unique(x, a, b, c->n, c->type, cnt);
    case F_SORT: return clscan_sort(x, a, c->n, c->type);
    case F_SORT_BY_KEY: return clscan_sort_by_key(x, a, b, c->n, c->type, c->vtype);
    default: return clscan_summed_area_table(x, a, b, c->width, c->height, c->type);
    }
}

static int device_call(exec *e, reader *r, call *c)
{
    decode_device_call(e, r, c);
    clscan_status want = expected_device(c);
    if (want == CLSCAN_SUCCESS && c->n > 0)
        canonical_types(c);
    /* result and count have exactly the room the contract gives them: ASan sees a write past it. */
    uint8_t *result = malloc(type_ok(c->type) ? clscan_type_size(c->type) : 1);
    size_t *count = malloc(sizeof *count);
    if (!result || !count)
        abort();
    ctx->error[0] = '\0';
    clscan_status got = invoke_device(c, result, count);
    check_status(c, got, want);
    if (clscan_finish(ctx) != CLSCAN_SUCCESS)
        fail(c, "clscan_finish failed after the call");
    region typed = {-1, 0, 0, CLSCAN_UINT32}, loose = {-1, 0, 0, CLSCAN_UINT32};
    if (got == CLSCAN_SUCCESS)
        apply_reference(e, c, result, *count, &typed, &loose);
    for (int i = 0; i < e->nroots; i++)
        compare_root(e, i, c, &typed, &loose);
    free(result);
    free(count);
    return got == CLSCAN_SUCCESS;
}

/* ---- host-memory scans ------------------------------------------------------------------------- */
static int host_call(reader *r, call *c)
{
    c->type = (clscan_type)take_enum(r, TYPE_COUNT);
    c->op = (clscan_op)take_enum(r, 4);
    c->n = take_count(r);
    unsigned shape = take8(r);
    size_t elem = clscan_type_size(c->type), bytes = bytes_of(c->n, elem);
    int rejected_early = !type_ok(c->type) || !op_ok(c->op) || bytes == SIZE_MAX;
    /* Arrays of exactly n elements; past MAX_N none (the caller's side of the contract), unless the
     * library must refuse before it reads any. */
    size_t len = rejected_early ? 16 : c->n <= MAX_N ? bytes : 0;
    uint8_t *in = len && shape % 4 ? malloc(len) : NULL, *out = len && shape / 4 % 4 ? malloc(len) : NULL;
    int same = in && shape / 16 % 4 == 0;   /* in place */
    uint8_t *init = malloc(len ? len : 1), *expect = malloc(len ? len : 1);
    if (!init || !expect)
        abort();
    uint64_t rng = take32(r);
    fill_bytes(init, len, c->type, c->op, FILL_OP, &rng);
    if (in)
        memcpy(in, init, len);
    if (same)
        free(out), out = in;
    else if (out)
        memset(out, 0xA5, len);
    clscan_status want = rejected_early ? CLSCAN_INVALID_ARGUMENT
                         : !supported(c->type, 0)    ? CLSCAN_UNSUPPORTED
                         : c->n > 0 && (!in || !out) ? CLSCAN_INVALID_ARGUMENT : CLSCAN_SUCCESS;
    if (c->ctx_null)
        want = CLSCAN_INVALID_ARGUMENT;
    if (want == CLSCAN_SUCCESS && c->n > 0)
        canonical_types(c);
    clscan_context *x = c->ctx_null ? NULL : ctx;
    ctx->error[0] = '\0';
    clscan_status got = c->f == F_INCLUSIVE_HOST ? clscan_inclusive_scan_host(x, in, out, c->n, c->type, c->op)
                                                 : clscan_exclusive_scan_host(x, in, out, c->n, c->type, c->op);
    check_status(c, got, want);
    if (in && !same && memcmp(in, init, len) != 0)
        fail(c, "a host scan wrote to its input");
    if (got == CLSCAN_SUCCESS && c->n > 0) {
        scan_reference(init, expect, c->n, c->type, c->op, c->f == F_EXCLUSIVE_HOST);
        for (size_t i = 0; i < c->n; i++)
            if (!same_value(c->type, load(out + i * elem, elem), load(expect + i * elem, elem)))
                fail(c, "a host scan differs from the reference");
    } else if (got != CLSCAN_SUCCESS && out)
        for (size_t i = 0; i < len; i++)
            if (out[i] != (same ? init[i] : 0xA5))
                fail(c, "a failed host scan wrote to its output");
    if (!same)
        free(out);
    free(in);
    free(init);
    free(expect);
    return got == CLSCAN_SUCCESS;
}

/* ---- context and settings ---------------------------------------------------------------------- */
static int algorithm_call(reader *r, call *c)
{
    clscan_strategy s = (clscan_strategy)take_enum(r, 4);
    clscan_wg_algorithm w = (clscan_wg_algorithm)take_enum(r, 4);
    clscan_strategy old_s = ctx->strategy;
    clscan_wg_algorithm old_w = ctx->wg;
    int known = (unsigned)s <= CLSCAN_STRATEGY_SINGLE_PASS && (unsigned)w <= CLSCAN_WG_SUBGROUP;
    c->type = (clscan_type)s, c->vtype = (clscan_type)w;   /* shown by describe() */
    ctx->error[0] = '\0';
    clscan_status got = clscan_set_algorithm(c->ctx_null ? NULL : ctx, s, w);
    check_status(c, got, c->ctx_null || !known ? CLSCAN_INVALID_ARGUMENT : CLSCAN_SUCCESS);
    int applied = ctx->strategy == s && ctx->wg == w, kept = ctx->strategy == old_s && ctx->wg == old_w;
    if (got == CLSCAN_SUCCESS ? !applied : !kept)
        fail(c, "set_algorithm: the context's algorithms are not what the status says");
    /* Strategies share a program; another work-group algorithm is another build (see canonical_types). */
    if (got == CLSCAN_SUCCESS && w != CLSCAN_WG_AUTO && !every_config)
        clscan_set_algorithm(ctx, s, CLSCAN_WG_AUTO);
    return got == CLSCAN_SUCCESS;
}

/* What creation with this spec must give: the parser and the device list's match decide. */
static clscan_status expected_create(const char *text)
{
    clscan__device_spec spec = clscan__parse_device_spec(text ? text : getenv("CLSCAN_DEVICE"));
    if (spec.kind == CLSCAN__SPEC_INVALID)
        return CLSCAN_INVALID_ARGUMENT;
    clscan__device_entry *list = NULL;
    size_t count = 0;
    const char *call_name = "";
    if (clscan__list_devices(&list, &count, &call_name) != CL_SUCCESS)
        abort();
    long i = clscan__match_device(&spec, list, count);
    free(list);
    return i < 0 ? CLSCAN_DEVICE_NOT_FOUND : CLSCAN_SUCCESS;
}

/* A created context on success (then released), NULL and a thread message on failure. The thread's
 * message is that of the last failed creation: a success leaves it as it was (before). */
static void check_created(const call *c, clscan_status got, clscan_context *made, cl_command_queue queue,
                          const char *before)
{
    if (got == CLSCAN_SUCCESS && strcmp(clscan_last_error(NULL), before) != 0)
        fail(c, "a successful creation changed clscan_last_error(NULL)");
    if (got != CLSCAN_SUCCESS) {
        if (made != NULL)
            fail(c, "a failed creation did not set *ctx to NULL");
        if (clscan_last_error(NULL)[0] == '\0')
            fail(c, "a failed creation left no message in clscan_last_error(NULL)");
        return;
    }
    if (!made || !clscan_context_cl_context(made) || !clscan_context_device(made) ||
        (queue && clscan_context_queue(made) != queue) || clscan_last_error(made)[0] != '\0')
        fail(c, "a created context is not what was asked for");
    clscan_context_release(made);
}

/* Up to 63 bytes of the input as a string (it ends early at a NUL byte). */
static void take_string(reader *r, char *out)
{
    size_t len = take8(r) % 64;
    for (size_t i = 0; i < len; i++)
        out[i] = (char)take8(r);
    out[len] = '\0';
}

/* Creation also reads strings from the environment: one of them is set from the input meanwhile. */
static const char *const env_names[] = {NULL, "CLSCAN_TUNING", "CLSCAN_CACHE", "CLSCAN_DEVICE"};

/* A second reading of $CLSCAN_TUNING's grammar: entries between commas, each empty or a key name of
 * clscan_tuning.h, '=', and a decimal integer (sign allowed) of at most 31 characters. */
static int tuning_text_valid(const char *text)
{
    for (const char *entry = text; *entry;) {
        size_t len = strcspn(entry, ",");
        const char *eq = memchr(entry, '=', len);
        if (len > 0) {
            int known = 0;
            for (int k = 0; eq && k < CLSCAN_TUNE_KEY_COUNT; k++) {
                const char *name = clscan_tuning_key_name((clscan_tuning_key)k);
                known |= strlen(name) == (size_t)(eq - entry) && !strncmp(entry, name, strlen(name));
            }
            size_t digits = eq ? len - (size_t)(eq - entry) - 1 : 0;
            char number[32] = "";
            if (!known || digits == 0 || digits > 31)
                return 0;
            memcpy(number, eq + 1, digits);
            char *end = NULL;
            (void)strtol(number, &end, 10);
            if (*end != '\0')
                return 0;
        }
        entry += len + (entry[len] == ',');
    }
    return 1;
}

static int create_call(reader *r, call *c)
{
    unsigned shape = take8(r);
    char spec[CLSCAN__NAME_LEN + 40], value[64];
    take_string(r, spec);
    if (shape & 1) {   /* too long by one, or by more */
        memset(spec + strlen(spec), 'x', sizeof spec - 1 - strlen(spec));
        spec[CLSCAN__NAME_LEN + (shape & 2 ? 0 : 30)] = '\0';
    }
    const char *text = shape & 4 ? NULL : spec;   /* NULL: $CLSCAN_DEVICE, else the default */
    const char *env = env_names[shape >> 6];
    char *saved = env && getenv(env) ? strdup(getenv(env)) : NULL;
    if (env) {
        take_string(r, value);
        setenv(env, value, 1);
    }
    clscan_context *made = (clscan_context *)&made, **out = (shape & 0x38) == 0x38 ? NULL : &made;
    clscan_status want = out ? expected_create(text) : CLSCAN_INVALID_ARGUMENT;
    if (want == CLSCAN_SUCCESS && env == env_names[1] && !tuning_text_valid(value))
        want = CLSCAN_INVALID_ARGUMENT;
    char before[4096];
    snprintf(before, sizeof before, "%s", clscan_last_error(NULL));
    clscan_status got = clscan_context_create(out, text);
    if (saved)
        setenv(env, saved, 1);
    else if (env)
        unsetenv(env);
    free(saved);
    check_status(c, got, want);
    check_created(c, got, out ? made : NULL, NULL, before);
    return 1;   /* a failed creation touches no context */
}

static int create_from_queue_call(reader *r, call *c)
{
    unsigned shape = take8(r);
    cl_command_queue queue = shape % 3 == 0 ? NULL : shape % 3 == 1 ? ctx->queue : foreign_queue;
    clscan_context *made = (clscan_context *)&made, **out = (shape & 0x38) == 0x38 ? NULL : &made;
    char before[4096];
    snprintf(before, sizeof before, "%s", clscan_last_error(NULL));
    clscan_status got = clscan_context_create_from_queue(out, queue);
    check_status(c, got, out && queue ? CLSCAN_SUCCESS : CLSCAN_INVALID_ARGUMENT);
    check_created(c, got, out ? made : NULL, queue, before);
    return 1;
}

/* The functions that cannot fail: names, version, sizes, accessors of NULL. */
static int misc_call(reader *r, call *c)
{
    int status = (int)take32(r);
    clscan_type t = (clscan_type)take_enum(r, TYPE_COUNT);
    const char *name = clscan_status_string((clscan_status)status);
    if (!name || !name[0] || ((status >= CLSCAN_OPENCL_ERROR && status <= 0) == !strcmp(name, "unknown status")))
        fail(c, "clscan_status_string");
    static const size_t sizes[TYPE_COUNT] = {4, 4, 8, 8, 4, 8, 1, 1, 2, 2};
    size_t want = type_ok(t) ? sizes[t] : 0;
    if (clscan_type_size(t) != want)
        fail(c, "clscan_type_size");
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", CLSCAN_VERSION_MAJOR, CLSCAN_VERSION_MINOR, CLSCAN_VERSION_PATCH);
    if (strcmp(clscan_version_string(), version) != 0)
        fail(c, "clscan_version_string");
    if (clscan_context_cl_context(NULL) || clscan_context_queue(NULL) || clscan_context_device(NULL) ||
        !clscan_last_error(NULL) || !clscan_last_error(ctx))
        fail(c, "an accessor of a NULL context");
    clscan_context_release(NULL);
    return 1;
}

static int run_call(exec *e, reader *r, call *c)
{
    switch (c->f) {
    case F_INCLUSIVE_HOST: case F_EXCLUSIVE_HOST: return host_call(r, c);
    case F_SET_ALGORITHM: return algorithm_call(r, c);
    case F_FINISH: {
        ctx->error[0] = '\0';
        clscan_status got = clscan_finish(c->ctx_null ? NULL : ctx);
        check_status(c, got, c->ctx_null ? CLSCAN_INVALID_ARGUMENT : CLSCAN_SUCCESS);
        return got == CLSCAN_SUCCESS;
    }
    case F_CREATE: return create_call(r, c);
    case F_CREATE_FROM_QUEUE: return create_from_queue_call(r, c);
    case F_MISC: return misc_call(r, c);
    default: return device_call(e, r, c);
    }
}

/* After a failure: the context still scans, with the default algorithms. */
static void check_usable(void)
{
    static const int32_t in[5] = {3, -1, 4, 1, -5}, want[5] = {3, 2, 6, 7, 2};
    int32_t out[5];
    if (clscan_inclusive_scan_host(ctx, in, out, 5, CLSCAN_INT32, CLSCAN_ADD) != CLSCAN_SUCCESS ||
        memcmp(out, want, sizeof out) != 0)
        fail(NULL, "the context no longer scans after a failed call");
}

/* The context and what the calls borrow, made at the first run: libFuzzer has installed its signal
 * handlers by then, and the driver's LLVM, which puts its own in front, keeps them as the ones before. */
static void setup(void)
{
    sigaction(SIGABRT, NULL, &fuzzer_abort);
    if (clscan_context_create(&ctx, getenv("CLSCAN_DEVICE") ? NULL : "cpu") != CLSCAN_SUCCESS) {
        fprintf(stderr, "fuzz_api: no OpenCL CPU device (install pocl-opencl-icd): %s\n", clscan_last_error(NULL));
        exit(1);
    }
    cl_int err = CL_SUCCESS;
    foreign_cl = clCreateContext(NULL, 1, &ctx->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        foreign_queue = clCreateCommandQueue(foreign_cl, ctx->device, 0, &err);
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(ctx->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (err == CL_SUCCESS && images) {
        const cl_image_format format = {CL_RGBA, CL_UNSIGNED_INT8};
        const cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 64, .image_height = 64};
        image = clCreateImage(ctx->cl, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
    }
    if (err != CL_SUCCESS) {
        fprintf(stderr, "fuzz_api: setting up a second context or an image failed (%d)\n", err);
        exit(1);
    }
    align = ctx->info.base_align ? ctx->info.base_align : 128;
    /* Tiles of 32 elements, so that n <= MAX_N spans up to 128 of them: block-sum levels, look-back
     * and scratch that grows between calls are what a buffer's size and offset can break (PoCL's own
     * tiles of 32768 would make every call one tile). */
    clscan_tuning_set(ctx, CLSCAN_TUNE_WG_SIZE, 8);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS, 4);
    verbose = getenv("CLSCAN_FUZZ_VERBOSE") && strcmp(getenv("CLSCAN_FUZZ_VERBOSE"), "1") == 0;
    every_config = getenv("CLSCAN_FUZZ_EVERY_CONFIG") && strcmp(getenv("CLSCAN_FUZZ_EVERY_CONFIG"), "1") == 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* The program lives outside the places the library looks for its sources in a build tree. */
    setenv("CLSCAN_KERNEL_DIR", CLSCAN_FUZZ_CL_DIR, 0);
    /* Writing a cache file makes PoCL compile every kernel of a program at once (25 s where one kernel
     * takes 4); the cache file's reader has its own target (fuzz_cache_file). */
    setenv("CLSCAN_CACHE", "0", 0);
    return 0;
}

/* An input: a head byte (1 + its bits 1-2: the number of calls), a data seed, then each call. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx)
        setup();
    /* Every run starts from the same thread message: a failed creation's, which a success must keep. */
    clscan_context_create(NULL, NULL);
    reader r = {data, size};
    unsigned head = take8(&r);
    exec e = {.rng = take32(&r)};
    int calls = 1 + (int)(head >> 1) % MAX_CALLS, all_ok = 1;
    for (int i = 0; i < calls; i++) {
        call c;
        memset(&c, 0, sizeof c);
        unsigned sel = take8(&r), opt = take8(&r);
        c.f = sel < 0xf0 ? (fn)(sel % F_ADDED) : (fn)(F_ADDED + (sel - 0xf0) % (F_COUNT - F_ADDED));
        c.ctx_null = (opt & 0x1f) == 0x1f;
        c.ptr_null = (opt >> 5) == 7;
        all_ok &= run_call(&e, &r, &c);
        free_exec(&e);
    }
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    if (!all_ok)
        check_usable();
    return 0;
}
