/* Many short segments sorted at once: each float key goes into a 64-bit word above which its segment's
 * number sits, and clscan_sort_ex sorts those words by the bits that hold a number or a key, descending
 * within each segment here, with each key's position as its value. The segment number is the word's
 * high bits, so segments stay in order and each is sorted within itself: one sort of n keys instead of
 * one launch a segment (the trick that beat a dedicated segmented sort in NVIDIA/cub#438). The float
 * key goes in as its order-preserving image (the usual flip); the example checks every segment
 * against qsort and exits non-zero on any difference. Usage: segmented_sort [device] [segments] */
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A float's bits mapped so that unsigned order is the floats' order (no NaNs here). */
static uint32_t flip(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}

static int descending(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

int main(int argc, char **argv)
{
    const size_t segs = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000;
    clscan_context *ctx = NULL;
    if (segs == 0 || segs >= (1u << 31) || clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "segmented_sort: %s\n", segs ? clscan_last_error(NULL) : "segments must be at least 1");
        return 1;
    }
    /* Segments of 0 to 99 keys; the words' bits: 32 of the key, then as many as the segment numbers take. */
    size_t *start = malloc((segs + 1) * sizeof *start);
    if (!start)
        return 1;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    start[0] = 0;
    for (size_t s = 0; s < segs; s++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        start[s + 1] = start[s] + seed % 100;
    }
    const size_t n = start[segs];
    unsigned seg_bits = 1;
    while (seg_bits < 31 && ((size_t)1 << seg_bits) < segs)
        seg_bits++;
    float *keys = malloc((n ? n : 1) * sizeof *keys), *want = malloc((n ? n : 1) * sizeof *want);
    cl_ulong *words = malloc((n ? n : 1) * sizeof *words);
    cl_uint *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!keys || !want || !words || !pos)
        return 1;
    for (size_t s = 0; s < segs; s++)
        for (size_t i = start[s]; i < start[s + 1]; i++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            keys[i] = (float)((int64_t)(seed >> 40) - (1 << 23)) / 1024.0f;
            /* descending within a segment, ascending segment numbers: the number's complement above */
            words[i] = (cl_ulong)((1u << seg_bits) - 1 - s) << 32 | flip(keys[i]);
            pos[i] = (cl_uint)i;
        }
    cl_context cl = clscan_context_cl_context(ctx);
    cl_int err = CL_SUCCESS;
    cl_mem d_words = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (n ? n : 1) * 8, words, &err);
    cl_mem d_pos = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (n ? n : 1) * 4, pos, &err);
    const clscan_sort_options by_segment = {1, 0, 32 + seg_bits};   /* descending over number and key */
    clscan_status st = d_words && d_pos ? clscan_sort_ex(ctx, d_words, d_pos, n, CLSCAN_UINT64, CLSCAN_UINT32, &by_segment)
                                        : CLSCAN_OUT_OF_MEMORY;
    if (st == CLSCAN_SUCCESS &&
        clEnqueueReadBuffer(clscan_context_queue(ctx), d_pos, CL_TRUE, 0, n * 4, pos, 0, NULL, NULL) != CL_SUCCESS)
        st = CLSCAN_OPENCL_ERROR;
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "segmented_sort: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        return 1;
    }
    size_t wrong = 0;
    for (size_t s = 0; s < segs; s++) {
        const size_t len = start[s + 1] - start[s];
        memcpy(want, keys + start[s], len * sizeof *want);
        qsort(want, len, sizeof *want, descending);
        for (size_t i = 0; i < len; i++) {
            const cl_uint p = pos[start[s] + i];
            wrong += p < start[s] || p >= start[s + 1] || keys[p] != want[i];
        }
    }
    printf("%zu segments, %zu keys sorted descending within each by one clscan_sort_ex over %u bits; %s\n", segs, n,
           32 + seg_bits, wrong ? "WRONG" : "every segment matches qsort");
    clReleaseMemObject(d_words), clReleaseMemObject(d_pos);
    free(start), free(keys), free(want), free(words), free(pos);
    clscan_context_release(ctx);
    return wrong != 0;
}
