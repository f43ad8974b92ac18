/* clscan_mpi against a CPU reference of the concatenated slices, run under mpirun with 1, 3 and 4 ranks
 * (label "mpi"): every type x operator x inclusive/exclusive over slices of 0, 1, tile - 1, tile,
 * tile + 1 and larger elements, in place too; the reduction; the compaction; the even histogram (counts
 * summed over the ranks, bad bounds on one rank, bins that differ); bad arguments on one rank
 * (every rank gets the same status, no output changes, the next call works); a registered operator
 * that does not commute (affine maps mod 2^16) through the scans and the reduction, and ranks that pass
 * different registered operators or one their context lacks; a registered 12-byte struct (affine maps
 * mod 2^32 with a count) through the scans and the reduction; the segmented scans (heads: none, all, at
 * slice starts, segments over three ranks, 1 in 4, at slice ends) at int32 add, float mul and affine16,
 * with the look-back forced onto its fallback and in the other item mode. Every rank checks, then
 * the ranks agree on the verdict before asserting, so that they leave each test together.
 * Rank 0's seed is broadcast; $CLSCAN_TEST_SEED replays. The quick tier (3 ranks) takes the operators of
 * tier_op (tier.h), whose programs the one-device tests have built. */
#include "clscan/clscan_mpi.h"
#include "prims/prims.h"
#include "ref.h"
#include "tier.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static clscan_context *ctx;
static int rank, ranks;
static uint64_t seed;

/* 1 on every rank when it is 1 on every rank. */
static int all_ranks(int ok)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* Slice lengths: rank r takes pattern[(r + shift) % 6], so that with 3 or 4 ranks every kind of slice
 * sits somewhere, first and last included, over the shifts a test runs; tile: that of the program. */
static size_t tile_slice_len(size_t tile, int r, int shift)
{
    const size_t pattern[6] = {0, 1, tile - 1, tile, tile + 1, 3 * tile + 7 + (ref_quick() ? 0 : 20000)};
    return pattern[(size_t)(r + shift) % 6];
}

static size_t slice_len(clscan_type type, int r, int shift)
{
    clscan__tuning t = clscan__scan_tile(ctx, type);
    return tile_slice_len((size_t)t.wg_size * t.items, r, shift);
}

/* The whole concatenation, the same on every rank (one generator from the shared seed), and where this
 * rank's slice starts. */
typedef struct global_data {
    unsigned char *all;
    size_t total, first, n, elem;
} global_data;

static global_data tile_data(size_t tile, clscan_type type, clscan_op op, int shift, uint64_t salt)
{
    global_data g = {NULL, 0, 0, 0, clscan_type_size(type)};
    for (int r = 0; r < ranks; r++) {
        size_t len = tile_slice_len(tile, r, shift);
        if (r == rank)
            g.first = g.total, g.n = len;
        g.total += len;
    }
    g.all = malloc(g.total * g.elem + 8);
    assert_non_null(g.all);
    uint64_t rng = seed ^ salt;
    ref_fill(g.all, g.total, type, op, &rng);
    return g;
}

static global_data make_data(clscan_type type, clscan_op op, int shift, uint64_t salt)
{
    clscan__tuning t = clscan__scan_tile(ctx, type);
    return tile_data((size_t)t.wg_size * t.items, type, op, shift, salt);
}

/* One global scan; 1 when every rank's part matches the reference and in stayed as it was. */
static int scan_case(clscan_type type, clscan_op op, int exclusive, int in_place, int shift)
{
    global_data g = make_data(type, op, shift, (uint64_t)(type * 64 + op * 8 + exclusive * 4 + in_place * 2) << 32 | (uint64_t)shift);
    const size_t bytes = g.n * g.elem;
    unsigned char *mine = g.all + g.first * g.elem;
    cl_mem in = ref_buffer(ctx, bytes + 8, mine), out = in_place ? in : ref_buffer(ctx, bytes + 8, NULL);
    clscan_status st = exclusive ? clscan_mpi_exclusive_scan(ctx, MPI_COMM_WORLD, in, out, g.n, type, op)
                                 : clscan_mpi_inclusive_scan(ctx, MPI_COMM_WORLD, in, out, g.n, type, op);
    /* Rank 0 checks the gathered parts against the CPU scan of the whole. */
    unsigned char *got = malloc(g.total * g.elem + 8), *after = malloc(bytes + 8);
    assert_true(got && after);
    int ok = st == CLSCAN_SUCCESS && ref_read(ctx, out, bytes, after) &&
             (in_place || (ref_read(ctx, in, bytes, got) && memcmp(got, mine, bytes) == 0));
    int counts[64], displs[64], my_bytes = (int)bytes;
    MPI_Gather(&my_bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0, at = 0; rank == 0 && r < ranks; r++)
        displs[r] = at, at += counts[r];
    MPI_Gatherv(after, my_bytes, MPI_BYTE, got, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    char msg[256] = "";
    if (rank == 0 && !ref_check_scan(g.all, got, g.total, type, op, exclusive, msg, sizeof msg))
        ok = 0;
    if (!ok)
        print_error("rank %d: %s %s %s%s shift %d (slice %zu of %zu): %s %s %s\n", rank, ref_type_name(type),
                    ref_op_name(op), exclusive ? "exclusive" : "inclusive", in_place ? " in place" : "", shift, g.n,
                    g.total, clscan_status_string(st), clscan_last_error(ctx), msg);
    clReleaseMemObject(in);
    if (!in_place)
        clReleaseMemObject(out);
    free(got), free(after), free(g.all);
    return all_ranks(ok);
}

static void test_scans(void **state)
{
    (void)state;
    const clscan_type types[] = {CLSCAN_INT32, CLSCAN_UINT32, CLSCAN_INT64, CLSCAN_UINT64, CLSCAN_FLOAT, CLSCAN_DOUBLE,
                                 CLSCAN_INT8,  CLSCAN_UINT16};
    int failures = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        if (!all_ranks(clscan__device_supports_type(&ctx->info, types[t])))
            continue;
        for (int op = CLSCAN_ADD; op <= CLSCAN_MAX; op++)
            for (int exclusive = 0; exclusive < 2; exclusive++)
                failures += tier_op(types[t], (clscan_op)op, 1) &&
                            !scan_case(types[t], (clscan_op)op, exclusive, 0, (int)t + op + exclusive);
    }
    /* Every slice kind at every rank position, and in place, for one type. */
    for (int shift = 0; shift < 6; shift++)
        failures += !scan_case(CLSCAN_INT32, CLSCAN_ADD, shift % 2, shift % 3 == 0, shift);
    assert_int_equal(failures, 0);
}

static void test_reduce(void **state)
{
    (void)state;
    int failures = 0;
    for (int shift = 0; shift < 6; shift++) {
        const clscan_type type = shift % 2 ? CLSCAN_FLOAT : CLSCAN_INT64;
        const clscan_op op = (clscan_op)(shift % 4);
        if (!all_ranks(clscan__device_supports_type(&ctx->info, type)) || !tier_op(type, op, 1))
            continue;
        global_data g = make_data(type, op, shift, 0x5eed0000u + (uint64_t)shift);
        cl_mem in = ref_buffer(ctx, g.n * g.elem + 8, g.all + g.first * g.elem);
        unsigned char result[8];
        memset(result, REF_POISON, sizeof result);
        clscan_status st = clscan_mpi_reduce(ctx, MPI_COMM_WORLD, in, g.n, type, op, result);
        char msg[256] = "";
        int ok = st == CLSCAN_SUCCESS && ref_check_reduce(g.all, result, g.total, type, op, msg, sizeof msg);
        if (!ok)
            print_error("rank %d: reduce %s %s shift %d: %s %s %s\n", rank, ref_type_name(type), ref_op_name(op), shift,
                        clscan_status_string(st), clscan_last_error(ctx), msg);
        failures += !all_ranks(ok);
        clReleaseMemObject(in);
        free(g.all);
    }
    assert_int_equal(failures, 0);
}

/* The global histogram of the concatenated int32 slices over [-2^30, 2^30), bins in local memory (256)
 * and in global memory (65536), on every rank against the CPU; then one rank with lower == upper and
 * (with more than one rank) ranks that disagree on bins: every rank fails alike, no counts written. */
static int histogram_case(int shift, size_t bins, int bad)
{
    global_data g = make_data(CLSCAN_INT32, CLSCAN_ADD, shift, 0x4157ull << 16 | (uint64_t)shift);
    const int32_t lower = -(1 << 30), upper = 1 << 30, *all = (const int32_t *)g.all;
    uint64_t *want = calloc(bins, 8), *got = malloc(bins * 8);
    for (size_t i = 0; i < g.total; i++)
        if (all[i] >= lower && all[i] < upper)
            want[(uint64_t)((int64_t)all[i] - lower) * bins >> 31]++;
    cl_mem in = ref_buffer(ctx, g.n * 4 + 8, g.all + g.first * 4), counts = ref_buffer(ctx, bins * 8 + 8, NULL);
    const size_t my_bins = bad == 2 && rank == ranks - 1 ? bins / 2 : bins;
    clscan_status st = clscan_mpi_histogram_even(ctx, MPI_COMM_WORLD, in, g.n, CLSCAN_INT32, &lower,
                                                 bad == 1 && rank == 0 ? &lower : &upper, my_bins, counts);
    int ok = ref_read(ctx, counts, bins * 8, got);
    if (bad)
        ok = ok && st == (bad == 2 && ranks == 1 ? CLSCAN_SUCCESS : CLSCAN_INVALID_ARGUMENT) &&
             (st == CLSCAN_SUCCESS || ref_is_poison(got, bins * 8));
    else
        ok = ok && st == CLSCAN_SUCCESS && memcmp(got, want, bins * 8) == 0;
    if (!ok)
        print_error("rank %d: histogram shift %d bins %zu%s: %s %s\n", rank, shift, bins,
                    bad == 1 ? " (lower == upper on rank 0)" : bad == 2 ? " (bins differ)" : "",
                    clscan_status_string(st), clscan_last_error(ctx));
    clReleaseMemObject(in), clReleaseMemObject(counts);
    free(want), free(got), free(g.all);
    return all_ranks(ok);
}

static void test_histogram(void **state)
{
    (void)state;
    int failures = 0;
    for (int shift = 0; shift < 6; shift++)
        failures += !histogram_case(shift, shift % 2 ? 65536 : 256, 0);
    failures += !histogram_case(0, 256, 1);
    failures += !histogram_case(1, 256, 2);
    assert_int_equal(failures, 0);
}

/* Flags of density d/4 from the shared generator; the kept elements' global order checked on every rank. */
static void test_compact(void **state)
{
    (void)state;
    int failures = 0;
    for (int shift = 0; shift < 6; shift++) {
        global_data g = make_data(CLSCAN_UINT32, CLSCAN_ADD, shift, 0xc0a1ull << 16 | (uint64_t)shift);
        unsigned char *flags = malloc(g.total + 1);
        uint64_t rng = seed ^ (uint64_t)shift;
        for (size_t i = 0; i < g.total; i++)
            flags[i] = (ref_next(&rng) % 4) < (uint64_t)(shift % 5) ? (unsigned char)(1 + i % 7) : 0;
        cl_mem in = ref_buffer(ctx, g.n * 4 + 8, g.all + g.first * 4), f = ref_buffer(ctx, g.n + 8, flags + g.first);
        cl_mem out = ref_buffer(ctx, g.n * 4 + 8, NULL);
        size_t count = 0, offset = 0, total = 0, want_before = 0, want_total = 0, want_mine = 0;
        clscan_status st = clscan_mpi_compact(ctx, MPI_COMM_WORLD, in, f, out, g.n, CLSCAN_UINT32, &count, &offset, &total);
        uint32_t *got = malloc(g.n * 4 + 8), *all = (uint32_t *)g.all;
        int ok = st == CLSCAN_SUCCESS && count <= g.n && (count == 0 || ref_read(ctx, out, count * 4, got));
        for (size_t i = 0; i < g.total; i++)
            if (flags[i]) {
                if (i < g.first)
                    want_before++;
                else if (i < g.first + g.n)
                    ok = ok && want_mine < count && got[want_mine] == all[i], want_mine++;
                want_total++;
            }
        ok = ok && count == want_mine && offset == want_before && total == want_total;
        if (!ok)
            print_error("rank %d: compact shift %d: %s %s (count %zu offset %zu total %zu; want offset %zu total %zu)\n",
                        rank, shift, clscan_status_string(st), clscan_last_error(ctx), count, offset, total, want_before,
                        want_total);
        failures += !all_ranks(ok);
        clReleaseMemObject(in), clReleaseMemObject(f), clReleaseMemObject(out);
        free(got), free(flags), free(g.all);
    }
    assert_int_equal(failures, 0);
}

/* ---- registered operators ------------------------------------------------------------------------ */
/* Affine maps x -> m x + c mod 2^16 in a uint (m high, c low), b after a, as test_user's: not
 * commutative, so rank totals combined out of rank order, or with the earlier one on the right, fail. */
static uint32_t affine16(uint32_t a, uint32_t b)
{
    uint32_t am = a >> 16, ac = a & 0xffffu, bm = b >> 16, bc = b & 0xffffu;
    return ((bm * am) & 0xffffu) << 16 | ((bm * ac + bc) & 0xffffu);
}
static const char affine16_cl[] = "(((b >> 16) * (a >> 16)) & 0xffffu) << 16 | (((b >> 16) * (a & 0xffffu) + (b & 0xffffu)) & 0xffffu)";
#define AFFINE16_ID 0x10000u
static clscan_op affine, other;   /* other: "a ^ b" */
static int registered;

/* Every rank registers both, odd ranks "a ^ b" first: affine16's value then differs between ranks that
 * registered the same code, and the ranks must still agree (they compare the code, not the value). */
static int register_ops(void)
{
    const uint32_t id = AFFINE16_ID, zero = 0;
    int ok = rank % 2 == 0 || clscan_register_op(ctx, CLSCAN_UINT32, "a ^ b", &zero, NULL, CLSCAN_OP_COMMUTATIVE,
                                                 &other) == CLSCAN_SUCCESS;
    ok = ok && clscan_register_op(ctx, CLSCAN_UINT32, affine16_cl, &id, NULL, 0, &affine) == CLSCAN_SUCCESS;
    ok = ok && (rank % 2 == 1 || clscan_register_op(ctx, CLSCAN_UINT32, "a ^ b", &zero, NULL, CLSCAN_OP_COMMUTATIVE,
                                                    &other) == CLSCAN_SUCCESS);
    if (!ok)
        print_error("rank %d: registration failed: %s\n", rank, clscan_last_error(ctx));
    return all_ranks(ok);
}

/* Maps with odd multipliers (invertible mod 2^16), so that products never collapse to a constant. */
static global_data affine_data(int shift, uint64_t salt)
{
    global_data g = make_data(CLSCAN_UINT32, CLSCAN_ADD, shift, salt);
    for (size_t i = 0; i < g.total; i++)
        ((uint32_t *)g.all)[i] |= 0x10000u;
    return g;
}

/* The composition of all[0 .. end), from the identity. */
static uint32_t affine_prefix(const uint32_t *all, size_t end)
{
    uint32_t acc = AFFINE16_ID;
    for (size_t i = 0; i < end; i++)
        acc = affine16(acc, all[i]);
    return acc;
}

/* One global scan with affine16, every rank checking its own part against the sequential scan of the
 * whole concatenation. */
static int user_scan_case(int exclusive, int in_place, int shift)
{
    global_data g = affine_data(shift, 0xaff1ull << 32 | (uint64_t)(shift * 4 + exclusive * 2 + in_place));
    const uint32_t *all = (const uint32_t *)g.all, *mine = all + g.first;
    const size_t bytes = g.n * 4;
    cl_mem in = ref_buffer(ctx, bytes + 8, mine), out = in_place ? in : ref_buffer(ctx, bytes + 8, NULL);
    clscan_status st = exclusive ? clscan_mpi_exclusive_scan(ctx, MPI_COMM_WORLD, in, out, g.n, CLSCAN_UINT32, affine)
                                 : clscan_mpi_inclusive_scan(ctx, MPI_COMM_WORLD, in, out, g.n, CLSCAN_UINT32, affine);
    uint32_t *got = malloc(bytes + 8), *kept = malloc(bytes + 8), acc = affine_prefix(all, g.first);
    assert_true(got && kept);
    int ok = st == CLSCAN_SUCCESS && ref_read(ctx, out, bytes, got) &&
             (in_place || (ref_read(ctx, in, bytes, kept) && memcmp(kept, mine, bytes) == 0));
    size_t at = 0;
    for (; ok && at < g.n; at++) {
        const uint32_t before = acc;
        acc = affine16(acc, mine[at]);
        ok = got[at] == (exclusive ? before : acc);
    }
    if (!ok)
        print_error("rank %d: affine16 %s%s shift %d (slice %zu of %zu, first wrong at %zu): %s %s\n", rank,
                    exclusive ? "exclusive" : "inclusive", in_place ? " in place" : "", shift, g.n, g.total,
                    at ? at - 1 : 0, clscan_status_string(st), clscan_last_error(ctx));
    clReleaseMemObject(in);
    if (!in_place)
        clReleaseMemObject(out);
    free(got), free(kept), free(g.all);
    return all_ranks(ok);
}

static int user_reduce_case(int shift)
{
    global_data g = affine_data(shift, 0xaff2ull << 32 | (uint64_t)shift);
    cl_mem in = ref_buffer(ctx, g.n * 4 + 8, g.all + g.first * 4);
    uint32_t result = 0x01010101u * REF_POISON, want = affine_prefix((const uint32_t *)g.all, g.total);
    clscan_status st = clscan_mpi_reduce(ctx, MPI_COMM_WORLD, in, g.n, CLSCAN_UINT32, affine, &result);
    int ok = st == CLSCAN_SUCCESS && result == want;
    if (!ok)
        print_error("rank %d: affine16 reduce shift %d (slice %zu of %zu): %s, got %#x want %#x %s\n", rank, shift,
                    g.n, g.total, clscan_status_string(st), result, want, clscan_last_error(ctx));
    clReleaseMemObject(in);
    free(g.all);
    return all_ranks(ok);
}

/* The scans and the reduction with a registered operator that does not commute, over every slice kind
 * at every rank position, in place too. */
static void test_registered_op(void **state)
{
    (void)state;
    registered = register_ops();
    assert_true(registered);
    int failures = 0;
    for (int shift = 0; shift < 6; shift++) {
        failures += !user_scan_case(shift % 2, shift % 3 == 0, shift);
        failures += !user_scan_case(!(shift % 2), 0, shift);
        failures += !user_reduce_case(shift);
    }
    assert_int_equal(failures, 0);
}

/* The last rank passes another registered operator ("a ^ b") or a value its context never registered
 * where the others pass affine16: every rank gets CLSCAN_INVALID_ARGUMENT (one rank alone: "a ^ b" is
 * fine), nothing is written, and the next call works. */
static int user_mismatch_case(int unregistered)
{
    const size_t n = 1000, bytes = n * 4;
    uint32_t *data = malloc(bytes), *after = malloc(bytes);
    assert_true(data && after);
    uint64_t rng = seed ^ 0xaff3ull;
    for (size_t i = 0; i < n; i++)
        data[i] = (uint32_t)ref_next(&rng) | 0x10000u;
    cl_mem in = ref_buffer(ctx, bytes, data), out = ref_buffer(ctx, bytes, NULL);
    const clscan_op op = rank != ranks - 1 ? affine : unregistered ? (clscan_op)((unsigned)affine + 1000u) : other;
    const clscan_status want = unregistered || ranks > 1 ? CLSCAN_INVALID_ARGUMENT : CLSCAN_SUCCESS;
    uint32_t result = 0x01010101u * REF_POISON;
    clscan_status st[3] = {clscan_mpi_inclusive_scan(ctx, MPI_COMM_WORLD, in, out, n, CLSCAN_UINT32, op),
                           clscan_mpi_exclusive_scan(ctx, MPI_COMM_WORLD, in, out, n, CLSCAN_UINT32, op),
                           clscan_mpi_reduce(ctx, MPI_COMM_WORLD, in, n, CLSCAN_UINT32, op, &result)};
    int ok = st[0] == want && st[1] == want && st[2] == want;
    if (want != CLSCAN_SUCCESS)
        ok = ok && clscan_last_error(ctx)[0] != '\0' && ref_read(ctx, out, bytes, after) && ref_is_poison(after, bytes) &&
             ref_is_poison(&result, sizeof result);
    ok = ok && ref_read(ctx, in, bytes, after) && memcmp(after, data, bytes) == 0;
    ok = ok && clscan_mpi_reduce(ctx, MPI_COMM_WORLD, in, n, CLSCAN_UINT32, affine, &result) == CLSCAN_SUCCESS;
    if (!ok)
        print_error("rank %d: %s on the last rank: statuses %d %d %d: %s\n", rank,
                    unregistered ? "an unregistered operator" : "another operator", st[0], st[1], st[2],
                    clscan_last_error(ctx));
    clReleaseMemObject(in), clReleaseMemObject(out);
    free(data), free(after);
    return all_ranks(ok);
}

/* ---- a registered struct across ranks ------------------------------------------------------------ */
/* Affine maps mod 2^32 with a count, 12 bytes: moved as words, combined on each rank's device. */
typedef struct { uint32_t m, c, k; } affk_t;
static const char affk_decl[] = "typedef struct { uint m, c, k; } affk_t;";
static const char affk_combine[] = "(affk_t){b.m * a.m, b.m * a.c + b.c, a.k + b.k}";

static affk_t affk(affk_t a, affk_t b) { return (affk_t){b.m * a.m, b.m * a.c + b.c, a.k + b.k}; }
static int affk_same(affk_t a, affk_t b) { return a.m == b.m && a.c == b.c && a.k == b.k; }

/* The scans and the reduction over every slice kind; every rank checks its part against the sequential
 * composition of the whole concatenation. */
static int struct_case(clscan_type type, clscan_op op, int exclusive, int shift)
{
    size_t total = 0, first = 0, n = 0;
    for (int r = 0; r < ranks; r++) {
        const size_t len = slice_len(type, r, shift);
        if (r == rank)
            first = total, n = len;
        total += len;
    }
    affk_t *all = malloc(total * sizeof *all + 1), *got = malloc(n * sizeof *got + 1), acc = {1, 0, 0}, want;
    assert_true(all && got);
    uint64_t rng = seed ^ (0xaff4ull << 32 | (uint64_t)(shift * 2 + exclusive));
    for (size_t i = 0; i < total; i++) {
        const uint64_t r = ref_next(&rng);
        all[i] = (affk_t){(uint32_t)r | 1u, (uint32_t)(r >> 32), (uint32_t)(r >> 7) & 7u};
    }
    for (size_t i = 0; i < first; i++)
        acc = affk(acc, all[i]);
    cl_mem in = ref_buffer(ctx, n * sizeof *all + 12, all + first), out = ref_buffer(ctx, n * sizeof *all + 12, NULL);
    clscan_status st = exclusive ? clscan_mpi_exclusive_scan(ctx, MPI_COMM_WORLD, in, out, n, type, op)
                                 : clscan_mpi_inclusive_scan(ctx, MPI_COMM_WORLD, in, out, n, type, op);
    int ok = st == CLSCAN_SUCCESS && ref_read(ctx, out, n * sizeof *got, got);
    for (size_t i = 0; ok && i < n; i++) {
        const affk_t before = acc;
        acc = affk(acc, all[first + i]);
        ok = affk_same(got[i], exclusive ? before : acc);
    }
    want = (affk_t){1, 0, 0};
    for (size_t i = 0; i < total; i++)
        want = affk(want, all[i]);
    affk_t result = {0, 0, 0};
    clscan_status rst = clscan_mpi_reduce(ctx, MPI_COMM_WORLD, in, n, type, op, &result);
    ok = ok && rst == CLSCAN_SUCCESS && affk_same(result, want);
    if (!ok)
        print_error("rank %d: 12-byte struct %s shift %d (slice %zu of %zu): %s, reduce %s: %s\n", rank,
                    exclusive ? "exclusive" : "inclusive", shift, n, total, clscan_status_string(st),
                    clscan_status_string(rst), clscan_last_error(ctx));
    clReleaseMemObject(in), clReleaseMemObject(out);
    free(all), free(got);
    return all_ranks(ok);
}

static void test_registered_struct(void **state)
{
    (void)state;
    if (ref_quick())   /* a program of its own: the full tier (1, 3 and 4 ranks) runs it */
        skip();
    clscan_type type = (clscan_type)0;
    clscan_op op = (clscan_op)0;
    const affk_t id = {1, 0, 0};
    int ok = clscan_register_type(ctx, "affk_t", affk_decl, sizeof(affk_t), &type) == CLSCAN_SUCCESS &&
             clscan_register_op(ctx, type, affk_combine, &id, NULL, 0, &op) == CLSCAN_SUCCESS;
    if (!ok)
        print_error("rank %d: registration failed: %s\n", rank, clscan_last_error(ctx));
    assert_true(all_ranks(ok));
    int failures = 0;
    for (int shift = 0; shift < 6; shift++)
        failures += !struct_case(type, op, shift % 2, shift);
    assert_int_equal(failures, 0);
}

static void test_registered_op_mismatch(void **state)
{
    (void)state;
    if (!registered)
        skip();
    assert_true(user_mismatch_case(0));
    assert_true(user_mismatch_case(1));
}

/* ---- segmented scans ------------------------------------------------------------------------------ */
/* Heads over the concatenation, knowing where the slices start: none at all; all; at every slice's
 * element 0 only; 1 in 16 in the even ranks' slices past their element 0 and none in the odd ranks' (a
 * segment from rank r runs through rank r + 1 into rank r + 2: it spans three ranks, more where slices
 * are empty); 1 in 4 anywhere; only at every slice's last element (each rank's pair holds a head, and
 * the carry is the last rank's value alone). Heads are any non-zero byte. */
enum seg_heads { SEG_NONE, SEG_ALL, SEG_SLICE_STARTS, SEG_EVEN_RANKS, SEG_QUARTER, SEG_SLICE_ENDS, SEG_PATTERNS };
static const char *const seg_names[] = {"no heads", "all heads", "heads at slice starts", "heads in even ranks",
                                        "1 in 4", "heads at slice ends"};

static unsigned char *seg_heads(enum seg_heads p, int shift, size_t tile, size_t total, uint64_t salt)
{
    unsigned char *h = malloc(total + 1);
    assert_non_null(h);
    uint64_t rng = seed ^ salt;
    size_t start = 0;
    for (int r = 0; r < ranks; r++) {
        const size_t len = tile_slice_len(tile, r, shift);
        for (size_t i = 0; i < len; i++) {
            const uint64_t x = ref_next(&rng);
            int head = p == SEG_ALL || (p == SEG_SLICE_STARTS && i == 0) || (p == SEG_QUARTER && x % 4 == 0) ||
                       (p == SEG_EVEN_RANKS && r % 2 == 0 && i > 0 && x % 16 == 0) || (p == SEG_SLICE_ENDS && i + 1 == len);
            h[start + i] = head ? (unsigned char)(1 + (x >> 8) % 255) : 0;
        }
        start += len;
    }
    return h;
}

/* Every segment of the concatenation (global element 0 starts one whatever its byte) against a scan of
 * its own: the CPU reference for a built-in operator, the sequential composition for affine16. */
static int seg_check(const unsigned char *all, const unsigned char *h, const unsigned char *got, size_t total,
                     clscan_type type, clscan_op op, int user, int exclusive, char *msg, size_t len)
{
    const size_t elem = clscan_type_size(type);
    size_t start = 0;
    for (size_t i = 1; i <= total; i++) {
        if (i < total && !h[i])
            continue;
        uint32_t acc = AFFINE16_ID;
        for (size_t k = start; user && k < i; k++) {
            uint32_t x, g;
            memcpy(&x, all + k * 4, 4), memcpy(&g, got + k * 4, 4);
            const uint32_t before = acc;
            acc = affine16(acc, x);
            if (g != (exclusive ? before : acc)) {
                snprintf(msg, len, "element %zu: %#x, want %#x", k, g, exclusive ? before : acc);
                return 0;
            }
        }
        if (!user && !ref_check_scan(all + start * elem, got + start * elem, i - start, type, op, exclusive, msg, len)) {
            const size_t used = strlen(msg);
            snprintf(msg + used, len - used, " (in the segment from %zu)", start);
            return 0;
        }
        start = i;
    }
    return 1;
}

/* Every rank's bytes of part, in rank order, into all on rank 0. */
static void gather_parts(const void *part, size_t bytes, void *all)
{
    int counts[64], displs[64], my_bytes = (int)bytes;
    MPI_Gather(&my_bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0, at = 0; rank == 0 && r < ranks; r++)
        displs[r] = at, at += counts[r];
    MPI_Gatherv((void *)part, my_bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
}

/* One global segmented scan (op: built-in, or affine16 on uint32); 1 when rank 0 finds every segment of
 * the gathered parts right and every rank's in and heads stayed as they were. */
static int seg_case(clscan_type type, clscan_op op, int exclusive, int in_place, int shift, enum seg_heads p)
{
    clscan__tuning t = clscan__segscan_tile(ctx, type, 0);
    const size_t tile = (size_t)t.wg_size * t.items;
    const int user = op == affine && registered;   /* affine's value differs between ranks: not in the salt */
    const uint64_t salt = 0x5e90ull << 48 | (uint64_t)(type * 8 + (user ? 7 : (int)op)) << 24 |
                          (uint64_t)(p * 16 + shift * 4 + exclusive * 2 + in_place);
    global_data g = tile_data(tile, type, user ? CLSCAN_ADD : op, shift, salt);
    for (size_t i = 0; user && i < g.total; i++)
        ((uint32_t *)g.all)[i] |= 0x10000u;   /* odd multipliers, as affine_data */
    unsigned char *h = seg_heads(p, shift, tile, g.total, salt), *mine = g.all + g.first * g.elem;
    const size_t bytes = g.n * g.elem;
    cl_mem in = ref_buffer(ctx, bytes + 8, mine), heads = ref_buffer(ctx, g.n + 8, h + g.first);
    cl_mem out = in_place ? in : ref_buffer(ctx, bytes + 8, NULL);
    clscan_status st = exclusive ? clscan_mpi_segmented_exclusive_scan(ctx, MPI_COMM_WORLD, in, heads, out, g.n, type, op)
                                 : clscan_mpi_segmented_inclusive_scan(ctx, MPI_COMM_WORLD, in, heads, out, g.n, type, op);
    unsigned char *got = malloc(g.total * g.elem + 8), *after = malloc(bytes + g.n + 8);
    assert_true(got && after);
    int ok = st == CLSCAN_SUCCESS && ref_read(ctx, heads, g.n, after) && memcmp(after, h + g.first, g.n) == 0 &&
             (in_place || (ref_read(ctx, in, bytes, after) && memcmp(after, mine, bytes) == 0)) &&
             ref_read(ctx, out, bytes, after);
    gather_parts(after, bytes, got);
    char msg[256] = "";
    if (rank == 0 && ok && !seg_check(g.all, h, got, g.total, type, op, user, exclusive, msg, sizeof msg))
        ok = 0;
    if (!ok)
        print_error("rank %d: segmented %s %s %s%s, %s, shift %d (slice %zu at %zu of %zu): %s %s %s\n", rank,
                    ref_type_name(type), user ? "affine16" : ref_op_name(op),
                    exclusive ? "exclusive" : "inclusive", in_place ? " in place" : "", seg_names[p], shift, g.n,
                    g.first, g.total, clscan_status_string(st), clscan_last_error(ctx), msg);
    clReleaseMemObject(in), clReleaseMemObject(heads);
    if (!in_place)
        clReleaseMemObject(out);
    free(got), free(after), free(h), free(g.all);
    return all_ranks(ok);
}

/* Every head pattern at two slice layouts, inclusive and exclusive, in place every third call: int32
 * add, float mul (the quick tier's segmented float program) and, after test_registered_op, affine16,
 * which does not commute. */
static void test_segmented(void **state)
{
    (void)state;
    int failures = 0, call = 0;
    for (int p = 0; p < SEG_PATTERNS; p++)
        for (int k = 0; k < 2; k++, call++) {
            const int shift = (p + 3 * k) % 6, exclusive = (p + k) % 2, in_place = call % 3 == 2;
            failures += !seg_case(CLSCAN_INT32, CLSCAN_ADD, exclusive, in_place, shift, (enum seg_heads)p);
            failures += !seg_case(CLSCAN_INT32, CLSCAN_ADD, !exclusive, 0, (shift + 1) % 6, (enum seg_heads)p);
            if (all_ranks(clscan__device_supports_type(&ctx->info, CLSCAN_FLOAT)))
                failures += !seg_case(CLSCAN_FLOAT, CLSCAN_MUL, exclusive, in_place, (shift + 2) % 6, (enum seg_heads)p);
            if (registered)
                failures += !seg_case(CLSCAN_UINT32, affine, exclusive, in_place, shift, (enum seg_heads)p);
        }
    assert_int_equal(failures, 0);
}

/* The other paths at int32 add, every head pattern: the look-back forced onto its fallback (a tile after
 * the first recomputes tile 0, whose prefix is the carry; some rank must have taken it) and the other
 * item mode (held in registers, as on GPUs, where this device streams; 16 items: the heads' vector
 * loads, element 0 among them). The full tier only: two programs more, which every rank would build in
 * the quick tier's last minute. */
static void test_segmented_paths(void **state)
{
    (void)state;
    if (ref_quick())
        skip();
    int failures = 0, took = 0, any = 0;
    unsigned long before = 0, after = 0;
    assert_int_equal(clscan_tuning_fallbacks(ctx, &before), CLSCAN_SUCCESS);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 1);
    for (int p = 0; p < SEG_PATTERNS; p++)
        failures += !seg_case(CLSCAN_INT32, CLSCAN_ADD, p % 2, p % 3 == 2, p, (enum seg_heads)p);
    clscan_tuning_set(ctx, CLSCAN_TUNE_FORCE_FALLBACK, 0);
    assert_int_equal(clscan_tuning_fallbacks(ctx, &after), CLSCAN_SUCCESS);
    took = after > before;
    MPI_Allreduce(&took, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    const int stream = clscan__segscan_tile(ctx, CLSCAN_INT32, 0).stream;
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, stream ? 1 : 2);
    if (stream)
        test_set_tile(ctx, 64, 16);
    for (int p = 0; p < SEG_PATTERNS; p++)
        failures += !seg_case(CLSCAN_INT32, CLSCAN_ADD, (p + 1) % 2, p % 3 == 1, (p + 2) % 6, (enum seg_heads)p);
    test_set_tile(ctx, 0, 0);
    clscan_tuning_set(ctx, CLSCAN_TUNE_ITEMS_MODE, 0);
    assert_int_equal(failures, 0);
    assert_true(any);
}

/* One rank passes an output too small for its n (or no context at all; the segmented exclusive scan:
 * heads too small): every rank gets CLSCAN_INVALID_ARGUMENT and a message, no output changes anywhere,
 * and the next call works. */
static void bad_call(int bad_rank, int no_context)
{
    const size_t n = 1000, bytes = n * 4;
    int32_t *data = malloc(bytes);
    uint64_t rng = seed ^ 0xbadull;
    ref_fill(data, n, CLSCAN_INT32, CLSCAN_ADD, &rng);
    cl_mem in = ref_buffer(ctx, bytes, data), out = ref_buffer(ctx, bytes, NULL);
    cl_mem small = ref_buffer(ctx, bytes / 2, NULL), heads = ref_buffer(ctx, n, NULL), few = ref_buffer(ctx, n / 2, NULL);
    const int me = rank == bad_rank;
    clscan_context *c = me && no_context ? NULL : ctx;
    cl_mem o = me && !no_context ? small : out;
    unsigned char result[8];
    memset(result, REF_POISON, sizeof result);
    size_t count = 7, offset = 7, total = 7;
    clscan_status st[6] = {
        clscan_mpi_inclusive_scan(c, MPI_COMM_WORLD, in, o, n, CLSCAN_INT32, CLSCAN_ADD),
        clscan_mpi_exclusive_scan(c, MPI_COMM_WORLD, in, o, n, CLSCAN_INT32, CLSCAN_ADD),
        clscan_mpi_reduce(c, MPI_COMM_WORLD, in, me ? n + 1 : n, CLSCAN_INT32, CLSCAN_ADD, result),
        clscan_mpi_compact(c, MPI_COMM_WORLD, in, in, o, n, CLSCAN_INT32, &count, &offset, &total),
        clscan_mpi_segmented_inclusive_scan(c, MPI_COMM_WORLD, in, heads, o, n, CLSCAN_INT32, CLSCAN_ADD),
        clscan_mpi_segmented_exclusive_scan(c, MPI_COMM_WORLD, in, me ? few : heads, out, n, CLSCAN_INT32, CLSCAN_ADD)};
    int ok = 1;
    for (int k = 0; k < 6; k++)
        ok = ok && st[k] == CLSCAN_INVALID_ARGUMENT && (!c || clscan_last_error(c)[0] != '\0');
    unsigned char *after = malloc(bytes);
    ok = ok && ref_read(ctx, out, bytes, after) && ref_is_poison(after, bytes);
    ok = ok && ref_read(ctx, small, bytes / 2, after) && ref_is_poison(after, bytes / 2);
    ok = ok && ref_read(ctx, in, bytes, after) && memcmp(after, data, bytes) == 0;
    ok = ok && ref_is_poison(result, sizeof result) && count == 7 && offset == 7 && total == 7;
    /* The next call, with good arguments everywhere, works. */
    int32_t sum = 0;
    ok = ok && clscan_mpi_reduce(ctx, MPI_COMM_WORLD, in, n, CLSCAN_INT32, CLSCAN_ADD, &sum) == CLSCAN_SUCCESS;
    if (!ok)
        print_error("rank %d: bad arguments on rank %d (%s): statuses %d %d %d %d %d %d: %s\n", rank, bad_rank,
                    no_context ? "no context" : "small output", st[0], st[1], st[2], st[3], st[4], st[5],
                    clscan_last_error(ctx));
    clReleaseMemObject(in), clReleaseMemObject(out), clReleaseMemObject(small);
    clReleaseMemObject(heads), clReleaseMemObject(few);
    free(data), free(after);
    assert_true(all_ranks(ok));
}

static void test_bad_arguments(void **state)
{
    (void)state;
    bad_call(ranks - 1, 0);
    bad_call(0, 1);
    /* Ranks that disagree on the type: with one rank, there is nothing to disagree with. */
    int32_t data[4] = {1, 2, 3, 4};
    cl_mem in = ref_buffer(ctx, sizeof data, data);
    unsigned char result[8];
    clscan_status st = clscan_mpi_reduce(ctx, MPI_COMM_WORLD, in, 4, rank == 0 ? CLSCAN_INT32 : CLSCAN_UINT32,
                                         CLSCAN_ADD, result);
    clReleaseMemObject(in);
    assert_true(all_ranks(st == (ranks > 1 ? CLSCAN_INVALID_ARGUMENT : CLSCAN_SUCCESS)));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (ranks > 64)
        MPI_Abort(MPI_COMM_WORLD, 2);
    if (rank == 0)
        seed = ref_seed("test_mpi");
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int failed = 1;
    if (argc > 1)   /* as test_fault: a pattern of test names, e.g. "test_registered*" */
        cmocka_set_test_filter(argv[1]);
    if (clscan_mpi_context_create(&ctx, MPI_COMM_WORLD) == CLSCAN_SUCCESS) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_scans),
            cmocka_unit_test(test_reduce),
            cmocka_unit_test(test_compact),
            cmocka_unit_test(test_histogram),
            cmocka_unit_test(test_registered_op),
            cmocka_unit_test(test_registered_op_mismatch), cmocka_unit_test(test_registered_struct),
            cmocka_unit_test(test_segmented), cmocka_unit_test(test_segmented_paths),
            cmocka_unit_test(test_bad_arguments),
        };
        failed = cmocka_run_group_tests(tests, NULL, NULL);
        clscan_context_release(ctx);
    } else
        fprintf(stderr, "rank %d: no context: %s\n", rank, clscan_last_error(NULL));
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any ? 1 : 0;
}
