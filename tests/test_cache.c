/* Kernel sources and the binary cache under damage. Cache: a second process loads the binary instead
 * of compiling; a cache file that is corrupt in any header field or its binary, truncated, padded,
 * another configuration's, or a folder is rejected, rebuilt and (where it can be) replaced; a cache
 * folder full of garbage, missing or unwritable still gives right answers and leaves no temporary
 * file; two processes building into one empty folder both answer right and leave one valid
 * file; CLSCAN_CACHE=0 writes nothing; by default PoCL's programs are not stored, and CLSCAN_CACHE=1
 * stores them (the other tests run so). Sources: a kernel file missing, empty or a folder fails context
 * creation with KERNEL_NOT_FOUND naming it; a truncated, syntax-broken or NUL-holed file fails exactly
 * the operations built from it, with the build log, while the others go on working on that context.
 * CLSCAN_TUNING=dump_source=1 prints the define block. Child processes are this program run again with
 * "child" (and "other": a second configuration). */
#define _POSIX_C_SOURCE 200809L
#include "prims/prims.h"
#include "ref.h"
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

static char tmp_root[] = "/tmp/clscan-test-cache-XXXXXX";
static char self_exe[4096];

/* One scan with a configuration no other test builds (uint64 max, Blelloch; "other": uint32 min,
 * Hillis-Steele), checked; prints the counters. */
static int child_main(const char *which)
{
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, NULL) != CLSCAN_SUCCESS) {
        printf("error %s\n", clscan_last_error(NULL));
        return 1;
    }
    int other = which && strcmp(which, "other") == 0;
    clscan_type type = other ? CLSCAN_UINT32 : CLSCAN_UINT64;
    clscan_op op = other ? CLSCAN_MIN : CLSCAN_MAX;
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_BLOCK_SUM, other ? CLSCAN_WG_HILLIS_STEELE : CLSCAN_WG_BLELLOCH);
    uint64_t rng = 7, in[5000], out[5000];
    ref_fill(in, 5000, type, op, &rng);
    char msg[256] = "";
    clscan_status st = clscan_inclusive_scan_host(ctx, in, out, 5000, type, op);
    int ok = st == CLSCAN_SUCCESS && ref_check_scan(in, out, 5000, type, op, 0, msg, sizeof msg);
    clscan_tuning_cache_stats s = clscan_tuning_cache_counters(ctx);
    printf("ok=%d builds=%lu loads=%lu writes=%lu rejects=%lu own=%d\n", ok, s.source_builds, s.binary_loads,
           s.binary_writes, s.binary_rejects, ctx->info.own_kernel_cache);
    clscan_context_release(ctx);
    return ok ? 0 : 1;
}

typedef struct counts { int ok; unsigned long builds, loads, writes, rejects; int own; } counts;

/* Starts the child (which: NULL or "other"); child_counts waits for it. */
static FILE *start_child(const char *which)
{
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "'%s' child %s", self_exe, which ? which : "");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    return p;
}

static counts child_counts(FILE *p)
{
    counts c = {0, 99, 99, 99, 99, -1};
    char line[512] = "";
    if (fgets(line, sizeof line, p))
        sscanf(line, "ok=%d builds=%lu loads=%lu writes=%lu rejects=%lu own=%d", &c.ok, &c.builds, &c.loads, &c.writes,
               &c.rejects, &c.own);
    pclose(p);
    printf("  child: %s", line[0] ? line : "(no output)\n");
    return c;
}

static counts run_child_as(const char *which)
{
    return child_counts(start_child(which));
}

static counts run_child(void)
{
    return run_child_as(NULL);
}

/* The .bin files in dir (the last one's path in path), and in *tmp the temporary files left. */
static int count_files(const char *dir, char *path, size_t len, int *tmp)
{
    DIR *d = opendir(dir);
    int found = 0, temporary = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        const char *dot = strrchr(e->d_name, '.');
        if (dot && strcmp(dot, ".bin") == 0) {
            if (path)
                snprintf(path, len, "%s/%s", dir, e->d_name);
            found++;
        } else if (dot && strcmp(dot, ".tmp") == 0)
            temporary++;
    }
    if (d)
        closedir(d);
    if (tmp)
        *tmp = temporary;
    return found;
}

/* The single .bin file in dir (the child builds exactly one program). */
static int find_bin(const char *dir, char *path, size_t len)
{
    return count_files(dir, path, len, NULL);
}

static void test_second_process_loads_binary(void **state)
{
    (void)state;
    char dir[1024], bin[2048];
    snprintf(dir, sizeof dir, "%s/cache-a/nested", tmp_root);   /* created on demand */
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    counts first = run_child();
    assert_int_equal(first.ok, 1);
    assert_int_equal(first.builds, 1);
    assert_int_equal(first.writes, 1);
    assert_int_equal(find_bin(dir, bin, sizeof bin), 1);
    counts second = run_child();
    assert_int_equal(second.ok, 1);
    assert_int_equal(second.builds, 0);    /* no recompilation in a second process */
    assert_int_equal(second.loads, 1);

    /* Garbage, then a truncated copy: rebuilt from source, replaced, and loaded again afterwards. */
    FILE *f = fopen(bin, "wb");
    fputs("not a binary at all", f);
    fclose(f);
    counts garbage = run_child();
    assert_int_equal(garbage.ok, 1);
    assert_int_equal(garbage.builds, 1);
    assert_int_equal(garbage.rejects, 1);
    struct stat st;
    assert_int_equal(stat(bin, &st), 0);
    assert_int_equal(truncate(bin, st.st_size / 2), 0);
    counts cut = run_child();
    assert_int_equal(cut.ok, 1);
    assert_int_equal(cut.builds, 1);
    counts after = run_child();
    assert_int_equal(after.ok, 1);
    assert_int_equal(after.builds, 0);
    assert_int_equal(after.loads, 1);
    unsetenv("CLSCAN_CACHE_DIR");
}

/* Where nothing can be written the answers are right and nothing is left behind. */
static void test_unwritable_or_disabled_cache(void **state)
{
    (void)state;
    char file[1024], dir[2048], bin[3072];
    snprintf(file, sizeof file, "%s/plain-file", tmp_root);
    FILE *f = fopen(file, "w");
    fclose(f);
    const char *unwritable[] = {dir, file, "/proc/clscan-test-cache"};   /* below a file, a file, /proc */
    snprintf(dir, sizeof dir, "%s/sub", file);
    for (size_t i = 0; i < sizeof unwritable / sizeof unwritable[0]; i++) {
        setenv("CLSCAN_CACHE_DIR", unwritable[i], 1);
        counts c = run_child();
        assert_int_equal(c.ok, 1);
        assert_int_equal(c.writes, 0);
    }
    snprintf(dir, sizeof dir, "%s/cache-off", tmp_root);
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    setenv("CLSCAN_CACHE", "0", 1);
    counts c = run_child();
    assert_int_equal(c.ok, 1);
    assert_int_equal(c.builds, 1);
    assert_int_equal(c.loads + c.writes, 0);
    assert_int_equal(find_bin(dir, bin, sizeof bin), 0);
    setenv("CLSCAN_CACHE", "1", 1);
    unsetenv("CLSCAN_CACHE_DIR");
}

/* By default binaries are stored except where the driver keeps compiled kernels itself (PoCL), and
 * CLSCAN_CACHE=1 stores them there too (every other test here runs so). */
static void test_store_by_driver(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/cache-default", tmp_root);
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    unsetenv("CLSCAN_CACHE");
    counts c = run_child();
    assert_int_equal(c.ok, 1);
    assert_true(c.own == 0 || c.own == 1);
    assert_int_equal(c.builds, 1);
    assert_int_equal(c.writes, c.own ? 0 : 1);
    assert_int_equal(find_bin(dir, NULL, 0), c.own ? 0 : 1);
    setenv("CLSCAN_CACHE", "1", 1);
    counts forced = run_child();
    assert_int_equal(forced.ok, 1);
    assert_int_equal(forced.builds, c.own ? 1 : 0);
    assert_int_equal(forced.writes, c.own ? 1 : 0);
    assert_int_equal(find_bin(dir, NULL, 0), 1);
    unsetenv("CLSCAN_CACHE");
    counts loads = run_child();   /* a binary stored is loaded whatever the driver */
    assert_int_equal(loads.builds, 0);
    assert_int_equal(loads.loads, 1);
    setenv("CLSCAN_CACHE", "1", 1);
    unsetenv("CLSCAN_CACHE_DIR");
}

/* ---- damaged cache files ------------------------------------------------------------------ */
/* A cache file: 16 bytes of magic, the 32-digit key, the binary's length and checksum (8 bytes each),
 * then the binary (src/core/cache.c). Each damage below is applied to a good copy of the child's file. */
#define CACHE_HEADER 64

typedef struct file_bytes { unsigned char *data; size_t size; } file_bytes;

static file_bytes slurp(const char *path)
{
    file_bytes b = {NULL, 0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    b.size = (size_t)ftell(f);
    rewind(f);
    b.data = malloc(b.size);
    assert_non_null(b.data);
    assert_int_equal(fread(b.data, 1, b.size, f), b.size);
    fclose(f);
    return b;
}

/* Writes the first len bytes of b to path, with the byte at flip (if < len) inverted, then extra. */
static void spit(const char *path, const file_bytes *b, size_t len, size_t flip, const char *extra)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < len && i < b->size; i++)
        fputc(i == flip ? b->data[i] ^ 0xFF : b->data[i], f);
    fputs(extra, f);
    fclose(f);
}

typedef struct cache_damage { const char *what; size_t keep, flip; const char *extra; } cache_damage;

static void test_damaged_cache_files(void **state)
{
    (void)state;
    char dir[1024], bin[2048], other[2048];
    snprintf(dir, sizeof dir, "%s/cache-damage", tmp_root);
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    assert_int_equal(run_child().writes, 1);
    assert_int_equal(find_bin(dir, bin, sizeof bin), 1);
    file_bytes good = slurp(bin);
    /* Another configuration's file: the binary of another device would sit under another key too. */
    assert_int_equal(run_child_as("other").writes, 1);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strstr(e->d_name, ".bin") && !strstr(bin, e->d_name))
            snprintf(other, sizeof other, "%s/%s", dir, e->d_name);
    closedir(d);
    file_bytes foreign = slurp(other);
    const size_t all = (size_t)-1, none = (size_t)-1, size = good.size;
    const cache_damage damages[] = {
        {"magic", all, 3, ""},           {"key (the device and configuration)", all, 20, ""},
        {"length", all, 50, ""},         {"checksum", all, 60, ""},
        {"a byte of the binary", all, CACHE_HEADER + (size - CACHE_HEADER) / 2, ""},
        {"empty", 0, none, ""},          {"cut inside the header", 10, none, ""},
        {"header only", CACHE_HEADER, none, ""}, {"cut inside the binary", size / 2, none, ""},
        {"last byte missing", size - 1, none, ""}, {"trailing bytes", all, none, "extra"},
    };
    for (size_t i = 0; i <= sizeof damages / sizeof damages[0]; i++) {
        if (i < sizeof damages / sizeof damages[0]) {
            printf("  cache file: %s\n", damages[i].what);
            spit(bin, &good, damages[i].keep, damages[i].flip, damages[i].extra);
        } else {
            printf("  cache file: another configuration's, under this key's name\n");
            spit(bin, &foreign, all, none, "");
        }
        counts c = run_child();
        assert_int_equal(c.ok, 1);
        assert_int_equal(c.rejects, 1);
        assert_int_equal(c.builds, 1);
        assert_int_equal(c.writes, 1);   /* replaced by a good one, which the next process loads */
        c = run_child();
        assert_int_equal(c.ok, 1);
        assert_int_equal(c.builds, 0);
        assert_int_equal(c.loads, 1);
    }
    /* A folder where the file would be: rejected, rebuilt, and it cannot be replaced: no error. */
    assert_int_equal(unlink(bin), 0);
    assert_int_equal(mkdir(bin, 0755), 0);
    counts c = run_child();
    assert_int_equal(c.ok, 1);
    assert_int_equal(c.builds, 1);
    assert_int_equal(c.writes, 0);
    assert_int_equal(rmdir(bin), 0);
    int tmp = -1;
    count_files(dir, NULL, 0, &tmp);
    assert_int_equal(tmp, 0);
    free(good.data);
    free(foreign.data);
    unsetenv("CLSCAN_CACHE_DIR");
}

/* Files of every kind that are not this program's binary: the library reads past them and adds its own. */
static void test_cache_dir_of_garbage(void **state)
{
    (void)state;
    char dir[1024], path[2048];
    snprintf(dir, sizeof dir, "%s/cache-garbage", tmp_root);
    assert_int_equal(mkdir(dir, 0755), 0);
    uint64_t rng = ref_seed("test_cache_dir_of_garbage");
    for (int i = 0; i < 40; i++) {
        uint64_t a = ref_next(&rng), b = ref_next(&rng);
        const char *suffix = i % 4 == 0 ? ".bin.1234.0x1.tmp" : i % 4 == 1 ? "" : ".bin";
        snprintf(path, sizeof path, "%s/%016llx%016llx%s", dir, (unsigned long long)a, (unsigned long long)b, suffix);
        if (i % 10 == 9) {
            assert_int_equal(mkdir(path, 0755), 0);
            continue;
        }
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        for (uint64_t k = 0, len = ref_next(&rng) % 4096; k < len; k++)
            fputc((int)(ref_next(&rng) & 0xFF), f);
        fclose(f);
    }
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    counts c = run_child();
    assert_int_equal(c.ok, 1);
    assert_int_equal(c.builds, 1);
    assert_int_equal(c.writes, 1);
    c = run_child();
    assert_int_equal(c.ok, 1);
    assert_int_equal(c.loads, 1);
    assert_int_equal(c.builds, 0);
    unsetenv("CLSCAN_CACHE_DIR");
}

/* Two processes build the same program into one empty folder at once: both right, one valid file,
 * no temporary left, and a third process loads it. */
static void test_two_processes_build_at_once(void **state)
{
    (void)state;
    char dir[1024], bin[2048];
    snprintf(dir, sizeof dir, "%s/cache-race/new", tmp_root);
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    FILE *a = start_child(NULL), *b = start_child(NULL);
    counts first = child_counts(a), second = child_counts(b);
    assert_int_equal(first.ok, 1);
    assert_int_equal(second.ok, 1);
    assert_int_equal(first.builds + first.loads, 1);
    assert_int_equal(second.builds + second.loads, 1);
    int tmp = -1;
    assert_int_equal(count_files(dir, bin, sizeof bin, &tmp), 1);
    assert_int_equal(tmp, 0);
    counts third = run_child();
    assert_int_equal(third.ok, 1);
    assert_int_equal(third.builds, 0);
    assert_int_equal(third.loads, 1);
    unsetenv("CLSCAN_CACHE_DIR");
}

/* Copies the real sources into dir, then lets the caller break one. */
static void copy_sources(const char *dir)
{
    static const char *const layers[] = {"core", "engine", "prims"};
    mkdir(dir, 0755);
    for (int i = 0; i < 3; i++) {
        char sub[4300];
        snprintf(sub, sizeof sub, "%s/%s", dir, layers[i]);
        mkdir(sub, 0755);
    }
    for (unsigned i = 0; i < clscan__source_count(); i++) {
        char from[4200], to[4300], buf[65536];
        snprintf(from, sizeof from, "%s/%s", CLSCAN_TEST_CL_DIR, clscan__source_path(i));
        snprintf(to, sizeof to, "%s/%s", dir, clscan__source_path(i));
        FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
        assert_non_null(a);
        assert_non_null(b);
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, a)) > 0)
            fwrite(buf, 1, n, b);
        fclose(a);
        fclose(b);
    }
}

static void test_kernel_dir(void **state)
{
    (void)state;
    char dir[4200], file[4300];
    clscan_context *ctx = NULL;
    setenv("CLSCAN_CACHE", "0", 1);

    setenv("CLSCAN_KERNEL_DIR", "/nonexistent/clscan-kernels", 1);
    assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_KERNEL_NOT_FOUND);
    assert_null(ctx);
    const char *files[CLSCAN__MAX_FILES + 1];   /* the first file the loader asks for: the registry's first */
    clscan__program_files(CLSCAN__PROGRAM_SCAN, files);
    snprintf(file, sizeof file, "/nonexistent/clscan-kernels/%s", files[0]);
    assert_non_null(strstr(clscan_last_error(NULL), file));

    snprintf(dir, sizeof dir, "%s/kernels-empty", tmp_root);
    copy_sources(dir);
    snprintf(file, sizeof file, "%s/engine/scan.cl", dir);
    fclose(fopen(file, "w"));
    setenv("CLSCAN_KERNEL_DIR", dir, 1);
    assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_KERNEL_NOT_FOUND);
    assert_non_null(strstr(clscan_last_error(NULL), "empty"));

    snprintf(dir, sizeof dir, "%s/kernels-broken", tmp_root);
    copy_sources(dir);
    snprintf(file, sizeof file, "%s/engine/scan.cl", dir);
    FILE *f = fopen(file, "a");
    fputs("\n__kernel void broken(void) { this is not OpenCL C }\n", f);
    fclose(f);
    setenv("CLSCAN_KERNEL_DIR", dir, 1);
    assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_SUCCESS);
    int32_t in[100] = {1, 2, 3}, out[100];
    memset(out, REF_POISON, sizeof out);
    assert_int_equal(clscan_inclusive_scan_host(ctx, in, out, 100, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_BUILD_FAILED);
    assert_non_null(strstr(clscan_last_error(ctx), "build log"));
    assert_non_null(strstr(clscan_last_error(ctx), "error"));
    assert_true(ref_is_poison(out, sizeof out));
    clscan_context_release(ctx);

    /* The real folder named explicitly works. */
    setenv("CLSCAN_KERNEL_DIR", CLSCAN_TEST_CL_DIR, 1);
    assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_SUCCESS);
    assert_int_equal(clscan_inclusive_scan_host(ctx, in, out, 100, CLSCAN_INT32, CLSCAN_ADD), CLSCAN_SUCCESS);
    assert_int_equal(out[2], 6);
    clscan_context_release(ctx);
    unsetenv("CLSCAN_KERNEL_DIR");
    setenv("CLSCAN_CACHE", "1", 1);
}

static void source_path(const char *dir, const char *file, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, file);
}

/* Every file missing, empty, or a folder in its place: no context, and the message names the file. */
static void test_kernel_files_missing(void **state)
{
    (void)state;
    static const char *const says[] = {"No such file", "empty", "Is a directory"};
    char dir[4200], file[4300];
    setenv("CLSCAN_CACHE", "0", 1);
    for (unsigned i = 0; i < clscan__source_count(); i++)
        for (int how = 0; how < 3; how++) {
            snprintf(dir, sizeof dir, "%s/kernels-missing-%u-%d", tmp_root, i, how);
            copy_sources(dir);
            source_path(dir, clscan__source_path(i), file, sizeof file);
            assert_int_equal(unlink(file), 0);
            if (how == 1)
                fclose(fopen(file, "w"));
            else if (how == 2)
                assert_int_equal(mkdir(file, 0755), 0);
            setenv("CLSCAN_KERNEL_DIR", dir, 1);
            clscan_context *ctx = NULL;
            clscan_status st = clscan_context_create(&ctx, NULL);
            if (st != CLSCAN_KERNEL_NOT_FOUND || !strstr(clscan_last_error(NULL), file) ||
                !strstr(clscan_last_error(NULL), says[how]))
                print_error("%s %s: status %d, message: %s\n", file, says[how], st, clscan_last_error(NULL));
            assert_int_equal(st, CLSCAN_KERNEL_NOT_FOUND);
            assert_null(ctx);
            assert_non_null(strstr(clscan_last_error(NULL), file));
            assert_non_null(strstr(clscan_last_error(NULL), says[how]));
        }
    unsetenv("CLSCAN_KERNEL_DIR");
    setenv("CLSCAN_CACHE", "1", 1);
}

/* ---- damaged kernel sources: the operations built from them fail, the others go on ------------------ */
typedef enum kernel_op { OP_NONE, OP_SCAN, OP_COMPACT, OP_SORT } kernel_op;
#define OP_N 1000

static int compare_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Runs op on small data. *right: on success the answer is right; on failure the outputs (or the keys
 * of the sort) are as they were. */
static clscan_status run_op(clscan_context *ctx, kernel_op op, int *right)
{
    static int32_t in[OP_N], out[OP_N], want[OP_N];
    static uint8_t flags[OP_N];
    uint64_t rng = 3;
    char msg[256];
    ref_fill(in, OP_N, CLSCAN_INT32, CLSCAN_ADD, &rng);
    memset(out, REF_POISON, sizeof out);
    if (op == OP_SCAN) {
        clscan_status st = clscan_inclusive_scan_host(ctx, in, out, OP_N, CLSCAN_INT32, CLSCAN_ADD);
        *right = st == CLSCAN_SUCCESS ? ref_check_scan(in, out, OP_N, CLSCAN_INT32, CLSCAN_ADD, 0, msg, sizeof msg)
                                      : ref_is_poison(out, sizeof out);
        return st;
    }
    memset(flags, 1, sizeof flags);   /* all kept: the output is the input */
    memcpy(want, in, sizeof want);
    if (op == OP_SORT)
        qsort(want, OP_N, sizeof *want, compare_i32);
    cl_mem a = ref_buffer(ctx, sizeof in, in), f = ref_buffer(ctx, sizeof flags, flags), b = ref_buffer(ctx, sizeof out, NULL);
    assert_true(a && f && b);
    size_t count = 0;
    clscan_status st = op == OP_COMPACT ? clscan_compact(ctx, a, f, b, OP_N, CLSCAN_INT32, &count)
                                        : clscan_sort(ctx, a, OP_N, CLSCAN_INT32);
    assert_true(ref_read(ctx, op == OP_SORT ? a : b, sizeof out, out));
    if (st == CLSCAN_SUCCESS)
        *right = memcmp(out, want, sizeof out) == 0 && (op == OP_SORT || count == OP_N);
    else
        *right = op == OP_SORT ? memcmp(out, in, sizeof out) == 0 : ref_is_poison(out, sizeof out);
    clReleaseMemObject(a);
    clReleaseMemObject(f);
    clReleaseMemObject(b);
    return st;
}

static void cut_half(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size / 2), 0);
}

static void append_garbage(const char *path)
{
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("\n__kernel void broken(void) { this is not OpenCL C }\n", f);
    fclose(f);
}

/* Bytes that are no text in the middle of the file, a NUL among them. */
static void binary_inside(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, st.st_size / 2, SEEK_SET), 0);
    fwrite("\xff\xfe\0\x01\x80", 1, 5, f);
    fclose(f);
}

/* The file ends where its last kernel would start: it builds, and that kernel is missing. */
static void cut_last_kernel(const char *path)
{
    static char text[1 << 20];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    char *last = NULL;
    for (char *p = text; (p = strstr(p, "__kernel")) != NULL; p++)
        last = p;
    assert_non_null(last);
    assert_int_equal(truncate(path, last - text), 0);
}

typedef struct source_damage {
    const char *file;
    const char *what;
    void (*apply)(const char *path);
    kernel_op fails, works;          /* an operation built from the file, and one that is not (or none) */
    clscan_status status;
    const char *says;                /* in the message */
} source_damage;

static void test_kernel_files_damaged(void **state)
{
    (void)state;
    const source_damage damages[] = {
        {"engine/scan.cl", "cut in half", cut_half, OP_SCAN, OP_COMPACT, CLSCAN_BUILD_FAILED, "build log"},
        {"prims/sort.cl", "a syntax error", append_garbage, OP_SORT, OP_SCAN, CLSCAN_BUILD_FAILED, "build log"},
        {"prims/compact.cl", "binary bytes", binary_inside, OP_COMPACT, OP_SCAN, CLSCAN_BUILD_FAILED, "build log"},
        {"prims/sort.cl", "its last kernel cut", cut_last_kernel, OP_SORT, OP_SCAN, CLSCAN_OPENCL_ERROR,
         "CL_INVALID_KERNEL_NAME"},
        {"core/workgroup.clh", "cut in half", cut_half, OP_COMPACT, OP_NONE, CLSCAN_BUILD_FAILED, "build log"},
        {"core/types.clh", "a syntax error", append_garbage, OP_SCAN, OP_NONE, CLSCAN_BUILD_FAILED, "build log"},
    };
    setenv("CLSCAN_CACHE", "0", 1);
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        const source_damage *d = &damages[i];
        char dir[4200], file[4300];
        snprintf(dir, sizeof dir, "%s/kernels-damaged-%zu", tmp_root, i);
        copy_sources(dir);
        source_path(dir, d->file, file, sizeof file);
        d->apply(file);
        printf("  %s: %s\n", d->file, d->what);
        setenv("CLSCAN_KERNEL_DIR", dir, 1);
        clscan_context *ctx = NULL;
        assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_SUCCESS);
        for (int round = 0; round < 2; round++) {   /* the same failure again: nothing half-made was kept */
            int right = 0;
            clscan_status st = run_op(ctx, d->fails, &right);
            const char *msg = clscan_last_error(ctx);
            if (st != d->status || !strstr(msg, d->says))
                print_error("status %d (%d expected), message: %.2000s\n", st, d->status, msg);
            assert_int_equal(st, d->status);
            assert_non_null(strstr(msg, d->says));
            assert_true(right);
            if (d->works != OP_NONE) {
                assert_int_equal(run_op(ctx, d->works, &right), CLSCAN_SUCCESS);
                assert_true(right);
            }
        }
        clscan_context_release(ctx);
    }
    unsetenv("CLSCAN_KERNEL_DIR");
    setenv("CLSCAN_CACHE", "1", 1);
}

/* Everything a child process prints, stderr included, with CLSCAN_TUNING=dump_source=value. */
static void child_output(const char *value, char *buf, size_t len)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "CLSCAN_TUNING=dump_source=%s '%s' child 2>&1", value, self_exe);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(buf, 1, len - 1, p);
    buf[got] = '\0';
    pclose(p);
}

/* CLSCAN_TUNING=dump_source=1 prints each program's define block (here: the child's uint64 max program). */
static void test_dump_source(void **state)
{
    (void)state;
    static char out[16384];
    child_output("1", out, sizeof out);
    assert_non_null(strstr(out, "ok=1"));
    assert_non_null(strstr(out, "clscan: program "));
    assert_non_null(strstr(out, "#define CLSCAN_TYPE_UINT64\n"));
    assert_non_null(strstr(out, "#define CLSCAN_OP_MAX\n"));
    assert_non_null(strstr(out, "#define CLSCAN_WG_ALGO_BLELLOCH\n"));
    child_output("0", out, sizeof out);
    assert_non_null(strstr(out, "ok=1"));
    assert_null(strstr(out, "#define"));
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return child_main(argc > 2 ? argv[2] : NULL);
    ssize_t len = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
    if (len <= 0 || !mkdtemp(tmp_root))
        return 1;
    self_exe[len] = '\0';
    setenv("CLSCAN_CACHE", "1", 1);   /* store on every driver (test_store_by_driver: the default) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_process_loads_binary),
        cmocka_unit_test(test_unwritable_or_disabled_cache),
        cmocka_unit_test(test_store_by_driver),
        cmocka_unit_test(test_damaged_cache_files),
        cmocka_unit_test(test_cache_dir_of_garbage),
        cmocka_unit_test(test_two_processes_build_at_once),
        cmocka_unit_test(test_kernel_dir),
        cmocka_unit_test(test_kernel_files_missing),
        cmocka_unit_test(test_kernel_files_damaged),
        cmocka_unit_test(test_dump_source),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp_root);
    return failed;
}
