/* What the peer programs (boost_compute_peer.cpp, cub_peer.cu) share: their options, the inputs of
 * clscan-bench for n elements (tools/bench_data.h), the host results they are checked against, and the
 * CSV rows that bench/peers/compare.sh merges with clscan-bench's; the clock and the median are
 * clscan-bench's own (tools/bench_common.h). Host C, callable from C++ and CUDA host code. */
#ifndef CLSCAN_PEER_COMMON_H
#define CLSCAN_PEER_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../../tools/bench_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct clscan__peer_options {
    int min_log, max_log, runs;
    const char *csv;     /* NULL: the table on stdout only */
    const char *device;  /* a part of the device's name (Boost.Compute), NULL: the first GPU */
} clscan__peer_options;

/* Parses the options every peer takes; prints the usage and returns 0 on a bad one. */
int clscan__peer_parse(int argc, char **argv, const char *library, clscan__peer_options *o);

/* clscan-bench's inputs at n: the scans' int32 values, the compaction's flags, uint32 sort keys,
 * histogram bytes, and the 0.2 family's values, heads, partition flags, keys and n / 256 segments. */
typedef struct clscan__peer_data {
    size_t n, segs;
    int32_t *values;
    unsigned char *flags;
    uint32_t *keys;
    uint8_t *bytes;
    int32_t *fam_values;
    unsigned char *fam_heads, *fam_half;
    uint32_t *fam_keys;
    uint64_t *offsets;
} clscan__peer_data;

int clscan__peer_data_make(clscan__peer_data *d, size_t n);   /* 0 when host memory runs out */
void clscan__peer_data_free(clscan__peer_data *d);

/* Host results, each what clscan's function of the same name gives (integers wrap). */
void clscan__peer_ref_scan(const int32_t *in, size_t n, int32_t *out);
int32_t clscan__peer_ref_sum(const int32_t *in, size_t n);
size_t clscan__peer_ref_compact(const int32_t *in, const unsigned char *flags, size_t n, int32_t *out);
/* A stable sort of keys (descending or not, by all bits or the low 16 bits) with each key's index. */
void clscan__peer_ref_sort(const uint32_t *keys, size_t n, int descending, int low16, uint32_t *keys_out,
                           uint32_t *index_out);
void clscan__peer_ref_scan_by_key(const uint32_t *keys, const int32_t *values, size_t n, int32_t *out);
/* The runs of equal keys: each run's key, its values' sum and its length; returns their number. */
size_t clscan__peer_ref_runs(const uint32_t *keys, const int32_t *values, size_t n, uint32_t *run_keys,
                             int32_t *sums, uint64_t *lengths);
/* The flagged values first, then the others, both in order; returns the number flagged. */
size_t clscan__peer_ref_partition(const int32_t *values, const unsigned char *flags, size_t n, int32_t *out);
/* 256 bins over [0, 255) as clscan_histogram_even (and CUB's HistogramEven) count bytes. */
void clscan__peer_ref_histogram(const uint8_t *bytes, size_t n, uint64_t counts[256]);
void clscan__peer_ref_segmented_sum(const int32_t *values, const uint64_t *offsets, size_t segs, int32_t *out);

/* One result: a table line on stdout and, when csv is open, the CSV line
 * library,device,driver,operation,n,ms,verified (ms < 0: the call failed). */
void clscan__peer_row(FILE *csv, const char *library, const char *device, const char *driver, const char *op,
                      size_t n, double ms, int verified);
/* The CSV's header line. */
void clscan__peer_csv_header(FILE *csv);

#ifdef __cplusplus
}
#endif
#endif
