/* Status names, OpenCL error-code names, the version string and element sizes: the lists of
 * constants the rest of the library turns into text. One X-macro list each. */
#include "core.h"

#define CLSCAN__STATUS_LIST(X)                                                   \
    X(CLSCAN_SUCCESS, "success")                                                 \
    X(CLSCAN_INVALID_ARGUMENT, "invalid argument")                               \
    X(CLSCAN_UNSUPPORTED, "unsupported on this device")                          \
    X(CLSCAN_DEVICE_NOT_FOUND, "no matching OpenCL device")                      \
    X(CLSCAN_KERNEL_NOT_FOUND, "kernel source not found")                        \
    X(CLSCAN_BUILD_FAILED, "kernel build failed")                                \
    X(CLSCAN_OUT_OF_MEMORY, "out of memory")                                     \
    X(CLSCAN_OPENCL_ERROR, "OpenCL error")

const char *clscan_status_string(clscan_status status)
{
    switch (status) {
#define CLSCAN__STATUS_CASE(code, text) case code: return text;
    CLSCAN__STATUS_LIST(CLSCAN__STATUS_CASE)
#undef CLSCAN__STATUS_CASE
    }
    return "unknown status";
}

#define CLSCAN__STR2(x) #x
#define CLSCAN__STR(x) CLSCAN__STR2(x)
const char *clscan_version_string(void)
{
    return CLSCAN__STR(CLSCAN_VERSION_MAJOR) "." CLSCAN__STR(CLSCAN_VERSION_MINOR) "." CLSCAN__STR(CLSCAN_VERSION_PATCH);
}

size_t clscan_type_size(clscan_type type)
{
    switch (type) {
    case CLSCAN_INT32: case CLSCAN_UINT32: case CLSCAN_FLOAT: return 4;
    case CLSCAN_INT64: case CLSCAN_UINT64: case CLSCAN_DOUBLE: return 8;
    case CLSCAN_INT8: case CLSCAN_UINT8: return 1;
    case CLSCAN_INT16: case CLSCAN_UINT16: return 2;
    }
    return 0;
}

int clscan__type_is_float(clscan_type type)
{
    return type == CLSCAN_FLOAT || type == CLSCAN_DOUBLE;
}

/* The codes of OpenCL 1.2 that a driver may return from the calls clscan makes. */
#define CLSCAN__CL_ERROR_LIST(X)                                                 \
    X(CL_DEVICE_NOT_FOUND) X(CL_DEVICE_NOT_AVAILABLE) X(CL_COMPILER_NOT_AVAILABLE)\
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE) X(CL_OUT_OF_RESOURCES)                   \
    X(CL_OUT_OF_HOST_MEMORY) X(CL_PROFILING_INFO_NOT_AVAILABLE)                  \
    X(CL_MEM_COPY_OVERLAP) X(CL_BUILD_PROGRAM_FAILURE) X(CL_MAP_FAILURE)         \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET) X(CL_INVALID_VALUE)                       \
    X(CL_INVALID_DEVICE_TYPE) X(CL_INVALID_PLATFORM) X(CL_INVALID_DEVICE)        \
    X(CL_INVALID_CONTEXT) X(CL_INVALID_QUEUE_PROPERTIES)                         \
    X(CL_INVALID_COMMAND_QUEUE) X(CL_INVALID_HOST_PTR) X(CL_INVALID_MEM_OBJECT)  \
    X(CL_INVALID_BINARY) X(CL_INVALID_BUILD_OPTIONS) X(CL_INVALID_PROGRAM)       \
    X(CL_INVALID_PROGRAM_EXECUTABLE) X(CL_INVALID_KERNEL_NAME)                   \
    X(CL_INVALID_KERNEL_DEFINITION) X(CL_INVALID_KERNEL) X(CL_INVALID_ARG_INDEX) \
    X(CL_INVALID_ARG_VALUE) X(CL_INVALID_ARG_SIZE) X(CL_INVALID_KERNEL_ARGS)     \
    X(CL_INVALID_WORK_DIMENSION) X(CL_INVALID_WORK_GROUP_SIZE)                   \
    X(CL_INVALID_WORK_ITEM_SIZE) X(CL_INVALID_GLOBAL_OFFSET)                     \
    X(CL_INVALID_EVENT_WAIT_LIST) X(CL_INVALID_EVENT) X(CL_INVALID_OPERATION)    \
    X(CL_INVALID_BUFFER_SIZE) X(CL_INVALID_GLOBAL_WORK_SIZE)                     \
    X(CL_INVALID_PROPERTY) X(CL_INVALID_COMPILER_OPTIONS)

const char *clscan__cl_error_name(cl_int err)
{
    switch (err) {
#define CLSCAN__CL_CASE(code) case code: return #code;
    CLSCAN__CL_ERROR_LIST(CLSCAN__CL_CASE)
#undef CLSCAN__CL_CASE
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    }
    return "unknown OpenCL error";
}

clscan_status clscan__status_from_cl(cl_int err)
{
    switch (err) {
    case CL_SUCCESS: return CLSCAN_SUCCESS;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
    case CL_OUT_OF_HOST_MEMORY: return CLSCAN_OUT_OF_MEMORY;
    default: return CLSCAN_OPENCL_ERROR;
    }
}

size_t clscan__tiles(size_t n, size_t tile)
{
    return n / tile + (n % tile != 0);
}
