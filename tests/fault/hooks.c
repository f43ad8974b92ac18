/* The hooks of fault.h: one per OpenCL entry point and host allocator the library calls (the names that
 * tests/fault/CMakeLists.txt renames). This file is compiled without those renames, so the names here
 * are the real functions. Each hook is declared with the real function's type (__typeof__), so a hook
 * whose parameters drift from the header does not compile. Release calls are counted for leaks but
 * never fail: a driver's release has nothing to give back, and the library has no use for its code. */
#include "fault.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the armed fault ------------------------------------------------------------------------- */
static struct {
    int armed, fired;
    fault_kind kind;
    const char *name;               /* NULL: any entry point of the kind */
    unsigned long target, calls[2], named;
    const char *fired_name;
    cl_int fired_code;
} fault;

/* What the library holds: objects (or host blocks) and their references. */
typedef struct held { const void *obj; unsigned long refs; } held;
typedef struct table { held *items; size_t count, cap; unsigned long foreign; } table;
static table cl_objects, host_blocks;

#define TRACE_MAX 16384
static const char *trace[TRACE_MAX + 1];

void fault_arm(fault_kind kind, const char *name, unsigned long n)
{
    fault.armed = 1, fault.fired = 0, fault.kind = kind, fault.name = name, fault.target = n;
    fault.calls[FAULT_CL] = fault.calls[FAULT_HOST] = fault.named = 0;
    fault.fired_name = NULL, fault.fired_code = CL_SUCCESS;
    cl_objects.foreign = 0;
}

void fault_disarm(void)
{
    fault.armed = 0;
}

int fault_fired(const char **name, cl_int *code)
{
    if (name)
        *name = fault.fired_name;
    if (code)
        *code = fault.fired_code;
    return fault.fired;
}

unsigned long fault_calls(fault_kind kind)
{
    return fault.name && fault.kind == kind ? fault.named : fault.calls[kind];
}

const char *fault_trace(unsigned long k)
{
    return k >= 1 && k <= fault.calls[FAULT_CL] && k <= TRACE_MAX ? trace[k] : NULL;
}

/* Counts a call; 1 when it is the one to fail. */
static int fire(fault_kind kind, const char *name)
{
    unsigned long k = ++fault.calls[kind];
    if (kind == FAULT_CL && k <= TRACE_MAX)
        trace[k] = name;
    if (fault.kind != kind || (fault.name && strcmp(fault.name, name) != 0))
        return 0;
    k = fault.name ? ++fault.named : k;
    if (!fault.armed || fault.fired || k != fault.target)
        return 0;
    fault.fired = 1;
    fault.fired_name = name;
    return 1;
}

/* The code to fail an OpenCL call with, CL_SUCCESS to let it through. The code turns with the call's
 * number so that every code of the list is seen across a walk. */
static cl_int cl_fire(const char *name, const cl_int *codes, size_t ncodes)
{
    if (!fire(FAULT_CL, name))
        return CL_SUCCESS;
    fault.fired_code = codes[fault.target % ncodes];
    return fault.fired_code;
}

/* What drivers answer when memory for a buffer, or for the command's resources, runs out; and what
 * any call may answer when the driver's own resources or host memory do. */
static const cl_int alloc_codes[] = {CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_HOST_MEMORY};
static const cl_int resource_codes[] = {CL_OUT_OF_RESOURCES, CL_OUT_OF_HOST_MEMORY};
#define FIRE(name, codes) cl_fire(name, codes, sizeof codes / sizeof codes[0])

/* ---- the tables of what the library holds ------------------------------------------------------ */

static void hold(table *t, const void *obj)
{
    if (!obj)
        return;
    for (size_t i = 0; i < t->count; i++)
        if (t->items[i].obj == obj) {
            t->items[i].refs++;
            return;
        }
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        held *grown = realloc(t->items, cap * sizeof *grown);
        if (!grown)
            abort();   /* the test's own bookkeeping, not the library under test */
        t->items = grown, t->cap = cap;
    }
    t->items[t->count++] = (held){obj, 1};
}

/* One reference fewer; an object the table never held counts as foreign. */
static void drop(table *t, const void *obj)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->items[i].obj == obj) {
            if (--t->items[i].refs == 0)
                t->items[i] = t->items[--t->count];
            return;
        }
    t->foreign++;
}

static size_t live(const table *t)
{
    size_t sum = 0;
    for (size_t i = 0; i < t->count; i++)
        sum += t->items[i].refs;
    return sum;
}

void fault_forget(void)
{
    cl_objects.count = host_blocks.count = 0;
    cl_objects.foreign = host_blocks.foreign = 0;
}

size_t fault_live_cl(void) { return live(&cl_objects); }
size_t fault_live_host(void) { return live(&host_blocks); }
unsigned long fault_foreign_releases(void) { return cl_objects.foreign; }

/* ---- hook shapes ----------------------------------------------------------------------------- */
/* A query, a setting or a build: fails with a code, else forwards. */
#define HOOK_CALL(name, codes, params, args)                                                            \
    __typeof__(name) clscan_fault_##name;                                                               \
    cl_int clscan_fault_##name params                                                                   \
    {                                                                                                   \
        cl_int code = FIRE(#name, codes);                                                               \
        return code != CL_SUCCESS ? code : name args;                                                   \
    }

/* An enqueue: as a call, and an event it hands back is an object the library must release. */
#define HOOK_ENQUEUE(name, params, args)                                                                \
    __typeof__(name) clscan_fault_##name;                                                               \
    cl_int clscan_fault_##name params                                                                   \
    {                                                                                                   \
        cl_int code = FIRE(#name, alloc_codes);                                                         \
        if (code == CL_SUCCESS && (code = name args) == CL_SUCCESS && event)                            \
            hold(&cl_objects, *event);                                                                  \
        return code;                                                                                    \
    }

/* A create: NULL with *errcode_ret set, as drivers fail; else the new object is held. */
#define HOOK_CREATE(type, name, codes, params, args)                                                    \
    __typeof__(name) clscan_fault_##name;                                                               \
    type clscan_fault_##name params                                                                     \
    {                                                                                                   \
        cl_int code = FIRE(#name, codes);                                                               \
        if (code != CL_SUCCESS) {                                                                       \
            if (errcode_ret)                                                                            \
                *errcode_ret = code;                                                                    \
            return NULL;                                                                                \
        }                                                                                               \
        type obj = name args;                                                                           \
        hold(&cl_objects, obj);                                                                         \
        return obj;                                                                                     \
    }

#define HOOK_RETAIN(name, type)                                                                         \
    __typeof__(name) clscan_fault_##name;                                                               \
    cl_int clscan_fault_##name(type obj)                                                                \
    {                                                                                                   \
        cl_int code = FIRE(#name, resource_codes);                                                      \
        if (code == CL_SUCCESS && (code = name(obj)) == CL_SUCCESS)                                     \
            hold(&cl_objects, obj);                                                                     \
        return code;                                                                                    \
    }

#define HOOK_RELEASE(name, type)                                                                        \
    __typeof__(name) clscan_fault_##name;                                                               \
    cl_int clscan_fault_##name(type obj)                                                                \
    {                                                                                                   \
        drop(&cl_objects, obj);                                                                         \
        return name(obj);                                                                               \
    }

/* ---- platforms, devices, contexts, queues ---------------------------------------------------- */
HOOK_CALL(clGetPlatformIDs, resource_codes, (cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms),
          (num_entries, platforms, num_platforms))
HOOK_CALL(clGetPlatformInfo, resource_codes,
          (cl_platform_id platform, cl_platform_info param, size_t size, void *value, size_t *size_ret),
          (platform, param, size, value, size_ret))
HOOK_CALL(clGetDeviceIDs, resource_codes,
          (cl_platform_id platform, cl_device_type type, cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices),
          (platform, type, num_entries, devices, num_devices))
HOOK_CALL(clGetDeviceInfo, resource_codes,
          (cl_device_id device, cl_device_info param, size_t size, void *value, size_t *size_ret),
          (device, param, size, value, size_ret))
HOOK_CREATE(cl_context, clCreateContext, resource_codes,
            (const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
             void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *), void *user_data,
             cl_int *errcode_ret),
            (properties, num_devices, devices, pfn_notify, user_data, errcode_ret))
HOOK_CREATE(cl_command_queue, clCreateCommandQueue, resource_codes,
            (cl_context context, cl_device_id device, cl_command_queue_properties properties, cl_int *errcode_ret),
            (context, device, properties, errcode_ret))
HOOK_CALL(clGetCommandQueueInfo, resource_codes,
          (cl_command_queue queue, cl_command_queue_info param, size_t size, void *value, size_t *size_ret),
          (queue, param, size, value, size_ret))
HOOK_RETAIN(clRetainContext, cl_context)
HOOK_RETAIN(clRetainCommandQueue, cl_command_queue)
HOOK_RELEASE(clReleaseContext, cl_context)
HOOK_RELEASE(clReleaseCommandQueue, cl_command_queue)
HOOK_CALL(clFinish, resource_codes, (cl_command_queue queue), (queue))

/* ---- programs and kernels -------------------------------------------------------------------- */
HOOK_CREATE(cl_program, clCreateProgramWithSource, resource_codes,
            (cl_context context, cl_uint count, const char **strings, const size_t *lengths, cl_int *errcode_ret),
            (context, count, strings, lengths, errcode_ret))
HOOK_CREATE(cl_program, clCreateProgramWithBinary, resource_codes,
            (cl_context context, cl_uint num_devices, const cl_device_id *devices, const size_t *lengths,
             const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret),
            (context, num_devices, devices, lengths, binaries, binary_status, errcode_ret))
HOOK_CALL(clBuildProgram, resource_codes,
          (cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
           void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data),
          (program, num_devices, devices, options, pfn_notify, user_data))
HOOK_CALL(clGetProgramInfo, resource_codes,
          (cl_program program, cl_program_info param, size_t size, void *value, size_t *size_ret),
          (program, param, size, value, size_ret))
HOOK_CALL(clGetProgramBuildInfo, resource_codes,
          (cl_program program, cl_device_id device, cl_program_build_info param, size_t size, void *value,
           size_t *size_ret),
          (program, device, param, size, value, size_ret))
HOOK_CREATE(cl_kernel, clCreateKernel, resource_codes, (cl_program program, const char *name, cl_int *errcode_ret),
            (program, name, errcode_ret))
HOOK_CALL(clGetKernelWorkGroupInfo, resource_codes,
          (cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param, size_t size, void *value,
           size_t *size_ret),
          (kernel, device, param, size, value, size_ret))
HOOK_CALL(clSetKernelArg, resource_codes, (cl_kernel kernel, cl_uint index, size_t size, const void *value),
          (kernel, index, size, value))
HOOK_RELEASE(clReleaseProgram, cl_program)
HOOK_RELEASE(clReleaseKernel, cl_kernel)

/* ---- buffers and commands -------------------------------------------------------------------- */
__typeof__(clCreateBuffer) clscan_fault_clCreateBuffer;
/* Without host data a new buffer starts as FAULT_NEW_BUFFER_BYTE, not zeros that some drivers happen
 * to give: the library must not count on them. */
cl_mem clscan_fault_clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                                   cl_int *errcode_ret)
{
    cl_int code = FIRE("clCreateBuffer", alloc_codes);
    if (code != CL_SUCCESS) {
        if (errcode_ret)
            *errcode_ret = code;
        return NULL;
    }
    void *garbage = NULL;
    if (!(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) && size > 0 && (garbage = malloc(size)) != NULL) {
        memset(garbage, FAULT_NEW_BUFFER_BYTE, size);
        flags |= CL_MEM_COPY_HOST_PTR;
        host_ptr = garbage;
    }
    cl_mem m = clCreateBuffer(context, flags, size, host_ptr, errcode_ret);
    free(garbage);
    hold(&cl_objects, m);
    return m;
}
HOOK_CALL(clGetMemObjectInfo, resource_codes,
          (cl_mem mem, cl_mem_info param, size_t size, void *value, size_t *size_ret), (mem, param, size, value, size_ret))
HOOK_RELEASE(clReleaseMemObject, cl_mem)
HOOK_ENQUEUE(clEnqueueNDRangeKernel,
             (cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset, const size_t *global,
              const size_t *local, cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, kernel, dims, offset, global, local, num_events, wait_list, event))
HOOK_ENQUEUE(clEnqueueReadBuffer,
             (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, void *ptr,
              cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, buffer, blocking, offset, size, ptr, num_events, wait_list, event))
HOOK_ENQUEUE(clEnqueueWriteBuffer,
             (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, const void *ptr,
              cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, buffer, blocking, offset, size, ptr, num_events, wait_list, event))
HOOK_ENQUEUE(clEnqueueFillBuffer,
             (cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
              size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, buffer, pattern, pattern_size, offset, size, num_events, wait_list, event))
/* A map fails as a buffer's creation does; its pointer is not an object the library holds. */
__typeof__(clEnqueueMapBuffer) clscan_fault_clEnqueueMapBuffer;
void *clscan_fault_clEnqueueMapBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                                      size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                                      cl_event *event, cl_int *errcode_ret)
{
    cl_int code = FIRE("clEnqueueMapBuffer", alloc_codes);
    if (code != CL_SUCCESS) {
        if (errcode_ret)
            *errcode_ret = code;
        return NULL;
    }
    void *p = clEnqueueMapBuffer(queue, buffer, blocking, flags, offset, size, num_events, wait_list, event, errcode_ret);
    if (p && event)
        hold(&cl_objects, *event);
    return p;
}
HOOK_ENQUEUE(clEnqueueUnmapMemObject,
             (cl_command_queue queue, cl_mem mem, void *mapped, cl_uint num_events, const cl_event *wait_list,
              cl_event *event),
             (queue, mem, mapped, num_events, wait_list, event))
HOOK_ENQUEUE(clEnqueueBarrierWithWaitList,
             (cl_command_queue queue, cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, num_events, wait_list, event))

/* ---- host allocators: NULL and ENOMEM, as the C library fails -------------------------------- */
static int host_fault(const char *name)
{
    if (!fire(FAULT_HOST, name))
        return 0;
    errno = ENOMEM;
    return 1;
}

__typeof__(malloc) clscan_fault_malloc;
void *clscan_fault_malloc(size_t size)
{
    void *p = host_fault("malloc") ? NULL : malloc(size);
    hold(&host_blocks, p);
    return p;
}

__typeof__(calloc) clscan_fault_calloc;
void *clscan_fault_calloc(size_t count, size_t size)
{
    void *p = host_fault("calloc") ? NULL : calloc(count, size);
    hold(&host_blocks, p);
    return p;
}

__typeof__(realloc) clscan_fault_realloc;
void *clscan_fault_realloc(void *old, size_t size)
{
    if (host_fault("realloc"))
        return NULL;   /* old stays the caller's */
    /* The old block's entry is found before the call: old itself is not touched after it. */
    held *entry = NULL;
    for (size_t i = 0; old && i < host_blocks.count && !entry; i++)
        if (host_blocks.items[i].obj == old)
            entry = &host_blocks.items[i];
    void *p = realloc(old, size);
    if (p && entry)
        entry->obj = p;
    else if (p) {
        host_blocks.foreign += old != NULL;   /* as drop() counts a block it never saw */
        hold(&host_blocks, p);
    }
    return p;
}

/* Blocks the C library allocated for the library (realpath's) are freed here too: not counted. */
__typeof__(free) clscan_fault_free;
void clscan_fault_free(void *p)
{
    if (p) {
        unsigned long foreign = host_blocks.foreign;
        drop(&host_blocks, p);
        host_blocks.foreign = foreign;
    }
    free(p);
}
