/* Bad input for every public function: the right status, a message in last_error, the buffers
 * untouched (input keeps its data, output keeps its poison) and the context still working. */
#include "prims/prims.h"
#include "ref.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define N 1000
static clscan_context *ctx;
static cl_mem in_buf, out_buf;
static int32_t in_data[N];

static int setup(void **state)
{
    (void)state;
    uint64_t rng = ref_seed("test_errors");
    ref_fill(in_data, N, CLSCAN_INT32, CLSCAN_ADD, &rng);
    if (clscan_context_create(&ctx, NULL) != CLSCAN_SUCCESS)
        return -1;
    in_buf = ref_buffer(ctx, sizeof in_data, in_data);
    out_buf = ref_buffer(ctx, sizeof in_data, NULL);
    return in_buf && out_buf ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    clReleaseMemObject(in_buf);
    clReleaseMemObject(out_buf);
    clscan_context_release(ctx);
    return 0;
}

/* After a rejected call: message present, buffers as they were, and a real scan still works. */
static void assert_untouched_and_usable(void)
{
    assert_int_equal(clscan_finish(ctx), CLSCAN_SUCCESS);
    assert_true(strlen(clscan_last_error(ctx)) > 0);
    int32_t got[N];
    assert_true(ref_read(ctx, in_buf, sizeof got, got));
    assert_memory_equal(got, in_data, sizeof got);
    assert_true(ref_read(ctx, out_buf, sizeof got, got));
    assert_true(ref_is_poison(got, sizeof got));

    cl_mem tmp = ref_buffer(ctx, sizeof got, NULL);
    assert_int_equal(clscan_inclusive_scan(ctx, in_buf, tmp, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_true(ref_read(ctx, tmp, sizeof got, got));
    char msg[256];
    assert_true(ref_check_scan(in_data, got, N, CLSCAN_INT32, CLSCAN_ADD, 0, msg, sizeof msg));
    clReleaseMemObject(tmp);
}

typedef clscan_status (*scan_fn)(clscan_context *, cl_mem, cl_mem, size_t, clscan_type, clscan_op);
static const scan_fn scans[2] = {clscan_inclusive_scan, clscan_exclusive_scan};

static void test_null_and_enums(void **state)
{
    (void)state;
    for (int s = 0; s < 2; s++) {
        assert_int_equal(scans[s](NULL, in_buf, out_buf, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_int_equal(scans[s](ctx, NULL, out_buf, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, NULL, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, out_buf, N, (clscan_type)10, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, out_buf, N, (clscan_type)-1, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_int_equal(scans[s](ctx, in_buf, out_buf, N, CLSCAN_INT32, (clscan_op)4), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, out_buf, N, CLSCAN_INT32, (clscan_op)-3), CLSCAN_INVALID_ARGUMENT);
    }
}

static void test_sizes(void **state)
{
    (void)state;
    for (int s = 0; s < 2; s++) {
        assert_int_equal(scans[s](ctx, in_buf, out_buf, N + 1, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "holds"));
        assert_untouched_and_usable();
        /* Same bytes, wider elements: 1000 int64 do not fit in 4000 bytes. */
        assert_int_equal(scans[s](ctx, in_buf, out_buf, N, CLSCAN_INT64, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, out_buf, SIZE_MAX / 4 + 2, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "overflow"));
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, out_buf, SIZE_MAX, CLSCAN_DOUBLE, CLSCAN_MAX), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        /* n == 0 is a no-op that writes nothing, even with NULL buffers. */
        assert_int_equal(scans[s](ctx, in_buf, out_buf, 0, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
        assert_int_equal(scans[s](ctx, NULL, NULL, 0, CLSCAN_FLOAT, CLSCAN_MUL), CLSCAN_SUCCESS);
        assert_untouched_and_usable();
    }
}

static void test_foreign_and_flagged_buffers(void **state)
{
    (void)state;
    cl_int err;
    cl_device_id dev = clscan_context_device(ctx);
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, sizeof in_data, NULL, &err);
    cl_mem ro = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_ONLY, sizeof in_data, NULL, &err);
    cl_mem wo = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_WRITE_ONLY, sizeof in_data, NULL, &err);
    for (int s = 0; s < 2; s++) {
        assert_int_equal(scans[s](ctx, foreign, out_buf, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "another cl_context"));
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, foreign, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, in_buf, ro, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        assert_int_equal(scans[s](ctx, wo, out_buf, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
    }
    clReleaseMemObject(foreign);
    clReleaseMemObject(ro);
    clReleaseMemObject(wo);
    clReleaseContext(other);
}

/* Sub-buffers that share bytes but are not the same range would race: rejected. Same range is in place. */
static void test_overlap(void **state)
{
    (void)state;
    cl_uint align_bits = 0;
    clGetDeviceInfo(clscan_context_device(ctx), CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    size_t align = align_bits / 8, half = 4096;
    if (align > half)
        skip();
    cl_int err;
    cl_mem big = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE, 4 * half, NULL, &err);
    cl_buffer_region r0 = {0, 2 * half}, r1 = {half, 2 * half}, r2 = {2 * half, 2 * half};
    cl_mem a = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    cl_mem b = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    cl_mem c = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    cl_mem a2 = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
    size_t n = 2 * half / 4;
    assert_int_equal(clscan_inclusive_scan(ctx, a, b, n, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
    assert_int_equal(clscan_exclusive_scan(ctx, big, b, n, CLSCAN_UINT32, CLSCAN_MAX), CLSCAN_INVALID_ARGUMENT);
    assert_untouched_and_usable();
    assert_int_equal(clscan_inclusive_scan(ctx, a, c, n, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(clscan_inclusive_scan(ctx, a, a2, n, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(clscan_finish(ctx), CLSCAN_SUCCESS);
    clReleaseMemObject(a);
    clReleaseMemObject(a2);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(big);
}

/* Scans with an initial value: exactly one of init and init_buf; init_buf holds an element of the
 * type, belongs to the context, is readable and does not overlap out. */
static void test_init_errors(void **state)
{
    (void)state;
    const int32_t init = 7;
    cl_int err;
    cl_mem small = ref_buffer(ctx, 2, NULL);
    cl_mem write_only = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_WRITE_ONLY, 64, NULL, &err);
    assert_true(small && write_only);
    for (int excl = 0; excl < 2; excl++) {
        clscan_status (*scan)(clscan_context *, cl_mem, cl_mem, size_t, clscan_type, clscan_op, const void *, cl_mem) =
            excl ? clscan_exclusive_scan_init : clscan_inclusive_scan_init;
        assert_int_equal(scan(ctx, in_buf, out_buf, N, CLSCAN_INT32, CLSCAN_ADD, NULL, NULL), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "both NULL"));
        assert_int_equal(scan(ctx, in_buf, out_buf, N, CLSCAN_INT32, CLSCAN_ADD, &init, in_buf), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "both given"));
        assert_int_equal(scan(ctx, in_buf, out_buf, N, CLSCAN_INT32, CLSCAN_ADD, NULL, small), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "init_buf"));
        assert_int_equal(scan(ctx, in_buf, out_buf, N, CLSCAN_INT32, CLSCAN_ADD, NULL, write_only), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "init_buf"));
        assert_int_equal(scan(ctx, in_buf, out_buf, N, CLSCAN_INT32, CLSCAN_ADD, NULL, out_buf), CLSCAN_INVALID_ARGUMENT);
        assert_non_null(strstr(clscan_last_error(ctx), "overlap"));
        assert_int_equal(scan(ctx, in_buf, out_buf, N, (clscan_type)99, CLSCAN_ADD, &init, NULL), CLSCAN_INVALID_ARGUMENT);
        assert_int_equal(scan(NULL, in_buf, out_buf, N, CLSCAN_INT32, CLSCAN_ADD, &init, NULL), CLSCAN_INVALID_ARGUMENT);
        assert_untouched_and_usable();
        /* n == 0 is a no-op; in as init_buf is allowed (it is only read). */
        assert_int_equal(scan(ctx, NULL, NULL, 0, CLSCAN_INT32, CLSCAN_ADD, NULL, NULL), CLSCAN_SUCCESS);
    }
    int32_t got[N];
    cl_mem tmp = ref_buffer(ctx, sizeof got, NULL);
    assert_int_equal(clscan_exclusive_scan_init(ctx, in_buf, tmp, N, CLSCAN_INT32, CLSCAN_ADD, NULL, in_buf), CLSCAN_SUCCESS);
    assert_true(ref_read(ctx, tmp, sizeof got, got));
    uint32_t acc = (uint32_t)in_data[0];
    for (size_t i = 0; i < N; acc += (uint32_t)in_data[i++])
        assert_int_equal((uint32_t)got[i], acc);
    clReleaseMemObject(tmp);
    clReleaseMemObject(small);
    clReleaseMemObject(write_only);
}

static void test_host_api_errors(void **state)
{
    (void)state;
    int32_t out[N];
    memset(out, REF_POISON, sizeof out);
    assert_int_equal(clscan_inclusive_scan_host(NULL, in_data, out, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_inclusive_scan_host(ctx, NULL, out, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_exclusive_scan_host(ctx, in_data, NULL, N, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_exclusive_scan_host(ctx, in_data, out, N, (clscan_type)99, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_exclusive_scan_host(ctx, in_data, out, N, CLSCAN_INT32, (clscan_op)99), CLSCAN_INVALID_ARGUMENT);
    /* SIZE_MAX one-byte elements: no overflow, but more than any buffer (found by fuzz_api) */
    assert_int_equal(clscan_exclusive_scan_host(ctx, in_data, out, SIZE_MAX, CLSCAN_INT8, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_non_null(strstr(clscan_last_error(ctx), "more than one buffer holds"));
    assert_int_equal(clscan_inclusive_scan_host(ctx, in_data, out, SIZE_MAX / 2, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_INVALID_ARGUMENT);
    assert_true(ref_is_poison(out, sizeof out));
    assert_int_equal(clscan_inclusive_scan_host(ctx, NULL, NULL, 0, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_untouched_and_usable();
}

static void test_context_functions(void **state)
{
    (void)state;
    clscan_context *c = (clscan_context *)0x1;
    assert_int_equal(clscan_context_create(NULL, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_context_create(&c, "no-such-device-anywhere"), CLSCAN_DEVICE_NOT_FOUND);
    assert_null(c);
    assert_non_null(strstr(clscan_last_error(NULL), "no-such-device-anywhere"));
    c = (clscan_context *)0x1;
    assert_int_equal(clscan_context_create(&c, "9999"), CLSCAN_DEVICE_NOT_FOUND);
    assert_null(c);
    assert_int_equal(clscan_context_create(&c, "77:0"), CLSCAN_DEVICE_NOT_FOUND);
    char longname[1000];
    memset(longname, 'y', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(clscan_context_create(&c, longname), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_context_create_from_queue(NULL, clscan_context_queue(ctx)), CLSCAN_INVALID_ARGUMENT);
    c = (clscan_context *)0x1;
    assert_int_equal(clscan_context_create_from_queue(&c, NULL), CLSCAN_INVALID_ARGUMENT);
    assert_null(c);
    clscan_context_release(NULL);
    assert_null(clscan_context_cl_context(NULL));
    assert_null(clscan_context_queue(NULL));
    assert_null(clscan_context_device(NULL));
    assert_non_null(clscan_last_error(NULL));
    assert_int_equal(clscan_finish(NULL), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_set_algorithm(NULL, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_set_algorithm(ctx, (clscan_strategy)9, CLSCAN_WG_AUTO), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, (clscan_wg_algorithm)-1), CLSCAN_INVALID_ARGUMENT);
    assert_untouched_and_usable();
    /* A refused choice leaves the previous one in force. */
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_BLELLOCH), CLSCAN_SUCCESS);
    assert_int_equal(clscan_set_algorithm(ctx, (clscan_strategy)4, CLSCAN_WG_AUTO), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, (clscan_wg_algorithm)4), CLSCAN_INVALID_ARGUMENT);
    assert_int_equal(ctx->strategy, CLSCAN_STRATEGY_BLOCK_SUM);
    assert_int_equal(ctx->wg, CLSCAN_WG_BLELLOCH);
    assert_untouched_and_usable();
    assert_int_equal(clscan_set_algorithm(ctx, CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO), CLSCAN_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_and_enums),   cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_foreign_and_flagged_buffers), cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_host_api_errors),  cmocka_unit_test(test_context_functions),
        cmocka_unit_test(test_init_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
