/* icd.stack: gac's layer with another layer in OPENCL_LAYERS, above and
 * below it (tests/icd/ledger_layer.c, a small object-lifetime layer). A
 * program from OpenCL C with a 2D copy and one from SPIR-V, each released
 * before its kernel, as OpenCL allows: the kernel must still name it, and
 * the OpenCL C one still runs after buffers were made since. The ledger
 * prints its own errors and what was never released at exit.
 * Usage: stack_test RAISED.spv (a module with a kernel copy2d). */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int passed, failed;

static void report(const char *name, bool ok) {
  printf("%s %s\n", ok ? "PASS" : "FAIL", name);
  ok ? passed++ : failed++;
}

static const char *lines_cl =
    "kernel void lines(global const int *in, global int *out, local int *tile) {\n"
    "  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, sizeof(int), 4, 2, 8, 4, 0);\n"
    "  wait_group_events(1, &e);\n"
    "  size_t i = get_local_id(0);\n"
    "  out[i] = tile[i] * 2;\n"
    "}\n";

/* Builds p, makes its kernel, releases p, and checks the kernel names it. */
static cl_kernel kernel_outliving(cl_program p, cl_device_id device, const char *name, const char *what) {
  cl_int err = p ? clBuildProgram(p, 1, &device, NULL, NULL, NULL) : CL_INVALID_PROGRAM;
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, name, &err) : NULL;
  if (p)
    clReleaseProgram(p);
  cl_program owner = NULL;
  if (k)
    clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof owner, &owner, NULL);
  char label[160];
  snprintf(label, sizeof label, "%s: built, and its kernel names it after its release", what);
  report(label, k && owner == p);
  return k;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: stack_test RAISED.spv\n");
    return 2;
  }
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "stack_test: no OpenCL device\n");
    return 1;
  }
  report("the ledger layer is loaded", getenv("GAC_LEDGER_LOADED") != NULL);
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);

  cl_program p = clCreateProgramWithSource(context, 1, &lines_cl, NULL, &err);
  cl_kernel k = kernel_outliving(p, device, "lines", "OpenCL C with a 2D copy");
  int in[16], out[8], ok = 1;
  for (int i = 0; i < 16; i++)
    in[i] = i + 1;
  cl_mem a = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  cl_mem b = clCreateBuffer(context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
  if (k) {
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof b, &b);
    clSetKernelArg(k, 2, sizeof out, NULL);
    size_t n = 8;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, &n, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    for (int i = 0; i < 8; i++)
      ok &= out[i] == 2 * in[(i / 4) * 8 + i % 4];
    clReleaseKernel(k);
  }
  report("and the kernel runs after its program's release", k && err == CL_SUCCESS && ok);
  clReleaseMemObject(a);
  clReleaseMemObject(b);

  FILE *f = fopen(argv[1], "rb");
  long size = 0;
  void *il = NULL;
  if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && (il = malloc(size)) && fseek(f, 0, SEEK_SET) == 0 &&
      fread(il, 1, size, f) != (size_t)size)
    size = 0;
  if (f)
    fclose(f);
  p = il && size > 0 ? clCreateProgramWithIL(context, il, size, &err) : NULL;
  free(il);
  k = kernel_outliving(p, device, "copy2d", "SPIR-V with 2D copies");
  if (k)
    clReleaseKernel(k);

  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
