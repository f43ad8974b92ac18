/* Host threads sharing contexts. Eight threads run 200 mixed operations each on ONE context: scans of
 * several types and operators (device and host memory), reductions, compactions, sorts, sorts by key,
 * summed-area tables, strategy switches and calls with bad arguments, every result checked against a
 * CPU reference. Then eight threads race to make the first call that needs a program on a fresh
 * context with an empty cache directory: the program must be built exactly once, and a second fresh
 * context on that directory must load it from disk and build nothing. $CLSCAN_TEST_SEED replays the
 * operations (not their interleaving). Sizes stay small so that PoCL on two cores runs this quickly;
 * the menu of types is short because every new configuration is a program build. */
#define _POSIX_C_SOURCE 200809L
#include "prims/prims.h"
#include "ref.h"
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#define THREADS 8
#define OPS 200
#define SMALL_MAX 3000      /* most sizes are small; the rest sit on tile boundaries */
#define SAT_SIDE_MAX 200

typedef struct pair { clscan_type type; clscan_op op; } pair;
/* Scans and reductions draw from these; the sorts' count scans (uint32) and the three-launch
 * compaction's (uint64) reuse programs from it. */
static const pair menu[] = {{CLSCAN_INT32, CLSCAN_ADD}, {CLSCAN_UINT32, CLSCAN_ADD}, {CLSCAN_UINT64, CLSCAN_ADD},
                            {CLSCAN_FLOAT, CLSCAN_ADD}, {CLSCAN_DOUBLE, CLSCAN_MIN}};
#define MENU (sizeof menu / sizeof menu[0])

enum op_kind { OP_SCAN, OP_SCAN_HOST, OP_REDUCE, OP_COMPACT, OP_SORT, OP_SORT_BY_KEY, OP_SAT, OP_STRATEGY, OP_BAD, KINDS };
static const char *const kind_names[KINDS] = {"scan", "host scan", "reduce", "compact", "sort", "sort by key",
                                              "summed-area", "strategy", "bad argument"};

static clscan_context *ctx;
static size_t tile4, tile8, cap;   /* scan tiles of 4- and 8-byte elements; the largest n drawn */
static uint64_t base_seed;

typedef struct worker {
    int id;
    uint64_t rng;
    unsigned done[KINDS], failures;
    char msg[320];
    unsigned char *in, *out, *ref, *flags;   /* cap elements of 8 bytes each (flags: cap bytes) */
} worker;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Records a failure of the current operation; returns 0 so callers can `return failed(...)`. */
static int failed(worker *w, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(w->msg, sizeof w->msg, "thread %d: %s", w->id, text);
    w->failures++;
    return 0;
}

static int supported(clscan_type type) { return clscan__device_supports_type(&ctx->info, type); }

/* 0 now and then, else mostly small, else one element either side of one or two tiles. */
static size_t draw_n(worker *w, clscan_type type)
{
    size_t tile = clscan_type_size(type) == 8 ? tile8 : tile4;
    uint64_t r = ref_next(&w->rng);
    switch (r % 16) {
    case 0: return 0;
    case 1: return 1;
    case 2: return tile - 1;
    case 3: return tile;
    case 4: return tile + 1;
    case 5: return 2 * tile + 1;
    default: return 1 + (size_t)(r >> 8) % SMALL_MAX;
    }
}

/* A buffer holding data (poisoned when data is NULL); NULL when it cannot be made. */
static cl_mem buffer(size_t bytes, const void *data) { return ref_buffer(ctx, bytes, data); }

static void release(cl_mem a, cl_mem b, cl_mem c)
{
    if (a) clReleaseMemObject(a);
    if (b) clReleaseMemObject(b);
    if (c) clReleaseMemObject(c);
}

/* ---- scans and reductions ----------------------------------------------------------------------- */
static int op_scan(worker *w, int host)
{
    pair p = menu[ref_next(&w->rng) % MENU];
    if (!supported(p.type))
        return 1;
    size_t n = draw_n(w, p.type), bytes = n * clscan_type_size(p.type);
    int excl = (int)(ref_next(&w->rng) & 1);
    ref_fill(w->in, n, p.type, p.op, &w->rng);
    clscan_status st;
    if (host) {
        st = excl ? clscan_exclusive_scan_host(ctx, w->in, w->out, n, p.type, p.op)
                  : clscan_inclusive_scan_host(ctx, w->in, w->out, n, p.type, p.op);
    } else {
        int in_place = (int)(ref_next(&w->rng) & 1);
        cl_mem a = buffer(bytes, w->in), b = in_place ? a : buffer(bytes, NULL);
        if (!a || !b)
            return release(a, in_place ? NULL : b, NULL), failed(w, "buffer of %zu bytes", bytes);
        st = excl ? clscan_exclusive_scan(ctx, a, b, n, p.type, p.op) : clscan_inclusive_scan(ctx, a, b, n, p.type, p.op);
        if (st == CLSCAN_SUCCESS && !ref_read(ctx, b, bytes, w->out))
            st = CLSCAN_OPENCL_ERROR;
        release(a, in_place ? NULL : b, NULL);
    }
    char msg[256] = "";
    if (st != CLSCAN_SUCCESS)
        return failed(w, "%s scan %s %s n=%zu: %s", host ? "host" : "device", ref_type_name(p.type),
                    ref_op_name(p.op), n, clscan_status_string(st));
    if (!ref_check_scan(w->in, w->out, n, p.type, p.op, excl, msg, sizeof msg))
        return failed(w, "%s %s scan %s %s: %s", excl ? "exclusive" : "inclusive", host ? "host" : "device",
                    ref_type_name(p.type), ref_op_name(p.op), msg);
    return 1;
}

static int op_reduce(worker *w)
{
    pair p = menu[ref_next(&w->rng) % MENU];
    if (!supported(p.type))
        return 1;
    size_t n = draw_n(w, p.type), bytes = n * clscan_type_size(p.type);
    ref_fill(w->in, n, p.type, p.op, &w->rng);
    cl_mem a = buffer(bytes, w->in);
    if (!a)
        return failed(w, "buffer of %zu bytes", bytes);
    uint64_t result = 0;
    clscan_status st = clscan_reduce(ctx, a, n, p.type, p.op, &result);
    release(a, NULL, NULL);
    char msg[256] = "";
    if (st != CLSCAN_SUCCESS)
        return failed(w, "reduce %s %s n=%zu: %s", ref_type_name(p.type), ref_op_name(p.op), n, clscan_status_string(st));
    if (!ref_check_reduce(w->in, &result, n, p.type, p.op, msg, sizeof msg))
        return failed(w, "reduce %s %s: %s", ref_type_name(p.type), ref_op_name(p.op), msg);
    return 1;
}

/* ---- compaction ----------------------------------------------------------------------------------- */
/* The CPU filter of in by flags into ref; returns the count. */
static size_t filter(const unsigned char *in, const unsigned char *flags, size_t n, size_t elem, unsigned char *ref)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (flags[i])
            memcpy(ref + elem * kept++, in + elem * i, elem);
    return kept;
}

static int op_compact(worker *w)
{
    clscan_type type = ref_next(&w->rng) & 1 ? CLSCAN_INT32 : CLSCAN_DOUBLE;   /* 4- and 8-byte patterns */
    if (!supported(type))
        return 1;
    size_t n = draw_n(w, type), elem = clscan_type_size(type), bytes = n * elem;
    unsigned keep_one_in = 1 + (unsigned)(ref_next(&w->rng) % 4);
    ref_fill(w->in, n, type, CLSCAN_ADD, &w->rng);
    for (size_t i = 0; i < n; i++)
        w->flags[i] = ref_next(&w->rng) % keep_one_in == 0 ? (unsigned char)(1 + i % 255) : 0;
    size_t want = filter(w->in, w->flags, n, elem, w->ref), count = 0;
    cl_mem a = buffer(bytes, w->in), f = buffer(n, w->flags), o = buffer(bytes, NULL);
    clscan_status st = a && f && o ? clscan_compact(ctx, a, f, o, n, type, &count) : CLSCAN_OUT_OF_MEMORY;
    if (st == CLSCAN_SUCCESS && !ref_read(ctx, o, bytes, w->out))
        st = CLSCAN_OPENCL_ERROR;
    release(a, f, o);
    if (st != CLSCAN_SUCCESS)
        return failed(w, "compact %s n=%zu: %s", ref_type_name(type), n, clscan_status_string(st));
    if (count != want)
        return failed(w, "compact %s n=%zu: count %zu, want %zu", ref_type_name(type), n, count, want);
    if (memcmp(w->out, w->ref, want * elem) != 0 || !ref_is_poison(w->out + want * elem, bytes - want * elem))
        return failed(w, "compact %s n=%zu: kept elements or untouched tail differ", ref_type_name(type), n);
    return 1;
}

/* ---- sorts ---------------------------------------------------------------------------------------- */
static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* int32 keys, full range or many repeats of few values of both signs. */
static int op_sort(worker *w)
{
    size_t n = draw_n(w, CLSCAN_INT32), bytes = n * 4;
    ref_fill(w->in, n, CLSCAN_INT32, CLSCAN_ADD, &w->rng);
    if (ref_next(&w->rng) & 1)
        for (size_t i = 0; i < n; i++)
            ((int32_t *)w->in)[i] %= 50;
    memcpy(w->ref, w->in, bytes);
    qsort(w->ref, n, 4, cmp_i32);
    cl_mem k = buffer(bytes, w->in);
    clscan_status st = k ? clscan_sort(ctx, k, n, CLSCAN_INT32) : CLSCAN_OUT_OF_MEMORY;
    if (st == CLSCAN_SUCCESS && !ref_read(ctx, k, bytes, w->out))
        st = CLSCAN_OPENCL_ERROR;
    release(k, NULL, NULL);
    if (st != CLSCAN_SUCCESS)
        return failed(w, "sort int32 n=%zu: %s", n, clscan_status_string(st));
    if (memcmp(w->out, w->ref, bytes) != 0)
        return failed(w, "sort int32 n=%zu: keys differ from qsort's", n);
    return 1;
}

/* uint32 keys with many repeats, values their original indices: sorted keys, equal keys in index
 * order (stability), and every value once with its own key (a permutation). */
static int check_by_key(worker *w, const uint32_t *orig, const uint32_t *keys, const uint32_t *vals, size_t n)
{
    unsigned char *seen = w->flags;
    memset(seen, 0, n);
    for (size_t i = 0; i < n; i++) {
        if (vals[i] >= n || seen[vals[i]]++ || keys[i] != orig[vals[i]])
            return failed(w, "sort by key n=%zu: element %zu is not a permutation of the input", n, i);
        if (i > 0 && (keys[i - 1] > keys[i] || (keys[i - 1] == keys[i] && vals[i - 1] > vals[i])))
            return failed(w, "sort by key n=%zu: elements %zu and %zu out of order or unstable", n, i - 1, i);
    }
    return 1;
}

static int op_sort_by_key(worker *w)
{
    size_t n = draw_n(w, CLSCAN_UINT32), bytes = n * 4;
    uint32_t *orig = (uint32_t *)w->in, *vals = (uint32_t *)w->ref, *keys = (uint32_t *)w->out;
    uint32_t spread = (uint32_t)(n / 4 + 1);
    for (size_t i = 0; i < n; i++) {
        orig[i] = (uint32_t)ref_next(&w->rng) % spread;
        vals[i] = (uint32_t)i;
    }
    cl_mem k = buffer(bytes, orig), v = buffer(bytes, vals);
    clscan_status st = k && v ? clscan_sort_by_key(ctx, k, v, n, CLSCAN_UINT32, CLSCAN_UINT32) : CLSCAN_OUT_OF_MEMORY;
    if (st == CLSCAN_SUCCESS && (!ref_read(ctx, k, bytes, keys) || !ref_read(ctx, v, bytes, vals)))
        st = CLSCAN_OPENCL_ERROR;
    release(k, v, NULL);
    if (st != CLSCAN_SUCCESS)
        return failed(w, "sort by key n=%zu: %s", n, clscan_status_string(st));
    return check_by_key(w, orig, keys, vals, n);
}

/* ---- summed-area tables ----------------------------------------------------------------------------- */
/* Integers only (exact, wrapping): a running sum down each column, then along the row. */
static int check_sat(worker *w, clscan_type type, size_t width, size_t height)
{
    int wide = clscan_type_size(type) == 8;
    uint64_t mask = wide ? ~0ull : 0xFFFFFFFFull, *col = (uint64_t *)w->ref;
    memset(col, 0, width * sizeof *col);
    for (size_t y = 0; y < height; y++) {
        uint64_t acc = 0;
        for (size_t x = 0; x < width; x++) {
            size_t i = y * width + x;
            col[x] += wide ? ((const uint64_t *)w->in)[i] : ((const uint32_t *)w->in)[i];
            acc += col[x];
            uint64_t got = wide ? ((const uint64_t *)w->out)[i] : ((const uint32_t *)w->out)[i];
            if (got != (acc & mask))
                return failed(w, "summed-area %s %zux%zu: [%zu][%zu] got %llu, want %llu", ref_type_name(type), width,
                            height, y, x, (unsigned long long)got, (unsigned long long)(acc & mask));
        }
    }
    return 1;
}

static int op_sat(worker *w)
{
    clscan_type type = ref_next(&w->rng) & 1 ? CLSCAN_INT32 : CLSCAN_UINT64;
    size_t width = 1 + ref_next(&w->rng) % SAT_SIDE_MAX, height = 1 + ref_next(&w->rng) % SAT_SIDE_MAX;
    size_t n = width * height, bytes = n * clscan_type_size(type);
    int in_place = (int)(ref_next(&w->rng) & 1);
    ref_fill(w->in, n, type, CLSCAN_ADD, &w->rng);
    cl_mem a = buffer(bytes, w->in), b = in_place ? a : buffer(bytes, NULL);
    clscan_status st = a && b ? clscan_summed_area_table(ctx, a, b, width, height, type) : CLSCAN_OUT_OF_MEMORY;
    if (st == CLSCAN_SUCCESS && !ref_read(ctx, b, bytes, w->out))
        st = CLSCAN_OPENCL_ERROR;
    release(a, in_place ? NULL : b, NULL);
    if (st != CLSCAN_SUCCESS)
        return failed(w, "summed-area %s %zux%zu: %s", ref_type_name(type), width, height, clscan_status_string(st));
    return check_sat(w, type, width, height);
}

/* ---- context settings and bad arguments ------------------------------------------------------------ */
/* Another strategy for every later scan of every thread: each must stay right whichever it meets. */
static int op_strategy(worker *w)
{
    clscan_strategy s = (clscan_strategy)(ref_next(&w->rng) % 4);
    clscan_status st = clscan_set_algorithm(ctx, s, CLSCAN_WG_AUTO);
    return st == CLSCAN_SUCCESS ? 1 : failed(w, "clscan_set_algorithm(%d): %s", (int)s, clscan_status_string(st));
}

/* One call with a bad argument: it must return INVALID_ARGUMENT, leave both buffers as they were and
 * leave a message. The message is read while other threads' calls on the context may fail too:
 * clscan_last_error hands each thread its own copy, so whose it is may vary, not that it is whole. */
static int op_bad(worker *w)
{
    const size_t n = 100;
    ref_fill(w->in, n, CLSCAN_INT32, CLSCAN_ADD, &w->rng);
    cl_mem a = buffer(n * 4, w->in), b = buffer(n * 4, NULL);
    if (!a || !b)
        return release(a, b, NULL), failed(w, "buffers for a bad call");
    uint64_t r = ref_next(&w->rng) % 8;
    size_t count = 0;
    clscan_status st = CLSCAN_SUCCESS;
    switch (r) {
    case 0: st = clscan_inclusive_scan(ctx, a, b, n + 1, CLSCAN_INT32, CLSCAN_ADD); break;   /* too short */
    case 1: st = clscan_exclusive_scan(ctx, a, b, n, CLSCAN_INT32, (clscan_op)9); break;
    case 2: st = clscan_reduce(ctx, a, n, CLSCAN_INT32, CLSCAN_ADD, NULL); break;
    case 3: st = clscan_compact(ctx, a, b, a, n, CLSCAN_INT32, &count); break;   /* out overlaps in */
    case 4: st = clscan_sort(ctx, b, n, (clscan_type)42); break;
    case 5: st = clscan_sort_by_key(ctx, b, b, n, CLSCAN_INT32, CLSCAN_INT32); break;   /* keys are values */
    case 6: st = clscan_summed_area_table(ctx, NULL, b, 10, 10, CLSCAN_INT32); break;
    default: st = clscan_set_algorithm(ctx, (clscan_strategy)17, CLSCAN_WG_AUTO); break;
    }
    const char *message = clscan_last_error(ctx);
    if (message[0] == '\0')
        return release(a, b, NULL), failed(w, "bad call %d left no message", (int)r);
    int ok = ref_read(ctx, a, n * 4, w->ref) && memcmp(w->ref, w->in, n * 4) == 0 &&
             ref_read(ctx, b, n * 4, w->out) && ref_is_poison(w->out, n * 4);
    release(a, b, NULL);
    if (st != CLSCAN_INVALID_ARGUMENT)
        return failed(w, "bad call %d gave %s, want CLSCAN_INVALID_ARGUMENT", (int)r, clscan_status_string(st));
    return ok ? 1 : failed(w, "bad call %d changed a buffer", (int)r);
}

static int run_op(worker *w, enum op_kind kind)
{
    switch (kind) {
    case OP_SCAN: return op_scan(w, 0);
    case OP_SCAN_HOST: return op_scan(w, 1);
    case OP_REDUCE: return op_reduce(w);
    case OP_COMPACT: return op_compact(w);
    case OP_SORT: return op_sort(w);
    case OP_SORT_BY_KEY: return op_sort_by_key(w);
    case OP_SAT: return op_sat(w);
    case OP_STRATEGY: return op_strategy(w);
    default: return op_bad(w);
    }
}

static void *mixed_worker(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < OPS; i++) {
        enum op_kind kind = (enum op_kind)(ref_next(&w->rng) % KINDS);
        run_op(w, kind);
        w->done[kind]++;
    }
    return NULL;
}

static int worker_alloc(worker *w, int id)
{
    memset(w, 0, sizeof *w);
    w->id = id;
    w->rng = base_seed + (uint64_t)id * 0x9E3779B97F4A7C15ull;
    w->in = malloc(cap * 8), w->out = malloc(cap * 8), w->ref = malloc(cap * 8), w->flags = malloc(cap);
    return w->in && w->out && w->ref && w->flags;
}

static void worker_free(worker *w)
{
    free(w->in), free(w->out), free(w->ref), free(w->flags);
}

static void test_eight_threads_mixed_operations(void **state)
{
    (void)state;
    assert_non_null(ctx = ref_context());
    tile4 = (size_t)clscan__scan_tile(ctx, CLSCAN_INT32).wg_size * clscan__scan_tile(ctx, CLSCAN_INT32).items;
    tile8 = (size_t)clscan__scan_tile(ctx, CLSCAN_DOUBLE).wg_size * clscan__scan_tile(ctx, CLSCAN_DOUBLE).items;
    cap = 2 * (tile4 > tile8 ? tile4 : tile8) + 1;
    cap = cap > SAT_SIDE_MAX * SAT_SIDE_MAX ? cap : SAT_SIDE_MAX * SAT_SIDE_MAX;
    static worker workers[THREADS];
    pthread_t t[THREADS];
    double start = now();
    for (int i = 0; i < THREADS; i++) {
        assert_true(worker_alloc(&workers[i], i));
        assert_int_equal(pthread_create(&t[i], NULL, mixed_worker, &workers[i]), 0);
    }
    unsigned failures = 0, done[KINDS] = {0};
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        for (int k = 0; k < KINDS; k++)
            done[k] += workers[i].done[k];
        if (workers[i].failures)
            print_error("%u failures, last: %s\n", workers[i].failures, workers[i].msg);
        failures += workers[i].failures;
        worker_free(&workers[i]);
    }
    printf("  %d threads x %d operations in %.1f s on one context (tiles %zu and %zu):", THREADS, OPS,
           now() - start, tile4, tile8);
    for (int k = 0; k < KINDS; k++)
        printf("%s %u %s", k ? "," : "", done[k], kind_names[k]);
    printf("\n");
    clscan_context_release(ctx);
    ctx = NULL;
    assert_int_equal(failures, 0);
}

/* ---- the first build, raced ------------------------------------------------------------------------- */
typedef struct racer {
    clscan_context *c;
    pthread_barrier_t *start;
    int id, ok;
} racer;

/* After the barrier, each thread's first call needs the int32-add program: a scan or a reduction
 * (the same configuration), each on its own data, checked. */
static void *race_worker(void *arg)
{
    racer *r = arg;
    enum { N = 5000 };
    int32_t in[N], out[N];
    uint64_t rng = base_seed ^ (uint64_t)(r->id + 1);
    size_t n = N - 97 * (size_t)r->id;
    ref_fill(in, n, CLSCAN_INT32, CLSCAN_ADD, &rng);
    char msg[256] = "";
    pthread_barrier_wait(r->start);
    if (r->id % 2 == 0) {
        r->ok = clscan_inclusive_scan_host(r->c, in, out, n, CLSCAN_INT32, CLSCAN_ADD) == CLSCAN_SUCCESS &&
                ref_check_scan(in, out, n, CLSCAN_INT32, CLSCAN_ADD, 0, msg, sizeof msg);
    } else {
        cl_mem a = ref_buffer(r->c, n * 4, in);
        r->ok = a && clscan_reduce(r->c, a, n, CLSCAN_INT32, CLSCAN_ADD, out) == CLSCAN_SUCCESS &&
                ref_check_reduce(in, out, n, CLSCAN_INT32, CLSCAN_ADD, msg, sizeof msg);
        release(a, NULL, NULL);
    }
    if (!r->ok)
        print_error("racer %d: %s\n", r->id, msg);
    return NULL;
}

/* A context whose disk cache is dir (the environment is read at creation; no other thread of this
 * program runs while it is changed). */
static clscan_context *context_on_cache(const char *dir)
{
    clscan_context *c = NULL;
    const char *old = getenv("CLSCAN_CACHE_DIR");
    char saved[4096] = "";
    if (old)
        snprintf(saved, sizeof saved, "%s", old);
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    setenv("CLSCAN_CACHE", "1", 1);   /* binaries stored on PoCL too (src/core/context.c) */
    clscan_status st = clscan_context_create(&c, NULL);
    unsetenv("CLSCAN_CACHE");
    if (old)
        setenv("CLSCAN_CACHE_DIR", saved, 1);
    else
        unsetenv("CLSCAN_CACHE_DIR");
    return st == CLSCAN_SUCCESS ? c : NULL;
}

/* Eight threads make their first calls on c at once; returns how many got right answers. */
static int race(clscan_context *c)
{
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    pthread_t t[THREADS];
    racer r[THREADS];
    for (int i = 0; i < THREADS; i++) {
        r[i] = (racer){c, &start, i, 0};
        assert_int_equal(pthread_create(&t[i], NULL, race_worker, &r[i]), 0);
    }
    int ok = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ok += r[i].ok;
    }
    pthread_barrier_destroy(&start);
    return ok;
}

/* Removes the cache files in dir and dir itself; returns how many .bin files there were. */
static int remove_cache_dir(const char *dir)
{
    DIR *d = opendir(dir);
    int bins = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        char path[4200];
        if (e->d_name[0] == '.')
            continue;
        bins += strstr(e->d_name, ".bin") && !strstr(e->d_name, ".tmp");
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    return bins;
}

static void test_first_build_raced_by_eight_threads(void **state)
{
    (void)state;
    char dir[] = "/tmp/clscan-test-threads-XXXXXX";
    assert_non_null(mkdtemp(dir));
    double start = now();
    clscan_context *c = context_on_cache(dir);
    assert_non_null(c);
    int ok = race(c);
    clscan_tuning_cache_stats first = clscan_tuning_cache_counters(c);   /* every thread has joined: no call in flight */
    clscan_context_release(c);
    c = context_on_cache(dir);   /* a second fresh context: the binary is on disk now */
    assert_non_null(c);
    ok += race(c);
    clscan_tuning_cache_stats second = clscan_tuning_cache_counters(c);
    clscan_context_release(c);
    int bins = remove_cache_dir(dir);
    printf("  first context: %lu source builds, %lu binary writes; second: %lu builds, %lu binary loads; "
           "%d cache file(s); %.1f s\n", first.source_builds, first.binary_writes, second.source_builds,
           second.binary_loads, bins, now() - start);
    assert_int_equal(ok, 2 * THREADS);
    assert_int_equal(first.source_builds, 1);
    assert_int_equal(first.binary_loads, 0);
    assert_int_equal(first.binary_writes, 1);
    assert_int_equal(second.source_builds, 0);
    assert_int_equal(second.binary_loads, 1);
    assert_int_equal(bins, 1);
}

int main(void)
{
    base_seed = ref_seed("test_threads");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eight_threads_mixed_operations),
        cmocka_unit_test(test_first_build_raced_by_eight_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
