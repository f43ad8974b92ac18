/* A constant-time box filter through a summed-area table: once S = SAT(image) is known, the sum over
 * any rectangle is S[y1][x1] - S[y0-1][x1] - S[y1][x0-1] + S[y0-1][x0-1], four reads whatever the
 * radius. Blurs a synthetic image with a (2r+1)^2 box (clamped at the borders) and checks a sample of
 * pixels against a direct sum. Integer pixels keep the sums exact. Usage: box_filter [device] [w] [h] [r] */
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static size_t lo(size_t v, size_t r) { return v > r ? v - r : 0; }
static size_t hi(size_t v, size_t r, size_t n) { return v + r < n ? v + r : n - 1; }

int main(int argc, char **argv)
{
    const size_t w = argc > 2 ? strtoull(argv[2], NULL, 10) : 1920, h = argc > 3 ? strtoull(argv[3], NULL, 10) : 1080;
    const size_t r = argc > 4 ? strtoull(argv[4], NULL, 10) : 7;
    clscan_context *ctx = NULL;
    if (w == 0 || h == 0 || clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "box_filter: %s\n", w && h ? clscan_last_error(NULL) : "empty image");
        return 1;
    }
    uint32_t *img = malloc(w * h * sizeof *img), *sat = malloc(w * h * sizeof *sat);
    if (!img || !sat)
        return 1;
    for (size_t y = 0; y < h; y++)   /* stripes and a gradient, 8-bit pixels */
        for (size_t x = 0; x < w; x++)
            img[y * w + x] = (uint32_t)((x / 16 % 2) * 128 + (y * 127) / h);
    cl_mem buf = clCreateBuffer(clscan_context_cl_context(ctx), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                w * h * sizeof *img, img, NULL);
    clscan_status st = clscan_summed_area_table(ctx, buf, buf, w, h, CLSCAN_UINT32);   /* in place */
    if (st == CLSCAN_SUCCESS && clEnqueueReadBuffer(clscan_context_queue(ctx), buf, CL_TRUE, 0, w * h * sizeof *sat,
                                                    sat, 0, NULL, NULL) != CL_SUCCESS)
        st = CLSCAN_OPENCL_ERROR;
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "box_filter: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        return 1;
    }
#define S(yy, xx) ((yy) < h && (xx) < w ? sat[(yy) * w + (xx)] : 0u)   /* row or column -1 reads 0 */
    size_t wrong = 0, checked = 0;
    for (size_t y = 0; y < h; y += 37)
        for (size_t x = 0; x < w; x += 41) {
            size_t y0 = lo(y, r), y1 = hi(y, r, h), x0 = lo(x, r), x1 = hi(x, r, w);
            uint32_t fast = S(y1, x1) - S(y0 - 1, x1) - S(y1, x0 - 1) + S(y0 - 1, x0 - 1), slow = 0;
            for (size_t j = y0; j <= y1; j++)
                for (size_t i = x0; i <= x1; i++)
                    slow += img[j * w + i];
            wrong += fast != slow;
            checked++;
        }
#undef S
    size_t cy = h / 2, cx = w / 2, area = (hi(cy, r, h) - lo(cy, r) + 1) * (hi(cx, r, w) - lo(cx, r) + 1);
    printf("%zux%zu image, box radius %zu (%zu pixels a box); %zu sampled pixels %s\n", w, h, r, area, checked,
           wrong ? "WRONG" : "match a direct sum");
    clReleaseMemObject(buf);
    free(img), free(sat);
    clscan_context_release(ctx);
    return wrong ? 1 : 0;
}
