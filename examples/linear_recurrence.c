/* A linear recurrence x[i] = a[i] * x[i-1] + b[i] for every i at once. Each step is the affine map
 * x -> a x + b; composing maps is associative (but not commutative), so an inclusive scan of the maps
 * with their composition as the operator gives, for every i, the map from x[-1] to x[i]. The operator is
 * written in OpenCL C and registered (clscan_register_op); arithmetic is mod 2^32, a map packed in a
 * ulong (a in the high half), so the result is exact. Checks every x[i] against the sequential loop
 * and exits non-zero on any difference. Usage: linear_recurrence [device] [n] */
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* a: the earlier map, b: the later one; the result applies a, then b. */
static const char compose[] = "(ulong)((uint)(b >> 32) * (uint)(a >> 32)) << 32 | "
                              "(ulong)((uint)(b >> 32) * (uint)a + (uint)b)";

int main(int argc, char **argv)
{
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000;
    const uint32_t x_start = 12345;   /* x[-1] */
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "linear_recurrence: %s\n", clscan_last_error(NULL));
        return 1;
    }
    uint64_t *maps = malloc(n * sizeof *maps), *prefix = malloc(n * sizeof *prefix), seed = 88172645463325252ull;
    if (!maps || !prefix)
        return 1;
    for (size_t i = 0; i < n; i++) {   /* a[i] odd (so products never collapse to 0), b[i] anything */
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        maps[i] = seed | (uint64_t)1 << 32;
    }
    const uint64_t identity = (uint64_t)1 << 32;   /* x -> 1 x + 0 */
    clscan_op op;
    clscan_status st = clscan_register_op(ctx, CLSCAN_UINT64, compose, &identity, NULL, 0, &op);
    if (st == CLSCAN_SUCCESS)
        st = clscan_inclusive_scan_host(ctx, maps, prefix, n, CLSCAN_UINT64, op);
    if (st != CLSCAN_SUCCESS) {   /* UNSUPPORTED on a device without 64-bit integers */
        fprintf(stderr, "linear_recurrence: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        clscan_context_release(ctx);
        return st == CLSCAN_UNSUPPORTED ? 0 : 1;
    }
    uint32_t x = x_start;
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        x = (uint32_t)(maps[i] >> 32) * x + (uint32_t)maps[i];   /* the recurrence, one step at a time */
        const uint32_t from_scan = (uint32_t)(prefix[i] >> 32) * x_start + (uint32_t)prefix[i];
        wrong += from_scan != x;
    }
    printf("linear_recurrence: %zu steps, x[%zu] = %u, %zu wrong\n", n, n - 1, x, wrong);
    free(maps), free(prefix);
    clscan_context_release(ctx);
    return wrong != 0;
}
