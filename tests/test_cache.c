/* Kernel sources and the binary cache: a second process loads the binary instead of compiling; a
 * corrupt or truncated cache file is rebuilt and replaced; an unwritable cache or CLSCAN_CACHE=0
 * still gives right answers; a missing, empty or broken kernel folder gives the right status and
 * message; CLSCAN_DUMP_SOURCE=1 prints the define block. Child processes are this program run again
 * with "child". */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"
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

/* One scan with a configuration no other test builds (uint64 max, Blelloch), checked; prints the counters. */
static int child_main(void)
{
    clscan_context *ctx = NULL;
    if (clscan_context_create(&ctx, NULL) != CLSCAN_SUCCESS) {
        printf("error %s\n", clscan_last_error(NULL));
        return 1;
    }
    clscan_set_algorithm(ctx, CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_BLELLOCH);
    uint64_t rng = 7, in[5000], out[5000];
    ref_fill(in, 5000, CLSCAN_UINT64, CLSCAN_MAX, &rng);
    char msg[256] = "";
    clscan_status st = clscan_inclusive_scan_host(ctx, in, out, 5000, CLSCAN_UINT64, CLSCAN_MAX);
    int ok = st == CLSCAN_SUCCESS && ref_check_scan(in, out, 5000, CLSCAN_UINT64, CLSCAN_MAX, 0, msg, sizeof msg);
    clscan__stats s = clscan__context_stats(ctx);
    printf("ok=%d builds=%lu loads=%lu writes=%lu rejects=%lu\n", ok, s.source_builds, s.binary_loads,
           s.binary_writes, s.binary_rejects);
    clscan_context_release(ctx);
    return ok ? 0 : 1;
}

typedef struct counts { int ok; unsigned long builds, loads, writes, rejects; } counts;

static counts run_child(void)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' child", self_exe);
    FILE *p = popen(cmd, "r");
    counts c = {0, 99, 99, 99, 99};
    assert_non_null(p);
    char line[512] = "";
    if (fgets(line, sizeof line, p))
        sscanf(line, "ok=%d builds=%lu loads=%lu writes=%lu rejects=%lu", &c.ok, &c.builds, &c.loads, &c.writes, &c.rejects);
    pclose(p);
    printf("  child: %s", line);
    return c;
}

/* The single .bin file in dir (the child builds exactly one program). */
static int find_bin(const char *dir, char *path, size_t len)
{
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strstr(e->d_name, ".bin") && !strstr(e->d_name, ".tmp")) {
            snprintf(path, len, "%s/%s", dir, e->d_name);
            found++;
        }
    if (d)
        closedir(d);
    return found;
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

static void test_unwritable_or_disabled_cache(void **state)
{
    (void)state;
    char file[1024], dir[2048], bin[3072];
    snprintf(file, sizeof file, "%s/plain-file", tmp_root);
    FILE *f = fopen(file, "w");
    fclose(f);
    snprintf(dir, sizeof dir, "%s/sub", file);   /* a directory below a regular file cannot exist */
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    counts c = run_child();
    assert_int_equal(c.ok, 1);
    assert_int_equal(c.writes, 0);
    snprintf(dir, sizeof dir, "%s/cache-off", tmp_root);
    setenv("CLSCAN_CACHE_DIR", dir, 1);
    setenv("CLSCAN_CACHE", "0", 1);
    c = run_child();
    assert_int_equal(c.ok, 1);
    assert_int_equal(c.builds, 1);
    assert_int_equal(c.loads + c.writes, 0);
    assert_int_equal(find_bin(dir, bin, sizeof bin), 0);
    unsetenv("CLSCAN_CACHE");
    unsetenv("CLSCAN_CACHE_DIR");
}

/* Copies the real sources into dir, then lets the caller break one. */
static void copy_sources(const char *dir)
{
    mkdir(dir, 0755);
    for (int i = 0; i < CLSCAN__SRC_COUNT; i++) {
        char from[4200], to[4200], buf[65536];
        snprintf(from, sizeof from, "%s/%s", CLSCAN_TEST_CL_DIR, clscan__source_file_name((clscan__source_id)i));
        snprintf(to, sizeof to, "%s/%s", dir, clscan__source_file_name((clscan__source_id)i));
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
    assert_non_null(strstr(clscan_last_error(NULL), "/nonexistent/clscan-kernels/types.clh"));

    snprintf(dir, sizeof dir, "%s/kernels-empty", tmp_root);
    copy_sources(dir);
    snprintf(file, sizeof file, "%s/scan.cl", dir);
    fclose(fopen(file, "w"));
    setenv("CLSCAN_KERNEL_DIR", dir, 1);
    assert_int_equal(clscan_context_create(&ctx, NULL), CLSCAN_KERNEL_NOT_FOUND);
    assert_non_null(strstr(clscan_last_error(NULL), "empty"));

    snprintf(dir, sizeof dir, "%s/kernels-broken", tmp_root);
    copy_sources(dir);
    snprintf(file, sizeof file, "%s/scan.cl", dir);
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
    unsetenv("CLSCAN_CACHE");
}

/* Everything a child process prints, stderr included, with $CLSCAN_DUMP_SOURCE set to value. */
static void child_output(const char *value, char *buf, size_t len)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "CLSCAN_DUMP_SOURCE=%s '%s' child 2>&1", value, self_exe);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = fread(buf, 1, len - 1, p);
    buf[got] = '\0';
    pclose(p);
}

/* CLSCAN_DUMP_SOURCE=1 prints each program's define block (here: the child's uint64 max program). */
static void test_dump_source(void **state)
{
    (void)state;
    static char out[16384];
    child_output("1", out, sizeof out);
    assert_non_null(strstr(out, "ok=1"));
    assert_non_null(strstr(out, "clscan: program "));
    assert_non_null(strstr(out, "#define CLSCAN_TYPE_UINT64\n"));
    assert_non_null(strstr(out, "#define CLSCAN_OP_MAX\n"));
    assert_non_null(strstr(out, "#define WG_ALGO_BLELLOCH\n"));
    child_output("0", out, sizeof out);
    assert_non_null(strstr(out, "ok=1"));
    assert_null(strstr(out, "#define"));
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return child_main();
    ssize_t len = readlink("/proc/self/exe", self_exe, sizeof self_exe - 1);
    if (len <= 0 || !mkdtemp(tmp_root))
        return 1;
    self_exe[len] = '\0';
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_second_process_loads_binary),
        cmocka_unit_test(test_unwritable_or_disabled_cache),
        cmocka_unit_test(test_kernel_dir),
        cmocka_unit_test(test_dump_source),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp_root);
    return failed;
}
