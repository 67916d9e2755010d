/* gac-random-cuda: runs a batch of random async-copy kernels from the PTX
 * gac made (gac-cc --emit=ptx) through CUDA's driver API and compares every
 * output buffer with the host model. Needs no part of gac: device.sh builds
 * it on the GPU machine with gcc and -lcuda.
 *
 * Usage: gac-random-cuda BATCH.cl BATCH.ptx [--target NAME] [--only INDEX] [--from INDEX] [--repeat N] [--mutate] [--quiet]
 *
 * The launch ABI is the conformance runner's (conformance/gpu/runner.c,
 * docs/PTX.md): a __local kernel argument is a u64 byte offset into the
 * launch's dynamic shared memory (here each aligned to 64 bytes, the largest
 * alignment of an element type the kernels cast to); a warp-specialised
 * kernel is launched with __gac_block_threads_<name> threads in one
 * dimension. Exit status 1 if a case failed, 77 without a GPU. */
#include <cuda.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct gpu {
  CUmodule module;
} gpu;

static const char *err_name(CUresult r) {
  const char *s = NULL;
  cuGetErrorName(r, &s);
  return s ? s : "unknown CUDA error";
}

static bool run_case(void *self, const rt_case *c, const rt_buffers *b, unsigned char *got[RT_MAX_GBUF], char *why,
                     size_t why_len) {
  gpu *o = self;
  char name[32], sym[64];
  snprintf(name, sizeof name, "k%" PRIu64, c->index);
  CUfunction f;
  CUresult r = cuModuleGetFunction(&f, o->module, name);
  if (r != CUDA_SUCCESS) {
    snprintf(why, why_len, "the module has no kernel %s: %s", name, err_name(r));
    return false;
  }
  unsigned block = c->local_size, threads = 0;
  CUdeviceptr tp;
  size_t tsize = 0;
  snprintf(sym, sizeof sym, "__gac_block_threads_%s", name);
  if (cuModuleGetGlobal(&tp, &tsize, o->module, sym) == CUDA_SUCCESS && tsize == sizeof threads &&
      cuMemcpyDtoH(&threads, tp, tsize) == CUDA_SUCCESS && threads)
    block = threads; /* a producer warp beside the work-group */
  CUdeviceptr mem[RT_MAX_GBUF] = {0};
  uint64_t u64[RT_MAX_ARGS];
  int32_t i32[RT_MAX_ARGS];
  void *params[RT_MAX_ARGS];
  size_t shared = 0;
  r = CUDA_SUCCESS;
  for (unsigned g = 0; g < RT_MAX_GBUF && r == CUDA_SUCCESS; g++)
    if (c->gbuf_used[g]) {
      r = cuMemAlloc(&mem[g], b->size[g]);
      if (r == CUDA_SUCCESS)
        r = cuMemcpyHtoD(mem[g], b->init[g], b->size[g]);
    }
  for (unsigned i = 0; i < c->nargs; i++) {
    const rt_arg *a = &c->args[i];
    switch (a->kind) {
    case A_BUF:
      params[i] = &mem[a->value];
      break;
    case A_LOCAL:
      shared = (shared + 63) & ~(size_t)63;
      u64[i] = shared;
      shared += (size_t)a->value;
      params[i] = &u64[i];
      break;
    case A_U64:
      u64[i] = a->value;
      params[i] = &u64[i];
      break;
    default:
      i32[i] = (int32_t)a->value;
      params[i] = &i32[i];
    }
  }
  if (r == CUDA_SUCCESS)
    r = cuLaunchKernel(f, c->groups, 1, 1, block, 1, 1, (unsigned)shared, NULL, params, NULL);
  if (r == CUDA_SUCCESS)
    r = cuCtxSynchronize();
  for (unsigned g = 0; g < RT_MAX_GBUF; g++) {
    if (mem[g] && r == CUDA_SUCCESS)
      r = cuMemcpyDtoH(got[g], mem[g], b->size[g]);
    if (mem[g])
      cuMemFree(mem[g]);
  }
  if (r != CUDA_SUCCESS)
    snprintf(why, why_len, "CUDA error %s (block %u, %zu bytes of dynamic shared memory)", err_name(r), block, shared);
  return r == CUDA_SUCCESS;
}

int main(int argc, char **argv) {
  rt_run_options ro = {0};
  const char *ptx = NULL;
  for (int i = 1; i < argc; i++) {
    if (rt_common_option(&ro, argc, argv, &i))
      continue;
    if (argv[i][0] == '-')
      ro.batch = NULL, ptx = NULL, i = argc;
    else if (!ro.batch)
      ro.batch = argv[i];
    else if (!ptx)
      ptx = argv[i];
  }
  if (!ro.batch || !ptx) {
    fprintf(stderr, "usage: gac-random-cuda BATCH.cl BATCH.ptx [--target NAME] [--only INDEX] [--from INDEX] [--repeat N] [--mutate] [--quiet]\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0); /* a hang still leaves the failures printed so far */
  CUdevice dev;
  CUcontext ctx;
  CUresult r = cuInit(0);
  if (r == CUDA_SUCCESS)
    r = cuDeviceGet(&dev, 0);
  if (r == CUDA_SUCCESS)
    r = cuDevicePrimaryCtxRetain(&ctx, dev);
  if (r == CUDA_SUCCESS)
    r = cuCtxSetCurrent(ctx);
  if (r != CUDA_SUCCESS) {
    fprintf(stderr, "gac-random-cuda: no CUDA device (%s): skipped\n", err_name(r));
    return 77;
  }
  char *image = rt_read_file(ptx, NULL);
  if (!image) {
    fprintf(stderr, "gac-random-cuda: cannot read %s\n", ptx);
    return 1;
  }
  char log[8192] = "";
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)sizeof log};
  gpu o = {0};
  r = cuModuleLoadDataEx(&o.module, image, 2, opts, values);
  free(image);
  if (r != CUDA_SUCCESS) {
    printf("BUILD-FAIL %s %s: loading %s: %s %s\n", ro.target ? ro.target : "?", ro.batch, ptx, err_name(r), log);
    return 1;
  }
  rt_backend be = {&o, run_case};
  unsigned failed = rt_drive(&be, &ro);
  cuModuleUnload(o.module);
  cuDevicePrimaryCtxRelease(dev);
  return failed ? 1 : 0;
}
