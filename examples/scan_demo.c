/* clscan-demo: the main job of the quick start. Scans a million random integers on the default
 * device (or the one named on the command line), checks the result against a plain C loop and
 * prints what ran where and how long it took. */
#define _POSIX_C_SOURCE 200809L
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : (size_t)1 << 20;
    clscan_context *ctx = NULL;
    clscan_status st = clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL);
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "clscan-demo: %s: %s\n", clscan_status_string(st), clscan_last_error(NULL));
        return 1;
    }
    char name[256] = "?";
    clGetDeviceInfo(clscan_context_device(ctx), CL_DEVICE_NAME, sizeof name, name, NULL);
    int32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    if (!in || !out) {
        fprintf(stderr, "clscan-demo: out of host memory\n");
        return 1;
    }
    srand(12345);
    for (size_t i = 0; i < n; i++)
        in[i] = rand() % 1000 - 500;

    double t0 = now_ms();
    st = clscan_inclusive_scan_host(ctx, in, out, n, CLSCAN_INT32, CLSCAN_ADD);   /* first call builds the kernels */
    double t1 = now_ms();
    if (st == CLSCAN_SUCCESS)
        st = clscan_inclusive_scan_host(ctx, in, out, n, CLSCAN_INT32, CLSCAN_ADD);
    double t2 = now_ms();
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "clscan-demo: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        return 1;
    }
    size_t bad = 0;
    uint32_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc += (uint32_t)in[i];
        bad += (uint32_t)out[i] != acc;
    }
    printf("clscan %s on %s: inclusive int32 add scan of %zu elements\n", clscan_version_string(), name, n);
    printf("  first call (build or cache load + copy + scan): %.1f ms; second call: %.2f ms\n", t1 - t0, t2 - t1);
    printf("  last element %d; %s\n", (int)out[n ? n - 1 : 0], bad ? "MISMATCH against the C loop" : "matches a C loop");
    free(in);
    free(out);
    clscan_context_release(ctx);
    return bad ? 1 : 0;
}
