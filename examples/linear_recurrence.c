/* A linear recurrence x[i] = a[i] * x[i-1] + b[i] for every i at once. Each step is the affine map
 * x -> a x + b; composing maps is associative (but not commutative), so an inclusive scan of the maps
 * with their composition as the operator gives, for every i, the map from x[-1] to x[i]. The operator is
 * written in OpenCL C and registered (clscan_register_op); arithmetic is mod 2^16, a map packed in a
 * uint (a in the high half), so the result is exact (the README's example). Checks every x[i] against
 * the sequential loop and exits non-zero on any difference. Usage: linear_recurrence [device] [n] */
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* a: the earlier map, b: the later one; the result applies a, then b. */
static const char compose[] =
    "(((b >> 16) * (a >> 16)) & 0xffffu) << 16 | (((b >> 16) * (a & 0xffffu) + (b & 0xffffu)) & 0xffffu)";

int main(int argc, char **argv)
{
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000;
    const uint32_t x_start = 12345;   /* x[-1], mod 2^16 */
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "linear_recurrence: %s\n", clscan_last_error(NULL));
        return 1;
    }
    uint32_t *maps = malloc(n * sizeof *maps), *prefix = malloc(n * sizeof *prefix);
    uint64_t seed = 88172645463325252ull;
    if (!maps || !prefix)
        return 1;
    for (size_t i = 0; i < n; i++) {   /* a[i] odd (so products never collapse to 0), b[i] anything */
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        maps[i] = (uint32_t)seed | 1u << 16;
    }
    const uint32_t identity = 1u << 16;   /* x -> 1 x + 0 */
    clscan_op op;
    clscan_status st = clscan_register_op(ctx, CLSCAN_UINT32, compose, &identity, NULL, 0, &op);
    if (st == CLSCAN_SUCCESS)
        st = clscan_inclusive_scan_host(ctx, maps, prefix, n, CLSCAN_UINT32, op);
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "linear_recurrence: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        clscan_context_release(ctx);
        return 1;
    }
    uint32_t x = x_start;
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        x = ((maps[i] >> 16) * x + (maps[i] & 0xffffu)) & 0xffffu;   /* the recurrence, one step at a time */
        const uint32_t from_scan = ((prefix[i] >> 16) * x_start + (prefix[i] & 0xffffu)) & 0xffffu;
        wrong += from_scan != x;
    }
    printf("linear_recurrence: %zu steps, x[%zu] = %u, %zu wrong\n", n, n - 1, x, wrong);
    free(maps), free(prefix);
    clscan_context_release(ctx);
    return wrong != 0;
}
