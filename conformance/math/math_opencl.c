/* gac-math-opencl: the math accuracy suite (math_suite.h) on the first
 * OpenCL device, from math.cl's source. Under CTest it runs through gac's
 * layer on PoCL: the references, domains and bounds that judge the PTX path
 * on a GPU are themselves checked against a CPU implementation.
 *
 * Usage: gac-math-opencl DIR [--fast] [--known=K1,K2...]   (DIR holds math.cl)
 * GAC_MATH_PTX=FILE: the program is that PTX (gac's, --ptx-abi=opencl), as a
 * binary on the first GPU, for NVIDIA's OpenCL driver (docs/VENDOR.md).
 * GAC_MATH_IL=FILE: the program is that SPIR-V (gac-cc's module of math.cl),
 * given to clCreateProgramWithIL, which the gac layer serves on any device. */
#define CL_TARGET_OPENCL_VERSION 210
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cl_device.h"
#include "math_suite.h"
#include "subprocess.h"

typedef struct ocl {
  cl_context context;
  cl_command_queue queue;
  cl_program program;
} ocl;

static bool run(void *self, const char *name, unsigned arity, const void *const *in, const size_t *in_size, void *out,
                size_t out_size, size_t n, char *why, size_t why_len) {
  ocl *o = self;
  cl_int err;
  cl_kernel k = clCreateKernel(o->program, name, &err);
  if (err != CL_SUCCESS) {
    snprintf(why, why_len, "clCreateKernel(%s): %d", name, err);
    return false;
  }
  cl_mem mem[3] = {0};
  for (unsigned i = 0; i < arity && err == CL_SUCCESS; i++) {
    mem[i] = clCreateBuffer(o->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_size[i] * n, (void *)in[i], &err);
    if (err == CL_SUCCESS)
      err = clSetKernelArg(k, i, sizeof mem[i], &mem[i]);
  }
  if (err == CL_SUCCESS)
    mem[arity] = clCreateBuffer(o->context, CL_MEM_WRITE_ONLY, out_size * n, NULL, &err);
  if (err == CL_SUCCESS)
    err = clSetKernelArg(k, arity, sizeof mem[arity], &mem[arity]);
  size_t local = 64;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(o->queue, k, 1, NULL, &n, &local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(o->queue, mem[arity], CL_TRUE, 0, out_size * n, out, 0, NULL, NULL);
  if (err != CL_SUCCESS)
    snprintf(why, why_len, "running %s: OpenCL error %d", name, err);
  for (unsigned i = 0; i <= arity; i++)
    if (mem[i])
      clReleaseMemObject(mem[i]);
  clReleaseKernel(k);
  return err == CL_SUCCESS;
}

int main(int argc, char **argv) {
  bool fast;
  const char *known;
  if (!math_suite_args(argc, argv, "DIR", &fast, &known))
    return 2;
  ocl o = {0};
  cl_device_id device;
  const char *ptx = getenv("GAC_MATH_PTX"), *il = ptx ? NULL : getenv("GAC_MATH_IL");
  if (!gac_cl_open_first("gac-math-opencl", ptx ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, &device, &o.context,
                         &o.queue))
    return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/math.cl", argv[1]);
  size_t size = 0;
  const char *file = ptx ? ptx : il ? il : path;
  char *source = gac_read_file(file, &size);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", file);
    return 2;
  }
  cl_device_fp_config fp64 = 0;
  clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
  cl_int err;
  const char *text = source;
  size++; /* PTX with its NUL */
  const unsigned char *binary = (const unsigned char *)source;
  o.program = ptx  ? clCreateProgramWithBinary(o.context, 1, &device, &size, &binary, NULL, &err)
              : il ? clCreateProgramWithIL(o.context, source, size - 1, &err)
                   : clCreateProgramWithSource(o.context, 1, &text, NULL, &err);
  free(source); /* the program has its copy */
  if (err != CL_SUCCESS) {
    fprintf(stderr, "creating the program from %s: %d\n", file, err);
    return 1;
  }
  char options[4200];
  bool from_source = !ptx && !il;
  snprintf(options, sizeof options, "%s%s%s", from_source ? "-I " : "", from_source ? argv[1] : "",
           fast && !ptx ? " -cl-fast-relaxed-math" : "");
  err = clBuildProgram(o.program, 1, &device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    static char log[1 << 16];
    clGetProgramBuildInfo(o.program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "clBuildProgram: %d\n%s\n", err, log);
    return 1;
  }
  unsigned failed = math_suite_run(run, &o, fast, fp64 != 0, known, stdout);
  clReleaseProgram(o.program);
  clReleaseCommandQueue(o.queue);
  clReleaseContext(o.context);
  return failed ? 1 : 0;
}
