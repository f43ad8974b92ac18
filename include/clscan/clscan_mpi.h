/* clscan_mpi: the scans (segmented ones too), the reduction and the compaction over data spread across
 * MPI ranks, one device a rank (the contract is the "Scale-out over MPI" part of shared/API.md). Each
 * rank does its heavy work on its own device with the one-device kernels; one value a rank crosses the
 * network.
 * Every function is collective over comm: every rank of comm calls it, and all return the same status.
 * MPI is called from the calling thread (with the context's lock held): a program that calls these from
 * several threads needs MPI initialised with MPI_THREAD_MULTIPLE.
 * Link the library clscan_mpi (pkg-config clscan-mpi, CMake target clscan::mpi). */
#ifndef CLSCAN_CLSCAN_MPI_H
#define CLSCAN_CLSCAN_MPI_H

#include <mpi.h>
#include "clscan/clscan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A context on this rank's device: the GPU numbered (rank among the ranks of this machine) modulo the
 * number of GPUs, else the CPU device; $CLSCAN_DEVICE, when set, wins. If any rank fails, every rank
 * gets its status and *ctx = NULL. */
CLSCAN_API clscan_status clscan_mpi_context_create(clscan_context **ctx, MPI_Comm comm);

/* Each rank passes its own slice (n may differ between ranks, 0 allowed); out receives this rank's part
 * of the scan of the concatenation of all slices in rank order. in == out allowed. op may be a registered
 * operator (scans and reduce): every rank registers the same code (its value may differ between ranks);
 * ranks whose operators differ all get CLSCAN_INVALID_ARGUMENT. */
CLSCAN_API clscan_status clscan_mpi_inclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem out,
                                                   size_t n, clscan_type type, clscan_op op);
CLSCAN_API clscan_status clscan_mpi_exclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem out,
                                                   size_t n, clscan_type type, clscan_op op);
/* Segmented scans of the concatenation (heads: n cl_uchar a rank; a segment starts at rank 0's element 0
 * and wherever heads[i] != 0): a segment may span ranks, and a rank whose slice has no head at its
 * element 0 continues the segment of the ranks before it (a rank with n == 0 passes it on). Exclusive: the
 * first element of each segment gets the identity, but element 0 of a continued segment gets what
 * precedes it. in == out allowed. Every operator, registered ones too, is combined on the devices, earlier
 * ranks on the left. */
CLSCAN_API clscan_status clscan_mpi_segmented_inclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in,
                                                             cl_mem heads, cl_mem out, size_t n, clscan_type type,
                                                             clscan_op op);
CLSCAN_API clscan_status clscan_mpi_segmented_exclusive_scan(clscan_context *ctx, MPI_Comm comm, cl_mem in,
                                                             cl_mem heads, cl_mem out, size_t n, clscan_type type,
                                                             clscan_op op);
/* The reduction of all slices, delivered to every rank (one element of the type at *result). */
CLSCAN_API clscan_status clscan_mpi_reduce(clscan_context *ctx, MPI_Comm comm, cl_mem in, size_t n,
                                           clscan_type type, clscan_op op, void *result);
/* Stable global compaction: out receives this rank's kept elements (*count of them); *offset is where they
 * start in the global result and *total how many all ranks kept. */
CLSCAN_API clscan_status clscan_mpi_compact(clscan_context *ctx, MPI_Comm comm, cl_mem in, cl_mem flags, cl_mem out,
                                            size_t n, clscan_type type, size_t *count, size_t *offset,
                                            size_t *total);
/* clscan_histogram_even over the ranks' slices (0.2): every rank's counts receive the global counts (the
 * sum over ranks). Every rank passes the same type, bounds and bins; ranks that do not, or any rank's
 * invalid argument, fail every rank with the same status before any counts are written. */
CLSCAN_API clscan_status clscan_mpi_histogram_even(clscan_context *ctx, MPI_Comm comm, cl_mem in, size_t n,
                                                   clscan_type type, const void *lower, const void *upper,
                                                   size_t bins, cl_mem counts);

#ifdef __cplusplus
}
#endif

#endif /* CLSCAN_CLSCAN_MPI_H */
