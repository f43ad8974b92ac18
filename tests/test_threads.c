/* Four host threads share one context: each runs a mix of scans of different types, operators,
 * algorithms and sizes on its own buffers and checks every result. The library serialises calls. */
#include "internal.h"
#include "ref.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define THREADS 4
#define ROUNDS 40

static clscan_context *ctx;
static uint64_t base_seed;

typedef struct job { int id, failures, done; char msg[256]; } job;

static void *worker(void *arg)
{
    job *j = arg;
    uint64_t rng = base_seed + (uint64_t)j->id * 1000003u;
    size_t cap = 70000;
    void *in = malloc(cap * 8), *out = malloc(cap * 8);
    for (int r = 0; r < ROUNDS; r++) {
        clscan_type type = (clscan_type)(ref_next(&rng) % 6);
        clscan_op op = (clscan_op)(ref_next(&rng) % 4);
        size_t n = 1 + ref_next(&rng) % cap;
        int excl = (int)(ref_next(&rng) & 1), host = (int)(ref_next(&rng) & 1);
        if (!clscan__device_supports_type(&ctx->info, type))
            continue;
        size_t bytes = n * clscan_type_size(type);
        ref_fill(in, n, type, op, &rng);
        clscan_status st;
        if (host) {
            st = excl ? clscan_exclusive_scan_host(ctx, in, out, n, type, op) : clscan_inclusive_scan_host(ctx, in, out, n, type, op);
        } else {
            cl_mem a = ref_buffer(ctx, bytes, in), b = ref_buffer(ctx, bytes, NULL);
            st = excl ? clscan_exclusive_scan(ctx, a, b, n, type, op) : clscan_inclusive_scan(ctx, a, b, n, type, op);
            if (st == CLSCAN_SUCCESS && !ref_read(ctx, b, bytes, out))
                st = CLSCAN_OPENCL_ERROR;
            clReleaseMemObject(a);
            clReleaseMemObject(b);
        }
        if (st != CLSCAN_SUCCESS || !ref_check_scan(in, out, n, type, op, excl, j->msg, sizeof j->msg)) {
            if (st != CLSCAN_SUCCESS)
                snprintf(j->msg, sizeof j->msg, "%s", clscan_status_string(st));
            j->failures++;
        }
        j->done++;
    }
    free(in);
    free(out);
    return NULL;
}

static void test_four_threads_one_context(void **state)
{
    (void)state;
    base_seed = ref_seed("test_threads");
    assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_SUCCESS);
    pthread_t t[THREADS];
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job){i, 0, 0, ""};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    }
    int failures = 0, done = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        done += jobs[i].done;
        if (jobs[i].failures)
            print_error("thread %d: %d failures, last: %s\n", i, jobs[i].failures, jobs[i].msg);
        failures += jobs[i].failures;
    }
    clscan_context_release(ctx);
    printf("  %d scans from %d threads\n", done, THREADS);
    assert_int_equal(failures, 0);
    assert_true(done >= THREADS * ROUNDS / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_four_threads_one_context)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
