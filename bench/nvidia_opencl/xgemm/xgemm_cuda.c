/* xgemm_cuda: CLBlast's Xgemm from gac's PTX for the CUDA driver (gac-cc
 * --emit=ptx, the default ABI), launched as NVIDIA's OpenCL launches it
 * (work-groups of 8x16, a 4x4 block of C per work-item), for Nsight
 * Compute, which profiles CUDA launches and not OpenCL ones
 * (xgemm_profile.sh). Each PTX file runs 5 times at n=4096; the median time
 * and one checked row of C (against a host sum) are printed.
 *
 *   xgemm_cuda FILE.ptx...                                                */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "subprocess.h" /* gac_read_file */

enum { N = 4096, RUNS = 5 };

static void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *s = "?";
    cuGetErrorString(r, &s);
    fprintf(stderr, "xgemm_cuda: %s: %s\n", what, s);
    exit(1);
  }
}

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  CUdevice dev;
  CUcontext ctx;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  size_t bytes = (size_t)N * N * sizeof(float);
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  for (size_t i = 0; i < (size_t)N * N; i++) {
    a[i] = (float)((i * 7) % 13) - 6.0f; /* small integers: sums are exact */
    b[i] = (float)((i * 5) % 11) - 5.0f;
  }
  CUdeviceptr da, db, dc;
  check(cuMemAlloc(&da, bytes), "cuMemAlloc");
  check(cuMemAlloc(&db, bytes), "cuMemAlloc");
  check(cuMemAlloc(&dc, bytes), "cuMemAlloc");
  check(cuMemcpyHtoD(da, a, bytes), "cuMemcpyHtoD");
  check(cuMemcpyHtoD(db, b, bytes), "cuMemcpyHtoD");
  int status = 0;
  for (int f = 1; f < argc; f++) {
    char *ptx = gac_read_file(argv[f], NULL);
    CUmodule mod;
    CUfunction k;
    if (!ptx || cuModuleLoadData(&mod, ptx) != CUDA_SUCCESS || cuModuleGetFunction(&k, mod, "Xgemm") != CUDA_SUCCESS) {
      printf("%s: cannot load\n", argv[f]);
      status = 1;
      free(ptx);
      continue;
    }
    /* Xgemm(kSizeM, kSizeN, kSizeK, alpha, beta, agm, bgm, cgm, b_offset, c_offset): C = A^T B in CLBlast's
     * column-major layout, a[k][m] and b[k][n] with m and n fastest. */
    int m = N, n = N, kk = N, zero = 0;
    float alpha = 1.0f, beta = 0.0f;
    void *args[] = {&m, &n, &kk, &alpha, &beta, &da, &db, &dc, &zero, &zero};
    float ms[RUNS];
    CUevent start, stop;
    check(cuEventCreate(&start, 0), "cuEventCreate");
    check(cuEventCreate(&stop, 0), "cuEventCreate");
    for (int r = 0; r < RUNS; r++) {
      check(cuEventRecord(start, 0), "cuEventRecord");
      check(cuLaunchKernel(k, N / 4 / 8, N / 4 / 16, 1, 8, 16, 1, 0, 0, args, NULL), "cuLaunchKernel");
      check(cuEventRecord(stop, 0), "cuEventRecord");
      check(cuEventSynchronize(stop), "cuEventSynchronize");
      check(cuEventElapsedTime(&ms[r], start, stop), "cuEventElapsedTime");
    }
    check(cuMemcpyDtoH(c, dc, bytes), "cuMemcpyDtoH");
    qsort(ms, RUNS, sizeof ms[0], cmp_float);
    /* One column of C: c[n][m] = sum_k a[k][m] * b[k][n], n = 17. */
    int wrong = 0;
    for (int i = 0; i < N && !wrong; i++) {
      double want = 0;
      for (int q = 0; q < N; q++)
        want += (double)a[(size_t)q * N + i] * b[(size_t)q * N + 17];
      wrong = fabs(c[(size_t)17 * N + i] - want) > 0.5;
    }
    printf("%s: %.2f TFLOP/s (median of %d, %.4f ms) %s\n", argv[f], 2.0 * N * N * (double)N / (ms[RUNS / 2] * 1e9),
           RUNS, ms[RUNS / 2], wrong ? "WRONG" : "ok");
    status |= wrong;
    cuModuleUnload(mod);
    free(ptx);
  }
  return status;
}
