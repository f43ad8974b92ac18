/* Fuzz target: the disk-cache file check of src/core/cache.c (clscan__cache_parse, what cache_read applies
 * to a file's bytes before handing a binary to the driver). The input is the whole file, looked up under
 * a fixed key. The verdict is compared with a second reading of the format written here (magic, key,
 * length, checksum, nothing after the binary); an accepted binary must lie inside the input. */
#include "prims/prims.h"
#include <stdlib.h>
#include <string.h>

static const char key[33] = "0123456789abcdef0123456789abcdef";   /* as the seeds in corpus/cache_file */

/* The format's checksum: two FNV-1a streams, the second also folded, combined. */
static uint64_t reference_checksum(const uint8_t *p, size_t len)
{
    uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
    for (size_t i = 0; i < len; i++) {
        a = (a ^ p[i]) * 0x100000001b3ull;
        b = (b ^ p[i]) * 0x100000001b3ull;
        b ^= b >> 29;
    }
    return a ^ (b << 1);
}

static uint64_t read_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Whether a loader must accept the file: every field as cache_write writes it. */
static int reference_accepts(const uint8_t *d, size_t size)
{
    if (size < 64 || memcmp(d, "CLSCAN-BINARY-1\n", 16) != 0 || memcmp(d + 16, key, 32) != 0)
        return 0;
    uint64_t len = read_u64(d + 48);
    return len > 0 && len < ((uint64_t)1 << 31) && len == size - 64 && reference_checksum(d + 64, len) == read_u64(d + 56);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly the input's size, so that ASan sees a read past the end of the file. */
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    size_t offset = SIZE_MAX, len = SIZE_MAX;
    int ok = clscan__cache_parse(copy, size, key, &offset, &len);
    if (ok != reference_accepts(copy, size))
        abort();
    if (ok && (len == 0 || offset > size || len > size - offset || offset + len != size))
        abort();
    if (!ok && (offset != SIZE_MAX || len != SIZE_MAX))   /* nothing is reported for a rejected file */
        abort();
    if (memcmp(copy, data, size) != 0)   /* the bytes are only read */
        abort();
    free(copy);
    return 0;
}
