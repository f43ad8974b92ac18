/* A probe of our own, not part of the library: where a call's device time goes, kernel by kernel.
 * Loaded with LD_PRELOAD in front of the OpenCL ICD loader, it makes every command queue a profiling
 * one, takes (or keeps a reference to) the event of every kernel launch, buffer fill and buffer copy,
 * and at exit prints, for each (program, kernel, global size) in the order first seen, the launches,
 * their total and mean device time (CL_PROFILING_COMMAND_START to END), and the same for fills and
 * copies by size. A program is numbered in the order its first kernel ran, so the rows of one
 * clscan-bench operation stay together (one operation a program: run one --ops and one size at a time).
 * Profiling queues may cost a little on their own; the figures are for shares, not for records.
 * Build: cc -O2 -shared -fPIC bench/probes/kernel-times.c -o /tmp/kernel-times.so -ldl
 * Run:   LD_PRELOAD=/tmp/kernel-times.so ./clscan-bench --auto-only --ops sort --types uint32 \
 *          --min-log 28 --max-log 28 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KT_ROWS = 512, KT_PENDING = 8192, KT_NAME = 64 };

typedef struct kt_row {
    const void *program;            /* NULL for fills and copies */
    char name[KT_NAME];
    size_t size;                    /* global work size, or bytes */
    unsigned long calls;
    double total_us;
} kt_row;

static kt_row rows[KT_ROWS];
static int row_count, dropped;
static const void *programs[KT_ROWS];
static int program_count;
static struct { cl_event event; int row; } pending[KT_PENDING];
static int pending_count;

#define KT_REAL(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))

static int program_number(const void *program)
{
    for (int i = 0; i < program_count; i++)
        if (programs[i] == program)
            return i;
    if (program_count < KT_ROWS)
        programs[program_count++] = program;
    return program_count - 1;
}

static int row_of(const void *program, const char *name, size_t size)
{
    for (int i = 0; i < row_count; i++)
        if (rows[i].program == program && rows[i].size == size && strcmp(rows[i].name, name) == 0)
            return i;
    if (row_count == KT_ROWS)
        return -1;
    kt_row *r = &rows[row_count];
    r->program = program, r->size = size;
    snprintf(r->name, sizeof r->name, "%s", name);
    if (program)
        program_number(program);
    return row_count++;
}

/* Every pending event's time into its row (each is complete after a finish or a wait). */
static void harvest(void)
{
    for (int i = 0; i < pending_count; i++) {
        cl_ulong start = 0, end = 0;
        if (clWaitForEvents(1, &pending[i].event) == CL_SUCCESS &&
            clGetEventProfilingInfo(pending[i].event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) ==
                CL_SUCCESS &&
            clGetEventProfilingInfo(pending[i].event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) == CL_SUCCESS) {
            rows[pending[i].row].calls++;
            rows[pending[i].row].total_us += (double)(end - start) / 1e3;
        } else {
            dropped++;
        }
        clReleaseEvent(pending[i].event);
    }
    pending_count = 0;
}

/* Keeps the command's event: the caller's (retained) or our own (which the caller never sees). */
static cl_event *event_slot(cl_event *caller, cl_event *own)
{
    return caller ? caller : own;
}

static void keep(cl_int err, cl_event *caller, cl_event own, int row)
{
    if (err != CL_SUCCESS)
        return;
    cl_event e = caller ? *caller : own;
    if (caller)
        clRetainEvent(e);
    if (row < 0) {
        dropped++;
        clReleaseEvent(e);
        return;
    }
    if (pending_count == KT_PENDING)
        harvest();
    pending[pending_count].event = e, pending[pending_count].row = row;
    pending_count++;
}

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device, cl_command_queue_properties props,
                                      cl_int *errcode_ret)
{
    return KT_REAL(clCreateCommandQueue)(context, device, props | CL_QUEUE_PROFILING_ENABLE, errcode_ret);
}

cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset,
                              const size_t *global, const size_t *local, cl_uint waits, const cl_event *wait_list,
                              cl_event *event)
{
    cl_event own = NULL;
    cl_int err = KT_REAL(clEnqueueNDRangeKernel)(queue, kernel, dims, offset, global, local, waits, wait_list,
                                                 event_slot(event, &own));
    char name[KT_NAME] = "?";
    cl_program program = NULL;
    clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL);
    keep(err, event, own, row_of(program, name, global ? global[0] : 0));
    return err;
}

cl_int clEnqueueFillBuffer(cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size,
                           size_t offset, size_t size, cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    cl_event own = NULL;
    cl_int err = KT_REAL(clEnqueueFillBuffer)(queue, buffer, pattern, pattern_size, offset, size, waits, wait_list,
                                              event_slot(event, &own));
    keep(err, event, own, row_of(NULL, "(fill)", size));
    return err;
}

cl_int clEnqueueCopyBuffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                           size_t size, cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    cl_event own = NULL;
    cl_int err = KT_REAL(clEnqueueCopyBuffer)(queue, src, dst, src_offset, dst_offset, size, waits, wait_list,
                                              event_slot(event, &own));
    keep(err, event, own, row_of(NULL, "(copy)", size));
    return err;
}

cl_int clFinish(cl_command_queue queue)
{
    cl_int err = KT_REAL(clFinish)(queue);
    harvest();
    return err;
}

__attribute__((destructor)) static void report(void)
{
    harvest();
    if (row_count == 0)   /* a process the tool started (a shell, gnuplot) under the same LD_PRELOAD */
        return;
    fprintf(stderr, "kernel-times: %-8s %-34s %12s %8s %12s %10s\n", "program", "kernel", "global/bytes", "calls",
            "total ms", "mean us");
    for (int i = 0; i < row_count; i++) {
        const kt_row *r = &rows[i];
        char program[16] = "-";
        if (r->program)
            snprintf(program, sizeof program, "#%d", program_number(r->program));
        fprintf(stderr, "kernel-times: %-8s %-34s %12zu %8lu %12.3f %10.2f\n", program, r->name, r->size, r->calls,
                r->total_us / 1e3, r->calls ? r->total_us / (double)r->calls : 0.0);
    }
    if (dropped)
        fprintf(stderr, "kernel-times: %d command(s) not timed (no profiling info or out of rows)\n", dropped);
}
