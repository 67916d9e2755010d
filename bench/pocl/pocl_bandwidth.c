/* gac-bench-pocl: bandwidth of the lowered 2D and 3D copies on PoCL, side by
 * side in one run with clEnqueueCopyBufferRect and with the serial byte-loop
 * lowering (one work-item, as Codeplay's kit does it).
 *
 * Usage: gac-bench-pocl <kernel dir> [repeats] [other kernel dir]
 * With another kernel dir (the same kernels from another build of gac), its
 * kernels run interleaved with these, round by round, and a second table
 * gives each strategy's GB/s from both and their ratio (this / other).
 * Uses the conformance kernels copy2d/copy3d (<dir>/copies.<strategy>.bc):
 * each work-group copies its tile global -> local, then local -> global, so a
 * kernel moves 2 x tile bytes per group. Bandwidth is bytes copied (read once,
 * written once) per second; the rect copy moves the same region once. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_cl.h"

typedef struct shape {
  const char *name;
  int dims;                   /* 2 or 3 */
  size_t bpe, per_line, lines, planes, pitch, plane_pitch, groups, local;
} shape;

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;

static cl_kernel load(const char *dir, const char *strategy, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/copies.%s.bc", dir, strategy);
  size_t n;
  unsigned char *bin = (unsigned char *)gac_read_file(path, &n);
  if (!bin) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(1);
  }
  cl_int err;
  cl_program p = clCreateProgramWithBinary(context, 1, &device, &n, (const unsigned char **)&bin, NULL, &err);
  CHECK_CL(err);
  free(bin);
  CHECK_CL(clBuildProgram(p, 1, &device, "-x spir -spir-std=1.2", NULL, NULL));
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_CL(err);
  clReleaseProgram(p);
  return k;
}

static void set_args(cl_kernel k, const shape *s, cl_mem src, cl_mem dst) {
  cl_ulong a[18];
  unsigned n = 0;
  size_t tile = s->per_line * s->lines * s->planes;
  size_t group_stride = s->dims == 2 ? s->lines * s->pitch : s->planes * s->plane_pitch;
  a[n++] = s->bpe, a[n++] = s->per_line, a[n++] = s->lines;
  if (s->dims == 3)
    a[n++] = s->planes;
  size_t sides[3][2] = {{s->pitch, s->plane_pitch}, {s->per_line, s->per_line * s->lines}, {s->pitch, s->plane_pitch}};
  for (int i = 0; i < 3; i++) {
    a[n++] = 0;
    a[n++] = sides[i][0];
    if (s->dims == 3)
      a[n++] = sides[i][1];
  }
  a[n++] = group_stride;
  CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &src));
  CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &dst));
  CHECK_CL(clSetKernelArg(k, 2, tile * s->bpe, NULL));
  for (unsigned i = 0; i < n; i++)
    CHECK_CL(clSetKernelArg(k, 3 + i, sizeof(cl_ulong), &a[i]));
}

/* Seconds of one launch of variant v: 0 is the rect copy, 1.. the kernels. */
static double launch(int v, cl_kernel *kernels, const shape *s, cl_mem src, cl_mem dst) {
  double start = now_s();
  if (v == 0) {
    size_t origin[3] = {0, 0, 0};
    size_t region[3] = {s->per_line * s->bpe, s->dims == 2 ? s->lines * s->groups : s->lines,
                        s->dims == 2 ? 1 : s->planes * s->groups};
    size_t row = s->pitch * s->bpe, slice = s->dims == 2 ? 0 : s->plane_pitch * s->bpe;
    CHECK_CL(clEnqueueCopyBufferRect(queue, src, dst, origin, origin, region, row, slice, row, slice, 0, NULL, NULL));
  } else {
    size_t global = s->groups * s->local;
    CHECK_CL(clEnqueueNDRangeKernel(queue, kernels[v - 1], 1, NULL, &global, &s->local, 0, NULL, NULL));
  }
  CHECK_CL(clFinish(queue));
  return now_s() - start;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gac-bench-pocl <kernel dir> [repeats] [other kernel dir]\n");
    return 2;
  }
  int repeats = argc > 2 ? atoi(argv[2]) : 5;
  if (repeats < 1 || repeats > 64)
    repeats = 5;
  cl_platform_id platform;
  CHECK_CL(clGetPlatformIDs(1, &platform, NULL));
  CHECK_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_int err;
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK_CL(err);
  queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK_CL(err);
  char name[256];
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);

  static const shape shapes[] = {
      {"2D 512x16 floats, pitch 2048", 2, 4, 512, 16, 1, 2048, 0, 256, 64},
      {"2D 1024x32 bytes, pitch 4096", 2, 1, 1024, 32, 1, 4096, 0, 256, 64},
      {"2D 64x64 x 12-byte, pitch 80", 2, 12, 64, 64, 1, 80, 0, 128, 64},
      {"3D 64x16x8 floats, pitch 256, plane 8192", 3, 4, 64, 16, 8, 256, 8192, 128, 64},
  };
  static const char *strategies[] = {"lines", "cooperative", "serial"};
  const char *other = argc > 3 ? argv[3] : NULL;
  int num_kernels = other ? 6 : 3; /* kernels 3..5: the other dir's */
  double others[4][3], ours[4][3];
  printf("device: %s; median of %d rounds after a warm-up, variants interleaved; GB/s = bytes copied / s\n", name, repeats);
  printf("%-42s %11s %11s %11s %11s   %s\n", "shape", "rect GB/s", "lines", "cooperative", "serial",
         "ratios to rect (lines, cooperative, serial), cooperative/serial");
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    const shape *s = &shapes[i];
    size_t span = s->dims == 2 ? s->groups * s->lines * s->pitch : s->groups * s->planes * s->plane_pitch;
    size_t bytes = span * s->bpe, tile_bytes = s->per_line * s->lines * s->planes * s->bpe;
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK_CL(err);
    cl_mem dst = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK_CL(err);
    unsigned char zero = 0;
    CHECK_CL(clEnqueueFillBuffer(queue, src, &zero, 1, 0, bytes, 0, NULL, NULL));
    double copied = (double)tile_bytes * s->groups; /* one copy of every tile */
    cl_kernel kernels[6];
    for (int k = 0; k < num_kernels; k++) {
      kernels[k] = load(k < 3 ? argv[1] : other, strategies[k % 3], s->dims == 2 ? "copy2d" : "copy3d");
      set_args(kernels[k], s, src, dst);
    }
    /* Rounds of one launch of each variant, so that load from elsewhere on
     * the machine falls on all of them alike; the first round warms up. */
    double t[7][64];
    for (int r = 0; r <= repeats; r++)
      for (int v = 0; v < 1 + num_kernels; v++) {
        double secs = launch(v, kernels, s, src, dst);
        if (r > 0)
          t[v][r - 1] = secs;
      }
    double median[7];
    for (int v = 0; v < 1 + num_kernels; v++) {
      qsort(t[v], (size_t)repeats, sizeof(double), cmp_double);
      median[v] = t[v][repeats / 2];
    }
    double rect = copied / median[0] / 1e9, gbs[3];
    for (int k = 0; k < 3; k++)
      ours[i][k] = gbs[k] = 2 * copied / median[k + 1] / 1e9;
    for (int k = 3; k < num_kernels; k++)
      others[i][k - 3] = 2 * copied / median[k + 1] / 1e9;
    for (int k = 0; k < num_kernels; k++)
      clReleaseKernel(kernels[k]);
    printf("%-42s %11.2f %11.2f %11.2f %11.2f   %.2fx %.2fx %.3fx  %.1fx\n", s->name, rect, gbs[0], gbs[1], gbs[2],
           gbs[0] / rect, gbs[1] / rect, gbs[2] / rect, gbs[1] / gbs[2]);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
  }
  if (other) {
    printf("\nthis build (%s) against %s, same rounds: GB/s this / other\n", argv[1], other);
    printf("%-42s %21s %21s %21s\n", "shape", "lines", "cooperative", "serial");
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
      printf("%-42s", shapes[i].name);
      for (int k = 0; k < 3; k++)
        printf("  %6.2f / %6.2f %4.2fx", ours[i][k], others[i][k], ours[i][k] / others[i][k]);
      printf("\n");
    }
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
