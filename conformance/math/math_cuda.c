/* gac-math-cuda: the math accuracy suite (math_suite.h) on an NVIDIA GPU,
 * from the PTX that gac-opt --emit=ptx made of math.cl: the OpenCL C
 * library of the PTX path (libdevice and libclc, lowering/ptx/opencl_library.c)
 * judged by the same references and bounds as any OpenCL device.
 *
 * Usage: gac-math-cuda MATH.PTX [--fast] [--known=K1,K2...] */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math_suite.h"
#include "subprocess.h"

static const char *error_name(CUresult r) {
  const char *s = NULL;
  cuGetErrorName(r, &s);
  return s ? s : "unknown CUDA error";
}

static bool run(void *self, const char *name, unsigned arity, const void *const *in, const size_t *in_size, void *out,
                size_t out_size, size_t n, char *why, size_t why_len) {
  CUfunction f;
  CUresult r = cuModuleGetFunction(&f, *(CUmodule *)self, name);
  CUdeviceptr mem[3] = {0};
  void *params[3];
  for (unsigned i = 0; i < arity && r == CUDA_SUCCESS; i++) {
    r = cuMemAlloc(&mem[i], in_size[i] * n);
    if (r == CUDA_SUCCESS)
      r = cuMemcpyHtoD(mem[i], in[i], in_size[i] * n);
    params[i] = &mem[i];
  }
  if (r == CUDA_SUCCESS)
    r = cuMemAlloc(&mem[arity], out_size * n);
  params[arity] = &mem[arity];
  if (r == CUDA_SUCCESS)
    r = cuLaunchKernel(f, (unsigned)(n / 64), 1, 1, 64, 1, 1, 0, NULL, params, NULL);
  if (r == CUDA_SUCCESS)
    r = cuCtxSynchronize();
  if (r == CUDA_SUCCESS)
    r = cuMemcpyDtoH(out, mem[arity], out_size * n);
  for (unsigned i = 0; i <= arity; i++)
    if (mem[i])
      cuMemFree(mem[i]);
  if (r != CUDA_SUCCESS)
    snprintf(why, why_len, "%s: %s", name, error_name(r));
  return r == CUDA_SUCCESS;
}

int main(int argc, char **argv) {
  bool fast;
  const char *known;
  if (!math_suite_args(argc, argv, "MATH.PTX", &fast, &known))
    return 2;
  char *ptx = gac_read_file(argv[1], NULL);
  if (!ptx) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  CUdevice device;
  CUcontext context;
  CUmodule module;
  char log[8192] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(size_t)sizeof log};
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS)
    r = cuDeviceGet(&device, 0);
  if (r == CUDA_SUCCESS)
    r = cuDevicePrimaryCtxRetain(&context, device);
  if (r == CUDA_SUCCESS)
    r = cuCtxSetCurrent(context);
  if (r == CUDA_SUCCESS)
    r = cuModuleLoadDataEx(&module, ptx, 2, opts, values);
  free(ptx);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "loading %s: %s %s\n", argv[1], error_name(r), log);
    return 1;
  }
  unsigned failed = math_suite_run(run, &module, fast, true, known, stdout);
  cuModuleUnload(module);
  cuDevicePrimaryCtxRelease(device);
  return failed ? 1 : 0;
}
