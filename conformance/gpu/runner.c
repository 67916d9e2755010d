/* gac-conformance-cuda and gac-conformance-hip: the conformance suite
 * (../suite.c) on a GPU, from what gac made: through CUDA's driver API from
 * the PTX of gac-opt --emit=ptx, or (built with GAC_HIP) through HIP's
 * module API from the code objects of gac-opt --emit=amdgcn. The calls are
 * the same in both (gpu_api.h).
 *
 * Usage: gac-conformance-cuda <dir> <80|90|90ws>
 *          loads <dir>/<program>.sm<sm>.ptx (the driver compiles it; 90ws:
 *          the sm_90 PTX with warp-specialised loops);
 *        gac-conformance-hip <dir> <gfx90a|gfx942>
 *          loads <dir>/<program>.<gfx>.hsaco.
 * A local-memory argument is passed as a u64 byte offset into the launch's
 * dynamic shared memory (LDS), each one aligned to 16 bytes (docs/PTX.md,
 * docs/AMDGCN.md). Prints the suite's table. Exit status 77 when the
 * machine has no such GPU (no AMD GPU has run the HIP runner here). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../suite.h"
#include "gpu_api.h"

enum { MAX_MODULES = 32, MAX_ARGS = 24 };

typedef struct gpu {
  const char *dir, *target; /* sm (80, 90) or gfx (gfx90a, gfx942) */
  gpu_context context;
  struct {
    char path[512];
    gpu_module module;
  } modules[MAX_MODULES];
  unsigned num_modules;
} gpu;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char *error_name(gpu_result r) { return gpu_error_name(r); }

/* The module of <dir>/<program>.sm<sm>.ptx (CUDA) or
 * <dir>/<program>.<gfx>.hsaco (HIP), loaded once. */
static gpu_module module_of(gpu *c, const char *program, char *why, size_t why_len) {
  char path[512];
#ifdef GAC_HIP
  snprintf(path, sizeof path, "%s/%s.%s.hsaco", c->dir, program, c->target);
#else
  snprintf(path, sizeof path, "%s/%s.sm%s.ptx", c->dir, program, c->target);
#endif
  for (unsigned i = 0; i < c->num_modules; i++)
    if (strcmp(c->modules[i].path, path) == 0)
      return c->modules[i].module;
  char *image = gac_read_file(path, NULL);
  if (!image) {
    snprintf(why, why_len, "cannot read %.400s", path);
    return NULL;
  }
  char log[4096] = "";
  gpu_module m;
  gpu_result r = gpu_module_load_log(&m, image, log, sizeof log);
  (void)log;
  free(image);
  if (r != GPU_SUCCESS) {
    snprintf(why, why_len, "loading %.200s: %s %.250s", path, error_name(r), log);
    return NULL;
  }
  if (c->num_modules < MAX_MODULES) {
    snprintf(c->modules[c->num_modules].path, sizeof c->modules[0].path, "%s", path);
    c->modules[c->num_modules++].module = m;
  }
  return m;
}

/* A kernel, and the one-dimensional block a warp-specialised one is
 * launched with (its __gac_block_threads_<name>, docs/PTX.md; 0: the
 * work-group as the suite gives it). */
typedef struct gpu_kernel {
  gpu_function f;
  unsigned block_threads;
} gpu_kernel;

static void *load_kernel(void *self, const char *program, const char *name, char *why, size_t why_len) {
  gpu_module m = module_of(self, program, why, why_len);
  gpu_function f = NULL;
  gpu_result r = m ? gpu_module_function(&f, m, name) : GPU_NOT_FOUND;
  if (m && r != GPU_SUCCESS)
    snprintf(why, why_len, "the module has no kernel %s: %s", name, error_name(r));
  if (r != GPU_SUCCESS)
    return NULL;
  gpu_kernel *k = calloc(1, sizeof *k);
  k->f = f;
  char sym[160];
  gpu_ptr threads;
  size_t size = 0;
  snprintf(sym, sizeof sym, "__gac_block_threads_%s", name);
  if (gpu_module_global(&threads, &size, m, sym) == GPU_SUCCESS && size == sizeof k->block_threads)
    gpu_copy_from(&k->block_threads, threads, size);
  return k;
}

static void release_kernel(void *self, void *kernel) {
  (void)self;
  free(kernel); /* functions live as long as their module */
}

static double run_kernel(void *self, void *handle, arg *args, unsigned n, unsigned dims, const size_t *global,
                         const size_t *local, char *why, size_t why_len) {
  (void)self;
  const gpu_kernel *k = handle;
  gpu_ptr mem[MAX_ARGS] = {0};
  uint64_t u64[MAX_ARGS];
  int32_t i32[MAX_ARGS];
  void *params[MAX_ARGS];
  size_t shared = 0;
  gpu_result r = GPU_SUCCESS;
  for (unsigned i = 0; i < n && r == GPU_SUCCESS; i++) {
    switch (args[i].kind) {
    case ARG_BUFFER:
      r = gpu_alloc(&mem[i], args[i].size);
      if (r == GPU_SUCCESS)
        r = gpu_copy_to(mem[i], args[i].host, args[i].size);
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
  if (k->block_threads) /* a producer warp beside the work-group, one dimension */
    block[0] = k->block_threads, block[1] = 1;
  double t = -1;
  if (r == GPU_SUCCESS) {
    double start = now_ms();
    r = gpu_launch(k->f, grid[0], grid[1], 1, block[0], block[1], 1, (unsigned)shared, NULL, params, NULL);
    if (r == GPU_SUCCESS)
      r = gpu_synchronize();
    t = now_ms() - start;
  }
  for (unsigned i = 0; i < n; i++) {
    if (mem[i] && r == GPU_SUCCESS)
      r = gpu_copy_from(args[i].host, mem[i], args[i].size);
    if (mem[i])
      gpu_free(mem[i]);
  }
  if (r != GPU_SUCCESS) {
    snprintf(why, why_len, GPU_API " error %s", error_name(r));
    return -1;
  }
  return t;
}

int main(int argc, char **argv) {
#ifdef GAC_HIP
  const char *self = "gac-conformance-hip", *targets = "gfx90a|gfx942";
  bool known = argc == 3 && (strcmp(argv[2], "gfx90a") == 0 || strcmp(argv[2], "gfx942") == 0);
#else
  const char *self = "gac-conformance-cuda", *targets = "80|90|90ws";
  bool known = argc == 3 && (strcmp(argv[2], "80") == 0 || strcmp(argv[2], "90") == 0 || strcmp(argv[2], "90ws") == 0);
#endif
  if (!known) {
    fprintf(stderr, "usage: %s <dir> <%s>\n", self, targets);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0); /* rows reach the file even if a kernel hangs */
  gpu c = {.dir = argv[1], .target = argv[2]};
  gpu_device dev;
  gpu_result r = gpu_init(0);
  if (r == GPU_SUCCESS)
    r = gpu_device_get(&dev, 0);
  if (r == GPU_SUCCESS)
    r = gpu_context_retain(&c.context, dev);
  if (r == GPU_SUCCESS)
    r = gpu_context_set(c.context);
  if (r != GPU_SUCCESS) {
    fprintf(stderr, "%s: no " GPU_API " device (%s): skipped\n", self, error_name(r));
    return 77;
  }
  char name[256] = "";
  gpu_device_name(name, sizeof name, dev);
  printf("device: %s; %s for %s\n", name, GPU_TARGET, c.target);
  gac_backend backend = {&c, load_kernel, run_kernel, release_kernel};
  unsigned failures = gac_conformance_suite(&backend);
  printf("* launch to synchronize\n");
  for (unsigned i = 0; i < c.num_modules; i++)
    gpu_module_unload(c.modules[i].module);
  gpu_context_release(dev);
  return failures ? 1 : 0;
}
