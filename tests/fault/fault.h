/* Fault injection for the tests of tests/fault: the library is built again with every OpenCL entry
 * point and host allocator it calls renamed to clscan_fault_<name> (CMakeLists.txt); hooks.c defines
 * those. A hook counts its call, fails the armed one with a code drivers really return, else forwards
 * to the real function. The hooks also keep the CL objects and host blocks the library holds, so a
 * test sees leaks. Single-threaded use only (the tests drive one context from one thread). */
#ifndef CLSCAN_FAULT_H
#define CLSCAN_FAULT_H
#include <CL/cl.h>
#include <stddef.h>

typedef enum fault_kind { FAULT_CL, FAULT_HOST } fault_kind;

/* From now on, the n-th call (from 1) of the kind fails, once; name (NULL: any) counts only the calls
 * of that entry point. Resets the call counters. */
void fault_arm(fault_kind kind, const char *name, unsigned long n);
/* No fault from now on (counting goes on). */
void fault_disarm(void);
/* Whether the armed fault fired; if so its entry point and CL code (CL_SUCCESS for host allocators). */
int fault_fired(const char **name, cl_int *code);
/* Calls of the kind since fault_arm (those of name only, when the fault was armed with one). */
unsigned long fault_calls(fault_kind kind);
/* The entry point of the k-th OpenCL call (from 1) since fault_arm, NULL past the recorded ones. */
const char *fault_trace(unsigned long k);

/* References the library holds on CL objects it created or retained, and host blocks it allocated. */
size_t fault_live_cl(void);
size_t fault_live_host(void);
/* Releases of CL objects the library never created or retained (the caller's, say), since fault_arm. */
unsigned long fault_foreign_releases(void);
/* Forgets what the library holds: a test that failed half-way leaves its objects to no one. */
void fault_forget(void);
/* Buffers the library creates without host data start as this byte, as drivers leave them: not 0. */
#define FAULT_NEW_BUFFER_BYTE 0x5A
#endif
