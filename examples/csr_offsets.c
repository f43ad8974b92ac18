/* CSR row offsets from per-row counts: a sparse matrix is assembled row by row, each row knowing
 * only how many non-zeros it has; an exclusive scan of those counts gives where each row starts
 * (row_ptr), and the last offset plus the last count is the number of non-zeros. Checks the offsets
 * against a C loop and exits non-zero on any difference. Usage: csr_offsets [device] [rows] */
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const size_t rows = argc > 2 ? strtoull(argv[2], NULL, 10) : 100000;
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "csr_offsets: %s\n", clscan_last_error(NULL));
        return 1;
    }
    uint32_t *counts = malloc(rows * sizeof *counts), *row_ptr = malloc(rows * sizeof *row_ptr);
    if (!counts || !row_ptr)
        return 1;
    for (size_t r = 0; r < rows; r++)   /* a banded matrix with a few dense rows */
        counts[r] = r % 997 == 0 ? 500 : 3 + (uint32_t)(r % 5);
    /* The counts live on the device in a real code; the host convenience copies them there and back. */
    clscan_status st = clscan_exclusive_scan_host(ctx, counts, row_ptr, rows, CLSCAN_UINT32, CLSCAN_ADD);
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "csr_offsets: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        return 1;
    }
    uint32_t expect = 0;
    size_t wrong = 0;
    for (size_t r = 0; r < rows; r++) {
        wrong += row_ptr[r] != expect;
        expect += counts[r];
    }
    size_t nnz = rows ? (size_t)row_ptr[rows - 1] + counts[rows - 1] : 0;
    printf("%zu rows, %zu non-zeros; row %zu starts at %u; %s\n", rows, nnz, rows / 2,
           rows ? row_ptr[rows / 2] : 0, wrong ? "WRONG" : "offsets match a C loop");
    free(counts);
    free(row_ptr);
    clscan_context_release(ctx);
    return wrong ? 1 : 0;
}
