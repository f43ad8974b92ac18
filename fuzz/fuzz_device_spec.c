/* Fuzz target: the device-spec parser and matcher of src/core/select.c (clscan__parse_device_spec,
 * clscan__match_device), which read $CLSCAN_DEVICE and clscan_context_create's string. The input is
 * the spec (up to its first NUL byte). Each result is checked against a second, independently written
 * reading of the grammar, and every match against a fixed list of devices; no OpenCL device needed. */
#include "prims/prims.h"
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A two-platform machine as clscan-info would number it. */
static const clscan__device_entry devices[] = {
    {0, 0, CL_DEVICE_TYPE_CPU, "pthread-AMD EPYC 9654", "Portable Computing Language", "The pocl project", NULL, NULL},
    {1, 0, CL_DEVICE_TYPE_GPU, "NVIDIA H100 80GB HBM3", "NVIDIA CUDA", "NVIDIA Corporation", NULL, NULL},
    {1, 1, CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT, "NVIDIA H200", "NVIDIA CUDA", "NVIDIA Corporation", NULL, NULL},
    {1, 2, CL_DEVICE_TYPE_ACCELERATOR, "", "", "", NULL, NULL},
};
#define DEVICE_COUNT (sizeof devices / sizeof devices[0])

/* A run of 1..18 decimal digits filling [s, s + len): the reference reading of a number. */
static int digits(const char *s, size_t len, size_t *value)
{
    if (len == 0 || len > 18 || strspn(s, "0123456789") < len)
        return 0;
    char buf[19];
    memcpy(buf, s, len);
    buf[len] = '\0';
    *value = (size_t)strtoull(buf, NULL, 10);
    return 1;
}

static void lower(const char *s, char *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = '\0';
}

static int same_word(const char *text, const char *word)
{
    char low[8];
    if (strlen(text) != strlen(word))
        return 0;
    lower(text, low, sizeof low);
    return strcmp(low, word) == 0;
}

/* The grammar of API.md read again: the kind the text must parse to, with its numbers. */
static clscan__spec_kind expected_kind(const char *text, size_t *a, size_t *b)
{
    size_t len = strlen(text);
    const char *colon = strchr(text, ':');
    if (len == 0)
        return CLSCAN__SPEC_DEFAULT;
    if (same_word(text, "gpu"))
        return CLSCAN__SPEC_GPU;
    if (same_word(text, "cpu"))
        return CLSCAN__SPEC_CPU;
    if (digits(text, len, a))
        return CLSCAN__SPEC_INDEX;
    if (colon && digits(text, (size_t)(colon - text), a) && digits(colon + 1, strlen(colon + 1), b))
        return CLSCAN__SPEC_PAIR;
    return len < CLSCAN__NAME_LEN ? CLSCAN__SPEC_NAME : CLSCAN__SPEC_INVALID;
}

static void check_parse(const char *text, const clscan__device_spec *spec)
{
    size_t a = 0, b = 0;
    clscan__spec_kind want = expected_kind(text, &a, &b);
    if (spec->kind != want)
        abort();
    if (want == CLSCAN__SPEC_INDEX && spec->index != a)
        abort();
    if (want == CLSCAN__SPEC_PAIR && (spec->platform != a || spec->device != b))
        abort();
    if (want == CLSCAN__SPEC_NAME && strcmp(spec->name, text) != 0)
        abort();
}

static int has_substring(const char *hay, const char *needle)
{
    char h[CLSCAN__NAME_LEN], n[CLSCAN__NAME_LEN];
    lower(hay, h, sizeof h);
    lower(needle, n, sizeof n);
    return strstr(h, n) != NULL;
}

/* Whether entry i is one the spec names (ignoring "first of"). */
static int names(const clscan__device_spec *spec, size_t i)
{
    const clscan__device_entry *e = &devices[i];
    switch (spec->kind) {
    case CLSCAN__SPEC_GPU: return (e->type & CL_DEVICE_TYPE_GPU) != 0;
    case CLSCAN__SPEC_CPU: return (e->type & CL_DEVICE_TYPE_CPU) != 0;
    case CLSCAN__SPEC_INDEX: return spec->index == i;
    case CLSCAN__SPEC_PAIR: return e->platform == spec->platform && e->device == spec->device;
    case CLSCAN__SPEC_NAME:
        return has_substring(e->name, spec->name) || has_substring(e->platform_name, spec->name) ||
               has_substring(e->platform_vendor, spec->name);
    case CLSCAN__SPEC_DEFAULT: return (e->type & CL_DEVICE_TYPE_GPU) != 0;
    case CLSCAN__SPEC_INVALID: return 0;
    }
    return 0;
}

/* The match is the first entry the spec names, or -1 (DEFAULT falls back to entry 0). */
static void check_match(const clscan__device_spec *spec, size_t count)
{
    long got = clscan__match_device(spec, devices, count), want = -1;
    for (size_t i = 0; i < count && want < 0; i++)
        if (names(spec, i))
            want = (long)i;
    if (spec->kind == CLSCAN__SPEC_DEFAULT && want < 0 && count > 0)
        want = 0;
    if (got != want)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);   /* exactly the input: ASan sees any read past its end */
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    clscan__device_spec spec = clscan__parse_device_spec(text);
    check_parse(text, &spec);
    clscan__device_spec again = clscan__parse_device_spec(text);   /* pure: the same answer twice */
    if (again.kind != spec.kind || again.index != spec.index || again.platform != spec.platform ||
        again.device != spec.device || strcmp(again.name, spec.name) != 0)
        abort();
    for (size_t count = 0; count <= DEVICE_COUNT; count++)   /* also shorter lists, down to none */
        check_match(&spec, count);
    free(text);
    return 0;
}
