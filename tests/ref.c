/* CPU references and helpers for the tests (see ref.h). Floats are checked against a sum in a wider
 * type with the reassociation bound the API promises; integers through unsigned arithmetic. */
#include "ref.h"
#include "tuning/tuning.h"
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t ref_seed(const char *test_name)
{
    const char *env = getenv("CLSCAN_TEST_SEED");
    uint64_t seed = env && env[0] ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
    printf("[ seed     ] %s: CLSCAN_TEST_TIER=%s CLSCAN_TEST_SEED=%" PRIu64 " replays this run\n", test_name,
           ref_quick() ? "quick" : "full", seed);
    fflush(stdout);
    return seed;
}

uint64_t ref_affine32(uint64_t a, uint64_t b)
{
    uint32_t am = (uint32_t)(a >> 32), ac = (uint32_t)a, bm = (uint32_t)(b >> 32), bc = (uint32_t)b;
    return (uint64_t)(uint32_t)(bm * am) << 32 | (uint32_t)(bm * ac + bc);
}

int ref_quick(void)
{
    const char *env = getenv("CLSCAN_TEST_TIER");
    return !env || strcmp(env, "full") != 0;
}

uint64_t ref_next(uint64_t *s)   /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double unit(uint64_t *rng) { return (double)(ref_next(rng) >> 11) / (double)(1ull << 53); }

void ref_fill(void *data, size_t n, clscan_type type, clscan_op op, uint64_t *rng)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = ref_next(rng) | (op == CLSCAN_MUL);
        double f = op == CLSCAN_MUL ? 0.999 + 0.002 * unit(rng) : 2.0 * unit(rng) - 1.0;
        switch (type) {
        case CLSCAN_INT8: case CLSCAN_UINT8: ((uint8_t *)data)[i] = (uint8_t)r; break;
        case CLSCAN_INT16: case CLSCAN_UINT16: ((uint16_t *)data)[i] = (uint16_t)r; break;
        case CLSCAN_INT32: case CLSCAN_UINT32: ((uint32_t *)data)[i] = (uint32_t)r; break;
        case CLSCAN_INT64: case CLSCAN_UINT64: ((uint64_t *)data)[i] = r; break;
        case CLSCAN_FLOAT: ((float *)data)[i] = (float)f; break;
        case CLSCAN_DOUBLE: ((double *)data)[i] = f; break;
        }
    }
}

const char *ref_type_name(clscan_type t)
{
    static const char *const names[] = {"int32", "uint32", "int64", "uint64", "float",
                                        "double", "int8", "uint8", "int16", "uint16"};
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

const char *ref_op_name(clscan_op op)
{
    static const char *const names[] = {"add", "mul", "min", "max"};
    return (unsigned)op < 4 ? names[op] : "?";
}

/* Integer scans: one function per width, signedness only matters for min/max. Arithmetic in
 * uint64_t: 16-bit operands would be promoted to int, where their products can overflow. */
#define REF_INT_CHECK(NAME, T, U, TMAX, TMIN, FMT)                                                          \
    static int NAME(const T *in, const T *got, size_t n, clscan_op op, int excl, int last, char *msg,        \
                    size_t len)                                                                         \
    {                                                                                                       \
        T acc = op == CLSCAN_ADD ? 0 : op == CLSCAN_MUL ? 1 : op == CLSCAN_MIN ? TMAX : TMIN;               \
        for (size_t i = 0; i < n; i++) {                                                                    \
            T before = acc, x = in[i];                                                                      \
            switch (op) {                                                                                   \
            case CLSCAN_ADD: acc = (T)(U)((uint64_t)(U)acc + (U)x); break;                                  \
            case CLSCAN_MUL: acc = (T)(U)((uint64_t)(U)acc * (U)x); break;                                  \
            case CLSCAN_MIN: acc = x < acc ? x : acc; break;                                                \
            case CLSCAN_MAX: acc = x > acc ? x : acc; break;                                                \
            }                                                                                               \
            T want = excl ? before : acc, g = got[last ? 0 : i];                                            \
            if (last && i + 1 < n)                                                                          \
                continue;                                                                                   \
            if (g != want) {                                                                                \
                snprintf(msg, len, "element %zu of %zu: got " FMT ", want " FMT, i, n, g, want);             \
                return 0;                                                                                   \
            }                                                                                               \
        }                                                                                                   \
        return 1;                                                                                           \
    }
REF_INT_CHECK(check_i8, int8_t, uint8_t, INT8_MAX, INT8_MIN, "%" PRId8)
REF_INT_CHECK(check_u8, uint8_t, uint8_t, UINT8_MAX, 0, "%" PRIu8)
REF_INT_CHECK(check_i16, int16_t, uint16_t, INT16_MAX, INT16_MIN, "%" PRId16)
REF_INT_CHECK(check_u16, uint16_t, uint16_t, UINT16_MAX, 0, "%" PRIu16)
REF_INT_CHECK(check_i32, int32_t, uint32_t, INT32_MAX, INT32_MIN, "%" PRId32)
REF_INT_CHECK(check_u32, uint32_t, uint32_t, UINT32_MAX, 0, "%" PRIu32)
REF_INT_CHECK(check_i64, int64_t, uint64_t, INT64_MAX, INT64_MIN, "%" PRId64)
REF_INT_CHECK(check_u64, uint64_t, uint64_t, UINT64_MAX, 0, "%" PRIu64)

/* Float scans: the exact value in long double, the bound from the running sum of magnitudes. */
#define REF_FLOAT_CHECK(NAME, T, EPS)                                                                       \
    static int NAME(const T *in, const T *got, size_t n, clscan_op op, int excl, int last, char *msg,        \
                    size_t len)                                                                         \
    {                                                                                                       \
        long double acc = op == CLSCAN_ADD ? 0 : op == CLSCAN_MUL ? 1 : op == CLSCAN_MIN ? INFINITY : -INFINITY; \
        long double mag = 0;                                                                                \
        for (size_t i = 0; i < n; i++) {                                                                    \
            long double before = acc, before_mag = mag, x = in[i];                                          \
            switch (op) {                                                                                   \
            case CLSCAN_ADD: acc += x; break;                                                               \
            case CLSCAN_MUL: acc *= x; break;                                                               \
            case CLSCAN_MIN: acc = fminl(acc, x); break;                                                    \
            case CLSCAN_MAX: acc = fmaxl(acc, x); break;                                                    \
            }                                                                                               \
            mag += fabsl(x);                                                                                \
            long double want = excl ? before : acc, m = excl ? before_mag : mag;                            \
            long double steps = (long double)(excl ? i : i + 1);                                            \
            long double tol = op == CLSCAN_ADD ? (steps + 1) * EPS * m                                      \
                              : op == CLSCAN_MUL ? (steps + 1) * EPS * fabsl(want) : 0;                     \
            long double g = got[last ? 0 : i];                                                              \
            if (last && i + 1 < n)                                                                          \
                continue;                                                                                   \
            int ok = (op == CLSCAN_MIN || op == CLSCAN_MAX || (excl && i == 0))                              \
                         ? g == (long double)(T)want                                                        \
                         : fabsl(g - want) <= tol;                                                          \
            if (!ok) {                                                                                      \
                snprintf(msg, len, "element %zu of %zu: got %.17Lg, want %.17Lg (tolerance %.3Lg)", i, n,   \
                         g, want, tol);                                                                     \
                return 0;                                                                                   \
            }                                                                                               \
        }                                                                                                   \
        return 1;                                                                                           \
    }
REF_FLOAT_CHECK(check_f32, float, FLT_EPSILON)
REF_FLOAT_CHECK(check_f64, double, DBL_EPSILON)

/* last: got holds only the final element (a reduction), compared once the whole input is folded. */
static int check_any(const void *in, const void *got, size_t n, clscan_type type, clscan_op op, int exclusive,
                     int last, char *msg, size_t len)
{
    switch (type) {
    case CLSCAN_INT8: return check_i8(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_UINT8: return check_u8(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_INT16: return check_i16(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_UINT16: return check_u16(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_INT32: return check_i32(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_UINT32: return check_u32(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_INT64: return check_i64(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_UINT64: return check_u64(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_FLOAT: return check_f32(in, got, n, op, exclusive, last, msg, len);
    case CLSCAN_DOUBLE: return check_f64(in, got, n, op, exclusive, last, msg, len);
    }
    snprintf(msg, len, "unknown type");
    return 0;
}

int ref_check_scan(const void *in, const void *got, size_t n, clscan_type type, clscan_op op, int exclusive,
                   char *msg, size_t len)
{
    return check_any(in, got, n, type, op, exclusive, 0, msg, len);
}

int ref_check_reduce(const void *in, const void *result, size_t n, clscan_type type, clscan_op op, char *msg,
                     size_t len)
{
    if (n == 0) {   /* the identity: what an exclusive scan puts first */
        const double dummy = 0;
        return check_any(&dummy, result, 1, type, op, 1, 0, msg, len);
    }
    return check_any(in, result, n, type, op, 0, 1, msg, len);
}

cl_mem ref_buffer(clscan_context *ctx, size_t bytes, const void *init)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    unsigned char poison = REF_POISON;
    if (init && bytes > 0)   /* a write of 0 bytes is CL_INVALID_VALUE (PoCL 6 says so; 3.1 let it pass) */
        err = clEnqueueWriteBuffer(clscan_context_queue(ctx), m, CL_TRUE, 0, bytes, init, 0, NULL, NULL);
    else if (bytes % 4 == 0 && bytes > 0) {   /* 4-byte patterns: NVIDIA's fill hangs at 2^31 patterns */
        const uint32_t poison4 = 0x01010101u * REF_POISON;
        err = clEnqueueFillBuffer(clscan_context_queue(ctx), m, &poison4, 4, 0, bytes, 0, NULL, NULL);
    } else
        err = clEnqueueFillBuffer(clscan_context_queue(ctx), m, &poison, 1, 0, bytes ? bytes : 1, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(clscan_context_queue(ctx));
    if (err != CL_SUCCESS) {
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

int ref_read(clscan_context *ctx, cl_mem buf, size_t bytes, void *out)
{
    return bytes == 0 ||
           clEnqueueReadBuffer(clscan_context_queue(ctx), buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL) == CL_SUCCESS;
}

int ref_is_poison(const void *data, size_t bytes)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++)
        if (p[i] != REF_POISON)
            return 0;
    return 1;
}

clscan_context *ref_context(void)
{
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "context: %s\n", clscan_last_error(NULL));
        return NULL;
    }
    char name[256] = "?";
    clGetDeviceInfo(clscan_context_device(ctx), CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("[ device   ] %s\n", name);
    return ctx;
}

int ref_register_key12_affine(clscan_context *ctx, clscan_type *key12, clscan_op *affine)
{
    const uint64_t id = (uint64_t)1 << 32;
    if (clscan_register_type(ctx, "test_key12", "typedef struct { uint a, b, c; } test_key12;", 12, key12) !=
            CLSCAN_SUCCESS ||
        (ctx->info.int64 && clscan_register_op(ctx, CLSCAN_UINT64, REF_AFFINE32_CL, &id, NULL, 0, affine) != CLSCAN_SUCCESS)) {
        fprintf(stderr, "registration failed: %s\n", clscan_last_error(ctx));
        return -1;
    }
    return 0;
}

void test_set_tile(clscan_context *ctx, unsigned wg_size, unsigned items)
{
    clscan_tuning_set(ctx, CLSCAN_TUNE_WG_SIZE, wg_size);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS, items);
}

int test_other_fold(clscan_context *ctx, int program)
{
    const int one = !clscan__table_sp_fold_one(&ctx->info, (clscan__program_id)program);
    clscan_tuning_set(ctx, CLSCAN_TUNE_SP_FOLD, one ? 1 : -1);
    return one;
}

void ref_pair(int k, clscan_strategy *strategy, clscan_wg_algorithm *wg)
{
    *strategy = k ? (clscan_strategy)(1 + (k - 1) / 3) : CLSCAN_STRATEGY_AUTO;
    *wg = k ? (clscan_wg_algorithm)(1 + (k - 1) % 3) : CLSCAN_WG_AUTO;
}
