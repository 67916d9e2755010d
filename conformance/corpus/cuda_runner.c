/* gac-corpus-cuda: the kernel corpus (corpus.h) on an NVIDIA GPU through
 * the CUDA driver API, from the PTX that gac-opt --emit=ptx made of each
 * entry and variant (`corpus-ptx`: <dir>/<entry>.<variant>.sm<sm>.ptx).
 *
 * Usage: gac-corpus-cuda <ptx-dir> <80|90> [--save DIR]
 * A __local argument is passed as a u64 byte offset into the launch's
 * dynamic shared memory, each aligned to 16 bytes, as conformance/cuda/
 * runner.c does (docs/PTX.md). Prints the corpus table; with --save, the
 * outputs for `gac-corpus compare` next to those of the OpenCL paths. */
#define _POSIX_C_SOURCE 200809L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

typedef struct cuda {
  const char *dir, *sm;
} cuda;

/* A loaded kernel: its module is unloaded with it. */
typedef struct cuda_kernel {
  CUmodule module;
  CUfunction function;
} cuda_kernel;

static const char *error_name(CUresult r) {
  const char *s = NULL;
  cuGetErrorName(r, &s);
  return s ? s : "unknown CUDA error";
}

static void *load(void *self, const corpus_entry *e, unsigned variant, char *why, size_t why_len) {
  const cuda *c = self;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.%s.sm%s.ptx", c->dir, e->name, gac_corpus_variants[variant], c->sm);
  char *ptx = gac_read_file(path, NULL);
  if (!ptx) {
    snprintf(why, why_len, "cannot read %.900s (see corpus-ptx-status.txt)", path);
    return NULL;
  }
  char log[4096] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(size_t)sizeof log};
  cuda_kernel *k = calloc(1, sizeof *k);
  CUresult r = cuModuleLoadDataEx(&k->module, ptx, 2, opts, values);
  free(ptx);
  if (r != CUDA_SUCCESS) {
    snprintf(why, why_len, "cuModuleLoadData(%.400s): %s %.500s", path, error_name(r), log);
    free(k);
    return NULL;
  }
  r = cuModuleGetFunction(&k->function, k->module, e->kernel);
  if (r != CUDA_SUCCESS) {
    snprintf(why, why_len, "cuModuleGetFunction(%s): %s", e->kernel, error_name(r));
    cuModuleUnload(k->module);
    free(k);
    return NULL;
  }
  return k;
}

static void release(void *self, void *kernel) {
  (void)self;
  cuda_kernel *k = kernel;
  cuModuleUnload(k->module);
  free(k);
}

static bool run(void *self, void *kernel, const corpus_spec *s, corpus_arg *args, char *why, size_t why_len) {
  (void)self;
  CUdeviceptr mem[CORPUS_MAX_ARGS] = {0};
  uint64_t offsets[CORPUS_MAX_ARGS];
  void *params[CORPUS_MAX_ARGS];
  size_t shared = 0;
  CUresult r = CUDA_SUCCESS;
  for (unsigned i = 0; i < CORPUS_MAX_ARGS && args[i].kind != CA_END && r == CUDA_SUCCESS; i++) {
    switch (args[i].kind) {
    case CA_IN:
    case CA_OUT:
      r = cuMemAlloc(&mem[i], args[i].size);
      if (r == CUDA_SUCCESS)
        r = cuMemcpyHtoD(mem[i], args[i].host, args[i].size);
      params[i] = &mem[i];
      break;
    case CA_LOCAL:
      shared = (shared + 15) & ~(size_t)15;
      offsets[i] = shared;
      shared += args[i].size;
      params[i] = &offsets[i];
      break;
    case CA_SCALAR:
      params[i] = args[i].host; /* the value's bytes, in the kernel's parameter type */
      break;
    case CA_END:
      break;
    }
  }
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  for (unsigned d = 0; d < s->dims && d < 3; d++) {
    block[d] = (unsigned)s->local[d];
    grid[d] = (unsigned)(s->global[d] / s->local[d]);
  }
  if (r == CUDA_SUCCESS)
    r = cuLaunchKernel(((cuda_kernel *)kernel)->function, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                       (unsigned)shared, NULL, params, NULL);
  if (r == CUDA_SUCCESS)
    r = cuCtxSynchronize();
  for (unsigned i = 0; i < CORPUS_MAX_ARGS; i++) {
    if (mem[i] && r == CUDA_SUCCESS && args[i].kind == CA_OUT)
      r = cuMemcpyDtoH(args[i].host, mem[i], args[i].size);
    if (mem[i])
      cuMemFree(mem[i]);
  }
  if (r != CUDA_SUCCESS)
    snprintf(why, why_len, "CUDA error %s", error_name(r));
  return r == CUDA_SUCCESS;
}

int main(int argc, char **argv) {
  bool save = argc == 5 && strcmp(argv[3], "--save") == 0;
  if ((argc != 3 && !save) || (strcmp(argv[2], "80") != 0 && strcmp(argv[2], "90") != 0)) {
    fprintf(stderr, "usage: gac-corpus-cuda <ptx-dir> <80|90> [--save DIR]\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0); /* rows reach the file even if a kernel hangs */
  cuda c = {.dir = argv[1], .sm = argv[2]};
  CUdevice dev;
  CUcontext context;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS)
    r = cuDeviceGet(&dev, 0);
  if (r == CUDA_SUCCESS)
    r = cuDevicePrimaryCtxRetain(&context, dev);
  if (r == CUDA_SUCCESS)
    r = cuCtxSetCurrent(context);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "gac-corpus-cuda: no CUDA device (%s)\n", error_name(r));
    return 1;
  }
  char name[256] = "";
  cuDeviceGetName(name, sizeof name, dev);
  printf("device: %s; PTX for sm_%s from gac-opt --emit=ptx\n", name, c.sm);
  corpus_backend backend = {&c, "cuda", {true, true}, load, run, release};
  unsigned failures = gac_corpus_run(&backend, save ? argv[4] : NULL);
  cuDevicePrimaryCtxRelease(dev);
  return failures ? 1 : 0;
}
