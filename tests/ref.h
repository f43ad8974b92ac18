/* Shared test helpers: a replayable random generator, input data per type and operator, CPU
 * reference scans, exact/tolerant comparison, and small OpenCL buffer utilities. */
#ifndef CLSCAN_TEST_REF_H
#define CLSCAN_TEST_REF_H
#include <clscan/clscan.h>
#include <clscan/clscan_tuning.h>
#include <stdint.h>
#include <stddef.h>

/* Seed from $CLSCAN_TEST_SEED if set, else from the clock; printed so that a failure replays. */
uint64_t ref_seed(const char *test_name);
uint64_t ref_next(uint64_t *state);

/* 1 in the quick tier: $CLSCAN_TEST_TIER unset or anything but "full" (tier.h says what each tier
 * runs). Tests then leave out their largest sizes, keeping every tile boundary. */
int ref_quick(void);

/* Random data suited to op: full-range integers (odd ones for MUL, so products never collapse to 0),
 * floats in [-1, 1] for ADD/MIN/MAX and in [0.999, 1.001] for MUL. */
void ref_fill(void *data, size_t n, clscan_type type, clscan_op op, uint64_t *rng);

/* Checks got against a scan of in computed on the CPU: integers exactly with wrap-around,
 * min/max exactly, float add within (i+1)*eps*sum|x| and float mul within (i+1)*eps*|exact|.
 * Returns 1 when all match; else 0 with the first mismatch described in msg. */
int ref_check_scan(const void *in, const void *got, size_t n, clscan_type type, clscan_op op, int exclusive,
                   char *msg, size_t msg_len);

/* Checks a reduction's result the same way (its bound is that of the scan's last element); n == 0
 * wants the identity exactly. */
int ref_check_reduce(const void *in, const void *result, size_t n, clscan_type type, clscan_op op, char *msg,
                     size_t msg_len);

/* The tests' operator that is not commutative: affine maps x -> m x + c mod 2^32, m in the high and c in
 * the low 32 bits of a uint64, b applied after a; REF_AFFINE32_CL is the same in OpenCL C (identity
 * 1 << 32), for clscan_register_op. */
uint64_t ref_affine32(uint64_t a, uint64_t b);
#define REF_AFFINE32_CL "(ulong)((uint)(b >> 32) * (uint)(a >> 32)) << 32 | (ulong)((uint)(b >> 32) * (uint)a + (uint)b)"

const char *ref_type_name(clscan_type type);
const char *ref_op_name(clscan_op op);

/* A context on the default device for a test program, with the device's name printed; NULL (and the
 * reason on stderr) when there is none. */
clscan_context *ref_context(void);

/* The fixture of most test programs: one context and one random state for all their cases (ctx and
 * rng, the seed printed once), made and released by cmocka's group fixtures setup and teardown.
 * REF_FIXTURE_THEN runs then(), defined after it, once the context is made: 0, or -1 to fail the group. */
#define REF_FIXTURE_(name, after)                                                                       \
    static clscan_context *ctx;                                                                         \
    static uint64_t rng;                                                                                \
    static int setup(void **state)                                                                      \
    {                                                                                                   \
        (void)state;                                                                                    \
        rng = ref_seed(name);                                                                           \
        ctx = ref_context();                                                                            \
        return ctx ? (after) : -1;                                                                      \
    }                                                                                                   \
    static int teardown(void **state)                                                                   \
    {                                                                                                   \
        (void)state;                                                                                    \
        clscan_context_release(ctx);                                                                    \
        return 0;                                                                                       \
    }
#define REF_FIXTURE(name) REF_FIXTURE_(name, 0)
#define REF_FIXTURE_THEN(name, then)                                                                    \
    static int then(void);                                                                              \
    REF_FIXTURE_(name, then())

/* The tests' registered 12-byte key (struct { uint a, b, c; }, as "test_key12") and, where the device
 * has 64-bit integers, REF_AFFINE32_CL on uint64; -1 with the reason on stderr when either fails. */
int ref_register_key12_affine(clscan_context *ctx, clscan_type *key12, clscan_op *affine);

/* Byte pattern written into outputs before a run, so that an element the library never wrote shows. */
#define REF_POISON 0xA5
cl_mem ref_buffer(clscan_context *ctx, size_t bytes, const void *init);   /* init NULL: poisoned */
int ref_read(clscan_context *ctx, cl_mem buf, size_t bytes, void *out);   /* blocking; 1 on success */
int ref_is_poison(const void *data, size_t bytes);

/* The scan tests' pair k of REF_PAIRS: 0 is AUTO x AUTO, then every strategy x work-group algorithm. */
#define REF_PAIRS 10
void ref_pair(int k, clscan_strategy *strategy, clscan_wg_algorithm *wg);

/* Work-group size and items of later scans, reductions, compactions and sorts (0, 0: the tables'). */
void test_set_tile(clscan_context *ctx, unsigned wg_size, unsigned items);
/* Later calls fold each look-back window the way the policy does not for program (a
 * clscan__program_id): by one work-item or by all (CLSCAN_TUNE_SP_FOLD; 0 there gives the policy
 * back). Returns 1 when that is one work-item. */
int test_other_fold(clscan_context *ctx, int program);
#endif
