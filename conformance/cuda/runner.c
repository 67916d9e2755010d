/* gac-conformance-cuda: the conformance suite (../suite.c) on an NVIDIA GPU
 * through the CUDA driver API, from the PTX that gac-opt --emit=ptx made.
 *
 * Usage: gac-conformance-cuda <dir> <sm>
 *   loads <dir>/<program>.sm<sm>.ptx with cuModuleLoadData (the driver
 *   compiles it for the GPU at hand). A local-memory argument is passed as
 *   a u64 byte offset into the launch's dynamic shared memory, each one
 *   aligned to 16 bytes (docs/PTX.md). Prints the suite's table. */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../suite.h"

enum { MAX_MODULES = 32, MAX_ARGS = 24 };

typedef struct cuda {
  const char *dir, *sm;
  CUcontext context;
  struct {
    char path[512];
    CUmodule module;
  } modules[MAX_MODULES];
  unsigned num_modules;
} cuda;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char *error_name(CUresult r) {
  const char *s = NULL;
  cuGetErrorName(r, &s);
  return s ? s : "unknown CUDA error";
}

/* The module of <dir>/<program>.sm<sm>.ptx, loaded once. */
static CUmodule module_of(cuda *c, const char *program, char *why, size_t why_len) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.sm%s.ptx", c->dir, program, c->sm);
  for (unsigned i = 0; i < c->num_modules; i++)
    if (strcmp(c->modules[i].path, path) == 0)
      return c->modules[i].module;
  char *ptx = gac_suite_read_file(path, NULL);
  if (!ptx) {
    snprintf(why, why_len, "cannot read %.400s", path);
    return NULL;
  }
  char log[4096] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(size_t)sizeof log};
  CUmodule m;
  CUresult r = cuModuleLoadDataEx(&m, ptx, 2, opts, values);
  free(ptx);
  if (r != CUDA_SUCCESS) {
    snprintf(why, why_len, "cuModuleLoadData(%.200s): %s %.250s", path, error_name(r), log);
    return NULL;
  }
  if (c->num_modules < MAX_MODULES) {
    snprintf(c->modules[c->num_modules].path, sizeof c->modules[0].path, "%s", path);
    c->modules[c->num_modules++].module = m;
  }
  return m;
}

static void *load_kernel(void *self, const char *program, const char *name, char *why, size_t why_len) {
  CUmodule m = module_of(self, program, why, why_len);
  CUfunction f = NULL;
  CUresult r = m ? cuModuleGetFunction(&f, m, name) : CUDA_ERROR_NOT_FOUND;
  if (m && r != CUDA_SUCCESS)
    snprintf(why, why_len, "cuModuleGetFunction(%s): %s", name, error_name(r));
  return r == CUDA_SUCCESS ? f : NULL;
}

static void release_kernel(void *self, void *kernel) {
  (void)self, (void)kernel; /* functions live as long as their module */
}

static double run_kernel(void *self, void *kernel, arg *args, unsigned n, unsigned dims, const size_t *global,
                         const size_t *local, char *why, size_t why_len) {
  (void)self;
  CUdeviceptr mem[MAX_ARGS] = {0};
  uint64_t u64[MAX_ARGS];
  int32_t i32[MAX_ARGS];
  void *params[MAX_ARGS];
  size_t shared = 0;
  CUresult r = CUDA_SUCCESS;
  for (unsigned i = 0; i < n && r == CUDA_SUCCESS; i++) {
    switch (args[i].kind) {
    case ARG_BUFFER:
      r = cuMemAlloc(&mem[i], args[i].size);
      if (r == CUDA_SUCCESS)
        r = cuMemcpyHtoD(mem[i], args[i].host, args[i].size);
      params[i] = &mem[i];
      break;
    case ARG_LOCAL:
      shared = (shared + 15) & ~(size_t)15;
      u64[i] = shared;
      shared += args[i].size;
      params[i] = &u64[i];
      break;
    case ARG_U64:
      u64[i] = args[i].value;
      params[i] = &u64[i];
      break;
    case ARG_I32:
      i32[i] = (int32_t)args[i].value;
      params[i] = &i32[i];
      break;
    }
  }
  unsigned grid[2] = {1, 1}, block[2] = {1, 1};
  for (unsigned d = 0; d < dims && d < 2; d++) {
    block[d] = (unsigned)local[d];
    grid[d] = (unsigned)(global[d] / local[d]);
  }
  double t = -1;
  if (r == CUDA_SUCCESS) {
    double start = now_ms();
    r = cuLaunchKernel(kernel, grid[0], grid[1], 1, block[0], block[1], 1, (unsigned)shared, NULL, params, NULL);
    if (r == CUDA_SUCCESS)
      r = cuCtxSynchronize();
    t = now_ms() - start;
  }
  for (unsigned i = 0; i < n; i++) {
    if (mem[i] && r == CUDA_SUCCESS)
      r = cuMemcpyDtoH(args[i].host, mem[i], args[i].size);
    if (mem[i])
      cuMemFree(mem[i]);
  }
  if (r != CUDA_SUCCESS) {
    snprintf(why, why_len, "CUDA error %s", error_name(r));
    return -1;
  }
  return t;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "80") != 0 && strcmp(argv[2], "90") != 0)) {
    fprintf(stderr, "usage: gac-conformance-cuda <dir> <80|90>\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0); /* rows reach the file even if a kernel hangs */
  cuda c = {.dir = argv[1], .sm = argv[2]};
  CUdevice dev;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS)
    r = cuDeviceGet(&dev, 0);
  if (r == CUDA_SUCCESS)
    r = cuDevicePrimaryCtxRetain(&c.context, dev);
  if (r == CUDA_SUCCESS)
    r = cuCtxSetCurrent(c.context);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "gac-conformance-cuda: no CUDA device (%s)\n", error_name(r));
    return 1;
  }
  char name[256] = "";
  cuDeviceGetName(name, sizeof name, dev);
  printf("device: %s; PTX for sm_%s from gac-opt --emit=ptx\n", name, c.sm);
  gac_backend backend = {&c, load_kernel, run_kernel, release_kernel};
  unsigned failures = gac_conformance_suite(&backend);
  printf("* launch to synchronize\n");
  for (unsigned i = 0; i < c.num_modules; i++)
    cuModuleUnload(c.modules[i].module);
  cuDevicePrimaryCtxRelease(dev);
  return failures ? 1 : 0;
}
