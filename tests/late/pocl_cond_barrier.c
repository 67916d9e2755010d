/* The PoCL 3.1 miscompile that crashed strategy=late with the 3- and
 * 4-stage pipelined kernels, in plain OpenCL C (no gac): a uniform if/else
 * whose one side has barriers and whose other side branches on the local
 * id loses the barrier side; PoCL compiles it to llvm.assume(!cond). The
 * pipelined prologues are such if/elses (`if (1 < count) { copy; commit }
 * else { commit }`), and the late runtime's leader work was a branch on the
 * local id; there a call that LLVM could not prove returns came before the
 * dropped code, so the kernel ran off its end into the next function.
 *
 * Each kernel should write 20 with count = 2 (the barrier side) and 2 with
 * count = 1. `divergent` is the bug's shape; `leader_call` is the shape the
 * late runtime now has (lowering/opencl/late/late_runtime.cl): the leader's work in
 * a function that is never inlined, called by every work-item with the
 * leader test as an argument. The test fails if leader_call is wrong; it
 * reports whether this PoCL still has the bug (exit 0 either way). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>

static const char *source =
    "kernel void divergent(global ulong *out, uint count) {\n"
    "  local ulong s[2];\n"
    "  bool lead = get_local_id(0) == 0;\n"
    "  if (lead) s[0] = s[1] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (1 < count) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lead) s[0] += 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lead) s[0] += 1;\n"
    "  } else {\n"
    "    if (lead) s[1] += 2;\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = s[0] * 10 + s[1];\n"
    "}\n"
    "__attribute__((noinline)) void add(local ulong *s, bool lead, int i, ulong v) { if (lead) s[i] += v; }\n"
    "kernel void leader_call(global ulong *out, uint count) {\n"
    "  local ulong s[2];\n"
    "  if (get_local_id(0) == 0) s[0] = s[1] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (1 < count) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    add(s, get_local_id(0) == 0, 0, 1);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    add(s, get_local_id(0) == 0, 0, 1);\n"
    "  } else {\n"
    "    add(s, get_local_id(0) == 0, 1, 2);\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = s[0] * 10 + s[1];\n"
    "}\n";

enum { LOCAL = 16, GROUPS = 2 };

/* Runs `name` with `count`; true when every work-item wrote `want`. */
static bool run(cl_context c, cl_command_queue q, cl_program p, const char *name, cl_uint count, cl_ulong want) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  size_t local = LOCAL, global = LOCAL * GROUPS;
  cl_ulong host[LOCAL * GROUPS] = {0};
  cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
  clSetKernelArg(k, 0, sizeof out, &out);
  clSetKernelArg(k, 1, sizeof count, &count);
  err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
  err |= clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
  bool ok = err == CL_SUCCESS;
  for (size_t i = 0; i < global; i++)
    ok &= host[i] == want;
  printf("%-11s count=%u: %llu (want %llu) %s\n", name, count, (unsigned long long)host[0], (unsigned long long)want,
         ok ? "right" : "WRONG");
  clReleaseMemObject(out);
  clReleaseKernel(k);
  return ok;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  cl_context c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(c, device, 0, &err);
  cl_program p = clCreateProgramWithSource(c, 1, &source, NULL, &err);
  if (clBuildProgram(p, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed: %s\n", log);
    return 1;
  }
  bool bug = !run(c, q, p, "divergent", 2, 20) | !run(c, q, p, "divergent", 1, 2);
  bool ok = run(c, q, p, "leader_call", 2, 20) & run(c, q, p, "leader_call", 1, 2);
  printf("this OpenCL %s the barrier side of a uniform if/else whose other side branches on the local id\n",
         bug ? "drops" : "keeps");
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
  return ok ? 0 : 1;
}
