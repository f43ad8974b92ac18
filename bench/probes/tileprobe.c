/* A probe of our own, not part of the library (bench/notebook.md, 2026-11-28, twelfth session): what
 * holds a single-pass scan below the copy roof? Kernels of increasing structure over 2^LOG uint32
 * (argument 1, default 28), each timed beside clEnqueueCopyBuffer (median of 21 calls + finish, wall
 * clock) and every output checked against the host. VARIANTS="kernel,WG,ITEMS,groups_per_cu,FLAGS;..."
 * picks them: copy1 / copy4 (an element / a uint4 a work-item), or tiles (groups_per_cu 0: a group a
 * tile) with FLAGS among
 *   TICKET  tiles from an atomic counter (else group g takes g, g + groups, ...)
 *   LOCALT  through local memory into each work-item's run and back, runs scanned
 *   LB      a decoupled look-back (status words with an epoch; outputs get the tile's prefix)
 *   W64 W128 W256  the look-back's window (default 32), PAR folds it in parallel (else one work-item)
 *   STAGE   the scanned runs wait in local memory, not registers, until the tile's prefix is known
 *   PIPE    the next tile is taken and its loads issued before the look-back
 *   EARLY   the tile's total from the loaded registers, published before the local pass
 *   REDPUB / ONCE  no look-back reads / one round only (wrong results: costs taken apart)
 *   STATS   look-back rounds a tile; CS / NC  PTX store / load cache hints (NVIDIA only)
 *   As the library does it (thirteenth session), with LOCALT LB and neither PAR nor STAGE:
 *   TWOSLOT aggregate and prefix in words of their own, both read a predecessor
 *   ALLFOLD every work-item folds the window and walks with its own copy of the state
 *   GSCAN   the run totals scanned across the group (Hillis-Steele), not only reduced: the output is
 *           the true inclusive scan
 * NVV=1 prints NVIDIA's register counts (-cl-nv-verbose). Build: gcc -O2 -D_GNU_SOURCE tileprobe.c -lOpenCL. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *src =
    "#if HINT_CS\n"
    "void st(__global uint *p, uint v){ __asm__ volatile(\"st.global.cs.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\"); }\n"
    "#else\n"
    "void st(__global uint *p, uint v){ *p = v; }\n"
    "#endif\n"
    "#if HINT_NC\n"
    "uint ld(__global const uint *p){ uint v; __asm__ volatile(\"ld.global.nc.L1::no_allocate.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); return v; }\n"
    "#else\n"
    "uint ld(__global const uint *p){ return *p; }\n"
    "#endif\n"
    "__kernel void copy1(__global const uint *in, __global uint *out){ size_t i=get_global_id(0); out[i]=in[i]; }\n"
    "__kernel void copy4(__global const uint4 *in, __global uint4 *out){ size_t i=get_global_id(0); out[i]=in[i]; }\n"
    "#define TILE (WG*ITEMS)\n"
    "#define SA(t) status[TWOSLOT ? 2 * (t) : (t)]\n"
    "#define SP(t) status[TWOSLOT ? 2 * (t) + 1 : (t)]\n"
    "uint seen(__global ulong *status, long j, uint epoch, uint *val)\n"
    "{\n"
    "  ulong ww = *(volatile __global ulong *)&SP(j);\n"
    "  uint f = ((uint)ww >> 2) == epoch ? ((uint)ww & 3u) : 0u;\n"
    "#if TWOSLOT\n"
    "  ulong wa = *(volatile __global ulong *)&SA(j);\n"
    "  if (f != 2) { f = ((uint)wa >> 2) == epoch ? ((uint)wa & 3u) : 0u; ww = wa; }\n"
    "#endif\n"
    "  *val = (uint)(ww >> 32);\n"
    "  return f;\n"
    "}\n"
    "uint take(__global uint *counter, __local uint *next, uint t)\n"
    "{\n"
    "#if TICKET\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (get_local_id(0) == 0) *next = atomic_inc(counter);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  return *next;\n"
    "#else\n"
    "  return t;\n"
    "#endif\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(WG,1,1)))\n"
    "void tiles(__global const uint *in, __global uint *out, __global uint *counter, __global ulong *status,\n"
    "           uint num_tiles, uint epoch)\n"
    "{\n"
    "  __local uint tile[TILE + TILE/32];\n"
    "  __local uint red[WG], red2[WG]; __local uint next, lb_flag[WIN], lb_val[WIN], lb_rounds, lb_base, lb_prefix, lb_done, lb_cut;\n"
    "  const uint lid = get_local_id(0);\n"
    "  uint v[ITEMS];\n"
    "#if PIPE && !STAGE\n"
    "  uint w[ITEMS];\n"
    "#endif\n"
    "  uint t = take(counter, &next, get_group_id(0));\n"
    "  if (t < num_tiles) for (uint i = 0; i < ITEMS; i++) v[i] = ld(in + (size_t)t * TILE + i*WG + lid);\n"
    "  while (t < num_tiles) {\n"
    "    __global uint *d = out + (size_t)t * TILE;\n"
    "    uint t2 = t + get_num_groups(0);\n"
    "#if LOCALT\n"
    "    uint prefix = 0, total = 0, excl = 0;\n"
    "#if LB && EARLY\n"
    "    { uint s = 0; for (uint i = 0; i < ITEMS; i++) s += v[i]; red[lid] = s; }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint o = WG/2; o > 0; o >>= 1) { if (lid < o) red[lid] += red[lid+o]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "    total = red[0];\n"
    "    if (lid == 0 && t > 0) atom_xchg((volatile __global ulong *)&SA(t), ((ulong)total << 32) | (epoch << 2) | 1u);\n"
    "#endif\n"
    "    for (uint i = 0; i < ITEMS; i++) { uint x = i*WG + lid; tile[x + x/32] = v[i]; }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    uint run = 0;\n"
    "#if STAGE\n"
    "    for (uint i = 0; i < ITEMS; i++) { uint x = lid*ITEMS + i; run += tile[x + x/32]; tile[x + x/32] = run; }\n"
    "#else\n"
    "    for (uint i = 0; i < ITEMS; i++) { uint x = lid*ITEMS + i; run += tile[x + x/32]; v[i] = run; }\n"
    "#endif\n"
    "#if LB\n"
    "#if !EARLY\n"
    "#if GSCAN\n"
    "    { __local uint *src = red, *dst = red2; src[lid] = run;\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      for (uint o = 1; o < WG; o <<= 1) { uint x = src[lid]; if (lid >= o) x += src[lid - o]; dst[lid] = x;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE); __local uint *tmp = src; src = dst; dst = tmp; }\n"
    "      total = src[WG - 1]; excl = src[lid] - run; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "#else\n"
    "    red[lid] = run;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint o = WG/2; o > 0; o >>= 1) { if (lid < o) red[lid] += red[lid+o]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "    total = red[0];\n"
    "#endif\n"
    "    if (lid == 0 && t > 0) atom_xchg((volatile __global ulong *)&SA(t), ((ulong)total << 32) | (epoch << 2) | 1u);\n"
    "#endif\n"
    "#endif\n"
    "#endif\n"
    "#if PIPE\n"
    "    t2 = take(counter, &next, t2);\n"
    "#if STAGE\n"
    "    if (t2 < num_tiles) for (uint i = 0; i < ITEMS; i++) v[i] = ld(in + (size_t)t2 * TILE + i*WG + lid);\n"
    "#else\n"
    "    if (t2 < num_tiles) for (uint i = 0; i < ITEMS; i++) w[i] = ld(in + (size_t)t2 * TILE + i*WG + lid);\n"
    "#endif\n"
    "#endif\n"
    "#if LOCALT\n"
    "#if LB\n"
    "    if (lid == 0) { lb_prefix = 0; lb_base = t; lb_done = (t == 0) || REDPUB; lb_rounds = 0; }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#if PAR\n"
    "    if (lid == 0) lb_cut = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    while (!lb_done) {\n"
    "      uint f = 2, val = 0;\n"
    "      if (lid < WIN) {\n"
    "        long j = (long)lb_base - WIN + lid;\n"
    "        if (j >= 0) f = seen(status, j, epoch, &val);\n"
    "        if (f != 1) atomic_max(&lb_cut, (lid + 1) * 4 + f);\n"
    "      }\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      const uint cut = lb_cut, c = cut >> 2, cf = cut & 3u;\n"
    "      const uint inc = lid < WIN && (c == 0 || (cf == 2 ? lid + 1 >= c : lid >= c));\n"
    "      red[lid] = inc ? val : 0u;\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      for (uint o = WIN/2; o > 0; o >>= 1) { if (lid < o) red[lid] += red[lid+o]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "      if (lid == 0) { lb_prefix += red[0]; lb_done = (c > 0 && cf == 2) || ONCE;\n"
    "        const uint used = c == 0 ? WIN : WIN - c; lb_base -= used; lb_cut = 0;\n"
    "        lb_rounds += 1 + (used == 0 && !lb_done ? 0x10000u : 0u); }\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "#elif ALLFOLD\n"
    "    uint my_prefix = 0, my_done = (t == 0) || REDPUB; long my_base = t;\n"
    "    while (!my_done) {\n"
    "      if (lid < WIN) {\n"
    "        long j = my_base - 1 - lid; uint f = 2, val = 0;\n"
    "        if (j >= 0) f = seen(status, j, epoch, &val);\n"
    "        lb_flag[lid] = f; lb_val[lid] = val;\n"
    "      }\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      uint acc = 0, i = 0, done = 0;\n"
    "      for (; i < WIN && !done && lb_flag[i] != 0; i++) { acc += lb_val[i]; done = lb_flag[i] == 2; }\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      my_prefix += acc; my_base -= i; my_done = done || ONCE;\n"
    "    }\n"
    "    if (lid == 0) lb_prefix = my_prefix;\n"
    "#else\n"
    "    while (!lb_done) {\n"
    "      if (lid < WIN) {\n"
    "        long j = (long)lb_base - 1 - lid; uint f = 2, val = 0;\n"
    "        if (j >= 0) f = seen(status, j, epoch, &val);\n"
    "        lb_flag[lid] = f; lb_val[lid] = val;\n"
    "      }\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      if (lid == 0) { uint acc = 0, i = 0, done = 0;\n"
    "        for (; i < WIN; i++) { uint f = lb_flag[i]; if (!f) break; acc += lb_val[i]; if (f == 2) { done = 1; break; } }\n"
    "        lb_prefix += acc; lb_base -= i; lb_done = done || ONCE; lb_rounds += 1 + (i == 0 && !done ? 0x10000u : 0u); }\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "#endif\n"
    "#if ALLFOLD && !PAR\n"
    "    prefix = my_prefix;\n"
    "#else\n"
    "    prefix = lb_prefix;\n"
    "#endif\n"
    "    if (lid == 0 && STATS) { atomic_add(&counter[1], lb_rounds & 0xFFFFu); atomic_add(&counter[2], lb_rounds >> 16); }\n"
    "    if (lid == 0) atom_xchg((volatile __global ulong *)&SP(t), ((ulong)(prefix + total) << 32) | (epoch << 2) | 2u);\n"
    "#endif\n"
    "#if STAGE\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = 0; i < ITEMS; i++) { uint x = i*WG + lid; st(d + i*WG + lid, tile[x + x/32] + prefix); }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#else\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = 0; i < ITEMS; i++) { uint x = lid*ITEMS + i; tile[x + x/32] = v[i] + prefix + excl; }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = 0; i < ITEMS; i++) { uint x = i*WG + lid; v[i] = tile[x + x/32]; }\n"
    "#endif\n"
    "#endif\n"
    "#if !(STAGE && LOCALT)\n"
    "    for (uint i = 0; i < ITEMS; i++) st(d + i*WG + lid, v[i]);\n"
    "#endif\n"
    "#if PIPE && !STAGE\n"
    "    for (uint i = 0; i < ITEMS; i++) v[i] = w[i];\n"
    "#elif PIPE\n"
    "#else\n"
    "    t2 = take(counter, &next, t2);\n"
    "    if (t2 < num_tiles) for (uint i = 0; i < ITEMS; i++) v[i] = ld(in + (size_t)t2 * TILE + i*WG + lid);\n"
    "#endif\n"
    "    t = t2;\n"
    "  }\n"
    "}\n"
    ;

#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s:%d: %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)
static cl_context ctx; static cl_command_queue q; static cl_device_id dev;
static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6; }
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static int R = 21;

static cl_program build(const char *opts)
{
    cl_int e; cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e); CK(e);
    if (clBuildProgram(p, 1, &dev, opts, NULL, NULL)) {
        char log[20000] = ""; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "build %s failed:\n%s\n", opts, log); return NULL;
    }
    if (getenv("NVV")) {
        char log[20000] = ""; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n"))
            if (strstr(l, "registers") || strstr(l, "Function properties for tiles")) printf("    %s\n", l);
    }
    return p;
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 28;
    size_t n = (size_t)1 << lg;
    cl_platform_id plats[4]; cl_uint np; CK(clGetPlatformIDs(4, plats, &np));
    int found = 0;
    for (cl_uint i = 0; i < np && !found; i++) found = !clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
    if (!found) CK(clGetDeviceIDs(plats[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    char name[256]; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    cl_uint cus; clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    cl_int e; ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e);
    q = clCreateCommandQueue(ctx, dev, 0, &e); CK(e);
    uint32_t *h = malloc(n * 4), *o = malloc(n * 4);
    srand(7); for (size_t i = 0; i < n; i++) h[i] = (uint32_t)rand() & 0xFFFF;
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, h, &e); CK(e);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, NULL, &e); CK(e);
    cl_mem counter = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, NULL, &e); CK(e);
    cl_mem status = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (n / 1024 + 64) * 8, NULL, &e); CK(e);
    { cl_ulong z = 0; CK(clEnqueueFillBuffer(q, status, &z, 8, 0, (n / 1024 + 64) * 8, 0, NULL, NULL)); }
    printf("%s, %u CUs, n = 2^%d uint32, medians of %d (ms), ratio = copy / variant\n", name, cus, lg, R);
    double t[64];
    /* copy roof */
    for (int r = 0; r < R + 2; r++) {
        double a = now(); CK(clEnqueueCopyBuffer(q, in, out, 0, 0, n * 4, 0, NULL, NULL)); CK(clFinish(q));
        if (r >= 2) t[r - 2] = now() - a;
    }
    qsort(t, R, sizeof *t, cmpd); double roof = t[R / 2];
    printf("%-44s %8.4f  1.000\n", "clEnqueueCopyBuffer", roof);
    const char *vars = getenv("VARIANTS");
    char buf[4096]; strncpy(buf, vars ? vars : "", sizeof buf - 1);
    uint32_t epoch = 0;
    char *save = NULL;
    for (char *v = strtok_r(buf, ";", &save); v; v = strtok_r(NULL, ";", &save)) {
        /* a variant: kernel,WG,ITEMS,groups_per_cu(0 = a group a tile),flags(TICKET LOCALT LB HINT_CS HINT_NC) */
        char kname[32]; int wg, items, gpc; char flags[256] = "";
        if (sscanf(v, "%31[^,],%d,%d,%d,%255[^;]", kname, &wg, &items, &gpc, flags) < 4) { fprintf(stderr, "bad %s\n", v); continue; }
        char padded[300]; snprintf(padded, sizeof padded, " %s ", flags);
#define HAS(x) (strstr(padded, " " x " ") != NULL)
        char opts[512];
        snprintf(opts, sizeof opts, "-DWG=%d -DITEMS=%d -DTICKET=%d -DLOCALT=%d -DLB=%d -DHINT_CS=%d -DHINT_NC=%d -DPIPE=%d -DEARLY=%d -DREDPUB=%d -DONCE=%d -DWIN=%d -DSTATS=%d -DPAR=%d -DSTAGE=%d -DTWOSLOT=%d -DALLFOLD=%d -DGSCAN=%d", wg, items,
                 HAS("TICKET"), HAS("LOCALT"), HAS("LB"), HAS("CS"),
                 HAS("NC"), HAS("PIPE"), HAS("EARLY"), HAS("REDPUB"), HAS("ONCE"), HAS("W64") ? 64 : HAS("W128") ? 128 : HAS("W256") ? 256 : 32, HAS("STATS"), HAS("PAR"), HAS("STAGE"), HAS("TWOSLOT"), HAS("ALLFOLD"), HAS("GSCAN"));
        if (getenv("NVV")) strcat(opts, " -cl-nv-verbose");
        cl_program p = build(opts); if (!p) continue;
        cl_kernel k = clCreateKernel(p, kname, &e); CK(e);
        size_t tilesz = (size_t)wg * items, ntiles = n / tilesz, gsz, lsz = wg;
        int lb = HAS("LB");
        if (!strcmp(kname, "copy1")) gsz = n; else if (!strcmp(kname, "copy4")) gsz = n / 4;
        else gsz = (gpc ? (size_t)gpc * cus : ntiles) * wg;
        if (gsz > n) gsz = n;
        CK(clSetKernelArg(k, 0, sizeof in, &in)); CK(clSetKernelArg(k, 1, sizeof out, &out));
        if (!strcmp(kname, "tiles")) {
            cl_uint nt = (cl_uint)ntiles;
            CK(clSetKernelArg(k, 2, sizeof counter, &counter)); CK(clSetKernelArg(k, 3, sizeof status, &status));
            CK(clSetKernelArg(k, 4, 4, &nt));
        }
        int bad = 0;
        for (int r = 0; r < R + 2; r++) {
            uint32_t poison = 0xDEADBEEF, z = 0;
            if (r == 1) CK(clEnqueueFillBuffer(q, out, &poison, 4, 0, n * 4, 0, NULL, NULL));
            CK(clEnqueueFillBuffer(q, counter, &z, 4, 0, 16, 0, NULL, NULL));
            epoch++; if (!strcmp(kname, "tiles")) CK(clSetKernelArg(k, 5, 4, &epoch));
            CK(clFinish(q));
            double a = now();
            CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gsz, &lsz, 0, NULL, NULL)); CK(clFinish(q));
            if (r >= 2) t[r - 2] = now() - a;
            if (r == 1) {
                CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * 4, o, 0, NULL, NULL));
                int localt = HAS("LOCALT");
                uint32_t pre = 0, run = 0, tsum = 0;
                for (size_t i = 0; i < n && bad < 3; i++) {
                    if (i % (HAS("GSCAN") ? tilesz : (size_t)items) == 0) run = 0;
                    run += h[i]; tsum += h[i];
                    uint32_t want = localt ? (lb ? pre : 0) + run : h[i];
                    if (o[i] != want) { if (!bad) printf("  mismatch at %zu: %u want %u\n", i, o[i], want); bad++; }
                    if (i % tilesz == tilesz - 1) { pre += tsum; tsum = 0; }
                }
                (void)pre;
            }
        }
        if (HAS("STATS")) { uint32_t c[4]; CK(clEnqueueReadBuffer(q, counter, CL_TRUE, 0, 16, c, 0, NULL, NULL));
            printf("  per tile (last run): %.2f look-back rounds, %.2f of them finding nothing new\n", (double)c[1] / ntiles, (double)c[2] / ntiles); }
        qsort(t, R, sizeof *t, cmpd);
        char label[300]; snprintf(label, sizeof label, "%s %dx%d g/cu=%d %s", kname, wg, items, gpc, flags);
        printf("%-44s %8.4f  %.3f%s\n", label, t[R / 2], roof / t[R / 2], bad ? "  WRONG" : "");
        fflush(stdout);
        clReleaseKernel(k); clReleaseProgram(p);
    }
    return 0;
}
