/* gac-sgemm-il MODULE.spv [N]: bench/cuda/sgemm_fast.cl (128 x 128 tiles,
 * 16 x 16 work-items, two 2D copies per K step, a 3-stage
 * gac_pipeline_loop) as an unmodified host program runs it: the module
 * gac-cc writes (raised, its pipeline annotations kept) given to
 * clCreateProgramWithIL, which only the gac layer (OPENCL_LAYERS) can
 * build. C = A B for N x N (default 256, a multiple of 128), checked
 * against a host reference; prints the platform, its IL versions, the
 * time of the build and the median of 5 runs. Exit 1 on a wrong result. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 210
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_device.h"
#include "subprocess.h"

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: gac-sgemm-il MODULE.spv [N]\n");
    return 2;
  }
  unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 256;
  if (n == 0 || n % 128) {
    fprintf(stderr, "gac-sgemm-il: N must be a positive multiple of 128\n");
    return 2;
  }
  size_t il_size;
  char *il = gac_read_file(argv[1], &il_size);
  if (!il) {
    fprintf(stderr, "gac-sgemm-il: cannot read %s\n", argv[1]);
    return 2;
  }
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  if (!gac_cl_open_first("gac-sgemm-il", CL_DEVICE_TYPE_ALL, &device, &context, &queue))
    return 1;
  cl_platform_id platform;
  char version[256] = "", ils[1024] = "(none)";
  clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL);
  clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version, version, NULL);
  clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof ils - 1, ils, NULL);
  printf("platform: %s; IL versions: %s\n", version, ils);

  cl_int err;
  double t0 = now_ms();
  cl_program p = clCreateProgramWithIL(context, il, il_size, &err);
  if (err == CL_SUCCESS)
    err = clBuildProgram(p, 1, &device, "", NULL, NULL);
  double build_ms = now_ms() - t0;
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    if (p)
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("FAIL build: error %d\n%s\n", err, log);
    return 1;
  }
  cl_kernel k = clCreateKernel(p, "sgemm_fast", &err);
  size_t count = (size_t)n * n;
  float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), *c = malloc(count * sizeof *c);
  for (size_t i = 0; i < count; i++) {
    a[i] = (float)((i * 7) % 13) - 6.0f;
    b[i] = (float)((i * 5) % 11) - 5.0f;
  }
  cl_mem A = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof *a, a, &err);
  cl_mem B = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof *b, b, &err);
  cl_mem C = clCreateBuffer(context, CL_MEM_WRITE_ONLY, count * sizeof *c, NULL, &err);
  cl_uint un = n;
  clSetKernelArg(k, 0, sizeof A, &A);
  clSetKernelArg(k, 1, sizeof B, &B);
  clSetKernelArg(k, 2, sizeof C, &C);
  clSetKernelArg(k, 3, sizeof un, &un);
  size_t global[2] = {n / 8, n / 8}, local[2] = {16, 16};
  double times[5];
  for (int r = 0; r < 5 && err == CL_SUCCESS; r++) {
    double s = now_ms();
    err = clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clFinish(queue);
    times[r] = now_ms() - s;
  }
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(queue, C, CL_TRUE, 0, count * sizeof *c, c, 0, NULL, NULL);
  if (err != CL_SUCCESS) {
    printf("FAIL run: error %d\n", err);
    return 1;
  }
  /* Small integers: every product and sum is exact in float. */
  size_t wrong = 0;
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < n; j++) {
      double s = 0;
      for (unsigned q = 0; q < n; q++)
        s += (double)a[(size_t)i * n + q] * b[(size_t)q * n + j];
      if (fabs(s - c[(size_t)i * n + j]) > 0)
        wrong++;
    }
  qsort(times, 5, sizeof *times, cmp);
  printf("%s n=%u: build %.0f ms, run median %.2f ms (%.2f GFLOP/s), %zu of %zu wrong\n", wrong ? "FAIL" : "PASS", n,
         build_ms, times[2], 2.0 * n * n * n / (times[2] * 1e6), wrong, count);
  return wrong ? 1 : 0;
}
