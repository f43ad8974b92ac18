/* The most frequent words of a text: every word of up to 8 letters packed into a cl_ulong (first letter
 * highest, so that the keys' order is the words' alphabetical order), the keys sorted on the device
 * (clscan_sort), then run-length encoded (clscan_run_length_encode): one key per distinct word and its
 * count. The counts are then sorted with their words as values (clscan_sort_by_key, stable) and the
 * last ten are the most frequent. The text is generated (words drawn with Zipf-like frequencies from a
 * fixed vocabulary); every count is checked against a C loop and the program exits non-zero on any
 * difference. Usage: word_histogram [device] [words] */
#include <clscan/clscan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const vocabulary[] = {
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on", "not",
    "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had", "they", "you", "were",
    "their", "one", "all", "we", "can", "her", "has", "there", "been", "if", "more", "when", "will", "would",
    "who", "so", "no", "scan", "prefix", "parallel", "device", "kernel", "segment", "reduce", "sort", "key"};
#define WORDS (sizeof vocabulary / sizeof vocabulary[0])

static cl_ulong pack(const char *w)   /* up to 8 letters, the first in the highest byte */
{
    cl_ulong k = 0;
    for (size_t i = 0; i < 8; i++)
        k = k << 8 | (cl_ulong)(i < strlen(w) ? (unsigned char)w[i] : 0);
    return k;
}

static void unpack(cl_ulong k, char out[9])
{
    for (int i = 0; i < 8; i++)
        out[i] = (char)(k >> (56 - 8 * i));
    out[8] = 0;
}

/* Runs the three steps; *distinct: how many different words, words/counts their keys and counts by
 * ascending count. */
static clscan_status histogram(clscan_context *ctx, cl_mem text, size_t n, cl_mem words, cl_mem counts, size_t *distinct)
{
    clscan_status st = clscan_sort(ctx, text, n, CLSCAN_UINT64);
    if (st == CLSCAN_SUCCESS)
        st = clscan_run_length_encode(ctx, text, words, counts, n, CLSCAN_UINT64, distinct);
    if (st == CLSCAN_SUCCESS)
        st = clscan_sort_by_key(ctx, counts, words, *distinct, CLSCAN_UINT64, CLSCAN_UINT64);
    return st;
}

int main(int argc, char **argv)
{
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000000;
    clscan_context *ctx = NULL;
    if (n == 0 || clscan_context_create(&ctx, argc > 1 ? argv[1] : NULL) != CLSCAN_SUCCESS) {
        fprintf(stderr, "word_histogram: %s\n", n ? clscan_last_error(NULL) : "words must be at least 1");
        return 1;
    }
    cl_ulong *text = malloc(n * sizeof *text), *words = malloc(n * sizeof *words), *counts = malloc(n * sizeof *counts);
    size_t want[WORDS] = {0};
    if (!text || !words || !counts)
        return 1;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {   /* word w with weight about 1 / (w + 1) */
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        size_t w = (size_t)((seed >> 11) % (WORDS * WORDS)) / ((seed >> 3) % WORDS + 1) % WORDS;
        text[i] = pack(vocabulary[w]);
        want[w]++;
    }
    cl_context cl = clscan_context_cl_context(ctx);
    cl_int err = CL_SUCCESS;
    cl_mem d_text = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *text, text, &err);
    cl_mem d_words = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof *words, NULL, &err);
    cl_mem d_counts = clCreateBuffer(cl, CL_MEM_READ_WRITE, n * sizeof *counts, NULL, &err);
    size_t distinct = 0;
    clscan_status st = d_text && d_words && d_counts ? histogram(ctx, d_text, n, d_words, d_counts, &distinct)
                                                     : CLSCAN_OUT_OF_MEMORY;
    cl_command_queue q = clscan_context_queue(ctx);
    if (st == CLSCAN_SUCCESS &&
        (clEnqueueReadBuffer(q, d_words, CL_TRUE, 0, distinct * sizeof *words, words, 0, NULL, NULL) != CL_SUCCESS ||
         clEnqueueReadBuffer(q, d_counts, CL_TRUE, 0, distinct * sizeof *counts, counts, 0, NULL, NULL) != CL_SUCCESS))
        st = CLSCAN_OPENCL_ERROR;
    if (st != CLSCAN_SUCCESS) {
        fprintf(stderr, "word_histogram: %s: %s\n", clscan_status_string(st), clscan_last_error(ctx));
        return 1;
    }
    size_t used = 0, wrong = 0;
    for (size_t w = 0; w < WORDS; w++)
        used += want[w] > 0;
    wrong += distinct != used;
    for (size_t r = 0; r < distinct && r < n; r++) {   /* each word's count, and counts ascending */
        size_t w = 0;
        while (w < WORDS && pack(vocabulary[w]) != words[r])
            w++;
        wrong += w == WORDS || counts[r] != want[w] || (r > 0 && counts[r] < counts[r - 1]);
    }
    printf("%zu words, %zu different; the most frequent:\n", n, distinct);
    for (size_t r = distinct; r > 0 && r + 10 > distinct; r--) {
        char word[9];
        unpack(words[r - 1], word);
        printf("  %-8s %llu\n", word, (unsigned long long)counts[r - 1]);
    }
    printf("%s\n", wrong ? "WRONG" : "every count matches a C loop");
    clReleaseMemObject(d_text), clReleaseMemObject(d_words), clReleaseMemObject(d_counts);
    free(text), free(words), free(counts);
    clscan_context_release(ctx);
    return wrong != 0;
}
