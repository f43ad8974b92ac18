/* clscan-info: numbers every OpenCL device as CLSCAN_DEVICE and clscan_context_create() accept them
 * (the library itself numbers them, through clscan_tuning.h) and prints what OpenCL says of each that
 * matters for scans (as text, or --json); --check runs small int32 scans on every device with each
 * algorithm and compares with a C loop. Exit status: 0 fine, 1 a check or device query failed, 2 bad
 * usage, 3 no OpenCL platform/device. */
#define _POSIX_C_SOURCE 200809L
#include "clscan/clscan.h"
#include "clscan/clscan_tuning.h"   /* the library's numbering and its sub-group choice */
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
    "  CLSCAN_CACHE=1     write it on PoCL too (by default PoCL's own kernel cache\n"
    "                     serves there)\n"
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

/* ---- device list: the library's numbering, OpenCL's facts ------------------------------------ */

#define NAME_LEN 256   /* names and versions are cut to 255 characters, as the library's listing cuts them */

/* One device as the library numbers it (clscan_tuning_find_device), with the names OpenCL gives. */
typedef struct device_entry {
    size_t platform, device;      /* as the spec "<platform>:<device>" takes them */
    cl_device_id id;
    char name[NAME_LEN], platform_name[NAME_LEN];
} device_entry;

/* The codes clGetDeviceInfo and clGetPlatformInfo return; any other is "OpenCL error", with its number. */
static const char *cl_error_name(cl_int err)
{
    switch (err) {
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    }
    return "OpenCL error";
}

/* A string property of dev (dev NULL: of platform), read whole and then cut to fit buf: a driver's long
 * version string must not make the query fail (OpenCL refuses a buffer that is too small). */
static cl_int info_string(cl_device_id dev, cl_platform_id platform, cl_uint what, char *buf, size_t len)
{
    size_t need = 0;
    cl_int err = dev ? clGetDeviceInfo(dev, what, 0, NULL, &need) : clGetPlatformInfo(platform, what, 0, NULL, &need);
    char *whole = err == CL_SUCCESS ? calloc(need + 1, 1) : NULL;
    if (err == CL_SUCCESS && !whole)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = dev ? clGetDeviceInfo(dev, what, need, whole, NULL) : clGetPlatformInfo(platform, what, need, whole, NULL);
    snprintf(buf, len, "%s", err == CL_SUCCESS ? whole : "");
    free(whole);
    return err;
}

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

/* Fills e for the device the library numbers as found; on failure writes why. */
static int name_entry(const clscan_tuning_device *found, device_entry *e, char *why, size_t why_len)
{
    cl_platform_id platform = NULL;
    const char *call = "clGetDeviceInfo";
    e->platform = found->platform;
    e->device = found->device;
    e->id = found->id;
    cl_int err = info_string(e->id, NULL, CL_DEVICE_NAME, e->name, sizeof e->name);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(e->id, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
    if (err == CL_SUCCESS && (err = info_string(NULL, platform, CL_PLATFORM_NAME, e->platform_name,
                                                sizeof e->platform_name)) != CL_SUCCESS)
        call = "clGetPlatformInfo";
    if (err != CL_SUCCESS)
        snprintf(why, why_len, "%s failed: %s (%d)", call, cl_error_name(err), err);
    return err == CL_SUCCESS;
}

/* The next device of the list: the one the library gives the spec "<index>" (index = *count). Returns 1
 * with it appended, 0 at the end of the list, -1 after writing why the listing failed. */
static int append_next(device_entry **entries, size_t *count, char *why, size_t why_len)
{
    char spec[32];
    snprintf(spec, sizeof spec, "%zu", *count);
    clscan_tuning_device found;
    clscan_status st = clscan_tuning_find_device(spec, &found);
    if (st == CLSCAN_DEVICE_NOT_FOUND)
        return 0;   /* a short index spec fails this way only past the last device */
    if (st != CLSCAN_SUCCESS) {
        snprintf(why, why_len, "%s", clscan_last_error(NULL));
        return -1;
    }
    device_entry *grown = realloc(*entries, (*count + 1) * sizeof **entries);
    if (!grown) {
        snprintf(why, why_len, "out of host memory");
        return -1;
    }
    *entries = grown;
    if (!name_entry(&found, &grown[*count], why, why_len))
        return -1;
    ++*count;
    return 1;
}

/* Lists the devices, numbered by the library itself; on failure prints why and returns 0. */
static int list_devices(device_entry **entries, size_t *count)
{
    char why[4096];
    int more;
    *entries = NULL;
    *count = 0;
    while ((more = append_next(entries, count, why, sizeof why)) > 0)
        continue;
    cl_uint platforms = 0;
    if (more < 0)
        fprintf(stderr, "clscan-info: listing OpenCL devices: %s\n", why);
    else if (*count == 0 && (clGetPlatformIDs(0, NULL, &platforms) != CL_SUCCESS || platforms == 0))
        fputs("clscan-info: no OpenCL platform found.\n", stderr);
    else if (*count == 0)
        fputs("clscan-info: OpenCL platforms were found, but none has a device.\n", stderr);
    else
        return 1;
    free(*entries);
    *entries = NULL;
    print_install_hint();
    return 0;
}

/* The device a NULL spec selects: what clscan_context_create(&ctx, NULL) would pick. */
typedef struct default_choice {
    long index;           /* -1: nothing matches */
    const char *env;      /* $CLSCAN_DEVICE when set and not empty (the library then uses it), else NULL */
} default_choice;

static default_choice find_default(void)
{
    default_choice d;
    d.env = getenv("CLSCAN_DEVICE");
    if (d.env && d.env[0] == '\0')
        d.env = NULL;     /* the library reads "" as the built-in default */
    clscan_tuning_device found;
    d.index = clscan_tuning_find_device(NULL, &found) == CLSCAN_SUCCESS ? (long)found.index : -1;
    return d;
}

static unsigned long long kib(cl_ulong bytes) { return (unsigned long long)(bytes / 1024u); }
static unsigned long long mib(cl_ulong bytes) { return (unsigned long long)(bytes / (1024u * 1024u)); }
static const char *yes_no(int v) { return v ? "yes" : "no"; }

/* ---- device facts: OpenCL's answers, and the sub-group path, which is the library's choice ---- */

typedef struct device_facts {
    char vendor[NAME_LEN], platform[NAME_LEN], platform_version[NAME_LEN];
    char driver[NAME_LEN], c_version[NAME_LEN];
    cl_device_type type;
    cl_uint compute_units;
    size_t max_wg;
    cl_ulong local_mem, global_mem, max_alloc;
    int fp64, int64_atomics;
    clscan_tuning_device_facts chosen;   /* the sub-group path and the OpenCL C it is built as */
} device_facts;

static const char *type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU) return "GPU";
    if (type & CL_DEVICE_TYPE_CPU) return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

static const char *subgroups_name(const clscan_tuning_device_facts *chosen)
{
    switch (chosen->subgroups) {
    case CLSCAN_SG_KHR:
        return chosen->c_version == 300 ? "cl_khr_subgroups built-ins, built as OpenCL C 3.0"
                                        : "cl_khr_subgroups built-ins, built as OpenCL C 2.0";
    case CLSCAN_SG_INTEL: return "cl_intel_subgroups";
    case CLSCAN_SG_PTX: return "NVIDIA inline PTX shuffles";
    case CLSCAN_SG_DEVICE: case CLSCAN_SG_NONE: break;
    }
    return "none (local-memory fallback)";
}

/* Whether name is a whole word of the space-separated extension list. */
static int has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

static cl_int read_extensions(cl_device_id dev, device_facts *f)
{
    size_t len = 0;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &len);
    char *ext = err == CL_SUCCESS ? calloc(len + 1, 1) : NULL;
    if (err == CL_SUCCESS && !ext)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, len, ext, NULL);
    if (err == CL_SUCCESS) {
        f->fp64 = has_extension(ext, "cl_khr_fp64");
        f->int64_atomics = has_extension(ext, "cl_khr_int64_base_atomics");
    }
    free(ext);
    return err;
}

/* The clGetDeviceInfo answers; the first failure's code. */
static cl_int read_device(cl_device_id dev, device_facts *f, cl_platform_id *platform)
{
    cl_int err = CL_SUCCESS;
#define QUERY(call) do { if (err == CL_SUCCESS) err = (call); } while (0)
#define NUMBER(what, field) QUERY(clGetDeviceInfo(dev, what, sizeof f->field, &f->field, NULL))
    QUERY(info_string(dev, NULL, CL_DEVICE_VENDOR, f->vendor, sizeof f->vendor));
    QUERY(info_string(dev, NULL, CL_DRIVER_VERSION, f->driver, sizeof f->driver));
    QUERY(info_string(dev, NULL, CL_DEVICE_OPENCL_C_VERSION, f->c_version, sizeof f->c_version));
    NUMBER(CL_DEVICE_TYPE, type);
    NUMBER(CL_DEVICE_MAX_COMPUTE_UNITS, compute_units);
    NUMBER(CL_DEVICE_MAX_WORK_GROUP_SIZE, max_wg);
    NUMBER(CL_DEVICE_LOCAL_MEM_SIZE, local_mem);
    NUMBER(CL_DEVICE_GLOBAL_MEM_SIZE, global_mem);
    NUMBER(CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc);
    QUERY(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof *platform, platform, NULL));
    QUERY(read_extensions(dev, f));
#undef NUMBER
#undef QUERY
    return err;
}

/* Reads the facts of one device; on failure writes "<call>: <CL name> (<code>)" to why. */
static int probe(const device_entry *e, device_facts *f, char *why, size_t why_len)
{
    cl_platform_id platform = NULL;
    const char *call = "clGetDeviceInfo";
    memset(f, 0, sizeof *f);
    cl_int err = read_device(e->id, f, &platform);
    if (err == CL_SUCCESS) {
        call = "clGetPlatformInfo";
        err = info_string(NULL, platform, CL_PLATFORM_NAME, f->platform, sizeof f->platform);
    }
    if (err == CL_SUCCESS)
        err = info_string(NULL, platform, CL_PLATFORM_VERSION, f->platform_version, sizeof f->platform_version);
    if (err != CL_SUCCESS) {
        snprintf(why, why_len, "%s: %s (%d)", call, cl_error_name(err), err);
        return 0;
    }
    if (clscan_tuning_probe_device(e->id, &f->chosen) != CLSCAN_SUCCESS) {
        snprintf(why, why_len, "clscan_tuning_probe_device: %s", clscan_last_error(NULL));
        return 0;
    }
    return 1;
}

/* ---- text output ----------------------------------------------------------------------------- */

static void print_info_text(const device_facts *info)
{
    printf("    type:              %s\n", type_name(info->type));
    printf("    vendor:            %s\n", info->vendor);
    printf("    platform:          %s (%s)\n", info->platform, info->platform_version);
    printf("    driver version:    %s\n", info->driver);
    printf("    OpenCL C version:  %s\n", info->c_version);
    printf("    compute units:     %u\n", (unsigned)info->compute_units);
    printf("    max work-group:    %zu\n", info->max_wg);
    printf("    local memory:      %llu KiB\n", kib(info->local_mem));
    printf("    global memory:     %llu MiB\n", mib(info->global_mem));
    printf("    max allocation:    %llu MiB\n", mib(info->max_alloc));
    printf("    sub-groups:        %s\n", subgroups_name(&info->chosen));
    printf("    fp64:              %s\n", yes_no(info->fp64));
    printf("    int64 atomics:     %s\n", yes_no(info->int64_atomics));
}

static void print_device_title(size_t i, const device_entry *e, const default_choice *d)
{
    printf("  Device %zu (%zu:%zu): %s%s\n", i, e->platform, e->device, e->name,
           d && d->index == (long)i ? "  (default)" : "");
}

static void print_default_text(const default_choice *d, const device_entry *entries)
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
static int print_text(const device_entry *entries, size_t count, const default_choice *d)
{
    int failed = 0;
    printf("clscan %s: %zu OpenCL device%s; CLSCAN_DEVICE accepts the index or platform:device\n",
           clscan_version_string(), count, count == 1 ? "" : "s");
    for (size_t i = 0; i < count; i++) {
        /* The list is grouped by platform, so a header at each change numbers the platforms. */
        if (i == 0 || entries[i].platform != entries[i - 1].platform)
            printf("\nPlatform %zu: %s\n", entries[i].platform, entries[i].platform_name);
        print_device_title(i, &entries[i], d);
        device_facts info;
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

static void print_info_json(const device_facts *info)
{
    json_member_string("type", type_name(info->type));
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
    json_member_string("subgroups", subgroups_name(&info->chosen));
    json_member_bool("fp64", info->fp64);
    json_member_bool("int64_atomics", info->int64_atomics);
}

/* One device object; returns 1 when its facts could not be read (the object then has "error"). */
static int print_device_json(size_t i, const device_entry *e, const default_choice *d)
{
    char spec[64];
    snprintf(spec, sizeof spec, "%zu:%zu", e->platform, e->device);
    printf("    {\n      \"index\": %zu", i);
    json_member_number("platform", e->platform);
    json_member_number("device", e->device);
    json_member_string("spec", spec);
    json_member_string("name", e->name);
    json_member_bool("default", d->index == (long)i);
    device_facts info;
    char why[256];
    int ok = probe(e, &info, why, sizeof why);
    if (ok)
        print_info_json(&info);
    else
        json_member_string("error", why);
    printf("\n    }");
    return !ok;
}

static int print_json(const device_entry *entries, size_t count, const default_choice *d)
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
static int check_device(size_t i, const device_entry *e, check_data *c)
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

static int run_checks(const device_entry *entries, size_t count)
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
    device_entry *entries = NULL;
    size_t count = 0;
    if (!list_devices(&entries, &count))
        return EXIT_NO_OPENCL;
    default_choice d = find_default();
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
