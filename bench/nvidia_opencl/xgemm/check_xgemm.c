/* check_xgemm.c: checks the README recipe for CLBlast's Xgemm (xgemm.cl) through NVIDIA's
 * OpenCL: row-major C = alpha*A*B + beta*C with A, B, C n x n, against a CPU reference.
 * Build (GPU machine): . bench/nvidia_opencl/nvidia_opencl.sh; gcc -O2 $NVCL_CFLAGS -Ibench/nvidia_opencl \
 *   bench/nvidia_opencl/xgemm/check_xgemm.c bench/nvidia_opencl/nvcl.c $NVCL_LIBS -o /tmp/check_xgemm
 * Run: /tmp/check_xgemm third_party/clblast/xgemm.cl [n]  (n a multiple of 64) */
#include "nvcl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  char *s = malloc(len + 1);
  if (fread(s, 1, len, f) != (size_t)len) exit(1);
  s[len] = 0; fclose(f); return s;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "third_party/clblast/xgemm.cl";
  int n = argc > 2 ? atoi(argv[2]) : 512;
  const float alpha = 1.5f, beta = 0.5f;
  size_t nn = (size_t)n * n;
  float *A = malloc(nn * 4), *B = malloc(nn * 4), *C = malloc(nn * 4), *AT = malloc(nn * 4),
        *R = malloc(nn * 4), *G = malloc(nn * 4);
  srand(1);
  for (size_t i = 0; i < nn; i++) {
    A[i] = (float)rand() / RAND_MAX - 0.5f; B[i] = (float)rand() / RAND_MAX - 0.5f;
    C[i] = (float)rand() / RAND_MAX - 0.5f;
  }
  for (int i = 0; i < n; i++)            /* AT = A^T, row-major: AT[k*n+i] = A[i*n+k] */
    for (int k = 0; k < n; k++) AT[(size_t)k * n + i] = A[(size_t)i * n + k];
  for (int i = 0; i < n; i++)            /* reference, row-major */
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += (double)A[(size_t)i * n + k] * B[(size_t)k * n + j];
      R[(size_t)i * n + j] = (float)(alpha * s + beta * C[(size_t)i * n + j]);
    }
  nvcl cl; nvcl_open(&cl);
  printf("device: %s, driver %s\n", cl.device_name, cl.driver_version);
  cl_program prog = nvcl_build_source(&cl, slurp(path), "-cl-std=CL1.2");
  if (!prog) return 1;
  cl_int err;
  cl_kernel k = clCreateKernel(prog, "Xgemm", &err); nvcl_check(err, "clCreateKernel");
  cl_mem da = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, B, &err);
  nvcl_check(err, "buf a");
  cl_mem db = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, AT, &err);
  nvcl_check(err, "buf b");
  cl_mem dc = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nn * 4, C, &err);
  nvcl_check(err, "buf c");
  int zero = 0;
  clSetKernelArg(k, 0, sizeof(int), &n);    /* kSizeM  (= N of the row-major product) */
  clSetKernelArg(k, 1, sizeof(int), &n);    /* kSizeN  (= M of the row-major product) */
  clSetKernelArg(k, 2, sizeof(int), &n);    /* kSizeK */
  clSetKernelArg(k, 3, sizeof(float), &alpha);
  clSetKernelArg(k, 4, sizeof(float), &beta);
  clSetKernelArg(k, 5, sizeof(cl_mem), &da); /* agm = B (row-major, as is) */
  clSetKernelArg(k, 6, sizeof(cl_mem), &db); /* bgm = A^T (row-major) */
  clSetKernelArg(k, 7, sizeof(cl_mem), &dc); /* cgm = C (row-major, as is) */
  clSetKernelArg(k, 8, sizeof(int), &zero);
  clSetKernelArg(k, 9, sizeof(int), &zero);
  size_t global[2] = {(size_t)n * 8 / 32, (size_t)n * 16 / 64}, local[2] = {8, 16};
  cl_event ev;
  nvcl_check(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, &ev), "enqueue");
  nvcl_check(clEnqueueReadBuffer(cl.queue, dc, CL_TRUE, 0, nn * 4, G, 1, &ev, NULL), "read");
  double maxerr = 0;
  for (size_t i = 0; i < nn; i++) maxerr = fmax(maxerr, fabs((double)G[i] - R[i]));
  printf("n=%d max |gpu-ref| = %g  (%.3f ms)  %s\n", n, maxerr, nvcl_event_ms(ev),
         maxerr < 1e-3 * n / 64 ? "PASS" : "FAIL");
  return maxerr < 1e-3 * n / 64 ? 0 : 1;
}
