/* Device facts, read once per context: names and versions (for the cache key), limits (work-group
 * size, local memory), and capabilities (fp64, 64-bit integers and atomics, which sub-group mechanism
 * the kernels could use, which clscan_tuning_probe_device tells tools). Device quirks live here and
 * nowhere else. */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a string property whole, then keeps what fits: a driver's long version string must not make
 * the query fail (OpenCL answers CL_INVALID_VALUE to a buffer that is too small). */
static cl_int read_string(cl_device_id dev, cl_platform_id platform, cl_uint what, char *buf, size_t len)
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

cl_int clscan__device_string(cl_device_id dev, cl_device_info what, char *buf, size_t len)
{
    return read_string(dev, NULL, what, buf, len);
}

cl_int clscan__platform_string(cl_platform_id platform, cl_platform_info what, char *buf, size_t len)
{
    return read_string(NULL, platform, what, buf, len);
}

static int has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Where the suite has passed with the cl_khr_subgroups built-ins: AUTO takes them on these devices
 * (platform and device name, as substrings) and nowhere else (docs/reliability.md, "Mesa rusticl"). */
static const struct { const char *platform, *name; } khr_passed[] = {
    {"rusticl", "llvmpipe"},   /* Mesa's rusticl on llvmpipe (25.0): sub-groups of 8, as a CPU and as a GPU */
};

static int khr_has_passed(const clscan__device_info *dev)
{
    for (size_t i = 0; i < sizeof khr_passed / sizeof khr_passed[0]; i++)
        if (strstr(dev->platform, khr_passed[i].platform) && strstr(dev->name, khr_passed[i].name))
            return 1;
    return 0;
}

/* NVIDIA GPUs get inline PTX shuffles (their OpenCL has no sub-group extension), the devices of
 * khr_passed the cl_khr_subgroups built-ins, every other device the local-memory path. A device has
 * the built-ins through the extension or, as OpenCL C 3.0, through the feature __opencl_c_subgroups
 * (rusticl and many 3.0 drivers list the feature only). They are not picked on a device where the suite
 * has not passed with them (docs/reliability.md, "PoCL 5 and 6"): PoCL 5.0 and 6.0, which list both
 * extensions on CPUs, got scans and compactions wrong through them, and no AMD or Intel GPU has been at
 * hand to run them. Built as OpenCL C 3.0 where the device takes it, else 2.0: clang-based compilers
 * (AMD's, Intel's) declare the built-ins from 2.0 on only, and many 3.0 drivers take no 2.0. forced
 * (CLSCAN_TUNE_SUBGROUPS, for tests and experiments) picks one where the device has it; anything else
 * keeps the default. */
clscan__subgroup_kind clscan__pick_subgroups(const clscan__device_info *dev, const char *extensions, long forced)
{
    int khr = has_extension(extensions, "cl_khr_subgroups") || (dev->c3 && dev->c3_subgroups);
    clscan__subgroup_kind khr_kind = dev->c3 ? CLSCAN__SG_KHR_C3 : CLSCAN__SG_KHR;
    if (forced == CLSCAN_SG_KHR && khr)
        return khr_kind;
    if (forced == CLSCAN_SG_INTEL && has_extension(extensions, "cl_intel_subgroups"))
        return CLSCAN__SG_INTEL;
    if (forced == CLSCAN_SG_PTX && dev->is_nvidia)
        return CLSCAN__SG_NVIDIA_PTX;
    if (forced == CLSCAN_SG_NONE)
        return CLSCAN__SG_NONE;
    if ((dev->type & CL_DEVICE_TYPE_GPU) && dev->is_nvidia)
        return CLSCAN__SG_NVIDIA_PTX;
    return khr && khr_has_passed(dev) ? khr_kind : CLSCAN__SG_NONE;
}

/* OpenCL 3.0 names that the 1.2 headers clscan builds against lack. */
#define CLSCAN__DEVICE_OPENCL_C_ALL_VERSIONS 0x1066
#define CLSCAN__DEVICE_OPENCL_C_FEATURES 0x106F
typedef struct clscan__name_version { cl_uint version; char name[64]; } clscan__name_version;   /* cl_name_version */

/* An OpenCL 3.0 device's list of OpenCL C versions (which = 0) or features (1): whether it takes
 * OpenCL C 3.0, whether __opencl_c_subgroups is among the features. */
static cl_int probe_c3_list(cl_device_id dev, int which, int *found)
{
    size_t len = 0;
    cl_device_info what = which ? CLSCAN__DEVICE_OPENCL_C_FEATURES : CLSCAN__DEVICE_OPENCL_C_ALL_VERSIONS;
    cl_int err = clGetDeviceInfo(dev, what, 0, NULL, &len);
    clscan__name_version *list = err == CL_SUCCESS && len > 0 ? malloc(len) : NULL;
    if (err == CL_SUCCESS && len > 0 && !list)
        err = CL_OUT_OF_HOST_MEMORY;
    if (list && err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, what, len, list, NULL);
    for (size_t i = 0; list && err == CL_SUCCESS && i < len / sizeof *list; i++) {
        list[i].name[sizeof list[i].name - 1] = '\0';
        if (which ? strcmp(list[i].name, "__opencl_c_subgroups") == 0 : list[i].version >> 22 == 3)
            *found = 1;
    }
    free(list);
    return err;
}

/* CL_DEVICE_OPENCL_C_VERSION says 1.2 on many OpenCL 3.0 drivers (rusticl's among them) that take
 * OpenCL C 3.0: only the 3.0 queries tell. Older devices do not know them. */
static cl_int probe_c3(cl_device_id dev, clscan__device_info *info)
{
    if (strncmp(info->version, "OpenCL ", 7) != 0 || atoi(info->version + 7) < 3)
        return CL_SUCCESS;
    cl_int err = probe_c3_list(dev, 0, &info->c3);
    if (err == CL_SUCCESS && info->c3)
        err = probe_c3_list(dev, 1, &info->c3_subgroups);
    return err;
}

/* NVIDIA GPUs from compute capability 6.1 have dp4a, a byte dot product that 8-bit scans take through
 * inline PTX (cl/core/workgroup.clh). The capability comes from cl_nv_device_attribute_query. */
#define CLSCAN__NV_CC_MAJOR 0x4000   /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
#define CLSCAN__NV_CC_MINOR 0x4001   /* CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV */
static cl_int probe_dp4a(cl_device_id dev, clscan__device_info *info, const char *ext)
{
    cl_uint major = 0, minor = 0;
    if (!info->is_nvidia || !(info->type & CL_DEVICE_TYPE_GPU) || !has_extension(ext, "cl_nv_device_attribute_query"))
        return CL_SUCCESS;
    cl_int err = clGetDeviceInfo(dev, CLSCAN__NV_CC_MAJOR, sizeof major, &major, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(dev, CLSCAN__NV_CC_MINOR, sizeof minor, &minor, NULL);
    info->dp4a = err == CL_SUCCESS && (major > 6 || (major == 6 && minor >= 1));
    return err;
}

static cl_int probe_extensions(cl_device_id dev, clscan__device_info *info, long forced_sg)
{
    size_t len = 0;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &len);
    if (err != CL_SUCCESS)
        return err;
    char *ext = calloc(len + 1, 1);
    if (!ext)
        return CL_OUT_OF_HOST_MEMORY;
    err = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, len, ext, NULL);
    if (err == CL_SUCCESS) {
        int full = strcmp(info->profile, "FULL_PROFILE") == 0;
        info->fp64 = has_extension(ext, "cl_khr_fp64");
        info->int64 = full || has_extension(ext, "cles_khr_int64");
        info->int64_atomics = has_extension(ext, "cl_khr_int64_base_atomics");
        info->subgroups = clscan__pick_subgroups(info, ext, forced_sg);
        err = probe_dp4a(dev, info, ext);
    }
    free(ext);
    return err;
}

cl_int clscan__device_probe(cl_device_id dev, clscan__device_info *info, long forced_sg, const char **failed_call)
{
    memset(info, 0, sizeof *info);
    cl_platform_id platform = NULL;
    cl_int err = CL_SUCCESS;
#define CLSCAN__TRY(call)                                                        \
    do {                                                                         \
        if ((err = (call)) != CL_SUCCESS) {                                      \
            *failed_call = "clGetDeviceInfo";                                    \
            return err;                                                          \
        }                                                                        \
    } while (0)
    CLSCAN__TRY(clscan__device_string(dev, CL_DEVICE_NAME, info->name, sizeof info->name));
    CLSCAN__TRY(clscan__device_string(dev, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor));
    CLSCAN__TRY(clscan__device_string(dev, CL_DEVICE_VERSION, info->version, sizeof info->version));
    CLSCAN__TRY(clscan__device_string(dev, CL_DRIVER_VERSION, info->driver, sizeof info->driver));
    CLSCAN__TRY(clscan__device_string(dev, CL_DEVICE_OPENCL_C_VERSION, info->c_version, sizeof info->c_version));
    CLSCAN__TRY(clscan__device_string(dev, CL_DEVICE_PROFILE, info->profile, sizeof info->profile));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_VENDOR_ID, sizeof info->vendor_id, &info->vendor_id, NULL));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof info->compute_units, &info->compute_units, NULL));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info->max_wg, &info->max_wg, NULL));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof info->local_mem, &info->local_mem, NULL));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof info->max_alloc, &info->max_alloc, NULL));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof info->global_mem, &info->global_mem, NULL));
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof info->base_align, &info->base_align, NULL));
    info->base_align /= 8;   /* reported in bits */
    CLSCAN__TRY(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL));
#undef CLSCAN__TRY
    if ((err = clscan__platform_string(platform, CL_PLATFORM_NAME, info->platform, sizeof info->platform)) != CL_SUCCESS ||
        (err = clscan__platform_string(platform, CL_PLATFORM_VERSION, info->platform_version, sizeof info->platform_version)) != CL_SUCCESS) {
        *failed_call = "clGetPlatformInfo";
        return err;
    }
    info->is_nvidia = info->vendor_id == 0x10de || strstr(info->vendor, "NVIDIA") != NULL;
    /* NVIDIA GPUs: volatile loads of the look-back status words go to L2, where the atomics that
     * publish them are performed, and cost less than an atomic each; the summed-area table, which reads
     * one word per column per band, ran 13-30% faster with them on the H100 (bench/notebook.md). The
     * words carry their epoch tag, so a stale read only looks unpublished. */
    info->volatile_status = info->is_nvidia && (info->type & CL_DEVICE_TYPE_GPU);
    /* Oclgrind 21.10, the kernel checker: memory zeroed by clEnqueueFillBuffer still counts as
     * uninitialized there (a buffer zeroed by clEnqueueWriteBuffer does not), so every read of the
     * single-pass state would be reported. Zeroing by a write keeps its reports to real ones. */
    info->zero_by_write = strstr(info->platform, "Oclgrind") != NULL;
    /* Mesa's llvmpipe (rusticl 25, LLVM 19): two compiler defects that kernels step around there only
     * (CLSCAN_LLVMPIPE: cl/core/types.clh, cl/engine/lookback.clh; docs/reliability.md). */
    info->llvmpipe = strstr(info->name, "llvmpipe") != NULL;
    /* PoCL keeps every kernel it compiles in its own disk cache, compiling each on first use; asked for
     * a program's binary (clscan's cache), it compiles every kernel of the program first. On 2 cores,
     * test_sort's uint32 case took 7.2 s with both caches cold when clscan stored binaries, 1.8-2.3 s
     * when it did not, and 0.3-0.45 s warm either way (context.c). */
    info->own_kernel_cache = strstr(info->platform, "Portable Computing Language") != NULL;
    if ((err = probe_c3(dev, info)) != CL_SUCCESS || (err = probe_extensions(dev, info, forced_sg)) != CL_SUCCESS) {
        *failed_call = "clGetDeviceInfo";
        return err;
    }
    return CL_SUCCESS;
}

const char *clscan__device_type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU) return "GPU";
    if (type & CL_DEVICE_TYPE_CPU) return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

/* The values of clscan_tuning.h for the kinds: that header is what tools and tests see. */
static enum clscan_tuning_subgroups public_subgroups(clscan__subgroup_kind kind)
{
    switch (kind) {
    case CLSCAN__SG_KHR: case CLSCAN__SG_KHR_C3: return CLSCAN_SG_KHR;
    case CLSCAN__SG_INTEL: return CLSCAN_SG_INTEL;
    case CLSCAN__SG_NVIDIA_PTX: return CLSCAN_SG_PTX;
    case CLSCAN__SG_NONE: break;
    }
    return CLSCAN_SG_NONE;
}

/* The device's own choice (CLSCAN_SG_DEVICE): what a context gets while CLSCAN_TUNE_SUBGROUPS is unset. */
clscan_status clscan_tuning_probe_device(cl_device_id device, clscan_tuning_device_facts *facts)
{
    if (!device || !facts)
        return clscan__fail(NULL, CLSCAN_INVALID_ARGUMENT, "clscan_tuning_probe_device: %s is NULL",
                            device ? "facts" : "device");
    clscan__device_info info;
    const char *call = "";
    cl_int err = clscan__device_probe(device, &info, CLSCAN_SG_DEVICE, &call);
    if (err != CL_SUCCESS)
        return clscan__fail_cl(NULL, call, err);
    facts->subgroups = public_subgroups(info.subgroups);
    facts->c_version = info.subgroups == CLSCAN__SG_KHR_C3 ? 300 : info.subgroups == CLSCAN__SG_KHR ? 200 : 120;
    return CLSCAN_SUCCESS;
}

int clscan__device_supports_type(const clscan__device_info *info, clscan_type type)
{
    switch (type) {
    case CLSCAN_DOUBLE: return info->fp64;
    case CLSCAN_INT64: case CLSCAN_UINT64: return info->int64;
    default: return 1;
    }
}
