/* A probe of our own, not part of the library (bench/notebook.md, 2026-11-28, sixteenth session): where
 * a small scan's time goes next to the driver's copy of the same bytes (issue 32 asks 2^16 within 1.1x).
 * For n = 2^LOG int32 (argument 1, default 16), median microseconds over ROUNDS rounds (argument 2,
 * default 15) of:
 *   host   the call's return alone, K calls back to back divided by K (what the host spends: for the
 *          library its validation, kernel arguments and enqueue; for the copy the driver's enqueue)
 *   each   K calls back to back, then clFinish, divided by K (the rate the queue sustains)
 *   one    one call and clFinish (the latency clscan-bench reports), median of K
 * for clEnqueueCopyBuffer, clscan_inclusive_scan (AUTO), a trivial kernel of one work-group (two
 * clSetKernelArg and a launch), and the host's OpenCL queries alone: the 12 clGetMemObjectInfo and 11
 * clSetKernelArg that one warm single-pass scan makes (counted with the fault build's hooks). The
 * scan's output is checked once against a C loop. Last, the copy and the scan by turns (one call and
 * its finish each, K pairs): their medians and the median of their ratios, which one process's drift
 * (20% at 2^16 on the H200) does not move. K is 200. Build from the repository root with the library
 * built in BUILD: gcc -O2 -Iinclude bench/probes/callprobe.c -LBUILD -lclscan -lOpenCL -Wl,-rpath,BUILD;
 * run with CLSCAN_DEVICE as the library takes it. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { K = 200, MAX_ROUNDS = 101 };

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, by_value);
    return v[count / 2];
}

typedef struct probe {
    cl_command_queue q;
    clscan_context *ctx;
    cl_mem in, out;
    size_t n;
    cl_kernel trivial;
    int failed;
} probe;

typedef void (*call_fn)(probe *);

static void call_copy(probe *p)
{
    p->failed |= clEnqueueCopyBuffer(p->q, p->in, p->out, 0, 0, p->n * 4, 0, NULL, NULL) != CL_SUCCESS;
}

static void call_scan(probe *p)
{
    p->failed |= clscan_inclusive_scan(p->ctx, p->in, p->out, p->n, CLSCAN_INT32, CLSCAN_ADD) != CLSCAN_SUCCESS;
}

static void call_trivial(probe *p)
{
    const size_t one = 64;
    cl_uint n32 = (cl_uint)p->n;
    p->failed |= clSetKernelArg(p->trivial, 0, sizeof p->out, &p->out) != CL_SUCCESS;
    p->failed |= clSetKernelArg(p->trivial, 1, sizeof n32, &n32) != CL_SUCCESS;
    p->failed |= clEnqueueNDRangeKernel(p->q, p->trivial, 1, NULL, &one, &one, 0, NULL, NULL) != CL_SUCCESS;
}

/* What a warm single-pass scan asks the driver besides its launch (the library's own calls, repeated
 * here against the same buffers: no enqueue). */
static void call_queries(probe *p)
{
    cl_mem bufs[2] = {p->in, p->out};
    for (int b = 0; b < 2; b++) {
        cl_mem_object_type type;
        cl_context owner;
        cl_mem_flags flags;
        size_t size;
        cl_mem parent;
        clGetMemObjectInfo(bufs[b], CL_MEM_TYPE, sizeof type, &type, NULL);
        clGetMemObjectInfo(bufs[b], CL_MEM_CONTEXT, sizeof owner, &owner, NULL);
        clGetMemObjectInfo(bufs[b], CL_MEM_FLAGS, sizeof flags, &flags, NULL);
        clGetMemObjectInfo(bufs[b], CL_MEM_SIZE, sizeof size, &size, NULL);
        clGetMemObjectInfo(bufs[b], CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
        clGetMemObjectInfo(bufs[b], CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    }
    cl_uint v = 0;
    for (int a = 0; a < 11; a++)
        clSetKernelArg(p->trivial, a % 2, a % 2 ? sizeof v : sizeof p->out, a % 2 ? (void *)&v : (void *)&p->out);
}

/* host: K calls' return; each: K calls and the finish; one: a call and its finish, median of K. */
static void time_calls(probe *p, call_fn f, int rounds, double out[3])
{
    double host[MAX_ROUNDS], each[MAX_ROUNDS], one[K];
    for (int w = 0; w < 20; w++)
        f(p);
    clFinish(p->q);
    for (int r = 0; r < rounds; r++) {
        const double t0 = now_us();
        for (int k = 0; k < K; k++)
            f(p);
        const double t1 = now_us();
        clFinish(p->q);
        host[r] = (t1 - t0) / K, each[r] = (now_us() - t0) / K;
    }
    for (int k = 0; k < K; k++) {
        const double t0 = now_us();
        f(p);
        clFinish(p->q);
        one[k] = now_us() - t0;
    }
    out[0] = median(host, rounds), out[1] = median(each, rounds), out[2] = median(one, K);
}

/* The copy and the scan, a call and its finish each, taking turns K times: the median of each and of
 * their ratio, so that the machine's drift between rounds falls on both. */
static void time_pairs(probe *p, double out[3])
{
    double copy[K], scan[K], ratio[K];
    for (int k = 0; k < K; k++) {
        double t0 = now_us();
        call_copy(p);
        clFinish(p->q);
        double t1 = now_us();
        call_scan(p);
        clFinish(p->q);
        copy[k] = t1 - t0, scan[k] = now_us() - t1, ratio[k] = scan[k] / copy[k];
    }
    out[0] = median(copy, K), out[1] = median(scan, K), out[2] = median(ratio, K);
}

static const char *trivial_src =
    "__kernel void probe_trivial(__global int *out, uint n) { if (get_global_id(0) == 0 && n == 0) out[0] = 1; }";

static int setup(probe *p, size_t n)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    if (clscan_context_create(&p->ctx, getenv("CLSCAN_DEVICE")) != CLSCAN_SUCCESS) {
        fprintf(stderr, "clscan_context_create: %s\n", clscan_last_error(NULL));
        return 1;
    }
    p->q = clscan_context_queue(p->ctx);
    cl_context c = clscan_context_cl_context(p->ctx);
    cl_device_id dev;
    cl_int err = clGetCommandQueueInfo(p->q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    int32_t *host = malloc(n * 4);
    if (!host || err != CL_SUCCESS)
        return 1;
    for (size_t i = 0; i < n; i++)
        host[i] = (int32_t)(i * 2654435761u >> 7) % 1000 - 500;
    p->in = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, host, &err);
    p->out = err == CL_SUCCESS ? clCreateBuffer(c, CL_MEM_READ_WRITE, n * 4, NULL, &err) : NULL;
    cl_program prog = err == CL_SUCCESS ? clCreateProgramWithSource(c, 1, &trivial_src, NULL, &err) : NULL;
    if (err == CL_SUCCESS)
        err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    p->trivial = err == CL_SUCCESS ? clCreateKernel(prog, "probe_trivial", &err) : NULL;
    if (prog)
        clReleaseProgram(prog);
    /* the scan checked once against a C loop, with wrap-around */
    int32_t *got = malloc(n * 4);
    if (err == CL_SUCCESS && got && clscan_inclusive_scan(p->ctx, p->in, p->out, n, CLSCAN_INT32, CLSCAN_ADD) == 0 &&
        clEnqueueReadBuffer(p->q, p->out, CL_TRUE, 0, n * 4, got, 0, NULL, NULL) == CL_SUCCESS) {
        uint32_t sum = 0;
        for (size_t i = 0; i < n && !p->failed; i++) {
            sum += (uint32_t)host[i];
            p->failed |= (uint32_t)got[i] != sum;
        }
    } else {
        p->failed = 1;
    }
    free(host), free(got);
    if (p->failed)
        fprintf(stderr, "setup or the scan's check failed (CL %d): %s\n", err, clscan_last_error(p->ctx));
    return p->failed;
}

int main(int argc, char **argv)
{
    const int log = argc > 1 ? atoi(argv[1]) : 16;
    int rounds = argc > 2 ? atoi(argv[2]) : 15;
    rounds = rounds < 1 ? 1 : rounds > MAX_ROUNDS ? MAX_ROUNDS : rounds;
    probe p;
    if (log < 4 || log > 30 || setup(&p, (size_t)1 << log))
        return 1;
    char name[256] = "";
    clGetDeviceInfo(clscan_context_device(p.ctx), CL_DEVICE_NAME, sizeof name, name, NULL);
    printf("callprobe: %s, n = 2^%d int32, K = %d, %d rounds; microseconds a call\n", name, log, K, rounds);
    printf("%-34s %10s %10s %10s\n", "what", "host", "each", "one");
    const struct { const char *what; call_fn f; } rows[] = {
        {"clEnqueueCopyBuffer (the roof)", call_copy},
        {"clscan_inclusive_scan (AUTO)", call_scan},
        {"trivial kernel, 2 args + launch", call_trivial},
        {"12 GetMemObjectInfo + 11 SetArg", call_queries},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        double t[3];
        time_calls(&p, rows[r].f, rounds, t);
        printf("%-34s %10.3f %10.3f %10.3f\n", rows[r].what, t[0], t[1], t[2]);
    }
    double t[3];
    time_pairs(&p, t);
    printf("by turns (one call + finish; medians of each and of scan / copy): copy %.3f scan %.3f ratio %.3f\n",
           t[0], t[1], t[2]);
    if (p.failed)
        printf("A CALL FAILED: %s\n", clscan_last_error(p.ctx));
    clReleaseKernel(p.trivial), clReleaseMemObject(p.in), clReleaseMemObject(p.out);
    clscan_context_release(p.ctx);
    return p.failed;
}
