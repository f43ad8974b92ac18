/* A program written only against the public contract (API.md): what an application does first.
 * Built against the installed package both through CMake's find_package and through pkg-config. */
#include <clscan/clscan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    clscan_context *ctx = NULL;
    clscan_status st = clscan_context_create(&ctx, NULL);
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "create: %s: %s\n", clscan_status_string(st), clscan_last_error(NULL));
        return 1;
    }
    enum { N = 100000 };
    static int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 7919) % 1001 - 500;
    cl_int err;
    cl_mem a = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem b = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    int bad = 0;
    if (clscan_exclusive_scan(ctx, a, b, N, CLSCAN_INT32, CLSCAN_ADD) != CLSCAN_SUCCESS ||
        clEnqueueReadBuffer(clscan_context_queue(ctx), b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL) != CL_SUCCESS)
        bad = 1;
    long long acc = 0;
    for (int i = 0; i < N && !bad; i++) {
        bad |= out[i] != (int)acc;
        acc += in[i];
    }
    double x[5] = {3, -1, 4, -1, 5}, y[5];
    if (clscan_inclusive_scan_host(ctx, x, y, 5, CLSCAN_DOUBLE, CLSCAN_MIN) == CLSCAN_SUCCESS)
        bad |= y[0] != 3 || y[1] != -1 || y[4] != -1;
    bad |= clscan_inclusive_scan(ctx, a, b, N + 1, CLSCAN_INT32, CLSCAN_ADD) != CLSCAN_INVALID_ARGUMENT;
    bad |= strlen(clscan_last_error(ctx)) == 0 || clscan_type_size(CLSCAN_UINT64) != 8;
    printf("clscan %s consumer: %s\n", clscan_version_string(), bad ? "FAILED" : "passed");
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clscan_context_release(ctx);
    return bad;
}
