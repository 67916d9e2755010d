/* gac-bench-tiles: gac's lowered 2D/3D copies against hand-written OpenCL
 * on PoCL, tile shape by tile shape, all in one run.
 *
 * Usage: gac-bench-tiles KERNEL_DIR BASELINES_CL [--rounds N] [--rows A,B,...]
 *                        [--strategies S,S,...] [--check-only]
 * KERNEL_DIR holds tiles.<strategy>.bc, tiles.cl built through gac's
 * command-line pipeline (conformance/build_kernel.sh: gac-cc, gac-opt
 * --lower-async-copies=opencl,strategy=S, llvm-spirv-15 -r). BASELINES_CL is
 * built by PoCL from source. Each row (a shape of tile_shapes.h at one local
 * size, with constant or runtime operands) times, interleaved round by round
 * in a rotating order, clEnqueueCopyBufferRect over the same region, three
 * hand-written kernels (an async_work_group_copy per line, a single
 * work-item byte loop, a plain cooperative loop) and gac's kernel for each
 * strategy; every variant's result is checked against the expected bytes.
 * Medians and the interquartile spread are printed; a row whose spread is
 * above 15% for any variant is run again with twice the rounds (said in the
 * output). GB/s counts the bytes a variant moves: the kernels move each
 * tile twice (global -> local -> global), the rect copy once. Exit status 1
 * if any result is wrong. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_cl.h"

#include "tile_shapes.h"

typedef struct shape {
  const char *id;
  int dims;
  size_t bpe, per_line, lines, planes, pitch, plane, tiles_x, groups;
} shape;

#define SHAPE_ROW(id, dims, bpe, per_line, lines, planes, pitch, plane, tiles_x, groups) \
  {#id, dims, bpe, per_line, lines, planes, pitch, plane, tiles_x, groups},
static const shape shapes[] = {GAC_TILE_SHAPES(SHAPE_ROW)};
enum { NUM_SHAPES = sizeof shapes / sizeof shapes[0] };

/* The rows: a shape and a local size (each run with constant and runtime operands). */
static const struct {
  const char *shape;
  size_t local;
} rows[] = {
    {"b16x8", 16},   {"b16x8", 256},   {"b1024x32", 64},   {"e3_64x16", 64},   {"f64x32", 1},
    {"f64x32", 16},  {"f64x32", 64},   {"f64x32", 256},    {"f256x16", 64},    {"f3d64x16x8", 64},
    {"e12_64x64", 64}, {"e16_32x32", 64},
};
enum { NUM_ROWS = sizeof rows / sizeof rows[0], HAND = 3, MAX_GAC = 6, MAX_VARIANTS = 1 + HAND + MAX_GAC,
       MAX_ROUNDS = 256 };
static const char *hand_names[HAND] = {"awgc_lines", "byte_loop", "cooperative"};

static cl_context context;
static cl_command_queue queue;
static cl_device_id device;

static cl_program build(cl_program p, const char *options) {
  if (clBuildProgram(p, 1, &device, options, NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed (%s):\n%s\n", options, log);
    exit(1);
  }
  return p;
}

/* tiles.<strategy>.bc of dir, built for PoCL; NULL if there is none. */
static cl_program load_gac(const char *dir, const char *strategy) {
  char path[1024];
  snprintf(path, sizeof path, "%s/tiles.%s.bc", dir, strategy);
  size_t n;
  unsigned char *bin = (unsigned char *)gac_read_file(path, &n);
  if (!bin)
    return NULL;
  cl_int err;
  cl_program p = clCreateProgramWithBinary(context, 1, &device, &n, (const unsigned char **)&bin, NULL, &err);
  CHECK_CL(err);
  free(bin);
  return build(p, "-x spir -spir-std=1.2");
}

/* Bytes of the matrix (or volume) the tiles lie in. */
static size_t span_bytes(const shape *s) {
  size_t bands = s->groups / s->tiles_x;
  return (s->dims == 2 ? bands * s->lines * s->pitch : bands * s->planes * s->plane) * s->bpe;
}

static size_t tile_bytes(const shape *s) { return s->per_line * s->lines * s->planes * s->bpe; }

/* Byte offset of line l (over all planes) of tile g. */
static size_t line_offset(const shape *s, size_t g, size_t l) {
  size_t band = s->dims == 2 ? s->lines * s->pitch : s->planes * s->plane;
  size_t base = (g / s->tiles_x) * band + (g % s->tiles_x) * s->per_line;
  return (base + (l / s->lines) * s->plane + (l % s->lines) * s->pitch) * s->bpe;
}

/* The widest unit of 16, 8, 4, 1 bytes dividing every line, stride and tile offset. */
static size_t unit_of(const shape *s) {
  size_t all = s->per_line * s->bpe | s->pitch * s->bpe | s->plane * s->bpe;
  return all % 16 == 0 ? 16 : all % 8 == 0 ? 8 : all % 4 == 0 ? 4 : 1;
}

typedef struct variant {
  char name[32];
  cl_kernel kernel; /* NULL: the rect copy */
  double t[MAX_ROUNDS];
  double median, spread; /* seconds; interquartile range / median */
} variant;

static double launch(const variant *v, const shape *s, size_t local, cl_mem src, cl_mem dst) {
  double start = now_s();
  if (!v->kernel) {
    size_t origin[3] = {0, 0, 0};
    size_t bands = s->groups / s->tiles_x;
    size_t region[3] = {s->tiles_x * s->per_line * s->bpe, s->dims == 2 ? bands * s->lines : s->lines,
                        s->dims == 2 ? 1 : bands * s->planes};
    size_t row = s->pitch * s->bpe, slice = s->dims == 2 ? 0 : s->plane * s->bpe;
    CHECK_CL(clEnqueueCopyBufferRect(queue, src, dst, origin, origin, region, row, slice, row, slice, 0, NULL, NULL));
  } else {
    size_t global = s->groups * local;
    CHECK_CL(clEnqueueNDRangeKernel(queue, v->kernel, 1, NULL, &global, &local, 0, NULL, NULL));
  }
  CHECK_CL(clFinish(queue));
  return now_s() - start;
}

static void set_arg(cl_kernel k, cl_uint i, size_t size, const void *value) { CHECK_CL(clSetKernelArg(k, i, size, value)); }

static void set_common(cl_kernel k, const shape *s, cl_mem src, cl_mem dst) {
  set_arg(k, 0, sizeof src, &src);
  set_arg(k, 1, sizeof dst, &dst);
  set_arg(k, 2, tile_bytes(s), NULL);
}

/* The gac kernel's sizes (tile2d/tile3d), in elements. */
static void set_gac_args(cl_kernel k, const shape *s) {
  cl_ulong a[7] = {s->bpe, s->per_line, s->lines}, n = 3;
  if (s->dims == 3)
    a[n++] = s->planes;
  a[n++] = s->pitch;
  if (s->dims == 3)
    a[n++] = s->plane;
  a[n++] = s->tiles_x;
  for (cl_uint i = 0; i < n; i++)
    set_arg(k, 3 + i, sizeof(cl_ulong), &a[i]);
}

/* The hand-written kernels' sizes, in units. */
static void set_hand_args(cl_kernel k, const shape *s, size_t unit) {
  cl_ulong a[6] = {s->per_line * s->bpe / unit, s->lines, s->planes, s->pitch * s->bpe / unit,
                   s->plane * s->bpe / unit, s->tiles_x};
  for (cl_uint i = 0; i < 6; i++)
    set_arg(k, 3 + i, sizeof(cl_ulong), &a[i]);
}

static void summarise(variant *v, int rounds) {
  double sorted[MAX_ROUNDS];
  memcpy(sorted, v->t, (size_t)rounds * sizeof(double));
  qsort(sorted, (size_t)rounds, sizeof(double), cmp_double);
  v->median = sorted[rounds / 2];
  v->spread = (sorted[(3 * rounds) / 4] - sorted[rounds / 4]) / v->median;
}

/* Rounds of one launch of every variant, in an order rotated each round, so
 * that load from other users falls on all of them alike. */
static void time_rounds(variant *v, int nv, const shape *s, size_t local, cl_mem src, cl_mem dst, int rounds) {
  for (int i = 0; i < nv; i++) /* warm-up: PoCL compiles a kernel for its local size at its first launch */
    launch(&v[i], s, local, src, dst);
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < nv; i++) {
      variant *x = &v[(i + r) % nv];
      x->t[r] = launch(x, s, local, src, dst);
    }
  for (int i = 0; i < nv; i++)
    summarise(&v[i], rounds);
}

/* Runs v once into a cleared destination and compares the whole buffer. */
static bool check(const variant *v, const shape *s, size_t local, cl_mem src, cl_mem dst,
                  const unsigned char *expected, unsigned char *got) {
  size_t bytes = span_bytes(s);
  unsigned char zero = 0;
  CHECK_CL(clEnqueueFillBuffer(queue, dst, &zero, 1, 0, bytes, 0, NULL, NULL));
  launch(v, s, local, src, dst);
  CHECK_CL(clEnqueueReadBuffer(queue, dst, CL_TRUE, 0, bytes, got, 0, NULL, NULL));
  if (memcmp(got, expected, bytes) == 0)
    return true;
  size_t i = 0;
  while (got[i] == expected[i])
    i++;
  fprintf(stderr, "WRONG: %s: byte %zu is %u, expected %u\n", v->name, i, got[i], expected[i]);
  return false;
}

static bool in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
    if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == 0))
      return true;
  }
  return false;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: gac-bench-tiles KERNEL_DIR BASELINES_CL [--rounds N] [--rows A,B] "
                    "[--strategies S,...] [--check-only]\n");
    return 2;
  }
  int rounds = 15;
  const char *row_list = NULL, *strategy_list = "lines,cooperative,leader,auto";
  bool check_only = false;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc)
      row_list = argv[++i];
    else if (strcmp(argv[i], "--strategies") == 0 && i + 1 < argc)
      strategy_list = argv[++i];
    else if (strcmp(argv[i], "--check-only") == 0)
      check_only = true;
    else {
      fprintf(stderr, "gac-bench-tiles: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (rounds < 3 || 2 * rounds > MAX_ROUNDS)
    rounds = 15;
  size_t source_len;
  char *source = gac_read_file(argv[2], &source_len);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 2;
  }
  cl_platform_id platform;
  CHECK_CL(clGetPlatformIDs(1, &platform, NULL));
  CHECK_CL(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_int err;
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK_CL(err);
  queue = clCreateCommandQueue(context, device, 0, &err);
  CHECK_CL(err);
  char device_name[256] = "";
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name, NULL);

  const char *strategies[MAX_GAC];
  cl_program gac[MAX_GAC];
  int num_gac = 0;
  char *list = strdup(strategy_list);
  for (char *tok = strtok(list, ","); tok && num_gac < MAX_GAC; tok = strtok(NULL, ","))
    if ((gac[num_gac] = load_gac(argv[1], tok)))
      strategies[num_gac++] = tok;
    else
      fprintf(stderr, "gac-bench-tiles: no %s/tiles.%s.bc, strategy left out\n", argv[1], tok);

  double load[3] = {0};
  if (getloadavg(load, 3) < 0)
    load[0] = -1;
  printf("device: %s; gac kernels from %s (command-line pipeline); %d interleaved rounds after a warm-up, "
         "medians; load average at start %.2f\n",
         device_name, argv[1], rounds, load[0]);
  printf("GB/s = bytes moved / s (kernels: tile -> local -> global, 2x; rect: 1x). spread = largest "
         "interquartile range / median over the row's variants. ratios: gac GB/s / baseline GB/s\n");
  printf("%-24s %3s %4s %7s %7s %7s %7s", "row", "ops", "wg", "rect", "awgc", "byte", "coop");
  for (int g = 0; g < num_gac; g++)
    printf(" %11.11s", strategies[g]);
  printf(" %7s", "spread");
  for (int g = 0; g < num_gac; g++)
    printf("  %s/(rect awgc byte coop best)", strategies[g]);
  printf("\n");

  bool all_right = true;
  int reruns = 0, measured = 0;
  double worst_spread = 0;
  for (int r = 0; r < NUM_ROWS; r++) {
    const shape *s = NULL;
    for (int i = 0; i < NUM_SHAPES; i++)
      if (strcmp(shapes[i].id, rows[r].shape) == 0)
        s = &shapes[i];
    char row_name[64];
    snprintf(row_name, sizeof row_name, "%s@%zu", s->id, rows[r].local);
    if (row_list && !in_list(row_list, row_name) && !in_list(row_list, s->id))
      continue;
    size_t local = rows[r].local, bytes = span_bytes(s), unit = unit_of(s);
    unsigned char *host = malloc(bytes), *expected = calloc(1, bytes), *got = malloc(bytes);
    for (size_t i = 0; i < bytes; i++)
      host[i] = (unsigned char)((i * 2654435761u) >> 13 | 1);
    for (size_t g = 0; g < s->groups; g++)
      for (size_t l = 0; l < s->lines * s->planes; l++) {
        size_t o = line_offset(s, g, l);
        memcpy(expected + o, host + o, s->per_line * s->bpe);
      }
    cl_mem src = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
    CHECK_CL(err);
    cl_mem dst = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK_CL(err);
    for (int constant = 1; constant >= 0; constant--) {
      /* The baselines, built for this row's unit (and shape, when constant). */
      char options[512];
      int n = snprintf(options, sizeof options, "-DT=%s", unit == 16 ? "uint4" : unit == 8 ? "uint2" : unit == 4 ? "uint" : "uchar");
      if (constant)
        snprintf(options + n, sizeof options - (size_t)n,
                 " -DC_SHAPE -DC_UNITS=%zuUL -DC_LINES=%zuUL -DC_PLANES=%zuUL -DC_PITCH=%zuUL -DC_PLANE=%zuUL "
                 "-DC_TILES_X=%zuUL",
                 s->per_line * s->bpe / unit, s->lines, s->planes, s->pitch * s->bpe / unit, s->plane * s->bpe / unit,
                 s->tiles_x);
      const char *text = source;
      cl_program hand = clCreateProgramWithSource(context, 1, &text, &source_len, &err);
      CHECK_CL(err);
      build(hand, options);
      variant v[MAX_VARIANTS];
      memset(v, 0, sizeof v);
      int nv = 0;
      snprintf(v[nv++].name, sizeof v[0].name, "rect");
      for (int h = 0; h < HAND; h++) {
        snprintf(v[nv].name, sizeof v[nv].name, "%s", hand_names[h]);
        v[nv].kernel = clCreateKernel(hand, hand_names[h], &err);
        CHECK_CL(err);
        set_common(v[nv].kernel, s, src, dst);
        set_hand_args(v[nv].kernel, s, unit);
        nv++;
      }
      for (int g = 0; g < num_gac; g++) {
        char kernel[64];
        if (constant)
          snprintf(kernel, sizeof kernel, "c_%s", s->id);
        else
          snprintf(kernel, sizeof kernel, "tile%dd", s->dims);
        snprintf(v[nv].name, sizeof v[nv].name, "gac %s", strategies[g]);
        v[nv].kernel = clCreateKernel(gac[g], kernel, &err);
        CHECK_CL(err);
        set_common(v[nv].kernel, s, src, dst);
        if (!constant)
          set_gac_args(v[nv].kernel, s);
        nv++;
      }
      bool right = true;
      int num_gac_shown = num_gac, num_variants = nv;
      for (int i = 0; i < nv; i++)
        right &= check(&v[i], s, local, src, dst, expected, got);
      all_right &= right;
      bool rerun = false;
      if (!check_only) {
        time_rounds(v, nv, s, local, src, dst, rounds);
        double spread = 0;
        for (int i = 0; i < nv; i++)
          spread = v[i].spread > spread ? v[i].spread : spread;
        if (spread > 0.15) { /* suspicious: once more, with twice the rounds */
          time_rounds(v, nv, s, local, src, dst, 2 * rounds);
          rerun = true;
          reruns++;
        }
      }
      double moved = (double)tile_bytes(s) * (double)s->groups, gbs[MAX_VARIANTS], spread = 0;
      for (int i = 0; i < nv; i++) {
        gbs[i] = check_only ? 0 : (i == 0 ? 1 : 2) * moved / v[i].median / 1e9;
        spread = v[i].spread > spread ? v[i].spread : spread;
      }
      measured++;
      worst_spread = spread > worst_spread ? spread : worst_spread;
      printf("%-24s %3s %4zu", row_name, constant ? "c" : "rt", local);
      if (check_only)
        nv = 0, num_gac_shown = 0;
      for (int i = 0; i < nv; i++)
        printf(i < 1 + HAND ? " %7.2f" : " %11.2f", gbs[i]);
      if (!check_only)
        printf(" %5.0f%%%s", 100 * spread, rerun ? "R" : " ");
      for (int g = 0; g < num_gac_shown; g++) {
        double x = gbs[1 + HAND + g], best = gbs[1] > gbs[2] ? gbs[1] : gbs[2];
        best = gbs[3] > best ? gbs[3] : best;
        printf("  %4.2f %4.2f %5.2f %4.2f %4.2f", x / gbs[0], x / gbs[1], x / gbs[2], x / gbs[3], x / best);
      }
      printf("%s\n", right ? (check_only ? "  right" : "") : "  WRONG RESULT");
      fflush(stdout);
      for (int i = 0; i < num_variants; i++)
        if (v[i].kernel)
          clReleaseKernel(v[i].kernel);
      clReleaseProgram(hand);
    }
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    free(host);
    free(expected);
    free(got);
  }
  if (getloadavg(load, 3) < 0)
    load[0] = -1;
  printf("%d rows, every result %s; %d rows rerun (spread > 15%%), largest spread %.0f%%; load average at end %.2f\n",
         measured, all_right ? "checked and right" : "checked: SOME WRONG", reruns, 100 * worst_spread, load[0]);
  for (int g = 0; g < num_gac; g++)
    clReleaseProgram(gac[g]);
  free(list);
  free(source);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return all_right ? 0 : 1;
}
