/* Finding and reading the .cl sources at run time. Where: $CLSCAN_KERNEL_DIR alone when it is set;
 * else the source tree's cl/ when this library is the one in the build tree (so an installed copy
 * never picks up a newer, edited tree), then the install layout's cl folder relative to the library's
 * own directory (a relocated install), then the configured install directory. */
#define _GNU_SOURCE
#include "core.h"
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef CLSCAN_SOURCE_CL_DIR
#define CLSCAN_SOURCE_CL_DIR ""
#endif
#ifndef CLSCAN_BUILD_DIR
#define CLSCAN_BUILD_DIR ""
#endif
#ifndef CLSCAN_LIB_TO_CL
#define CLSCAN_LIB_TO_CL "../share/clscan/cl"
#endif
#ifndef CLSCAN_INSTALL_CL_DIR
#define CLSCAN_INSTALL_CL_DIR ""
#endif

/* ---- the registry (src/registry.def) -------------------------------------------------------- */
#define CLSCAN_FILES(...) __VA_ARGS__
#define CLSCAN_KERNELS(...) __VA_ARGS__

static const char *const core_files[] = {
#define CLSCAN_CORE_FILES(...) __VA_ARGS__,
#define CLSCAN_PROGRAM(id, files, kernels)
#include "registry.def"
#undef CLSCAN_CORE_FILES
#undef CLSCAN_PROGRAM
    NULL};

static const char *const *const program_files[CLSCAN__PROGRAM_COUNT] = {
#define CLSCAN_CORE_FILES(...)
#define CLSCAN_PROGRAM(id, files, kernels) (const char *const[]){files, NULL},
#include "registry.def"
#undef CLSCAN_CORE_FILES
#undef CLSCAN_PROGRAM
};

static const char *const *const program_kernels[CLSCAN__PROGRAM_COUNT] = {
#define CLSCAN_CORE_FILES(...)
#define CLSCAN_PROGRAM(id, files, kernels) (const char *const[]){kernels, NULL},
#include "registry.def"
#undef CLSCAN_CORE_FILES
#undef CLSCAN_PROGRAM
};

/* Every file once, in the order first named: the core files, then each program's. */
static unsigned distinct_files(const char *out[CLSCAN__MAX_FILES])
{
    unsigned count = 0;
    for (const char *const *f = core_files; *f; f++)
        out[count++] = *f;
    for (unsigned p = 0; p < CLSCAN__PROGRAM_COUNT; p++)
        for (const char *const *f = program_files[p]; *f; f++) {
            unsigned i = 0;
            while (i < count && strcmp(out[i], *f) != 0)
                i++;
            if (i == count && count < CLSCAN__MAX_FILES)
                out[count++] = *f;
        }
    return count;
}

unsigned clscan__source_count(void)
{
    const char *files[CLSCAN__MAX_FILES];
    return distinct_files(files);
}

const char *clscan__source_path(unsigned i)
{
    const char *files[CLSCAN__MAX_FILES];
    return i < distinct_files(files) ? files[i] : "?";
}

void clscan__program_files(clscan__program_id id, const char *out[CLSCAN__MAX_FILES + 1])
{
    unsigned count = 0;
    for (const char *const *f = core_files; *f; f++)
        out[count++] = *f;
    for (const char *const *f = program_files[id]; *f && count < CLSCAN__MAX_FILES; f++)
        out[count++] = *f;
    out[count] = NULL;
}

const char *const *clscan__program_kernels(clscan__program_id id)
{
    return program_kernels[id];
}

int clscan__kernel_index(clscan__program_id id, const char *name)
{
    for (int i = 0; program_kernels[id][i]; i++)
        if (strcmp(program_kernels[id][i], name) == 0)
            return i;
    return -1;
}

const char *clscan__source_text(const clscan__sources *src, const char *path)
{
    const char *files[CLSCAN__MAX_FILES];
    unsigned count = distinct_files(files);
    for (unsigned i = 0; i < count; i++)
        if (strcmp(files[i], path) == 0)
            return src->text[i];
    return NULL;
}

/* ---- reading ------------------------------------------------------------------------------- */
/* Reads a whole file; NULL with errno set when it cannot, or when it is empty or not a regular file
 * (EINVAL; a folder: EISDIR). */
static char *read_file(const char *path)
{
    struct stat info;
    if (stat(path, &info) != 0)
        return NULL;
    if (!S_ISREG(info.st_mode)) {   /* a folder opens, and ftell calls it LONG_MAX bytes; a FIFO blocks */
        errno = S_ISDIR(info.st_mode) ? EISDIR : EINVAL;
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)len + 1)) != NULL) {
        if (fread(buf, 1, (size_t)len, f) == (size_t)len)
            buf[len] = '\0';
        else {
            free(buf);
            buf = NULL;
            errno = EIO;
        }
    } else if (len == 0)
        errno = EINVAL;
    int why = errno;   /* ENOMEM from malloc must reach the caller past fclose */
    fclose(f);
    errno = why;
    return buf;
}

static void append(char *err, size_t len, const char *fmt, const char *a, const char *b)
{
    size_t used = strlen(err);
    if (used < len)
        snprintf(err + used, len - used, fmt, a, b);
}

/* Loads every file from dir; on the first failure notes the path and why. Out of host memory ends the
 * search (no other folder would fare better) and is not "not found". */
static clscan_status load_dir(clscan__sources *src, const char *dir, char *err, size_t err_len)
{
    char path[4096 + 64];
    const char *files[CLSCAN__MAX_FILES];
    unsigned count = distinct_files(files);
    for (unsigned i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        src->text[i] = read_file(path);
        if (!src->text[i]) {
            int why = errno;
            clscan__sources_free(src);
            if (why == ENOMEM) {
                snprintf(err, err_len, "no host memory to read the kernel source %s", path);
                return CLSCAN_OUT_OF_MEMORY;
            }
            append(err, err_len, "\n  %s: %s", path, why == EINVAL ? "empty or not a regular file" : strerror(why));
            return CLSCAN_KERNEL_NOT_FOUND;
        }
    }
    snprintf(src->dir, sizeof src->dir, "%s", dir);
    return CLSCAN_SUCCESS;
}

/* The directory of the file that holds this code (the shared library, or the program it is linked into). */
static int own_directory(char *buf, size_t len)
{
    Dl_info info;
    if (!dladdr((void *)&clscan__sources_load, &info) || !info.dli_fname || !info.dli_fname[0])
        return 0;
    char *resolved = realpath(info.dli_fname, NULL);
    if (!resolved)
        return 0;
    snprintf(buf, len, "%s", dirname(resolved));
    free(resolved);
    return 1;
}

/* Whether the code runs from where this build put its own artefacts: the top of the build tree
 * (library, tools) or its tests folder. Not anything below, e.g. a scratch install prefix. */
static int in_build_tree(const char *dir)
{
    char tests[4200];
    snprintf(tests, sizeof tests, "%s/tests", CLSCAN_BUILD_DIR);
    return CLSCAN_BUILD_DIR[0] && (strcmp(dir, CLSCAN_BUILD_DIR) == 0 || strcmp(dir, tests) == 0);
}

clscan_status clscan__sources_load(clscan__sources *src, const char *env_dir, char *err, size_t err_len)
{
    memset(src, 0, sizeof *src);
    snprintf(err, err_len, "kernel sources not found; paths tried:");
    if (env_dir && env_dir[0])
        return load_dir(src, env_dir, err, err_len);

    char own[4096] = "", beside[4096 + 256] = "";
    int have_own = own_directory(own, sizeof own);
    clscan_status st = CLSCAN_KERNEL_NOT_FOUND;
    if (have_own && in_build_tree(own))
        st = load_dir(src, CLSCAN_SOURCE_CL_DIR, err, err_len);
    if (st == CLSCAN_KERNEL_NOT_FOUND && have_own) {
        snprintf(beside, sizeof beside, "%s/%s", own, CLSCAN_LIB_TO_CL);
        st = load_dir(src, beside, err, err_len);
    }
    if (st == CLSCAN_KERNEL_NOT_FOUND && CLSCAN_INSTALL_CL_DIR[0] != '\0')
        st = load_dir(src, CLSCAN_INSTALL_CL_DIR, err, err_len);
    if (st == CLSCAN_KERNEL_NOT_FOUND)
        append(err, err_len, "\n%s%s", "set CLSCAN_KERNEL_DIR to the folder holding core/types.clh", "");
    return st;
}

void clscan__sources_free(clscan__sources *src)
{
    for (unsigned i = 0; i < CLSCAN__MAX_FILES; i++) {
        free(src->text[i]);
        src->text[i] = NULL;
    }
}
