/* The on-disk binary cache: keys hashed from device identity, source and options, files written to a
 * temporary name and renamed, anything unreadable, corrupt or rejected by the driver counted and left
 * to be rebuilt from source and replaced. An unwritable cache directory costs rebuilds, nothing else. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char cache_magic[16] = "CLSCAN-BINARY-1\n";

/* ---- hashing: two independent 64-bit FNV-1a streams make the 128-bit key --------------------- */
typedef struct hash128 { uint64_t a, b; } hash128;

static void hash_bytes(hash128 *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * 0x100000001b3ull;
        h->b = (h->b ^ p[i]) * 0x100000001b3ull;
        h->b ^= h->b >> 29;
    }
}

/* Each field is followed by a zero byte so that ("ab","c") and ("a","bc") differ. */
static void hash_field(hash128 *h, const char *s)
{
    hash_bytes(h, s, strlen(s) + 1);
}

static uint64_t checksum64(const void *data, size_t len)
{
    hash128 h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    hash_bytes(&h, data, len);
    return h.a ^ (h.b << 1);
}

void clscan__cache_key(const clscan__device_info *dev, const char *source, const char *options, char hex[33])
{
    hash128 h = {0xcbf29ce484222325ull, 0x6c62272e07bb0142ull};
    const char *fields[] = {dev->platform, dev->platform_version, dev->name, dev->vendor,
                            dev->version, dev->driver, options, source};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        hash_field(&h, fields[i]);
    snprintf(hex, 33, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
}

void clscan__default_cache_dir(char *buf, size_t len)
{
    const char *dir = getenv("CLSCAN_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (dir && dir[0])
        snprintf(buf, len, "%s", dir);
    else if (xdg && xdg[0])
        snprintf(buf, len, "%s/clscan", xdg);
    else if (home && home[0])
        snprintf(buf, len, "%s/.cache/clscan", home);
    else
        buf[0] = '\0';
}

/* ---- the disk cache ------------------------------------------------------------------------- */
static void cache_path(const clscan_context *ctx, const char *key, char *path, size_t len)
{
    snprintf(path, len, "%s/%s.bin", ctx->cache_dir, key);
}

/* A cache file is the magic, the 32-digit key, the binary's length and checksum (two host-order
 * uint64), then exactly that many bytes of binary. */
#define CACHE_HEADER (16 + 32 + 8 + 8)
#define CACHE_MAX_BINARY ((uint64_t)1 << 31)   /* longer lengths are taken for corruption */

int clscan__cache_parse(const unsigned char *data, size_t size, const char key[32], size_t *offset, size_t *len)
{
    uint64_t stored_len = 0, sum = 0;
    if (size < CACHE_HEADER || memcmp(data, cache_magic, 16) != 0 || memcmp(data + 16, key, 32) != 0)
        return 0;
    memcpy(&stored_len, data + 48, sizeof stored_len);
    memcpy(&sum, data + 56, sizeof sum);
    /* Compared with what is left rather than as header + length, which could wrap. */
    if (stored_len == 0 || stored_len >= CACHE_MAX_BINARY || stored_len != size - CACHE_HEADER ||
        checksum64(data + CACHE_HEADER, (size_t)stored_len) != sum)
        return 0;
    *offset = CACHE_HEADER;
    *len = (size_t)stored_len;
    return 1;
}

/* The whole file when it could hold a header and the longest binary, or NULL. */
static unsigned char *read_file(FILE *f, size_t *size)
{
    long end = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (end < CACHE_HEADER || (uint64_t)end - CACHE_HEADER >= CACHE_MAX_BINARY || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    *size = (size_t)end;
    unsigned char *data = malloc(*size);
    /* A file that grew or shrank since ftell is treated as corrupt. */
    if (data && (fread(data, 1, *size, f) != *size || fgetc(f) != EOF)) {
        free(data);
        data = NULL;
    }
    return data;
}

/* Reads and checks a cache file; NULL when absent, short, or not what the header promises. */
static unsigned char *cache_read(const char *path, const char *key, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t file_size = 0, offset = 0;
    unsigned char *data = read_file(f, &file_size);
    fclose(f);
    if (data && clscan__cache_parse(data, file_size, key, &offset, size)) {
        memmove(data, data + offset, *size);   /* the caller frees what it is given */
        return data;
    }
    free(data);
    return NULL;
}

static void make_dirs(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    mkdir(tmp, 0755);
}

/* Best effort: an unwritable cache costs a rebuild next time, nothing else. */
static int cache_write(clscan_context *ctx, const char *key, const unsigned char *bin, size_t size)
{
    char path[4200], tmp[4300];
    make_dirs(ctx->cache_dir);
    cache_path(ctx, key, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.%p.tmp", path, (long)getpid(), (void *)ctx);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return 0;
    uint64_t len = size, sum = checksum64(bin, size);
    int ok = fwrite(cache_magic, 1, 16, f) == 16 && fwrite(key, 1, 32, f) == 32 &&
             fwrite(&len, sizeof len, 1, f) == 1 && fwrite(&sum, sizeof sum, 1, f) == 1 &&
             fwrite(bin, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0)
        return 1;
    unlink(tmp);
    return 0;
}

unsigned char *clscan__program_binary(cl_program prog, size_t *size)
{
    cl_uint ndev = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL) != CL_SUCCESS || ndev != 1 ||
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL) != CL_SUCCESS || *size == 0)
        return NULL;
    unsigned char *bin = malloc(*size);
    if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) != CL_SUCCESS) {
        free(bin);
        bin = NULL;
    }
    return bin;
}

cl_program clscan__program_from_binary(clscan_context *ctx, const unsigned char *bin, size_t size, const char *options)
{
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    const unsigned char *bins[1] = {bin};
    cl_program prog = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &size, bins, &status, &err);
    if (prog && err == CL_SUCCESS && status == CL_SUCCESS &&
        clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL) == CL_SUCCESS)
        return prog;
    if (prog)
        clReleaseProgram(prog);
    return NULL;
}

cl_program clscan__cache_load(clscan_context *ctx, const char *key, const char *options)
{
    char path[4200];
    size_t size = 0;
    cache_path(ctx, key, path, sizeof path);
    unsigned char *bin = cache_read(path, key, &size);
    if (!bin) {
        if (access(path, F_OK) == 0)
            ctx->stats.binary_rejects++;   /* present but corrupt: rebuilt below, then replaced */
        return NULL;
    }
    cl_program prog = clscan__program_from_binary(ctx, bin, size, options);
    free(bin);
    if (prog)
        ctx->stats.binary_loads++;
    else
        ctx->stats.binary_rejects++;
    return prog;
}

void clscan__cache_store(clscan_context *ctx, const char *key, cl_program prog)
{
    size_t size = 0;
    unsigned char *bin = clscan__program_binary(prog, &size);
    if (bin && cache_write(ctx, key, bin, size))
        ctx->stats.binary_writes++;
    free(bin);
}
