/* The peer programs' shared host code (peer_common.h): options, clscan-bench's inputs, the host
 * results every output is checked against, and the rows. */
#include "peer_common.h"
#include "../../tools/bench_data.h"
#include <stdlib.h>
#include <string.h>

int clscan__peer_parse(int argc, char **argv, const char *library, clscan__peer_options *o)
{
    *o = (clscan__peer_options){10, 28, 20, NULL, NULL};
    int ok = 1;
    for (int i = 1; i < argc && ok; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        ok = v != NULL;
        if (!ok || !strcmp(a, "--help")) break;
        if (!strcmp(a, "--min-log")) o->min_log = atoi(v);
        else if (!strcmp(a, "--max-log")) o->max_log = atoi(v);
        else if (!strcmp(a, "--runs")) o->runs = atoi(v);
        else if (!strcmp(a, "--csv")) o->csv = v;
        else if (!strcmp(a, "--device")) o->device = v;
        else ok = 0;
        i++;
    }
    ok = ok && o->runs > 0 && o->min_log >= 1 && o->min_log <= o->max_log && o->max_log <= 32;
    if (!ok)
        fprintf(stderr,
                "Usage: %s [--min-log K] [--max-log K] [--runs N] [--csv FILE] [--device NAME]\n"
                "Times %s on clscan-bench's data at n = 2^min-log .. 2^max-log (default 10..28): the\n"
                "median of N (default 20) calls + a finish after two warm-ups, every output checked on the\n"
                "host. --device: a part of the device's name (default: the first GPU, else the first\n"
                "device). Rows: library,device,driver,operation,n,ms,verified.\n",
                argv[0], library);
    return ok;
}

int clscan__peer_data_make(clscan__peer_data *d, size_t n)
{
    memset(d, 0, sizeof *d);
    d->n = n, d->segs = n / 256 ? n / 256 : 1;
    d->values = malloc(n * 4), d->flags = malloc(n), d->keys = malloc(n * 4), d->bytes = malloc(n);
    d->fam_values = malloc(n * 4), d->fam_heads = malloc(n), d->fam_half = malloc(n), d->fam_keys = malloc(n * 4);
    d->offsets = malloc((d->segs + 1) * 8);
    if (!d->values || !d->flags || !d->keys || !d->bytes || !d->fam_values || !d->fam_heads || !d->fam_half ||
        !d->fam_keys || !d->offsets) {
        clscan__peer_data_free(d);
        return 0;
    }
    uint64_t v = CLSCAN__BENCH_SEED_VALUES, k = CLSCAN__BENCH_SEED_KEYS;
    for (size_t i = 0; i < n; i++) {
        d->values[i] = clscan__bench_value(clscan__bench_next(&v));
        clscan__bench_next(&k);
        d->flags[i] = clscan__bench_flag(k), d->keys[i] = clscan__bench_key32(k), d->bytes[i] = clscan__bench_byte(k);
    }
    clscan__bench_family_data(n, d->fam_values, d->fam_heads, d->fam_half, d->fam_keys, d->segs, d->offsets);
    return 1;
}

void clscan__peer_data_free(clscan__peer_data *d)
{
    free(d->values), free(d->flags), free(d->keys), free(d->bytes), free(d->fam_values), free(d->fam_heads);
    free(d->fam_half), free(d->fam_keys), free(d->offsets);
    memset(d, 0, sizeof *d);
}

void clscan__peer_ref_scan(const int32_t *in, size_t n, int32_t *out)
{
    uint32_t run = 0;
    for (size_t i = 0; i < n; i++)
        out[i] = (int32_t)(run += (uint32_t)in[i]);
}

int32_t clscan__peer_ref_sum(const int32_t *in, size_t n)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (uint32_t)in[i];
    return (int32_t)sum;
}

size_t clscan__peer_ref_compact(const int32_t *in, const unsigned char *flags, size_t n, int32_t *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (flags[i])
            out[k++] = in[i];
    return k;
}

/* Stable LSD passes of 8 bits over the keys' image (inverted when descending, the low 16 bits only
 * when low16), carrying each key's index; keys_out gets the keys themselves in that order. */
void clscan__peer_ref_sort(const uint32_t *keys, size_t n, int descending, int low16, uint32_t *keys_out,
                           uint32_t *index_out)
{
    uint32_t *img = malloc(n * 4), *img2 = malloc(n * 4), *idx2 = malloc(n * 4);
    if (!img || !img2 || !idx2) {
        free(img), free(img2), free(idx2);
        fprintf(stderr, "peer: no host memory for the reference sort of %zu keys\n", n);
        exit(3);
    }
    for (size_t i = 0; i < n; i++) {
        const uint32_t key = low16 ? keys[i] & 0xFFFFu : keys[i];
        img[i] = descending ? ~key : key, index_out[i] = (uint32_t)i;
    }
    for (int shift = 0; shift < (low16 ? 16 : 32); shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(img[i] >> shift & 255) + 1]++;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++) {
            const size_t to = count[img[i] >> shift & 255]++;
            img2[to] = img[i], idx2[to] = index_out[i];
        }
        memcpy(img, img2, n * 4), memcpy(index_out, idx2, n * 4);
    }
    for (size_t i = 0; i < n; i++)
        keys_out[i] = keys[index_out[i]];
    free(img), free(img2), free(idx2);
}

void clscan__peer_ref_scan_by_key(const uint32_t *keys, const int32_t *values, size_t n, int32_t *out)
{
    uint32_t run = 0;
    for (size_t i = 0; i < n; i++) {
        run = (i == 0 || keys[i] != keys[i - 1] ? 0u : run) + (uint32_t)values[i];
        out[i] = (int32_t)run;
    }
}

size_t clscan__peer_ref_runs(const uint32_t *keys, const int32_t *values, size_t n, uint32_t *run_keys,
                             int32_t *sums, uint64_t *lengths)
{
    size_t r = 0, start = 0;
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        sum += (uint32_t)values[i];
        if (i + 1 == n || keys[i + 1] != keys[i]) {
            run_keys[r] = keys[i], sums[r] = (int32_t)sum, lengths[r] = i + 1 - start;
            r++, start = i + 1, sum = 0;
        }
    }
    return r;
}

size_t clscan__peer_ref_partition(const int32_t *values, const unsigned char *flags, size_t n, int32_t *out)
{
    size_t front = 0, back = 0;
    for (size_t i = 0; i < n; i++)
        back += flags[i] != 0;
    const size_t flagged = back;
    for (size_t i = 0; i < n; i++)
        out[flags[i] ? front++ : back++] = values[i];
    return flagged;
}

void clscan__peer_ref_histogram(const uint8_t *bytes, size_t n, uint64_t counts[256])
{
    memset(counts, 0, 256 * sizeof counts[0]);
    for (size_t i = 0; i < n; i++)
        if (bytes[i] < 255)
            counts[(unsigned)bytes[i] * 256u / 255u]++;
}

void clscan__peer_ref_segmented_sum(const int32_t *values, const uint64_t *offsets, size_t segs, int32_t *out)
{
    for (size_t s = 0; s < segs; s++)
        out[s] = clscan__peer_ref_sum(values + offsets[s], (size_t)(offsets[s + 1] - offsets[s]));
}

void clscan__peer_csv_header(FILE *csv)
{
    if (csv)
        fprintf(csv, "library,device,driver,operation,n,ms,verified\n");
}

void clscan__peer_row(FILE *csv, const char *library, const char *device, const char *driver, const char *op,
                      size_t n, double ms, int verified)
{
    printf("%-14s %-20s %11zu %10.4f %8.3f G/s %s\n", library, op, n, ms, ms > 0 ? n / ms / 1e6 : 0.0,
           ms < 0 ? "CALL FAILED" : verified ? "ok" : "WRONG RESULT");
    fflush(stdout);
    if (csv) {
        fprintf(csv, "%s,\"%s\",\"%s\",%s,%zu,%.6f,%d\n", library, device, driver, op, n, ms, verified);
        fflush(csv);
    }
}
