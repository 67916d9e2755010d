/* gac-bench-layer: what the gac layer adds to building a program, cold and
 * warm, against PoCL alone, in one run.
 *
 * Usage: gac-bench-layer <layer.so> <program.bc> <program.raised.spv> [rounds]
 * Each measurement is a fresh child process (this program again, with
 * --child) that creates and builds one program and prints the milliseconds:
 *   PoCL alone: clCreateProgramWithBinary(SPIR 1.2 bitcode) + clBuildProgram;
 *   layer:      clCreateProgramWithIL(SPIR-V with the copies) + clBuildProgram,
 *               with OPENCL_LAYERS set (validation, lowering, llvm-spirv-15).
 * Cold: empty PoCL and layer caches. Warm: the same caches, filled by the
 * cold run just before. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 210
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int child(const char *path, int il) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return 1;
  fseek(f, 0, SEEK_END);
  size_t n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *bin = malloc(n);
  if (fread(bin, 1, n, f) != n)
    return 1;
  fclose(f);
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err = err ? err : clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  cl_context ctx = err ? NULL : clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (err)
    return 1;
  double start = now_ms();
  cl_program p = il ? clCreateProgramWithIL(ctx, bin, n, &err)
                    : clCreateProgramWithBinary(ctx, 1, &device, &n, (const unsigned char **)&bin, NULL, &err);
  if (!err)
    err = clBuildProgram(p, 1, &device, il ? NULL : "-x spir -spir-std=1.2", NULL, NULL);
  double ms = now_ms() - start;
  if (err)
    return 1;
  printf("%.3f\n", ms);
  clReleaseProgram(p);
  clReleaseContext(ctx);
  free(bin);
  return 0;
}

/* Runs one child; returns its milliseconds, or -1. */
static double measure(const char *self, const char *layer, const char *input, int il, const char *dir) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "env POCL_CACHE_DIR=%s/pocl GAC_LAYER_CACHE_DIR=%s/layer POCL_WORK_GROUP_METHOD=loops %s%s "
           "%s --child %s %d",
           dir, dir, il ? "OPENCL_LAYERS=" : "", il ? layer : "", self, input, il);
  FILE *p = popen(cmd, "r");
  double ms = -1;
  if (p && fscanf(p, "%lf", &ms) != 1)
    ms = -1;
  if (p && pclose(p) != 0)
    ms = -1;
  return ms;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--child") == 0)
    return child(argv[2], atoi(argv[3]));
  if (argc < 4) {
    fprintf(stderr, "usage: gac-bench-layer <layer.so> <program.bc> <program.raised.spv> [rounds]\n");
    return 2;
  }
  int rounds = argc > 4 ? atoi(argv[4]) : 5;
  if (rounds < 1 || rounds > 50)
    rounds = 5;
  double t[4][50];
  for (int r = 0; r < rounds; r++) {
    for (int il = 0; il < 2; il++) {
      char dir[] = "/tmp/gac-bench-layer-XXXXXX";
      if (!mkdtemp(dir))
        return 1;
      t[il * 2][r] = measure(argv[0], argv[1], il ? argv[3] : argv[2], il, dir);     /* cold */
      t[il * 2 + 1][r] = measure(argv[0], argv[1], il ? argv[3] : argv[2], il, dir); /* warm */
      char rm[128];
      snprintf(rm, sizeof rm, "rm -rf %s", dir);
      if (system(rm) != 0)
        return 1;
    }
  }
  const char *names[4] = {"PoCL alone, cold", "PoCL alone, warm", "gac layer, cold", "gac layer, warm"};
  double med[4];
  printf("create + build of one program, median of %d fresh processes\n", rounds);
  for (int v = 0; v < 4; v++) {
    for (int r = 0; r < rounds; r++)
      if (t[v][r] < 0) {
        fprintf(stderr, "%s: a run failed\n", names[v]);
        return 1;
      }
    qsort(t[v], (size_t)rounds, sizeof(double), cmp);
    med[v] = t[v][rounds / 2];
    printf("  %-20s %9.2f ms\n", names[v], med[v]);
  }
  printf("layer / PoCL: cold %.2fx (+%.1f ms), warm %.2fx (+%.2f ms)\n", med[2] / med[0], med[2] - med[0],
         med[3] / med[1], med[3] - med[1]);
  return 0;
}
