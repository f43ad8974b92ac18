/* Probe: NVIDIA's register count for a source file, given defines (-cl-nv-verbose). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long len = ftell(f); rewind(f);
    char *src = malloc(len + 1); fread(src, 1, len, f); src[len] = 0; fclose(f);
    cl_platform_id p; cl_device_id d; clGetPlatformIDs(1, &p, NULL); clGetDeviceIDs(p, argc > 3 ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &d, NULL);
    cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    cl_program pr = clCreateProgramWithSource(c, 1, (const char **)&src, NULL, &e);
    e = clBuildProgram(pr, 1, &d, argc > 3 ? "-cl-std=CL1.2" : "-cl-std=CL1.2 -cl-nv-verbose", NULL, NULL);
    static char log[1 << 20]; clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    int show = 0;
    for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n")) {
        if (strstr(l, "Function properties for")) show = strstr(l, argv[2]) != NULL;
        if (show || e) printf("%s\n", l);
    }
    return e != 0;
}
