/* clscan-info: numbers every OpenCL device exactly as CLSCAN_DEVICE and clscan_context_create()
 * accept them and prints the facts that matter for scans (as text, or --json); --check runs a
 * small int32 scan on every device with each work-group algorithm and compares with a C loop.
 * Exit status: 0 fine, 1 a check or device query failed, 2 bad usage, 3 no OpenCL platform/device. */
#define _POSIX_C_SOURCE 200809L
#include "core/core.h"   /* device listing and facts */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_OPENCL = 3 };
enum { MODE_TEXT, MODE_JSON, MODE_CHECK };

#define CHECK_N 100003u      /* not a multiple of any work-group size: exercises the partial last tile */
#define CHECK_SEED 20240607u

static const char usage_text[] =
    "Usage: clscan-info [--json | --check]\n"
    "       clscan-info --help | --version\n"
    "\n"
    "Lists every OpenCL platform and device, numbered exactly as CLSCAN_DEVICE and\n"
    "clscan_context_create() accept them, with what matters for scans.\n"
    "\n"
    "Options:\n"
    "  --json      print the same list as one JSON object\n"
    "  --check     on every device, run int32 ADD inclusive and exclusive scans of 100003\n"
    "              values with block-sum/Hillis-Steele, reduce-then-scan/Blelloch,\n"
    "              single-pass/sub-group and AUTO, and compare with a C loop;\n"
    "              prints pass/FAIL and the wall time of each call\n"
    "  -h, --help  show this text\n"
    "  --version   print the version of the clscan library\n"
    "\n"
    "Device specs (CLSCAN_DEVICE, or the device argument of clscan_context_create):\n"
    "  gpu                  the first GPU\n"
    "  cpu                  the first CPU device\n"
    "  <index>              the global index shown by clscan-info, e.g. 0\n"
    "  <platform>:<device>  platform number and device number inside it, e.g. 1:0\n"
    "  <name>               case-insensitive substring of the device name, platform name\n"
    "                       or platform vendor,\n"
    "                       e.g. h200 or pocl (the first match wins)\n"
    "  unset or empty       the first GPU, else the first device of any kind\n"
    "\n"
    "Environment:\n"
    "  CLSCAN_DEVICE      the device used when the application passes NULL (spec as above)\n"
    "  CLSCAN_KERNEL_DIR  folder holding the .cl sources (scan.cl, ...); when set, the only\n"
    "                     place searched\n"
    "  CLSCAN_CACHE_DIR   folder of the compiled-program cache (default\n"
    "                     $XDG_CACHE_HOME/clscan, else ~/.cache/clscan)\n"
    "  CLSCAN_CACHE=0     do not read or write the compiled-program cache\n"
    "\n"
    "Exit status: 0 fine, 1 a check or device query failed, 2 bad usage,\n"
    "3 no OpenCL platform or device (or listing them failed).\n";

/* ---- command line ---------------------------------------------------------------------------- */

/* Returns the mode, or -1 after printing why; *done set when --help/--version already answered. */
static int parse_args(int argc, char **argv, int *done)
{
    int json = 0, check = 0;
    *done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            *done = 1;
            return MODE_TEXT;
        } else if (strcmp(a, "--version") == 0) {
            printf("%s\n", clscan_version_string());
            *done = 1;
            return MODE_TEXT;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--check") == 0) {
            check = 1;
        } else {
            fprintf(stderr, "clscan-info: unknown option '%s'\n\n%s", a, usage_text);
            return -1;
        }
    }
    /* A JSON report of the check would need its own schema; not worth it for a self-test. */
    if (json && check) {
        fprintf(stderr, "clscan-info: --json and --check cannot be combined\n\n%s", usage_text);
        return -1;
    }
    return check ? MODE_CHECK : json ? MODE_JSON : MODE_TEXT;
}

/* ---- device list ----------------------------------------------------------------------------- */

static void print_install_hint(void)
{
    fputs("Install an OpenCL driver (ICD). On Debian/Ubuntu: 'sudo apt install pocl-opencl-icd'\n"
          "for the CPU, or your GPU vendor's OpenCL ICD (e.g. nvidia-opencl-icd, intel-opencl-icd,\n"
          "mesa-opencl-icd). 'clinfo' shows what the ICD loader finds.\n", stderr);
    /* The loader reads only this variable's path when it is set: a common reason for "nothing". */
    const char *vendors = getenv("OCL_ICD_VENDORS");
    if (vendors)
        fprintf(stderr, "Note: OCL_ICD_VENDORS is set to '%s'; the ICD loader looks for drivers only there.\n",
                vendors);
}

/* Lists the devices; on failure prints why and returns 0. */
static int list_devices(clscan__device_entry **entries, size_t *count)
{
    const char *call = "";
    cl_int err = clscan__list_devices(entries, count, &call);
    if (err == -1001) {
        fputs("clscan-info: no OpenCL platform found.\n", stderr);
    } else if (err != CL_SUCCESS) {
        fprintf(stderr, "clscan-info: listing OpenCL devices failed: %s: %s (%d)\n", call,
                clscan__cl_error_name(err), err);
    } else if (*count == 0) {
        fputs("clscan-info: OpenCL platforms were found, but none has a device.\n", stderr);
        free(*entries);
        *entries = NULL;
    } else {
        return 1;
    }
    print_install_hint();
    return 0;
}

/* The device a NULL spec selects: what clscan_context_create(&ctx, NULL) would pick. */
typedef struct default_choice {
    long index;           /* -1: nothing matches */
    const char *env;      /* $CLSCAN_DEVICE when set and not empty (the library then uses it), else NULL */
} default_choice;

static default_choice find_default(const clscan__device_entry *entries, size_t count)
{
    default_choice d;
    d.env = getenv("CLSCAN_DEVICE");
    if (d.env && d.env[0] == '\0')
        d.env = NULL;     /* the parser reads "" as the built-in default */
    clscan__device_spec spec = clscan__parse_device_spec(d.env);
    d.index = clscan__match_device(&spec, entries, count);
    return d;
}

static unsigned long long kib(cl_ulong bytes) { return (unsigned long long)(bytes / 1024u); }
static unsigned long long mib(cl_ulong bytes) { return (unsigned long long)(bytes / (1024u * 1024u)); }
static const char *yes_no(int v) { return v ? "yes" : "no"; }


/* Reads the facts of one device; on failure writes "<call>: <CL name> (<code>)" to why. */
static int probe(const clscan__device_entry *e, clscan__device_info *info, char *why, size_t why_len)
{
    const char *call = "";
    cl_int err = clscan__device_probe(e->device_id, info, CLSCAN_SG_DEVICE, &call);
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "%s: %s (%d)", call, clscan__cl_error_name(err), err);
        return 0;
    }
    return 1;
}

/* ---- text output ----------------------------------------------------------------------------- */

static void print_info_text(const clscan__device_info *info)
{
    printf("    type:              %s\n", clscan__device_type_name(info->type));
    printf("    vendor:            %s\n", info->vendor);
    printf("    platform:          %s (%s)\n", info->platform, info->platform_version);
    printf("    driver version:    %s\n", info->driver);
    printf("    OpenCL C version:  %s\n", info->c_version);
    printf("    compute units:     %u\n", (unsigned)info->compute_units);
    printf("    max work-group:    %zu\n", info->max_wg);
    printf("    local memory:      %llu KiB\n", kib(info->local_mem));
    printf("    global memory:     %llu MiB\n", mib(info->global_mem));
    printf("    max allocation:    %llu MiB\n", mib(info->max_alloc));
    printf("    sub-groups:        %s\n", clscan__subgroup_name(info->subgroups));
    printf("    fp64:              %s\n", yes_no(info->fp64));
    printf("    int64 atomics:     %s\n", yes_no(info->int64_atomics));
}

static void print_device_title(size_t i, const clscan__device_entry *e, const default_choice *d)
{
    printf("  Device %zu (%zu:%zu): %s%s\n", i, e->platform, e->device, e->name,
           d && d->index == (long)i ? "  (default)" : "");
}

static void print_default_text(const default_choice *d, const clscan__device_entry *entries)
{
    if (d->index >= 0 && d->env)
        printf("Default device: %ld (%s), chosen by CLSCAN_DEVICE=\"%s\"\n", d->index, entries[d->index].name,
               d->env);
    else if (d->index >= 0)
        printf("Default device: %ld (%s); CLSCAN_DEVICE is not set, so: the first GPU, else the first device\n",
               d->index, entries[d->index].name);
    else
        printf("Default device: none; CLSCAN_DEVICE=\"%s\" matches no device, so "
               "clscan_context_create(&ctx, NULL) fails\n", d->env ? d->env : "");
}

/* Returns the number of devices whose facts could not be read. */
static int print_text(const clscan__device_entry *entries, size_t count, const default_choice *d)
{
    int failed = 0;
    printf("clscan %s: %zu OpenCL device%s; CLSCAN_DEVICE accepts the index or platform:device\n",
           clscan_version_string(), count, count == 1 ? "" : "s");
    for (size_t i = 0; i < count; i++) {
        /* The list is grouped by platform, so a header at each change numbers the platforms. */
        if (i == 0 || entries[i].platform != entries[i - 1].platform)
            printf("\nPlatform %zu: %s\n", entries[i].platform, entries[i].platform_name);
        print_device_title(i, &entries[i], d);
        clscan__device_info info;
        char why[256];
        if (probe(&entries[i], &info, why, sizeof why)) {
            print_info_text(&info);
        } else {
            printf("    query failed: %s\n", why);
            failed++;
        }
    }
    printf("\n");
    print_default_text(d, entries);
    return failed;
}

/* ---- JSON output ----------------------------------------------------------------------------- */

/* Writes s as a JSON string: quote, backslash and control characters escaped; other bytes pass
 * through (OpenCL names are ASCII or UTF-8). */
static void json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        default:
            if (*p < 0x20)
                printf("\\u%04x", (unsigned)*p);
            else
                putchar(*p);
        }
    }
    putchar('"');
}

/* Every member but the first of a device object: the leading comma keeps the caller simple. */
static void json_member_string(const char *key, const char *value)
{
    printf(",\n      \"%s\": ", key);
    json_string(value);
}

static void json_member_number(const char *key, unsigned long long value)
{
    printf(",\n      \"%s\": %llu", key, value);
}

static void json_member_bool(const char *key, int value)
{
    printf(",\n      \"%s\": %s", key, value ? "true" : "false");
}

static void print_info_json(const clscan__device_info *info)
{
    json_member_string("type", clscan__device_type_name(info->type));
    json_member_string("vendor", info->vendor);
    json_member_string("platform_name", info->platform);
    json_member_string("platform_version", info->platform_version);
    json_member_string("driver_version", info->driver);
    json_member_string("opencl_c_version", info->c_version);
    json_member_number("compute_units", info->compute_units);
    json_member_number("max_work_group_size", info->max_wg);
    json_member_number("local_mem_bytes", info->local_mem);
    json_member_number("global_mem_bytes", info->global_mem);
    json_member_number("max_alloc_bytes", info->max_alloc);
    json_member_string("subgroups", clscan__subgroup_name(info->subgroups));
    json_member_bool("fp64", info->fp64);
    json_member_bool("int64_atomics", info->int64_atomics);
}

/* One device object; returns 1 when its facts could not be read (the object then has "error"). */
static int print_device_json(size_t i, const clscan__device_entry *e, const default_choice *d)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%zu:%zu", e->platform, e->device);
    printf("    {\n      \"index\": %zu", i);
    json_member_number("platform", e->platform);
    json_member_number("device", e->device);
    json_member_string("spec", spec);
    json_member_string("name", e->name);
    json_member_bool("default", d->index == (long)i);
    clscan__device_info info;
    char why[256];
    int ok = probe(e, &info, why, sizeof why);
    if (ok)
        print_info_json(&info);
    else
        json_member_string("error", why);
    printf("\n    }");
    return !ok;
}

static int print_json(const clscan__device_entry *entries, size_t count, const default_choice *d)
{
    int failed = 0;
    printf("{\n  \"version\": ");
    json_string(clscan_version_string());
    if (d->index >= 0)
        printf(",\n  \"default\": %ld", d->index);
    else
        printf(",\n  \"default\": null");
    /* Whether CLSCAN_DEVICE chose the default: its value, or null when unset. */
    printf(",\n  \"clscan_device\": ");
    if (d->env)
        json_string(d->env);
    else
        printf("null");
    printf(",\n  \"devices\": [\n");
    for (size_t i = 0; i < count; i++) {
        failed += print_device_json(i, &entries[i], d);
        printf(i + 1 < count ? ",\n" : "\n");
    }
    printf("  ]\n}\n");
    return failed;
}

/* ---- --check --------------------------------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* xorshift32: the same values on every C library, unlike rand(). */
static uint32_t next_random(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* int32 data kept as uint32_t: two's-complement addition is uint32_t addition, whose wrap-around
 * is defined in C (signed overflow is not), and the bit patterns compare exactly. */
typedef struct check_data {
    uint32_t *in, *out, *inclusive, *exclusive;
} check_data;

static void check_data_free(check_data *c)
{
    free(c->in);
    free(c->out);
    free(c->inclusive);
    free(c->exclusive);
}

/* Random input over the full 32-bit range (so the sums wrap) and both reference scans. */
static int check_data_init(check_data *c)
{
    c->in = malloc(CHECK_N * sizeof *c->in);
    c->out = malloc(CHECK_N * sizeof *c->out);
    c->inclusive = malloc(CHECK_N * sizeof *c->inclusive);
    c->exclusive = malloc(CHECK_N * sizeof *c->exclusive);
    if (!c->in || !c->out || !c->inclusive || !c->exclusive) {
        check_data_free(c);
        return 0;
    }
    uint32_t state = CHECK_SEED, sum = 0;
    for (size_t i = 0; i < CHECK_N; i++) {
        c->in[i] = next_random(&state);
        c->exclusive[i] = sum;
        sum += c->in[i];
        c->inclusive[i] = sum;
    }
    return 1;
}

static long long as_int32(uint32_t v)
{
    return v > INT32_MAX ? (long long)v - 4294967296LL : (long long)v;
}

/* Prints "pass" or why not; returns 1 when the output matches. */
static int report_result(const uint32_t *got, const uint32_t *want, double ms)
{
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < CHECK_N; i++)
        if (got[i] != want[i] && wrong++ == 0)
            first = i;
    if (wrong == 0) {
        printf("pass  %10.3f ms\n", ms);
        return 1;
    }
    printf("FAIL  %10.3f ms  %zu of %u wrong; first: out[%zu] = %lld, expected %lld\n", ms, wrong, CHECK_N,
           first, as_int32(got[first]), as_int32(want[first]));
    return 0;
}

/* Prints a library message (build logs span lines) indented under its line, then a newline. */
static void print_message(const char *msg)
{
    size_t len = strlen(msg);
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        len--;   /* build logs end in blank lines */
    for (size_t i = 0; i < len; i++) {
        putchar(msg[i]);
        if (msg[i] == '\n')
            fputs("        ", stdout);
    }
    putchar('\n');
}

/* One scan call on ctx, timed and compared; returns 1 on pass. */
static int check_scan(clscan_context *ctx, check_data *c, const char *algorithm, int exclusive)
{
    printf("    %-14s %-10s ", algorithm, exclusive ? "exclusive" : "inclusive");
    fflush(stdout);   /* the first call builds kernels: show what is running meanwhile */
    memset(c->out, 0xA5, CHECK_N * sizeof *c->out);   /* the previous call's result must not pass */
    double t0 = now_ms();
    clscan_status st = exclusive ? clscan_exclusive_scan_host(ctx, c->in, c->out, CHECK_N, CLSCAN_INT32, CLSCAN_ADD)
                                 : clscan_inclusive_scan_host(ctx, c->in, c->out, CHECK_N, CLSCAN_INT32, CLSCAN_ADD);
    double ms = now_ms() - t0;
    if (st != CLSCAN_SUCCESS) {
        printf("FAIL  %10.3f ms  %s: ", ms, clscan_status_string(st));
        print_message(clscan_last_error(ctx));
        return 0;
    }
    return report_result(c->out, exclusive ? c->exclusive : c->inclusive, ms);
}

/* Each strategy / work-group pair below, both scans, on device i; returns the number of failures. */
static int check_device(size_t i, const clscan__device_entry *e, check_data *c)
{
    static const struct { clscan_strategy strategy; clscan_wg_algorithm wg; const char *name; } algorithms[] = {
        {CLSCAN_STRATEGY_BLOCK_SUM, CLSCAN_WG_HILLIS_STEELE, "block-sum/HS"},
        {CLSCAN_STRATEGY_REDUCE_THEN_SCAN, CLSCAN_WG_BLELLOCH, "reduce-scan/BL"},
        {CLSCAN_STRATEGY_SINGLE_PASS, CLSCAN_WG_SUBGROUP, "single-pass/SG"},
        {CLSCAN_STRATEGY_AUTO, CLSCAN_WG_AUTO, "AUTO"}};
    char spec[32];
    snprintf(spec, sizeof spec, "%zu", i);   /* the index, as a user would pass it */
    print_device_title(i, e, NULL);
    clscan_context *ctx = NULL;
    clscan_status st = clscan_context_create(&ctx, spec);
    if (st != CLSCAN_SUCCESS) {
        printf("    context        FAIL  %s: ", clscan_status_string(st));
        print_message(clscan_last_error(NULL));
        return 1;
    }
    int failed = 0;
    for (size_t a = 0; a < sizeof algorithms / sizeof algorithms[0]; a++) {
        st = clscan_set_algorithm(ctx, algorithms[a].strategy, algorithms[a].wg);
        if (st != CLSCAN_SUCCESS) {
            printf("    %-14s FAIL  clscan_set_algorithm: %s: ", algorithms[a].name, clscan_status_string(st));
            print_message(clscan_last_error(ctx));
            failed++;
            continue;
        }
        failed += !check_scan(ctx, c, algorithms[a].name, 0);
        failed += !check_scan(ctx, c, algorithms[a].name, 1);
    }
    clscan_context_release(ctx);
    return failed;
}

static int run_checks(const clscan__device_entry *entries, size_t count)
{
    check_data c;
    if (!check_data_init(&c)) {
        fprintf(stderr, "clscan-info: out of host memory for the check data\n");
        return 1;
    }
    printf("clscan %s: int32 ADD scans of %u random values (four strategy/work-group pairs), compared with a C loop.\n"
           "Times are wall time per call, copies included; a device's first call also builds or loads kernels.\n",
           clscan_version_string(), CHECK_N);
    int failed = 0;
    for (size_t i = 0; i < count; i++) {
        if (i == 0 || entries[i].platform != entries[i - 1].platform)
            printf("\nPlatform %zu: %s\n", entries[i].platform, entries[i].platform_name);
        failed += check_device(i, &entries[i], &c);
    }
    check_data_free(&c);
    if (failed)
        printf("\n%d check%s FAILED\n", failed, failed == 1 ? "" : "s");
    else
        printf("\nAll checks passed\n");
    return failed;
}

int main(int argc, char **argv)
{
    int done = 0;
    int mode = parse_args(argc, argv, &done);
    if (mode < 0)
        return EXIT_USAGE;
    if (done)
        return 0;
    clscan__device_entry *entries = NULL;
    size_t count = 0;
    if (!list_devices(&entries, &count))
        return EXIT_NO_OPENCL;
    default_choice d = find_default(entries, count);
    int failed;
    if (mode == MODE_CHECK)
        failed = run_checks(entries, count);
    else if (mode == MODE_JSON)
        failed = print_json(entries, count, &d);
    else
        failed = print_text(entries, count, &d);
    free(entries);
    return failed ? EXIT_FAILED : 0;
}
