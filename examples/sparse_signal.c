/* Compaction of the non-zeros of a sparse signal: a sampled signal is mostly silence; keep the
 * samples above a threshold and where they were. The flags are computed on the host here (on the
 * device in a real pipeline); clscan_compact keeps the samples and, from an index array, their
 * positions, both in their original order. Checks both against a C loop. Usage: sparse_signal
 * [device] [samples] */
#include <clscan/clscan.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1u << 20;
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "sparse_signal: %s\n", clscan_last_error(NULL));
        return 1;
    }
    /* One element more than n: the device buffers below are never empty, and they are filled from
     * these arrays (calloc: that element is 0). */
    float *signal = calloc(n + 1, sizeof *signal), *kept = malloc((n + 1) * sizeof *kept);
    uint32_t *index = calloc(n + 1, sizeof *index), *where = malloc((n + 1) * sizeof *where);
    unsigned char *loud = calloc(n + 1, 1);
    if (!signal || !kept || !index || !where || !loud)
        return 1;
    for (size_t i = 0; i < n; i++) {   /* quiet noise with a burst every 4096 samples */
        signal[i] = (i % 4096 < 40 ? 1.0f : 0.01f) * sinf(0.05f * (float)i);
        index[i] = (uint32_t)i;
        loud[i] = fabsf(signal[i]) > 0.5f;
    }
    cl_context cl = clscan_context_cl_context(ctx);
    cl_command_queue q = clscan_context_queue(ctx);
    size_t bytes = n * sizeof(float) + 4;   /* never 0: OpenCL buffers need a size */
    cl_mem d_signal = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, signal, NULL);
    cl_mem d_index = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, index, NULL);
    cl_mem d_loud = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n + 1, loud, NULL);
    cl_mem d_kept = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, NULL);
    cl_mem d_where = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, NULL);
    size_t count = 0, count2 = 0;
    clscan_status st = clscan_compact(ctx, d_signal, d_loud, d_kept, n, CLSCAN_FLOAT, &count);
    if (st == CLSCAN_SUCCESS)
        st = clscan_compact(ctx, d_index, d_loud, d_where, n, CLSCAN_UINT32, &count2);
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "sparse_signal: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        return 1;
    }
    clEnqueueReadBuffer(q, d_kept, CL_TRUE, 0, count * sizeof(float), kept, 0, NULL, NULL);
    clEnqueueReadBuffer(q, d_where, CL_TRUE, 0, count2 * sizeof(uint32_t), where, 0, NULL, NULL);
    size_t k = 0, wrong = count != count2;
    for (size_t i = 0; i < n && !wrong; i++)
        if (loud[i]) {
            wrong += k >= count || where[k] != i || kept[k] != signal[i];
            k++;
        }
    wrong += k != count;
    printf("%zu samples, %zu loud ones kept with their positions (first at %u); %s\n", n, count,
           count ? where[0] : 0, wrong ? "WRONG" : "matches a C loop");
    clReleaseMemObject(d_signal), clReleaseMemObject(d_index), clReleaseMemObject(d_loud);
    clReleaseMemObject(d_kept), clReleaseMemObject(d_where);
    free(signal), free(kept), free(index), free(where), free(loud);
    clscan_context_release(ctx);
    return wrong ? 1 : 0;
}
