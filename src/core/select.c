/* Device selection: the spec grammar ("gpu", "cpu", "<index>", "<platform>:<device>", a substring of
 * the device name, platform name or platform vendor), the numbering of all devices that clscan-info
 * shows, the match between them, and the search that context creation makes (clscan_tuning_find_device).
 * Parsing and matching are pure so that they are tested without any OpenCL device. */
#include "core.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses a whole decimal number; 0 when text is not one (or overflows). */
static int parse_number(const char *text, size_t len, size_t *out)
{
    if (len == 0 || len > 18)
        return 0;
    size_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)text[i]))
            return 0;
        v = v * 10 + (size_t)(text[i] - '0');
    }
    *out = v;
    return 1;
}

static int equals_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

clscan__device_spec clscan__parse_device_spec(const char *text)
{
    clscan__device_spec spec;
    memset(&spec, 0, sizeof spec);
    if (text == NULL || text[0] == '\0') {
        spec.kind = CLSCAN__SPEC_DEFAULT;
        return spec;
    }
    size_t len = strlen(text);
    const char *colon = strchr(text, ':');
    if (equals_nocase(text, "gpu"))
        spec.kind = CLSCAN__SPEC_GPU;
    else if (equals_nocase(text, "cpu"))
        spec.kind = CLSCAN__SPEC_CPU;
    else if (parse_number(text, len, &spec.index))
        spec.kind = CLSCAN__SPEC_INDEX;
    else if (colon && parse_number(text, (size_t)(colon - text), &spec.platform) &&
             parse_number(colon + 1, strlen(colon + 1), &spec.device))
        spec.kind = CLSCAN__SPEC_PAIR;
    else if (len < sizeof spec.name) {
        spec.kind = CLSCAN__SPEC_NAME;
        memcpy(spec.name, text, len + 1);
    } else
        spec.kind = CLSCAN__SPEC_INVALID;
    return spec;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static long first_of_type(const clscan__device_entry *e, size_t count, cl_device_type type)
{
    for (size_t i = 0; i < count; i++)
        if (e[i].type & type)
            return (long)i;
    return -1;
}

long clscan__match_device(const clscan__device_spec *spec, const clscan__device_entry *e, size_t count)
{
    switch (spec->kind) {
    case CLSCAN__SPEC_DEFAULT: {
        long gpu = first_of_type(e, count, CL_DEVICE_TYPE_GPU);
        return gpu >= 0 ? gpu : (count > 0 ? 0 : -1);
    }
    case CLSCAN__SPEC_GPU: return first_of_type(e, count, CL_DEVICE_TYPE_GPU);
    case CLSCAN__SPEC_CPU: return first_of_type(e, count, CL_DEVICE_TYPE_CPU);
    case CLSCAN__SPEC_INDEX: return spec->index < count ? (long)spec->index : -1;
    case CLSCAN__SPEC_PAIR:
        for (size_t i = 0; i < count; i++)
            if (e[i].platform == spec->platform && e[i].device == spec->device)
                return (long)i;
        return -1;
    case CLSCAN__SPEC_NAME:
        for (size_t i = 0; i < count; i++)
            if (contains_nocase(e[i].name, spec->name) || contains_nocase(e[i].platform_name, spec->name) ||
                contains_nocase(e[i].platform_vendor, spec->name))   /* PoCL: "The pocl project" */
                return (long)i;
        return -1;
    case CLSCAN__SPEC_INVALID: break;
    }
    return -1;
}

/* Appends the devices of platform p; *failed_call names the call of a failure. */
static cl_int append_platform_devices(cl_platform_id pid, size_t p, clscan__device_entry **list, size_t *count,
                                      const char **failed_call)
{
    cl_uint nd = 0;
    *failed_call = "clGetDeviceIDs";
    cl_int err = clGetDeviceIDs(pid, CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
    if (err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY)
        return err;   /* out of memory is not "no device here" */
    if (err != CL_SUCCESS || nd == 0)
        return CL_SUCCESS;   /* a platform without devices (or whose ICD fails) is skipped */
    cl_device_id *ids = calloc(nd, sizeof *ids);
    clscan__device_entry *grown = realloc(*list, (*count + nd) * sizeof **list);
    if (grown)
        *list = grown;   /* realloc freed the old block: the caller frees this one */
    if (!ids || !grown) {
        free(ids);
        return CL_OUT_OF_HOST_MEMORY;
    }
    /* A name that could not be read is an error, not an empty name: a spec naming the platform
     * would otherwise answer "no such device" for what was a failure. */
    char pname[CLSCAN__NAME_LEN] = "", pvendor[CLSCAN__NAME_LEN] = "";
    *failed_call = "clGetPlatformInfo";
    err = clscan__platform_string(pid, CL_PLATFORM_NAME, pname, sizeof pname);
    if (err == CL_SUCCESS)
        err = clscan__platform_string(pid, CL_PLATFORM_VENDOR, pvendor, sizeof pvendor);
    if (err != CL_SUCCESS) {
        free(ids);
        return err;
    }
    *failed_call = "clGetDeviceIDs";
    err = clGetDeviceIDs(pid, CL_DEVICE_TYPE_ALL, nd, ids, NULL);
    if (err == CL_SUCCESS)
        *failed_call = "clGetDeviceInfo";
    for (cl_uint d = 0; err == CL_SUCCESS && d < nd; d++) {
        clscan__device_entry *e = &grown[*count + d];
        memset(e, 0, sizeof *e);
        e->platform = p;
        e->device = d;
        e->platform_id = pid;
        e->device_id = ids[d];
        memcpy(e->platform_name, pname, sizeof pname);
        memcpy(e->platform_vendor, pvendor, sizeof pvendor);
        err = clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof e->type, &e->type, NULL);
        if (err == CL_SUCCESS)
            err = clscan__device_string(ids[d], CL_DEVICE_NAME, e->name, sizeof e->name);
    }
    if (err == CL_SUCCESS)
        *count += nd;
    free(ids);
    return err;
}

cl_int clscan__list_devices(clscan__device_entry **entries, size_t *count, const char **failed_call)
{
    *entries = NULL;
    *count = 0;
    cl_uint np = 0;
    *failed_call = "clGetPlatformIDs";
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err == CL_SUCCESS && np == 0)
        err = -1001; /* CL_PLATFORM_NOT_FOUND_KHR: what an ICD loader with no driver returns */
    if (err != CL_SUCCESS)
        return err;
    cl_platform_id *pids = calloc(np, sizeof *pids);
    if (!pids)
        return CL_OUT_OF_HOST_MEMORY;
    err = clGetPlatformIDs(np, pids, NULL);
    clscan__device_entry *list = NULL;
    size_t n = 0;
    for (cl_uint p = 0; err == CL_SUCCESS && p < np; p++)
        err = append_platform_devices(pids[p], p, &list, &n, failed_call);
    free(pids);
    if (err != CL_SUCCESS) {
        free(list);
        return err;
    }
    *entries = list;
    *count = n;
    return CL_SUCCESS;
}

/* ---- the search that clscan_context_create makes (and clscan_tuning_find_device offers) ------- */
static void describe_devices(char *buf, size_t len, const clscan__device_entry *e, size_t count)
{
    size_t used = strlen(buf);
    for (size_t i = 0; i < count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "\n  %zu (%zu:%zu) %s [%s, %s]", i, e[i].platform,
                                 e[i].device, e[i].name, e[i].platform_name, clscan__device_type_name(e[i].type));
}

/* Messages go to the thread's error: there is no context yet. */
clscan_status clscan_tuning_find_device(const char *spec_text, clscan_tuning_device *found)
{
    if (!found)
        return clscan__fail(NULL, CLSCAN_INVALID_ARGUMENT, "clscan_tuning_find_device: found is NULL");
    if (!spec_text)
        spec_text = getenv("CLSCAN_DEVICE");
    clscan__device_spec spec = clscan__parse_device_spec(spec_text);
    if (spec.kind == CLSCAN__SPEC_INVALID)
        return clscan__fail(NULL, CLSCAN_INVALID_ARGUMENT, "device spec is too long (at most %d characters)",
                            CLSCAN__NAME_LEN - 1);
    clscan__device_entry *entries = NULL;
    size_t count = 0;
    const char *call = "";
    cl_int err = clscan__list_devices(&entries, &count, &call);
    if (err == -1001)
        return clscan__fail(NULL, CLSCAN_DEVICE_NOT_FOUND,
                            "no OpenCL platform found: install an OpenCL driver (ICD), e.g. the Debian/Ubuntu "
                            "package pocl-opencl-icd for the CPU, or your GPU vendor's OpenCL driver");
    if (err != CL_SUCCESS)
        return clscan__fail_cl(NULL, call, err);
    long i = clscan__match_device(&spec, entries, count);
    if (i < 0) {
        clscan__fail(NULL, CLSCAN_DEVICE_NOT_FOUND, "no OpenCL device matches \"%s\"; devices:",
                     spec_text ? spec_text : "(default)");
        size_t len = 0;
        char *thread_error = clscan__thread_error(&len);
        describe_devices(thread_error, len, entries, count);
        free(entries);
        return CLSCAN_DEVICE_NOT_FOUND;
    }
    *found = (clscan_tuning_device){entries[i].device_id, (size_t)i, entries[i].platform, entries[i].device};
    free(entries);
    return CLSCAN_SUCCESS;
}
