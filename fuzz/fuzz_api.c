/* Fuzz target: the argument checks of the public functions of include/clscan/clscan.h, on one
 * long-lived context (the CPU device, PoCL, unless $CLSCAN_DEVICE names another) with small sizes:
 * 0.1's, and of 0.2's the partition and unique, the scans with an initial value (on the host or in
 * init_buf), the segmented scans (byte heads) and the scans by key, the segmented reduction, reduce by
 * key and run-length encoding, argmin and argmax, both histograms, and the _async twins of reduce,
 * compact, partition, unique, reduce by key and run-length encoding (their value or cl_ulong count in
 * element 0 of a device buffer, checked like every other buffer: NULL, too small, read-only, foreign,
 * over an input or an output; read back and compared on success).
 * An input decodes into a few calls: the function, its enums (out-of-range values too), its counts
 * (some that overflow), and each buffer as NULL, exact, larger, too small, read-only, write-only, from
 * another cl_context, an image, the argument before it again, or a sub-buffer apart from or partly over
 * it. Each call must give the status a second reading of the contract predicts; a failure must leave a
 * message, every buffer as it was and the host results unwritten; a success must match a CPU reference
 * (data chosen so that float results are exact in any order); and the context must scan correctly
 * afterwards. Device-side data the contract lets be wrong (offsets that decrease or pass the input,
 * edges that do not increase) need no particular result, only no access outside the outputs. Calls
 * that pass the checks run on tiles of 32 elements and on a few kernel configurations (canonical_types). */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include "prims/prims.h"
#include "fuzz_reader.h"
#include <float.h>
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
/* OFFSETS (segmented reduction), EDGES and HIST (histograms): mostly what the contract asks for, at
 * times not (see fill_added). */
typedef enum fill { FILL_POISON, FILL_OP, FILL_BITS, FILL_FLAGS, FILL_KEYS, FILL_OFFSETS, FILL_EDGES, FILL_HIST } fill;

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
    size_t span;              /* the elements offsets point into (segmented reduction) */
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

/* A small integer as an element of t (integers wrap to their width). */
static uint64_t small_value(clscan_type t, double v)
{
    return is_float(t) ? from_double(t, v) : (uint64_t)(int64_t)v & width_mask(t);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Segment offsets into span elements: sorted and in range, mostly; one buffer in sixteen each random
 * bits, one offset past the end, or one pair that decreases (the contract cuts those on the device,
 * see segreduce_reference). */
static void fill_offsets(uint8_t *p, size_t bytes, size_t span, uint64_t *rng)
{
    size_t count = bytes / 8;
    uint64_t *v = malloc((count ? count : 1) * sizeof *v), mode = next_random(rng) % 16;
    if (!v)
        abort();
    for (size_t i = 0; i < count; i++)
        v[i] = mode == 0 ? next_random(rng) : next_random(rng) % (span + 1);
    if (mode != 0)
        qsort(v, count, sizeof *v, compare_u64);
    if (mode == 1 && count > 0)
        v[next_random(rng) % count] = next_random(rng) % 2 ? UINT64_MAX : span + 1;
    if (mode == 2 && count > 1) {
        size_t i = next_random(rng) % (count - 1);
        uint64_t t = v[i];
        v[i] = v[i + 1] + 1, v[i + 1] = t;
    }
    memcpy(p, v, count * 8);
    free(v);
}

/* Histogram edges: start + b * step, increasing where the type holds them (from 0 on for unsigned
 * types); one in eight buffers random bits. */
static void fill_edges(uint8_t *p, size_t bytes, clscan_type t, uint64_t *rng)
{
    size_t elem = clscan_type_size(t);
    uint64_t r = next_random(rng);
    double start = is_signed(t) || is_float(t) ? -1.0 - (double)(r % 24) : (double)(r % 24);
    double step = is_float(t) ? 0.5 * (double)(1 + r / 24 % 4) : (double)(1 + r / 24 % 3);
    for (size_t i = 0; i + elem <= bytes; i += elem)
        store(p + i, elem, r / 96 % 8 == 0 ? next_random(rng) : small_value(t, start + (double)(i / elem) * step));
}

/* Histogram data: small integers and halves around 0 (unsigned: from 0; the bounds are small too),
 * float specials. */
static uint64_t hist_value(clscan_type t, uint64_t *rng)
{
    uint64_t r = next_random(rng);
    static const double special[] = {NAN, INFINITY, -INFINITY, -0.0};
    if (is_float(t) && r % 16 < 4)
        return from_double(t, special[r % 4]);
    int v = (int)(r / 16 % 61) - (is_signed(t) || is_float(t) ? 30 : 0);
    return small_value(t, (double)v / (is_float(t) && r % 3 == 0 ? 2.0 : 1.0));
}

static void fill_added(uint8_t *p, size_t bytes, clscan_type t, fill f, size_t span, uint64_t *rng)
{
    size_t elem = type_ok(t) ? clscan_type_size(t) : 4;
    memset(p, 0, bytes);
    if (f == FILL_OFFSETS)
        fill_offsets(p, bytes, span, rng);
    else if (f == FILL_EDGES && type_ok(t))
        fill_edges(p, bytes, t, rng);
    else
        for (size_t i = 0; type_ok(t) && i + elem <= bytes; i += elem)
            store(p + i, elem, hist_value(t, rng));
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

static void write_root(exec *e, root *r, clscan_type t, clscan_op op, fill f)
{
    if (f >= FILL_OFFSETS)
        fill_added(r->init, r->size, t, f, e->span, &e->rng);
    else
        fill_bytes(r->init, r->size, t, op, f, &e->rng);
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
    write_root(e, r, t, op, f);
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
                  F_PARTITION, F_UNIQUE, F_INCLUSIVE_INIT, F_EXCLUSIVE_INIT, F_SEG_INCLUSIVE, F_SEG_EXCLUSIVE,
                  F_INCLUSIVE_BY_KEY, F_EXCLUSIVE_BY_KEY, F_SEG_REDUCE, F_REDUCE_BY_KEY, F_REDUCE_BY_KEY_ASYNC,
                  F_RLE, F_RLE_ASYNC, F_ARGMIN, F_ARGMAX, F_HIST_EVEN, F_HIST_RANGE, F_REDUCE_ASYNC,
                  F_COMPACT_ASYNC, F_PARTITION_ASYNC, F_UNIQUE_ASYNC, F_COUNT } fn;
/* The functions of 0.2 come after: a selector byte from 0xf0 on takes them, so that the inputs written
 * before (corpus, regressions) decode as they did; new ones are appended, so that 0.2's inputs written
 * so far (0xf0 partition, 0xf1 unique) do too. 0xf0 .. 0xfe pick one each, 0xff and the byte after it
 * (modulo how many are left) the rest: 0 and 1 the histograms, as the inputs written before use them,
 * 2 to 5 the _async forms of reduce, compact, partition and unique (see take_fn). */
#define F_ADDED F_PARTITION
#define F_ONE_BYTE 15   /* 0.2's functions a selector byte alone picks */

static const char *const fn_names[F_COUNT] = {
    "inclusive_scan", "exclusive_scan", "reduce", "compact", "sort", "sort_by_key", "summed_area_table",
    "inclusive_scan_host", "exclusive_scan_host", "set_algorithm", "finish", "context_create",
    "context_create_from_queue", "misc", "partition", "unique", "inclusive_scan_init", "exclusive_scan_init",
    "segmented_inclusive_scan", "segmented_exclusive_scan", "inclusive_scan_by_key", "exclusive_scan_by_key",
    "segmented_reduce", "reduce_by_key", "reduce_by_key_async", "run_length_encode", "run_length_encode_async",
    "argmin", "argmax", "histogram_even", "histogram_range", "reduce_async", "compact_async", "partition_async",
    "unique_async"};

static fn take_fn(reader *r, unsigned sel)
{
    if (sel < 0xf0)
        return (fn)(sel % F_ADDED);
    unsigned k = sel - 0xf0;
    if (k == F_ONE_BYTE)
        k += take8(r) % (F_COUNT - F_ADDED - F_ONE_BYTE);
    return (fn)(F_ADDED + k % (F_COUNT - F_ADDED));
}

#define MAX_ARGS 5

typedef struct call {
    fn f;
    int ctx_null, ptr_null;   /* ctx, and the host result (reduce's, a count, argmin's index) passed as NULL */
    int value_null;           /* argmin's and argmax's value pointer passed as NULL */
    clscan_type type, vtype;
    clscan_op op;
    size_t n, width, height;
    size_t bins, span;        /* histograms; the elements a segmented reduction's input is made with */
    unsigned shape;           /* scans with init: see init_given; histogram_even: see decode_bounds */
    uint8_t init[8], lower[8], upper[8];
    int nbuf;
    arg args[MAX_ARGS];
    size_t need[MAX_ARGS];    /* bytes of each buffer the call covers */
} call;

static int init_given(const call *c) { return c->shape & 1; }       /* init on the host; bit 1: init_buf too */
static int lower_null(const call *c) { return (c->shape & 15) == 1; }
static int upper_null(const call *c) { return (c->shape & 15) == 2; }
/* The _async forms: their value or count goes to element 0 of their last buffer. */
static int is_async(fn f)
{
    return f == F_REDUCE_BY_KEY_ASYNC || f == F_RLE_ASYNC || f == F_REDUCE_ASYNC || f == F_COMPACT_ASYNC ||
           f == F_PARTITION_ASYNC || f == F_UNIQUE_ASYNC;
}

static void describe(const call *c)
{
    fprintf(stderr, "fuzz_api: clscan_%s(ctx%s, n = %zu (%zu x %zu), type %d, value type %d, op %d%s)\n",
            fn_names[c->f], c->ctx_null ? " = NULL" : "", c->n, c->width, c->height, (int)c->type, (int)c->vtype,
            (int)c->op, c->ptr_null ? ", NULL result" : "");
    if (c->f >= F_INCLUSIVE_INIT)
        fprintf(stderr, "  bins %zu, span %zu, shape %#x%s\n", c->bins, c->span, c->shape,
                c->value_null ? ", NULL value" : "");
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

/* What a buffer argument covers: n elements of the type or of the other type, n bytes, n cl_ulong, one
 * element, a cl_ulong count, bins cl_ulong, bins + 1 edges, n + 1 offsets, or (a segmented reduction's
 * input) nothing: it is checked as a buffer and read as far as it goes. */
typedef enum unit { U_NONE, U_TYPE, U_VTYPE, U_BYTE, U_ULONG, U_ONE, U_COUNT, U_BINS, U_EDGES, U_OFFSETS, U_SPAN } unit;

/* Roles of the buffers, in the order of the function's parameters: what each is filled with, what it
 * covers, and how it is accessed. */
typedef struct role { fill f; unit u; int reads, writes; } role;
#define R_IN(fill, unit) {fill, unit, 1, 0}
#define R_OUT(unit) {FILL_POISON, unit, 0, 1}
static const role roles[F_COUNT][MAX_ARGS] = {
    [F_INCLUSIVE] = {R_IN(FILL_OP, U_TYPE), R_OUT(U_TYPE)},
    [F_EXCLUSIVE] = {R_IN(FILL_OP, U_TYPE), R_OUT(U_TYPE)},
    [F_REDUCE] = {R_IN(FILL_OP, U_TYPE)},
    [F_COMPACT] = {R_IN(FILL_BITS, U_TYPE), R_IN(FILL_FLAGS, U_BYTE), R_OUT(U_TYPE)},
    [F_PARTITION] = {R_IN(FILL_BITS, U_TYPE), R_IN(FILL_FLAGS, U_BYTE), R_OUT(U_TYPE)},
    [F_UNIQUE] = {R_IN(FILL_KEYS, U_TYPE), R_OUT(U_TYPE)},
    [F_SORT] = {{FILL_KEYS, U_TYPE, 1, 1}},
    [F_SORT_BY_KEY] = {{FILL_KEYS, U_TYPE, 1, 1}, {FILL_BITS, U_VTYPE, 1, 1}},
    [F_SAT] = {R_IN(FILL_OP, U_TYPE), R_OUT(U_TYPE)},
    [F_INCLUSIVE_INIT] = {R_IN(FILL_OP, U_TYPE), R_OUT(U_TYPE), R_IN(FILL_OP, U_ONE)},
    [F_EXCLUSIVE_INIT] = {R_IN(FILL_OP, U_TYPE), R_OUT(U_TYPE), R_IN(FILL_OP, U_ONE)},
    [F_SEG_INCLUSIVE] = {R_IN(FILL_OP, U_TYPE), R_IN(FILL_FLAGS, U_BYTE), R_OUT(U_TYPE)},
    [F_SEG_EXCLUSIVE] = {R_IN(FILL_OP, U_TYPE), R_IN(FILL_FLAGS, U_BYTE), R_OUT(U_TYPE)},
    /* by key: keys (the other type), in, out */
    [F_INCLUSIVE_BY_KEY] = {R_IN(FILL_KEYS, U_VTYPE), R_IN(FILL_OP, U_TYPE), R_OUT(U_TYPE)},
    [F_EXCLUSIVE_BY_KEY] = {R_IN(FILL_KEYS, U_VTYPE), R_IN(FILL_OP, U_TYPE), R_OUT(U_TYPE)},
    [F_SEG_REDUCE] = {R_IN(FILL_OP, U_SPAN), R_IN(FILL_OFFSETS, U_OFFSETS), R_OUT(U_TYPE)},
    /* keys (the type), values (the other type), keys_out, values_out, and the _async count */
    [F_REDUCE_BY_KEY] = {R_IN(FILL_KEYS, U_TYPE), R_IN(FILL_OP, U_VTYPE), R_OUT(U_TYPE), R_OUT(U_VTYPE)},
    [F_REDUCE_BY_KEY_ASYNC] = {R_IN(FILL_KEYS, U_TYPE), R_IN(FILL_OP, U_VTYPE), R_OUT(U_TYPE), R_OUT(U_VTYPE),
                               R_OUT(U_COUNT)},
    [F_RLE] = {R_IN(FILL_KEYS, U_TYPE), R_OUT(U_TYPE), R_OUT(U_ULONG)},
    [F_RLE_ASYNC] = {R_IN(FILL_KEYS, U_TYPE), R_OUT(U_TYPE), R_OUT(U_ULONG), R_OUT(U_COUNT)},
    [F_ARGMIN] = {R_IN(FILL_KEYS, U_TYPE)},
    [F_ARGMAX] = {R_IN(FILL_KEYS, U_TYPE)},
    [F_HIST_EVEN] = {R_IN(FILL_HIST, U_TYPE), R_OUT(U_BINS)},
    [F_HIST_RANGE] = {R_IN(FILL_HIST, U_TYPE), R_IN(FILL_EDGES, U_EDGES), R_OUT(U_BINS)},
    /* in and the value's buffer (one element of the type) */
    [F_REDUCE_ASYNC] = {R_IN(FILL_OP, U_TYPE), R_OUT(U_ONE)},
    /* the blocking forms' buffers, then the count's */
    [F_COMPACT_ASYNC] = {R_IN(FILL_BITS, U_TYPE), R_IN(FILL_FLAGS, U_BYTE), R_OUT(U_TYPE), R_OUT(U_COUNT)},
    [F_PARTITION_ASYNC] = {R_IN(FILL_BITS, U_TYPE), R_IN(FILL_FLAGS, U_BYTE), R_OUT(U_TYPE), R_OUT(U_COUNT)},
    [F_UNIQUE_ASYNC] = {R_IN(FILL_KEYS, U_TYPE), R_OUT(U_TYPE), R_OUT(U_COUNT)},
};

static size_t need_of(const call *c, unit u)
{
    size_t elem = clscan_type_size(c->type);
    switch (u) {
    case U_TYPE: return bytes_of(c->n, elem);
    case U_VTYPE: return bytes_of(c->n, clscan_type_size(c->vtype));
    case U_BYTE: return c->n;
    case U_ULONG: return bytes_of(c->n, 8);
    case U_ONE: return elem;
    case U_COUNT: return 8;
    case U_BINS: return bytes_of(c->bins, 8);
    case U_EDGES: return c->bins == SIZE_MAX ? SIZE_MAX : bytes_of(c->bins + 1, elem);
    case U_OFFSETS: return c->n == SIZE_MAX ? SIZE_MAX : bytes_of(c->n + 1, 8);
    default: return 0;   /* U_SPAN: a buffer of no elements */
    }
}

/* The type a buffer is filled as. */
static clscan_type type_of(const call *c, unit u)
{
    if (u == U_VTYPE)
        return c->vtype;
    return u == U_ULONG || u == U_COUNT || u == U_BINS || u == U_OFFSETS ? CLSCAN_UINT64 : c->type;
}

/* The functions that combine with an operator (and so read its byte). */
static int takes_op(fn f)
{
    return !(f == F_SAT || f == F_COMPACT || f == F_PARTITION || f == F_UNIQUE || f == F_RLE || f == F_RLE_ASYNC ||
             f == F_ARGMIN || f == F_ARGMAX || f == F_HIST_EVEN || f == F_HIST_RANGE || f == F_COMPACT_ASYNC ||
             f == F_PARTITION_ASYNC || f == F_UNIQUE_ASYNC);
}

/* The bounds of an even histogram: two small values of the type (signed bytes; unsigned types 0..63).
 * The shape byte's low bits pass one as NULL; its high bits put in a NaN, an infinity, or the type's
 * extremes (floats: the largest finite, whose difference overflows). */
static void decode_bounds(reader *r, call *c)
{
    c->shape = take8(r);
    unsigned lo = take8(r), hi = take8(r);
    clscan_type t = c->type;
    if (!type_ok(t))
        return;
    int sign = is_signed(t) || is_float(t);
    uint64_t lower = small_value(t, sign ? (int8_t)lo : lo % 64), upper = small_value(t, sign ? (int8_t)hi : hi % 64);
    double big = t == CLSCAN_FLOAT ? FLT_MAX : DBL_MAX;
    switch (c->shape >> 4) {
    case 1: lower = is_float(t) ? from_double(t, NAN) : lower; break;
    case 2: upper = is_float(t) ? from_double(t, INFINITY) : upper; break;
    case 3: lower = is_float(t) ? from_double(t, -INFINITY) : lower; break;
    case 4:
        lower = is_float(t) ? from_double(t, -big) : identity(t, CLSCAN_MAX);
        upper = is_float(t) ? from_double(t, big) : identity(t, CLSCAN_MIN);
        break;
    default: break;
    }
    store(c->lower, clscan_type_size(t), lower);
    store(c->upper, clscan_type_size(t), upper);
}

/* What comes between the counts and the buffers. */
static void decode_extras(exec *e, reader *r, call *c)
{
    switch (c->f) {
    case F_INCLUSIVE_INIT: case F_EXCLUSIVE_INIT:
        c->shape = take8(r);
        if (type_ok(c->type))
            store(c->init, clscan_type_size(c->type), value_for(c->type, op_ok(c->op) ? c->op : CLSCAN_ADD, &e->rng));
        break;
    case F_SEG_REDUCE: c->span = e->span = take16(r) % (MAX_N + 1); break;
    case F_HIST_EVEN: c->bins = take_count(r); decode_bounds(r, c); break;
    case F_HIST_RANGE: c->bins = take_count(r); break;
    default: break;
    }
}

static void decode_device_call(exec *e, reader *r, call *c)
{
    c->type = (clscan_type)take_enum(r, TYPE_COUNT);
    c->vtype = (clscan_type)take_enum(r, TYPE_COUNT);
    c->op = takes_op(c->f) ? (clscan_op)take_enum(r, 4) : CLSCAN_ADD;
    if (c->f == F_SAT) {
        c->width = take_side(r);
        c->height = take_side(r);
        c->n = c->width != 0 && c->height > SIZE_MAX / c->width ? SIZE_MAX : c->width * c->height;
    } else
        c->n = take_count(r);
    decode_extras(e, r, c);
    const role *ro = roles[c->f];
    for (c->nbuf = 0; c->nbuf < MAX_ARGS && ro[c->nbuf].u != U_NONE; c->nbuf++)
        c->need[c->nbuf] = need_of(c, ro[c->nbuf].u);
    for (int i = 0; i < c->nbuf; i++) {
        size_t cover = ro[i].u == U_SPAN ? bytes_of(c->span, clscan_type_size(c->type)) : c->need[i];
        c->args[i] = make_arg(e, r, c->args, i, cover, type_of(c, ro[i].u), c->op, ro[i].f);
    }
    /* init on the host and not init_buf too: init_buf NULL (the buffer made stays, untouched) */
    if ((c->f == F_INCLUSIVE_INIT || c->f == F_EXCLUSIVE_INIT) && init_given(c) && !(c->shape & 2))
        c->args[2] = (arg){NULL, -1, 0, 0, 0, 0, 0};
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
static int overlap_bytes(const arg *a, size_t a_bytes, const arg *b, size_t b_bytes, int same_allowed)
{
    if (a->root < 0 || a->root != b->root || a_bytes == 0 || b_bytes == 0)
        return 0;
    if (a->offset == b->offset && same_allowed)
        return 0;
    return a->offset < b->offset + b_bytes && b->offset < a->offset + a_bytes;
}

static int overlap(const call *c, int i, int j, int same_allowed)
{
    return overlap_bytes(&c->args[i], c->need[i], &c->args[j], c->need[j], same_allowed);
}

/* Whether any two buffers of the call share bytes, but for the pair (keep, keep + 1) where keep >= 0
 * (two inputs, which the contract lets share memory: both are only read). */
static int any_overlap(const call *c, int keep)
{
    for (int i = 0; i < c->nbuf; i++)
        for (int j = i + 1; j < c->nbuf; j++)
            if (!(i == keep && j == keep + 1) && overlap(c, i, j, 0))
                return 1;
    return 0;
}

static int overlaps_forbidden(const call *c)
{
    switch (c->f) {
    case F_COMPACT: case F_PARTITION: return overlap(c, 0, 2, 0) || overlap(c, 1, 2, 0);
    /* and the count over none of the others (in and flags, both read, may still share memory) */
    case F_COMPACT_ASYNC: case F_PARTITION_ASYNC:
        return overlap(c, 0, 2, 0) || overlap(c, 1, 2, 0) || overlap(c, 3, 0, 0) || overlap(c, 3, 1, 0) ||
               overlap(c, 3, 2, 0);
    case F_UNIQUE: return overlap(c, 0, 1, 0);
    case F_UNIQUE_ASYNC: return any_overlap(c, -1);
    case F_REDUCE_ASYNC: return overlap(c, 0, 1, 0);   /* the value's buffer not over in, not even exactly */
    case F_SORT_BY_KEY: return overlap(c, 0, 1, 0);
    case F_SORT: case F_REDUCE: case F_ARGMIN: case F_ARGMAX: return 0;
    /* init_buf is read while tiles write out: apart from it; in == out stays allowed */
    case F_INCLUSIVE_INIT: case F_EXCLUSIVE_INIT: return overlap(c, 0, 1, 1) || overlap(c, 2, 1, 0);
    case F_SEG_INCLUSIVE: case F_SEG_EXCLUSIVE: return overlap(c, 0, 2, 1) || overlap(c, 1, 2, 0);
    case F_INCLUSIVE_BY_KEY: case F_EXCLUSIVE_BY_KEY: return overlap(c, 1, 2, 1) || overlap(c, 0, 2, 0);
    /* in counts as all it holds: offsets may point anywhere in it */
    case F_SEG_REDUCE:
        return overlap(c, 1, 2, 0) || overlap_bytes(&c->args[0], c->args[0].size, &c->args[2], c->need[2], 0);
    case F_REDUCE_BY_KEY: case F_REDUCE_BY_KEY_ASYNC: return any_overlap(c, 0);
    case F_RLE: case F_RLE_ASYNC: return any_overlap(c, -1);
    case F_HIST_EVEN: return overlap(c, 0, 1, 0);
    case F_HIST_RANGE: return overlap(c, 0, 2, 0) || overlap(c, 1, 2, 0);
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

/* A type (and, with_op, an operator on it): known, n elements addressable, held by the device (keys
 * compared by their bits need no arithmetic: bits_only). */
static clscan_status type_status(clscan_type t, int with_op, clscan_op op, size_t n, int bits_only)
{
    if (!type_ok(t) || (with_op && !op_ok(op)) || bytes_of(n, clscan_type_size(t)) == SIZE_MAX)
        return CLSCAN_INVALID_ARGUMENT;
    return supported(t, bits_only) ? CLSCAN_SUCCESS : CLSCAN_UNSUPPORTED;
}

/* 0.2's checks before the buffers: types, operators, and the counts that are wrong at any size. */
static clscan_status expected_added_args(const call *c)
{
    clscan_status st;
    switch (c->f) {
    case F_INCLUSIVE_BY_KEY: case F_EXCLUSIVE_BY_KEY:
        st = type_status(c->type, 1, c->op, c->n, 0);
        return st != CLSCAN_SUCCESS ? st : type_status(c->vtype, 0, CLSCAN_ADD, c->n, 1);
    case F_REDUCE_BY_KEY: case F_REDUCE_BY_KEY_ASYNC:
        st = type_status(c->type, 0, CLSCAN_ADD, c->n, 1);
        return st != CLSCAN_SUCCESS ? st : type_status(c->vtype, 1, c->op, c->n, 0);
    case F_RLE: case F_RLE_ASYNC: return type_status(c->type, 0, CLSCAN_ADD, c->n, 1);
    case F_SEG_REDUCE:   /* n_segments + 1 offsets must be a size */
        st = type_status(c->type, 1, c->op, c->n, 0);
        return st == CLSCAN_SUCCESS && c->n == SIZE_MAX ? CLSCAN_INVALID_ARGUMENT : st;
    case F_ARGMIN: case F_ARGMAX:   /* no elements have no index */
        st = type_status(c->type, 0, CLSCAN_ADD, c->n, 0);
        return st == CLSCAN_SUCCESS && (c->n == 0 || c->ptr_null) ? CLSCAN_INVALID_ARGUMENT : st;
    case F_HIST_EVEN: case F_HIST_RANGE:
        st = type_status(c->type, 0, CLSCAN_ADD, c->n, 0);
        return st == CLSCAN_SUCCESS && c->bins == 0 ? CLSCAN_INVALID_ARGUMENT : st;
    default: return type_status(c->type, 1, c->op, c->n, 0);
    }
}

/* Every buffer the call takes, at its size and access (init_buf is not taken beside a host init). */
static int buffers_ok(const call *c)
{
    for (int i = 0; i < c->nbuf; i++) {
        const role *ro = &roles[c->f][i];
        if (ro->u == U_ONE && init_given(c) && (c->f == F_INCLUSIVE_INIT || c->f == F_EXCLUSIVE_INIT))
            continue;
        if (!buffer_ok(&c->args[i], c->need[i], ro->reads, ro->writes))
            return 0;
    }
    return 1;
}

static int int_less(clscan_type t, uint64_t a, uint64_t b)
{
    uint64_t flip = is_signed(t) ? (width_mask(t) >> 1) + 1 : 0;
    return (a ^ flip) < (b ^ flip);
}

/* histogram_even's bounds: both given, lower < upper in the type, finite. */
static int bounds_ok(const call *c)
{
    if (lower_null(c) || upper_null(c))
        return 0;
    size_t elem = clscan_type_size(c->type);
    uint64_t l = load(c->lower, elem), u = load(c->upper, elem);
    if (!is_float(c->type))
        return int_less(c->type, l, u);
    double x = to_double(c->type, l), y = to_double(c->type, u);
    return x < y && isfinite(x) && isfinite(y);
}

static clscan_status expected_added(const call *c)
{
    clscan_status st = expected_added_args(c);
    if (st != CLSCAN_SUCCESS)
        return st;
    if (c->ptr_null && (c->f == F_REDUCE_BY_KEY || c->f == F_RLE))
        return CLSCAN_INVALID_ARGUMENT;
    /* The _async count (reduce's value) is written even for n == 0; a histogram of nothing still writes
     * its zeros. */
    if (is_async(c->f) && !buffer_ok(&c->args[c->nbuf - 1], c->need[c->nbuf - 1], 0, 1))
        return CLSCAN_INVALID_ARGUMENT;
    if (c->n == 0 && c->f != F_HIST_EVEN && c->f != F_HIST_RANGE)
        return CLSCAN_SUCCESS;
    /* exactly one initial value */
    if ((c->f == F_INCLUSIVE_INIT || c->f == F_EXCLUSIVE_INIT) && init_given(c) == (c->args[2].mem != NULL))
        return CLSCAN_INVALID_ARGUMENT;
    if (!buffers_ok(c) || overlaps_forbidden(c))
        return CLSCAN_INVALID_ARGUMENT;
    return c->f != F_HIST_EVEN || bounds_ok(c) ? CLSCAN_SUCCESS : CLSCAN_INVALID_ARGUMENT;
}

static clscan_status expected_device(const call *c)
{
    if (c->ctx_null)
        return CLSCAN_INVALID_ARGUMENT;
    if (c->f >= F_INCLUSIVE_INIT)
        return expected_added(c);
    clscan_status st = expected_types(c);
    if (st != CLSCAN_SUCCESS)
        return st;
    if (c->ptr_null && (c->f == F_REDUCE || c->f == F_COMPACT || c->f == F_PARTITION || c->f == F_UNIQUE))
        return CLSCAN_INVALID_ARGUMENT;
    if (c->n == 0)
        return CLSCAN_SUCCESS;
    return buffers_ok(c) && !overlaps_forbidden(c) ? CLSCAN_SUCCESS : CLSCAN_INVALID_ARGUMENT;
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
 * type. Scans, reductions and tables: the signed integer of the size, ADD (by key and reduce by key:
 * the values so; the keys build by their size alone); sorts, argmin and argmax: float at 4 bytes,
 * else the signed integer (NaN order, sign flip), values the unsigned integer of their width.
 * Compaction and run-length encoding build by element size alone; histograms keep their type (one
 * program each, and their bounds and edges keep their order only in it).
 * Longer runs can take every configuration as decoded, work-group algorithms included:
 * CLSCAN_FUZZ_EVERY_CONFIG=1 (some 500 builds). */
static void canonical_types(call *c)
{
    if (every_config)
        return;
    const size_t elem = clscan_type_size(c->type), value = clscan_type_size(c->vtype);
    switch (c->f) {
    case F_COMPACT: case F_PARTITION: case F_RLE: case F_RLE_ASYNC: case F_HIST_EVEN: case F_HIST_RANGE:
    case F_COMPACT_ASYNC: case F_PARTITION_ASYNC: return;
    case F_SORT: case F_SORT_BY_KEY:
        c->type = of_size(elem, 1, 0);
        c->vtype = of_size(value, 0, 1);
        return;
    case F_ARGMIN: case F_ARGMAX: c->type = of_size(elem, 1, 0); return;
    case F_REDUCE_BY_KEY: case F_REDUCE_BY_KEY_ASYNC:
        c->vtype = of_size(value, 0, 0);
        c->op = CLSCAN_ADD;
        return;
    default:
        c->type = of_size(elem, 0, 0);
        c->op = CLSCAN_ADD;
    }
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

/* A scan of in into out from acc, begun again from the identity wherever starts[i] != 0 (starts NULL:
 * nowhere); exclusive stores each element's prefix before combining it. */
static void scan_segments(const uint8_t *in, uint8_t *out, size_t n, clscan_type t, clscan_op op, int exclusive,
                          uint64_t acc, const uint8_t *starts)
{
    size_t elem = clscan_type_size(t);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = load(in + i * elem, elem);
        if (starts && starts[i])
            acc = identity(t, op);
        if (exclusive)
            store(out + i * elem, elem, acc);
        acc = combine(t, op, acc, x);
        if (!exclusive)
            store(out + i * elem, elem, acc);
    }
}

static void scan_reference(const uint8_t *in, uint8_t *out, size_t n, clscan_type t, clscan_op op, int exclusive)
{
    scan_segments(in, out, n, t, op, exclusive, identity(t, op), NULL);
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

/* Parts of the outputs compared as values, not bytes (float results), or left unspecified (loose). */
typedef struct region { int root; size_t offset, bytes; clscan_type type; int loose; } region;
typedef struct regions { region r[4]; int count; } regions;

static void add_region(regions *rs, const arg *a, size_t offset, size_t bytes, clscan_type type, int loose)
{
    rs->r[rs->count++] = (region){a->root, a->offset + offset, bytes, type, loose};
}

/* A count the reference found: against the host's (blocking forms), or expected as a cl_ulong in
 * element 0 of the last buffer (_async forms, read back with the other buffers). */
static void check_count(exec *e, const call *c, size_t found, size_t count, const char *what)
{
    if (is_async(c->f))
        store(at(e, &c->args[c->nbuf - 1]), 8, found);
    else if (found != count)
        fail(c, what);
}

static void compact_reference(exec *e, const call *c, size_t count, regions *rs)
{
    size_t elem = clscan_type_size(c->type), kept = 0;
    uint8_t *in = gather(e, &c->args[0], c->n * elem), *flags = gather(e, &c->args[1], c->n);
    for (size_t i = 0; i < c->n; i++)
        if (flags[i])
            memcpy(at(e, &c->args[2]) + kept++ * elem, in + i * elem, elem);
    check_count(e, c, kept, count, "compact: the count differs from the reference");
    /* Behind the kept elements, out is not specified. */
    add_region(rs, &c->args[2], kept * elem, (c->n - kept) * elem, CLSCAN_UINT32, 1);
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
    check_count(e, c, kept, count, "partition: the count differs from the reference");
    for (size_t i = 0, front = 0; i < c->n; i++)
        memcpy(at(e, &c->args[2]) + (flags[i] ? front++ : kept + other++) * elem, in + i * elem, elem);
    free(in);
    free(flags);
}

/* The first element of each run of equal bits; out past them unspecified. */
static void unique_reference(exec *e, const call *c, size_t count, regions *rs)
{
    size_t elem = clscan_type_size(c->type), runs = 0;
    uint8_t *in = gather(e, &c->args[0], c->n * elem);
    for (size_t i = 0; i < c->n; i++)
        if (i == 0 || memcmp(in + i * elem, in + (i - 1) * elem, elem) != 0)
            memcpy(at(e, &c->args[1]) + runs++ * elem, in + i * elem, elem);
    check_count(e, c, runs, count, "unique: the count differs from the reference");
    add_region(rs, &c->args[1], runs * elem, (c->n - runs) * elem, CLSCAN_UINT32, 1);
    free(in);
}

/* ---- 0.2's references ---------------------------------------------------------------------------- */
/* Where segments start: heads that are not 0, or keys whose bits differ from the key before. */
static uint8_t *segment_starts(exec *e, const call *c, const arg *marks, size_t key_bytes)
{
    size_t kb = key_bytes ? key_bytes : 1;
    uint8_t *m = gather(e, marks, c->n * kb), *starts = malloc(c->n ? c->n : 1);
    if (!starts)
        abort();
    for (size_t i = 0; i < c->n; i++)
        starts[i] = key_bytes ? i > 0 && memcmp(m + i * kb, m + (i - 1) * kb, kb) != 0 : m[i] != 0;
    free(m);
    return starts;
}

static void init_reference(exec *e, const call *c, regions *rs)
{
    size_t elem = clscan_type_size(c->type), bytes = c->n * elem;
    uint8_t *in = gather(e, &c->args[0], bytes);
    uint64_t init = load(init_given(c) ? c->init : at(e, &c->args[2]), elem);   /* init_buf: apart from out */
    scan_segments(in, at(e, &c->args[1]), c->n, c->type, c->op, c->f == F_EXCLUSIVE_INIT, init, NULL);
    add_region(rs, &c->args[1], 0, bytes, c->type, 0);
    free(in);
}

/* Segmented scans (in, heads, out) and scans by key (keys, in, out). */
static void segscan_reference(exec *e, const call *c, regions *rs)
{
    int by_key = c->f == F_INCLUSIVE_BY_KEY || c->f == F_EXCLUSIVE_BY_KEY;
    int exclusive = c->f == F_SEG_EXCLUSIVE || c->f == F_EXCLUSIVE_BY_KEY;
    size_t elem = clscan_type_size(c->type), bytes = c->n * elem;
    uint8_t *starts = segment_starts(e, c, &c->args[by_key ? 0 : 1], by_key ? clscan_type_size(c->vtype) : 0);
    uint8_t *in = gather(e, &c->args[by_key ? 1 : 0], bytes);
    scan_segments(in, at(e, &c->args[2]), c->n, c->type, c->op, exclusive, identity(c->type, c->op), starts);
    add_region(rs, &c->args[2], 0, bytes, c->type, 0);
    free(starts);
    free(in);
}

/* Offsets as the contract asks for them (non-decreasing, the last within the elements in holds) give
 * each segment's reduction. Others are cut on the device, and the fuzzer holds out to nothing then:
 * out unspecified, every other byte as it was. */
static void segreduce_reference(exec *e, const call *c, regions *rs)
{
    size_t elem = clscan_type_size(c->type), held = c->args[0].size / elem;
    uint8_t *in = gather(e, &c->args[0], held * elem), *off = gather(e, &c->args[1], (c->n + 1) * 8);
    int valid = 1;
    for (size_t s = 0; s <= c->n; s++)
        valid &= load(off + s * 8, 8) <= held && (s == 0 || load(off + (s - 1) * 8, 8) <= load(off + s * 8, 8));
    for (size_t s = 0; valid && s < c->n; s++) {
        uint64_t acc = identity(c->type, c->op);
        for (uint64_t i = load(off + s * 8, 8); i < load(off + (s + 1) * 8, 8); i++)
            acc = combine(c->type, c->op, acc, load(in + i * elem, elem));
        store(at(e, &c->args[2]) + s * elem, elem, acc);
    }
    add_region(rs, &c->args[2], 0, c->n * elem, c->type, !valid);
    if (verbose && !valid)
        fprintf(stderr, "  offsets outside the contract: out not compared\n");
    free(in);
    free(off);
}

/* Runs of equal key bits: each run's key, and its values combined (reduce by key) or its length as
 * cl_ulong (run-length encoding); the count to the host or into element 0 of the _async buffer; the
 * outputs past the runs unspecified. */
static void runs_reference(exec *e, const call *c, size_t count, regions *rs)
{
    int rle = c->f == F_RLE || c->f == F_RLE_ASYNC;
    clscan_type vt = rle ? CLSCAN_UINT64 : c->vtype;
    clscan_op op = rle ? CLSCAN_ADD : c->op;
    size_t kb = clscan_type_size(c->type), vb = clscan_type_size(vt), n = c->n, runs = 0;
    const arg *keys_out = &c->args[rle ? 1 : 2], *values_out = &c->args[rle ? 2 : 3];
    uint8_t *keys = n ? gather(e, &c->args[0], n * kb) : NULL, *values = n && !rle ? gather(e, &c->args[1], n * vb) : NULL;
    uint64_t acc = identity(vt, op);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || memcmp(keys + i * kb, keys + (i - 1) * kb, kb) != 0) {
            if (i > 0)
                store(at(e, values_out) + (runs - 1) * vb, vb, acc);
            memcpy(at(e, keys_out) + runs++ * kb, keys + i * kb, kb);
            acc = identity(vt, op);
        }
        acc = combine(vt, op, acc, rle ? 1 : load(values + i * vb, vb));
    }
    if (n > 0) {
        store(at(e, values_out) + (runs - 1) * vb, vb, acc);
        add_region(rs, values_out, 0, runs * vb, vt, 0);
        add_region(rs, keys_out, runs * kb, (n - runs) * kb, CLSCAN_UINT8, 1);
        add_region(rs, values_out, runs * vb, (n - runs) * vb, CLSCAN_UINT8, 1);
    }
    if (is_async(c->f))
        store(at(e, &c->args[c->nbuf - 1]), 8, runs);
    else if (runs != count)
        fail(c, "the run count differs from the reference");
    free(keys);
    free(values);
}

/* x before y in the order of argmin (max: of argmax); floats by value, so -0 and +0 tie. */
static int arg_better(clscan_type t, int max, uint64_t x, uint64_t y)
{
    if (!is_float(t))
        return max ? int_less(t, y, x) : int_less(t, x, y);
    double a = to_double(t, x), b = to_double(t, y);
    return max ? a > b : a < b;
}

/* The first smallest (largest) element, NaNs skipped (all NaN: index 0), and that element's bits. */
static void arg_reference(exec *e, const call *c, const uint8_t *value, size_t index)
{
    size_t elem = clscan_type_size(c->type), best = 0;
    uint8_t *in = gather(e, &c->args[0], c->n * elem);
    int found = 0;
    for (size_t i = 0; i < c->n; i++) {
        uint64_t x = load(in + i * elem, elem);
        if (is_float(c->type) && isnan(to_double(c->type, x)))
            continue;
        if (!found || arg_better(c->type, c->f == F_ARGMAX, x, load(in + best * elem, elem)))
            best = i, found = 1;
    }
    if (index != best) {
        fprintf(stderr, "fuzz_api: index %zu, %zu expected\n", index, best);
        fail(c, "argmin/argmax: the index differs from the reference");
    }
    if (!c->value_null && memcmp(value, in + best * elem, elem) != 0)
        fail(c, "argmin/argmax: the value is not the element at the index");
    free(in);
}

/* x in [lower, upper) of the type; NaN in none. */
static int in_range(clscan_type t, uint64_t x, uint64_t lower, uint64_t upper)
{
    if (!is_float(t))
        return !int_less(t, x, lower) && int_less(t, x, upper);
    double v = to_double(t, x);
    return v >= to_double(t, lower) && v < to_double(t, upper);
}

/* The float rule of the contract, in the type: scale = (T)bins / (upper - lower) (both halved where
 * the difference overflows), (x - lower) * scale truncated, capped at bins - 1; a difference of 0 is
 * bin 0 (the scale may be infinite). Each step rounds on its own, as the header says. */
#pragma STDC FP_CONTRACT OFF
#define FUZZ_FLOAT_BIN(T, name)                                                                    \
    static size_t name(T x, T l, T u, size_t bins)                                                 \
    {                                                                                              \
        int halves = isinf(u - l);                                                                 \
        T scale = halves ? (T)bins / (u * (T)0.5 - l * (T)0.5) : (T)bins / (u - l);                \
        T d = halves ? x * (T)0.5 - l * (T)0.5 : x - l, f = d * scale;                             \
        size_t b = d == (T)0 ? 0 : f < (T)bins ? (size_t)f : bins - 1;                             \
        return b < bins ? b : bins - 1;                                                            \
    }
FUZZ_FLOAT_BIN(float, float_bin)
FUZZ_FLOAT_BIN(double, double_bin)

/* An even histogram's bin of x (in range): integers floor((x - lower) * bins / (upper - lower)) exactly
 * (distances in the type's width: x - lower wraps to the true one). */
static size_t even_bin(const call *c, uint64_t x)
{
    clscan_type t = c->type;
    size_t elem = clscan_type_size(t);
    uint64_t l = load(c->lower, elem), u = load(c->upper, elem), mask = width_mask(t);
    if (t == CLSCAN_FLOAT)
        return float_bin((float)to_double(t, x), (float)to_double(t, l), (float)to_double(t, u), c->bins);
    if (t == CLSCAN_DOUBLE)
        return double_bin(to_double(t, x), to_double(t, l), to_double(t, u), c->bins);
    unsigned __int128 d = (x - l) & mask, range = (u - l) & mask;
    return (size_t)(d * c->bins / range);
}

/* Range: edges that increase put x in the b with edges[b] <= x < edges[b + 1] (found by halving);
 * others leave counts unspecified. */
static int edges_increase(clscan_type t, const uint8_t *edges, size_t bins)
{
    size_t elem = clscan_type_size(t);
    for (size_t b = 0; b <= bins; b++) {
        uint64_t x = load(edges + b * elem, elem);
        if ((is_float(t) && isnan(to_double(t, x))) ||
            (b > 0 && !arg_better(t, 0, load(edges + (b - 1) * elem, elem), x)))
            return 0;
    }
    return 1;
}

static size_t range_bin(clscan_type t, const uint8_t *edges, size_t bins, uint64_t x)
{
    size_t elem = clscan_type_size(t), lo = 0, hi = bins;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (!arg_better(t, 0, x, load(edges + mid * elem, elem)))   /* edges[mid] <= x */
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void hist_reference(exec *e, const call *c, regions *rs)
{
    clscan_type t = c->type;
    size_t elem = clscan_type_size(t);
    int even = c->f == F_HIST_EVEN;
    uint8_t *in = gather(e, &c->args[0], c->n * elem), *edges = even ? NULL : gather(e, &c->args[1], (c->bins + 1) * elem);
    uint8_t *counts = at(e, &c->args[even ? 1 : 2]);
    uint64_t lower = even ? load(c->lower, elem) : load(edges, elem);
    uint64_t upper = even ? load(c->upper, elem) : load(edges + c->bins * elem, elem);
    int valid = even || edges_increase(t, edges, c->bins);
    memset(counts, 0, c->bins * 8);
    for (size_t i = 0; valid && i < c->n; i++) {
        uint64_t x = load(in + i * elem, elem);
        if (!in_range(t, x, lower, upper))
            continue;
        size_t b = even ? even_bin(c, x) : range_bin(t, edges, c->bins, x);
        store(counts + b * 8, 8, load(counts + b * 8, 8) + 1);
    }
    if (!valid)
        add_region(rs, &c->args[2], 0, c->bins * 8, CLSCAN_UINT64, 1);
    if (verbose && !valid)
        fprintf(stderr, "  edges that do not increase: counts not compared\n");
    free(in);
    free(edges);
}

/* reduce_async: the reduction (n == 0: the identity) in element 0 of result, compared as a value. */
static void reduce_async_reference(exec *e, const call *c, regions *rs)
{
    size_t elem = clscan_type_size(c->type);
    uint8_t *in = c->n ? gather(e, &c->args[0], c->n * elem) : NULL;
    uint64_t acc = identity(c->type, c->op);
    for (size_t i = 0; i < c->n; i++)
        acc = combine(c->type, c->op, acc, load(in + i * elem, elem));
    store(at(e, &c->args[1]), elem, acc);
    add_region(rs, &c->args[1], 0, elem, c->type, 0);
    free(in);
}

/* The other _async forms of 0.1's functions and 0.2's partition and unique: the blocking forms'
 * references; n == 0 writes a count of 0 and nothing else. */
static void select_async_reference(exec *e, const call *c, regions *rs)
{
    if (c->n == 0)
        check_count(e, c, 0, 0, "");
    else if (c->f == F_COMPACT_ASYNC)
        compact_reference(e, c, 0, rs);
    else if (c->f == F_PARTITION_ASYNC)
        partition_reference(e, c, 0);
    else
        unique_reference(e, c, 0, rs);
}

static void added_reference(exec *e, const call *c, const uint8_t *result, size_t count, regions *rs)
{
    switch (c->f) {
    case F_REDUCE_ASYNC: reduce_async_reference(e, c, rs); break;
    case F_COMPACT_ASYNC: case F_PARTITION_ASYNC: case F_UNIQUE_ASYNC: select_async_reference(e, c, rs); break;
    case F_INCLUSIVE_INIT: case F_EXCLUSIVE_INIT: if (c->n) init_reference(e, c, rs); break;
    case F_SEG_REDUCE: if (c->n) segreduce_reference(e, c, rs); break;
    case F_REDUCE_BY_KEY: case F_REDUCE_BY_KEY_ASYNC: case F_RLE: case F_RLE_ASYNC: runs_reference(e, c, count, rs); break;
    case F_ARGMIN: case F_ARGMAX: arg_reference(e, c, result, count); break;
    case F_HIST_EVEN: case F_HIST_RANGE: hist_reference(e, c, rs); break;
    default: if (c->n) segscan_reference(e, c, rs); break;
    }
}

static void apply_reference(exec *e, const call *c, const uint8_t *result, size_t count, regions *rs)
{
    size_t elem = clscan_type_size(c->type), bytes = c->n * elem;
    if (c->f >= F_INCLUSIVE_INIT) {
        added_reference(e, c, result, count, rs);
        return;
    }
    if (c->n == 0)
        return;
    if (c->f == F_INCLUSIVE || c->f == F_EXCLUSIVE || c->f == F_SAT) {
        uint8_t *in = gather(e, &c->args[0], bytes);
        if (c->f == F_SAT)
            sat_reference(in, at(e, &c->args[1]), c->width, c->height, c->type);
        else
            scan_reference(in, at(e, &c->args[1]), c->n, c->type, c->op, c->f == F_EXCLUSIVE);
        add_region(rs, &c->args[1], 0, bytes, c->type, 0);
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
        compact_reference(e, c, count, rs);
    else if (c->f == F_PARTITION)
        partition_reference(e, c, count);
    else if (c->f == F_UNIQUE)
        unique_reference(e, c, count, rs);
    else
        sort_reference(e, c);
}

/* ---- checking the buffers afterwards ----------------------------------------------------------- */
static void compare_region(const call *c, const region *g, uint8_t *got, uint8_t *expect)
{
    if (g->loose) {
        memcpy(expect + g->offset, got + g->offset, g->bytes);
        return;
    }
    size_t elem = clscan_type_size(g->type);
    for (size_t o = g->offset; o < g->offset + g->bytes; o += elem) {
        if (!same_value(g->type, load(got + o, elem), load(expect + o, elem))) {
            fprintf(stderr, "fuzz_api: element %zu: bits %016llx, the reference's %016llx\n", (o - g->offset) / elem,
                    (unsigned long long)load(got + o, elem), (unsigned long long)load(expect + o, elem));
            fail(c, "the result differs from the reference");
        }
        memcpy(expect + o, got + o, elem);
    }
}

static void compare_root(exec *e, int i, const call *c, const regions *rs)
{
    root *r = &e->roots[i];
    uint8_t *got = malloc(r->size);
    if (!got || clEnqueueReadBuffer(r->queue, r->mem, CL_TRUE, 0, r->size, got, 0, NULL, NULL) != CL_SUCCESS)
        fail(c, "a buffer could not be read back");
    for (int k = 0; k < rs->count; k++)
        if (rs->r[k].root == i)
            compare_region(c, &rs->r[k], got, r->expect);
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

/* What a call reads from or writes to the host, each with exactly the room the contract gives it:
 * ASan sees an access past it. */
typedef struct host_args { uint8_t *result, *init, *lower, *upper; size_t *count; } host_args;

static uint8_t *exact_copy(const uint8_t *from, size_t bytes)
{
    uint8_t *p = malloc(bytes ? bytes : 1);
    if (!p)
        abort();
    memcpy(p, from, bytes);
    return p;
}

static clscan_status invoke_added(const call *c, clscan_context *x, const host_args *h)
{
    cl_mem a = c->args[0].mem, b = c->args[1].mem, d = c->args[2].mem, g = c->args[3].mem, k = c->args[4].mem;
    size_t *cnt = c->ptr_null ? NULL : h->count;
    const void *init = init_given(c) ? h->init : NULL;
    const void *lower = lower_null(c) ? NULL : h->lower, *upper = upper_null(c) ? NULL : h->upper;
    switch (c->f) {
    case F_INCLUSIVE_INIT: return clscan_inclusive_scan_init(x, a, b, c->n, c->type, c->op, init, d);
    case F_EXCLUSIVE_INIT: return clscan_exclusive_scan_init(x, a, b, c->n, c->type, c->op, init, d);
    case F_SEG_INCLUSIVE: return clscan_segmented_inclusive_scan(x, a, b, d, c->n, c->type, c->op);
    case F_SEG_EXCLUSIVE: return clscan_segmented_exclusive_scan(x, a, b, d, c->n, c->type, c->op);
    case F_INCLUSIVE_BY_KEY: return clscan_inclusive_scan_by_key(x, a, c->vtype, b, d, c->n, c->type, c->op);
    case F_EXCLUSIVE_BY_KEY: return clscan_exclusive_scan_by_key(x, a, c->vtype, b, d, c->n, c->type, c->op);
    case F_SEG_REDUCE: return clscan_segmented_reduce(x, a, b, d, c->n, c->type, c->op);
    case F_REDUCE_BY_KEY: return clscan_reduce_by_key(x, a, b, d, g, c->n, c->type, c->vtype, c->op, cnt);
    case F_REDUCE_BY_KEY_ASYNC: return clscan_reduce_by_key_async(x, a, b, d, g, c->n, c->type, c->vtype, c->op, k);
    case F_RLE: return clscan_run_length_encode(x, a, b, d, c->n, c->type, cnt);
    case F_RLE_ASYNC: return clscan_run_length_encode_async(x, a, b, d, c->n, c->type, g);
    case F_ARGMIN: return clscan_argmin(x, a, c->n, c->type, cnt, c->value_null ? NULL : h->result);
    case F_ARGMAX: return clscan_argmax(x, a, c->n, c->type, cnt, c->value_null ? NULL : h->result);
    case F_HIST_EVEN: return clscan_histogram_even(x, a, c->n, c->type, lower, upper, c->bins, b);
    case F_HIST_RANGE: return clscan_histogram_range(x, a, c->n, c->type, b, c->bins, d);
    case F_REDUCE_ASYNC: return clscan_reduce_async(x, a, c->n, c->type, c->op, b);
    case F_COMPACT_ASYNC: return clscan_compact_async(x, a, b, d, c->n, c->type, g);
    case F_PARTITION_ASYNC: return clscan_partition_async(x, a, b, d, c->n, c->type, g);
    default: return clscan_unique_async(x, a, b, c->n, c->type, d);
    }
}

static clscan_status invoke_device(const call *c, const host_args *h)
{
    clscan_context *x = c->ctx_null ? NULL : ctx;
    cl_mem a = c->args[0].mem, b = c->args[1].mem, d = c->args[2].mem;
    void *res = c->ptr_null ? NULL : h->result;
    size_t *cnt = c->ptr_null ? NULL : h->count;
    if (c->f >= F_INCLUSIVE_INIT)
        return invoke_added(c, x, h);
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

#define HOST_POISON 0xA5u

static int device_call(exec *e, reader *r, call *c)
{
    decode_device_call(e, r, c);
    clscan_status want = expected_device(c);
    if (want == CLSCAN_SUCCESS && c->n > 0)
        canonical_types(c);
    const size_t elem = type_ok(c->type) ? clscan_type_size(c->type) : 1;
    uint8_t poison[8];
    memset(poison, HOST_POISON, sizeof poison);
    /* The host results start as poison: a failed call must leave them so (written only on success). */
    host_args h = {exact_copy(poison, elem), exact_copy(c->init, elem), exact_copy(c->lower, elem),
                   exact_copy(c->upper, elem), (size_t *)exact_copy(poison, sizeof(size_t))};
    ctx->error[0] = '\0';
    clscan_status got = invoke_device(c, &h);
    check_status(c, got, want);
    if (clscan_finish(ctx) != CLSCAN_SUCCESS)
        fail(c, "clscan_finish failed after the call");
    regions rs = {.count = 0};
    if (got == CLSCAN_SUCCESS)
        apply_reference(e, c, h.result, *h.count, &rs);
    else if (memcmp(h.result, poison, elem) != 0 || memcmp(h.count, poison, sizeof(size_t)) != 0)
        fail(c, "a failed call wrote a result to the host");
    for (int i = 0; i < e->nroots; i++)
        compare_root(e, i, c, &rs);
    free(h.result);
    free(h.init);
    free(h.lower);
    free(h.upper);
    free(h.count);
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
        c.f = take_fn(&r, take8(&r));
        unsigned opt = take8(&r);
        c.ctx_null = (opt & 0x1f) == 0x1f;
        c.ptr_null = (opt >> 5) == 7;
        c.value_null = (opt >> 5) == 6;
        all_ok &= run_call(&e, &r, &c);
        free_exec(&e);
    }
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO);
    if (!all_ok)
        check_usable();
    return 0;
}
