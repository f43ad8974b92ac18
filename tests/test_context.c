/* Contexts: every device-spec form picks the device clscan-info numbers that way (and
 * clscan_tuning_find_device finds it too), $CLSCAN_DEVICE is honoured, and an application's own queue
 * (in-order or out-of-order) is used, retained and released. */
#define _POSIX_C_SOURCE 200809L
#include "prims/prims.h"
#include "ref.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

static clscan__device_entry *devices;
static size_t device_count;

static int setup(void **state)
{
    (void)state;
    const char *call;
    return clscan__list_devices(&devices, &device_count, &call) == CL_SUCCESS && device_count > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(devices);
    return 0;
}

static void expect_device(const char *spec, cl_device_id want)
{
    clscan_context *ctx = NULL;
    clscan_status st = clscan_context_create(&ctx, spec);
    if (st != CLSCAN_SUCCESS)
        fail_msg("spec \"%s\": %s: %s", spec ? spec : "(null)", clscan_status_string(st), clscan_last_error(NULL));
    assert_ptr_equal(clscan_context_device(ctx), want);
    assert_non_null(clscan_context_queue(ctx));
    assert_non_null(clscan_context_cl_context(ctx));
    assert_string_equal(clscan_last_error(ctx), "");
    clscan_context_release(ctx);
}

static void test_spec_forms(void **state)
{
    (void)state;
    char spec[64];
    for (size_t i = 0; i < device_count; i++) {
        snprintf(spec, sizeof spec, "%zu", i);
        expect_device(spec, devices[i].device_id);
        snprintf(spec, sizeof spec, "%zu:%zu", devices[i].platform, devices[i].device);
        expect_device(spec, devices[i].device_id);
    }
    /* A name substring in another case picks the first device whose name holds it. */
    char name[CLSCAN__NAME_LEN];
    snprintf(name, sizeof name, "%s", devices[0].name);
    for (char *p = name; *p; p++)
        *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    expect_device(name, devices[0].device_id);
    for (size_t i = 0; i < device_count; i++)      /* API.md's own example, wherever PoCL is installed */
        if (strstr(devices[i].platform_vendor, "pocl")) {
            expect_device("pocl", devices[i].device_id);
            break;
        }

    clscan__device_spec def = clscan__parse_device_spec(NULL);
    long want = clscan__match_device(&def, devices, device_count);
    unsetenv("CLSCAN_DEVICE");
    expect_device(NULL, devices[want].device_id);
    for (int cpu = 0; cpu < 2; cpu++) {
        clscan__device_spec s = clscan__parse_device_spec(cpu ? "cpu" : "gpu");
        long i = clscan__match_device(&s, devices, device_count);
        clscan_context *ctx = NULL;
        if (i >= 0)
            expect_device(cpu ? "cpu" : "gpu", devices[i].device_id);
        else
            assert_int_equal(clscan_context_create(&ctx, cpu ? "cpu" : "gpu"), CLSCAN_DEVICE_NOT_FOUND);
    }
    /* $CLSCAN_DEVICE is read when a context is created with NULL. */
    snprintf(spec, sizeof spec, "%zu", device_count - 1);
    setenv("CLSCAN_DEVICE", spec, 1);
    expect_device(NULL, devices[device_count - 1].device_id);
    setenv("CLSCAN_DEVICE", "surely-no-such-device", 1);
    clscan_context *ctx = NULL;
    assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_DEVICE_NOT_FOUND);
    expect_device("0", devices[0].device_id);    /* an explicit spec wins */
    unsetenv("CLSCAN_DEVICE");
}

/* clscan_tuning_find_device: what creation would open, with the numbers of the list, opening nothing. */
static void expect_found(const char *spec, size_t i)
{
    clscan_tuning_device found;
    if (clscan_tuning_find_device(spec, &found) != CLSCAN_SUCCESS)
        fail_msg("spec \"%s\": %s", spec ? spec : "(null)", clscan_last_error(NULL));
    assert_ptr_equal(found.id, devices[i].device_id);
    assert_int_equal(found.index, i);
    assert_int_equal(found.platform, devices[i].platform);
    assert_int_equal(found.device, devices[i].device);
}

static void test_find_device(void **state)
{
    (void)state;
    char spec[64];
    for (size_t i = 0; i < device_count; i++) {
        snprintf(spec, sizeof spec, "%zu", i);
        expect_found(spec, i);
        snprintf(spec, sizeof spec, "%zu:%zu", devices[i].platform, devices[i].device);
        expect_found(spec, i);
    }
    clscan_tuning_device found;
    snprintf(spec, sizeof spec, "%zu", device_count);    /* past the last: how clscan-info finds the end */
    assert_int_equal(clscan_tuning_find_device(spec, &found), CLSCAN_DEVICE_NOT_FOUND);
    unsetenv("CLSCAN_DEVICE");
    clscan__device_spec def = clscan__parse_device_spec(NULL);
    expect_found(NULL, (size_t)clscan__match_device(&def, devices, device_count));
    snprintf(spec, sizeof spec, "%zu", device_count - 1);
    setenv("CLSCAN_DEVICE", spec, 1);
    expect_found(NULL, device_count - 1);
    unsetenv("CLSCAN_DEVICE");
    assert_int_equal(clscan_tuning_find_device("0", NULL), CLSCAN_INVALID_ARGUMENT);
}

/* clscan_tuning_probe_device: the sub-group path a context takes there with nothing set. */
static void test_probe_device(void **state)
{
    (void)state;
    static const enum clscan_tuning_subgroups public_of[] = {
        [CLSCAN__SG_NONE] = CLSCAN_SG_NONE, [CLSCAN__SG_KHR] = CLSCAN_SG_KHR,
        [CLSCAN__SG_INTEL] = CLSCAN_SG_INTEL, [CLSCAN__SG_NVIDIA_PTX] = CLSCAN_SG_PTX, [CLSCAN__SG_KHR_C3] = CLSCAN_SG_KHR};
    char spec[64];
    for (size_t i = 0; i < device_count; i++) {
        clscan_tuning_device_facts facts;
        assert_int_equal(clscan_tuning_probe_device(devices[i].device_id, &facts), CLSCAN_SUCCESS);
        clscan_context *ctx = NULL;
        snprintf(spec, sizeof spec, "%zu", i);
        assert_int_equal(clscan_context_create(&ctx, spec), CLSCAN_SUCCESS);
        if (clscan_tuning_get(ctx, CLSCAN_TUNE_SUBGROUPS) == 0) {   /* $CLSCAN_TUNING may force one */
            assert_int_equal(facts.subgroups, public_of[ctx->info.subgroups]);
            assert_int_equal(facts.c_version, ctx->info.subgroups == CLSCAN__SG_KHR_C3 ? 300
                                              : ctx->info.subgroups == CLSCAN__SG_KHR ? 200 : 120);
        }
        clscan_context_release(ctx);
    }
    clscan_tuning_device_facts facts;
    assert_int_equal(clscan_tuning_probe_device(NULL, &facts), CLSCAN_INVALID_ARGUMENT);
}

static cl_uint refcount(cl_command_queue q)
{
    cl_uint n = 0;
    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL);
    return n;
}

/* The queue's count once it has settled at want, or after a second of waiting: an implementation may
 * drop references of its own a moment after the calls that made them return (Mesa rusticl, as a GPU
 * on an out-of-order queue, once read one more than want just after the context's release, in CI; the
 * specification calls the count stale as soon as it is read). A reference clscan kept stays counted. */
static cl_uint refcount_settled(cl_command_queue q, cl_uint want)
{
    cl_uint n = refcount(q);
    for (int i = 0; i < 100 && n != want; i++) {
        clFinish(q);
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        n = refcount(q);
    }
    return n;
}

static void scan_on_queue(cl_command_queue_properties props)
{
    clscan__device_spec def = clscan__parse_device_spec(NULL);
    cl_device_id dev = devices[clscan__match_device(&def, devices, device_count)].device_id;
    cl_int err;
    cl_context cl = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(cl, dev, props, &err);
    if (err != CL_SUCCESS) {   /* out-of-order queues are optional */
        clReleaseContext(cl);
        skip();
    }
    cl_uint before = refcount(q);
    clscan_context *ctx = NULL;
    assert_int_equal(clscan_context_create_from_queue(&ctx, q), CLSCAN_SUCCESS);
    assert_ptr_equal(clscan_context_queue(ctx), q);
    assert_ptr_equal(clscan_context_cl_context(ctx), cl);
    assert_ptr_equal(clscan_context_device(ctx), dev);
    assert_int_equal(refcount(q), before + 1);

    uint64_t rng = ref_seed("test_context");
    size_t n = 300001;
    float *in = malloc(n * 4), *out = malloc(n * 4);
    ref_fill(in, n, CLSCAN_FLOAT, CLSCAN_ADD, &rng);
    cl_mem a = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, in, &err);
    cl_mem b = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    cl_mem c = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * 4, NULL, &err);
    /* Two dependent scans back to back, with the application's own copy of the first result between
     * them: on an out-of-order queue clscan must order its commands against the others itself.
     * (The copy is compared, not a second run: float sums by single-pass may differ in the last bit
     * between runs.) */
    assert_int_equal(clscan_exclusive_scan(ctx, a, b, n, CLSCAN_FLOAT, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(q, b, c, 0, 0, n * 4, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clscan_inclusive_scan(ctx, b, b, n, CLSCAN_FLOAT, CLSCAN_MAX), CLSCAN_SUCCESS);
    assert_int_equal(clscan_finish(ctx), CLSCAN_SUCCESS);
    float *mid = malloc(n * 4);
    assert_int_equal(clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * 4, out, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, c, CL_TRUE, 0, n * 4, mid, 0, NULL, NULL), CL_SUCCESS);
    char msg[256];
    assert_true(ref_check_scan(in, mid, n, CLSCAN_FLOAT, CLSCAN_ADD, 1, msg, sizeof msg));
    assert_true(ref_check_scan(mid, out, n, CLSCAN_FLOAT, CLSCAN_MAX, 0, msg, sizeof msg));
    clReleaseMemObject(c);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
    free(out);
    free(mid);
    clscan_context_release(ctx);
    assert_int_equal(refcount_settled(q, before), before);   /* released with the context, still the application's */
    clReleaseCommandQueue(q);
    clReleaseContext(cl);
}

static void test_application_queue(void **state)
{
    (void)state;
    scan_on_queue(0);
}

static void test_out_of_order_queue(void **state)
{
    (void)state;
    scan_on_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_forms),
        cmocka_unit_test(test_find_device),
        cmocka_unit_test(test_probe_device),
        cmocka_unit_test(test_application_queue),
        cmocka_unit_test(test_out_of_order_queue),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
