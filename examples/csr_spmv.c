/* Sparse matrix-vector product y = A x with A in CSR form: the products a_k * x[col_k] of every
 * non-zero are summed per row by clscan_segmented_reduce over the row offsets (row_ptr, as cl_ulong),
 * rows without non-zeros giving 0. The products here come from the host for brevity; an application
 * forms them on the device with a kernel of its own. Checks y against a C loop (within the rounding of
 * the row's float sum) and exits non-zero on any difference. Usage: csr_spmv [device] [rows] */
#include <clscan/clscan.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const size_t rows = argc > 2 ? strtoull(argv[2], NULL, 10) : 100000, cols = 5000;
    clscan_context *ctx = NULL;
    if (rows == 0 || clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "csr_spmv: %s\n", rows ? clscan_last_error(NULL) : "rows must be at least 1");
        return 1;
    }
    /* A matrix with 0 to 40 non-zeros a row (every seventh row empty) and a few dense rows. */
    cl_ulong *row_ptr = malloc((rows + 1) * sizeof *row_ptr);
    float *x = malloc(cols * sizeof *x), *y = malloc(rows * sizeof *y);
    if (!row_ptr || !x || !y)
        return 1;
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    row_ptr[0] = 0;
    for (size_t r = 0; r < rows; r++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        row_ptr[r + 1] = row_ptr[r] + (r % 7 == 0 ? 0 : r % 1009 == 1 ? 3000 : seed % 41);
    }
    const size_t nnz = (size_t)row_ptr[rows];
    uint32_t *col = malloc((nnz ? nnz : 1) * sizeof *col);
    float *val = malloc((nnz ? nnz : 1) * sizeof *val), *prod = malloc((nnz ? nnz : 1) * sizeof *prod);
    if (!col || !val || !prod)
        return 1;
    for (size_t c = 0; c < cols; c++)
        x[c] = (float)((int)(c % 17) - 8) / 8.0f;
    for (size_t k = 0; k < nnz; k++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        col[k] = (uint32_t)(seed % cols);
        val[k] = (float)(seed >> 40 & 0xFFFF) / 65536.0f - 0.5f;
        prod[k] = val[k] * x[col[k]];
    }
    cl_context cl = clscan_context_cl_context(ctx);
    cl_int err = CL_SUCCESS;
    cl_mem d_prod = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (nnz ? nnz : 1) * sizeof *prod, prod, &err);
    cl_mem d_ptr = clCreateBuffer(cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (rows + 1) * sizeof *row_ptr, row_ptr, &err);
    cl_mem d_y = clCreateBuffer(cl, CL_MEM_WRITE_ONLY, rows * sizeof *y, NULL, &err);
    clscan_status st = d_prod && d_ptr && d_y ? clscan_segmented_reduce(ctx, d_prod, d_ptr, d_y, rows, CLSCAN_FLOAT, CLSCAN_ADD)
                                              : CLSCAN_OUT_OF_MEMORY;
    if (st == CLSCAN_SUCCESS &&
        clEnqueueReadBuffer(clscan_context_queue(ctx), d_y, CL_TRUE, 0, rows * sizeof *y, y, 0, NULL, NULL) != CL_SUCCESS)
        st = CLSCAN_OPENCL_ERROR;
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "csr_spmv: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        return 1;
    }
    size_t wrong = 0, empty = 0;
    for (size_t r = 0; r < rows; r++) {
        double sum = 0, mag = 0;
        for (cl_ulong k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            sum += prod[k], mag += fabs(prod[k]);
        const double bound = (double)(row_ptr[r + 1] - row_ptr[r] + 1) * FLT_EPSILON * mag;
        wrong += !(fabs(y[r] - sum) <= bound);
        empty += row_ptr[r + 1] == row_ptr[r];
    }
    printf("%zu x %zu matrix, %zu non-zeros, %zu empty rows; y[%zu] = %g; %s\n", rows, cols, nnz, empty, rows / 2,
           (double)y[rows / 2], wrong ? "WRONG" : "y matches a C loop");
    clReleaseMemObject(d_prod), clReleaseMemObject(d_ptr), clReleaseMemObject(d_y);
    free(row_ptr), free(x), free(y), free(col), free(val), free(prod);
    clscan_context_release(ctx);
    return wrong != 0;
}
