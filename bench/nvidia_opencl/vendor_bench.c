/* vendor-bench SRC_DIR PTX_DIR: the vendor benchmark
 * (docs/VENDOR.md). One OpenCL host program on NVIDIA's OpenCL driver runs
 * each benchmark kernel built two ways, with the same buffers, NDRange and
 * timing (profiled events):
 *  - by NVIDIA's OpenCL compiler from source, with each 2D copy written as
 *    per-line 1D async_work_group_copy ("nvidia 1D copies") and as plain
 *    cooperative loads and barriers ("nvidia plain loads"), vendor_copies.h;
 *  - as gac's PTX for NVIDIA's OpenCL ABI (--ptx-abi=opencl), unpipelined
 *    and pipelined, sm_80 and sm_90 (PTX_DIR/K.{unpipelined,pipelined}.
 *    sm{80,90}.nvcl.ptx, from `ninja ptx-device-bundle`).
 * CLBlast's Xgemm runs as it is (NVIDIA's compiler against gac's) and with
 * its tile loads as 2D copies; the corpus' tile-copying kernels as
 * vendor_corpus.c says.
 * cuBLAS (through the CUDA runtime, in the same process) is the SGEMMs'
 * ceiling. Every result is checked against a host reference; the table
 * gives medians and ratios from this run. Exit 1 if a result is wrong. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "vendor_bench.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *src_dir, *ptx_dir;
nvcl cl;

double wall_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static cl_kernel kernel_of(cl_program program, const char *name) {
  if (!program)
    return NULL;
  cl_int err;
  cl_kernel k = clCreateKernel(program, name, &err);
  if (err != CL_SUCCESS) {
    printf("  clCreateKernel %s: error %d\n", name, err);
    return NULL;
  }
  return k;
}

cl_kernel vendor_build_source(const char *path, const char *define, const char *options, const char *name,
                              cl_program *program) {
  size_t size;
  char header_path[512];
  snprintf(header_path, sizeof header_path, "%s/vendor_copies.h", src_dir);
  char *source = nvcl_read_file(path, &size), *header = define ? nvcl_read_file(header_path, &size) : NULL;
  *program = NULL;
  if (!source || (define && !header)) {
    printf("  cannot read %s%s\n", path, define ? " or vendor_copies.h" : "");
  } else if (!define) {
    *program = nvcl_build_source(&cl, source, options);
  } else {
    size_t len = strlen(header) + strlen(source) + 64;
    char *text = malloc(len);
    snprintf(text, len, "#define %s\n%s\n%s", define, header, source);
    *program = nvcl_build_source(&cl, text, options);
    free(text);
  }
  free(header);
  free(source);
  return kernel_of(*program, name);
}

cl_kernel vendor_build_ptx(const char *path, const char *name, cl_program *program) {
  size_t size;
  char *ptx = nvcl_read_file(path, &size);
  *program = NULL;
  if (!ptx)
    printf("  no %s\n", path);
  else
    *program = nvcl_build_ptx(&cl, ptx, size + 1, "");
  free(ptx);
  return kernel_of(*program, name);
}

/* NVIDIA's compiler on the source at path, its PTX (CL_PROGRAM_BINARIES)
 * then loaded as gac's is, through clCreateProgramWithBinary: whether a
 * gap between the two is the code or how the driver loads it. The PTX is
 * kept as SAVE_DIR/K.nvidia.ptx (the text, without the NUL the binary
 * ends in, so that ptxas reads it) where VENDOR_SAVE_PTX names a folder. */
static cl_kernel build_reloaded(const char *path, const char *kernel_file, const char *name, cl_program *program) {
  cl_program from_source;
  cl_kernel k = vendor_build_source(path, NULL, "", name, &from_source);
  if (!k)
    return NULL;
  clReleaseKernel(k);
  size_t size;
  char *ptx = nvcl_binary(&cl, from_source, &size);
  clReleaseProgram(from_source);
  const char *save = getenv("VENDOR_SAVE_PTX");
  if (save) {
    char out[512];
    snprintf(out, sizeof out, "%s/%s.nvidia.ptx", save, kernel_file);
    if (!nvcl_write_file(out, ptx, strlen(ptx)))
      printf("  cannot write %s\n", out);
  }
  *program = nvcl_build_ptx(&cl, ptx, strlen(ptx) + 1, "");
  free(ptx);
  return kernel_of(*program, name);
}

/* The kernel `name` of variant `how`: "source" (NVIDIA's compiler on the
 * source as it is), "reload" (the same, its PTX loaded back), "1d" or
 * "plain" (the source with vendor_copies.h in front) or a PTX file's tag
 * such as "pipelined.sm80"; NULL (with a message) if it does not build. */
static cl_kernel build(const char *kernel_file, const char *name, const char *how, cl_program *program) {
  char path[512];
  if (!strcmp(how, "reload") || !strcmp(how, "source") || !strcmp(how, "1d") || !strcmp(how, "plain")) {
    snprintf(path, sizeof path, "%s/%s.cl", src_dir, kernel_file);
    if (!strcmp(how, "reload"))
      return build_reloaded(path, kernel_file, name, program);
    const char *define = !strcmp(how, "1d") ? "VENDOR_1D" : !strcmp(how, "plain") ? "VENDOR_PLAIN" : NULL;
    return vendor_build_source(path, define, "", name, program);
  }
  snprintf(path, sizeof path, "%s/%s.%s.nvcl.ptx", ptx_dir, kernel_file, how);
  return vendor_build_ptx(path, name, program);
}

void time_rows(row *rows, cl_kernel *k, cl_program *p, unsigned n, unsigned dims, const size_t *global,
               const size_t *local, double work) {
  static double times[MAX_ROWS][REPS];
  n = n < MAX_ROWS ? n : MAX_ROWS;
  for (int r = -WARMUP; r < REPS; r++)
    for (unsigned i = 0; i < n; i++) {
      if (!k[i])
        continue;
      cl_event ev;
      nvcl_check(clEnqueueNDRangeKernel(cl.queue, k[i], dims, NULL, global, local, 0, NULL, &ev), "enqueue");
      nvcl_check(clWaitForEvents(1, &ev), "wait");
      if (r >= 0)
        times[i][r] = nvcl_event_ms(ev);
      clReleaseEvent(ev);
    }
  for (unsigned i = 0; i < n; i++) {
    if (k[i]) {
      qsort(times[i], REPS, sizeof times[i][0], cmp_double);
      rows[i].ms = times[i][REPS / 2];
      rows[i].value = work / (rows[i].ms * 1e-3);
      clReleaseKernel(k[i]);
    }
    if (p[i])
      clReleaseProgram(p[i]);
  }
}

void print_table(const char *title, const char *unit, row *rows, unsigned n, const char *const *refs,
                 unsigned num_refs) {
  printf("\n%s (%s; median of %d launches; %s, driver %s)\n", title, unit, REPS, cl.device_name, cl.driver_version);
  printf("%-26s %9s %9s %9s", "variant", unit, "ms", "build ms");
  for (unsigned r = 0; r < num_refs; r++)
    printf("  x %-18s", refs[r]);
  printf("  check\n");
  for (unsigned i = 0; i < n; i++) {
    printf("%-26s", rows[i].label);
    if (rows[i].ran)
      printf(" %9.2f %9.4f %9.0f", rows[i].value, rows[i].ms, rows[i].build_ms);
    else
      printf(" %9s %9s %9s", "-", "-", "-");
    for (unsigned r = 0; r < num_refs; r++) {
      double ref = 0;
      for (unsigned j = 0; j < n; j++)
        if (!strcmp(rows[j].label, refs[r]) && rows[j].ran)
          ref = rows[j].value;
      if (rows[i].ran && ref > 0)
        printf("  %20.3f", rows[i].value / ref);
      else
        printf("  %20s", "-");
    }
    printf("  %s\n", !rows[i].ran ? "FAIL (did not run)" : rows[i].ok ? "ok" : "FAIL");
  }
  for (unsigned i = 0; i < n; i++)
    printf("RESULT %s %s %.3f %s %.5f %s build %.1f ms\n", title, rows[i].label, rows[i].ran ? rows[i].value : 0.0,
           unit, rows[i].ms, rows[i].ran && rows[i].ok ? "ok" : "FAIL", rows[i].build_ms);
  /* The measure: gac's best correct row against the best of
   * NVIDIA's compiler (rows labelled "gac ..." and "nvidia ..."; cuBLAS is
   * neither), from this run. */
  int best[2] = {-1, -1};
  for (unsigned i = 0; i < n; i++) {
    int side = !strncmp(rows[i].label, "gac ", 4) ? 0 : !strncmp(rows[i].label, "nvidia ", 7) ? 1 : -1;
    if (side >= 0 && rows[i].ran && rows[i].ok && (best[side] < 0 || rows[i].value > rows[best[side]].value))
      best[side] = (int)i;
  }
  if (best[0] >= 0 && best[1] >= 0)
    printf("BEST %s: gac %.3f (%s) / nvidia %.3f (%s) = %.3fx\n", title, rows[best[0]].value, rows[best[0]].label,
           rows[best[1]].value, rows[best[1]].label, rows[best[0]].value / rows[best[1]].value);
}

static variant variants[MAX_ROWS] = {
    {NULL, "1d", "nvidia 1D copies"},
    {NULL, "plain", "nvidia plain loads"},
    {NULL, "unpipelined.sm80", "gac sm80 unpipelined"},
    {NULL, "pipelined.sm80", "gac sm80 pipelined"},
    {NULL, "unpipelined.sm90", "gac sm90 unpipelined"},
    {NULL, "pipelined.sm90", "gac sm90 pipelined"},
    {NULL, "unpipelined.l1.sm80", "gac sm80 unpipelined .ca"}, /* --ptx-cp-async-l1 */
    {NULL, "pipelined.l1.sm80", "gac sm80 pipelined .ca"},
};
/* The rows of a list: those the initialiser gave (the rest are zero). */
static unsigned listed(const variant *v) {
  unsigned n = 0;
  while (n < MAX_ROWS && v[n].label)
    n++;
  return n;
}

/* CLBlast's Xgemm (third_party/clblast): as it is, through NVIDIA's
 * compiler and through gac; and with its tile loads as 2D copies
 * (make_xgemm_2d.sh), through gac and, as a user of NVIDIA's compiler must
 * write those, as per-line 1D copies and as plain loads. */
static variant clblast_variants[MAX_ROWS] = {
    {"xgemm", "source", "nvidia CLBlast as is"},
    {"xgemm", "reload", "nvidia CLBlast, its PTX"},
    {"xgemm", "gac.sm80", "gac sm80 as is"},
    {"xgemm", "gac.sm90", "gac sm90 as is"},
    {"xgemm", "tuned.sm80", "gac sm80 as is, tuned"}, /* LLVM options and --ptx-occupancy */
    {"xgemm", "tuned.sm90", "gac sm90 as is, tuned"},
    {"xgemm", "kept.sm80", "gac sm80 as is, loads kept"}, /* --ptx-keep-tile-loads */
    {"xgemm", "kept.sm90", "gac sm90 as is, loads kept"},
    {"xgemm_2d", "1d", "nvidia 2D as 1D copies"},
    {"xgemm_2d", "plain", "nvidia 2D as plain loads"},
    {"xgemm_2d", "unpipelined.sm80", "gac sm80 2D copies"},
    {"xgemm_2d", "unpipelined.sm90", "gac sm90 2D copies"},
    {"xgemm_2d", "pipelined2.sm80", "gac sm80 2D pipelined 2st"},
    {"xgemm_2d", "pipelined3.sm80", "gac sm80 2D pipelined 3st"},
    {"xgemm_2d", "pipelined3.sm90", "gac sm90 2D pipelined 3st"},
};

/* Appends a row to both lists (while they have room). */
static void add_variant(const char *clblast_file, const char *how, const char *label) {
  unsigned num_variants = listed(variants), num_clblast_variants = listed(clblast_variants);
  if (num_variants < MAX_ROWS - 1)
    variants[num_variants++] = (variant){NULL, how, label};
  if (num_clblast_variants < MAX_ROWS - 1)
    clblast_variants[num_clblast_variants++] = (variant){clblast_file, how, label};
}

/* VENDOR_LAYER=1 (the host program runs with gac's layer in front of
 * NVIDIA's driver, icd/device/run.sh): each kernel's own source, with its
 * 2D copies, through clCreateProgramWithSource, which the layer compiles
 * with gac's PTX path for the device. The "nvidia" rows' sources name the
 * builtins only to define them away (vendor_copies.h): the layer hands
 * those to NVIDIA's compiler, as without it. For Xgemm that is the source
 * with 2D copies. */
static void add_layer_variants(void) {
  if (getenv("VENDOR_LAYER"))
    add_variant("xgemm_2d", "source", "gac via the layer");
}

/* VENDOR_EXTRA="tag ...": more gac PTX variants (PTX_DIR/K.tag.nvcl.ptx; for
 * Xgemm, xgemm.tag.nvcl.ptx; for the corpus, corpus/ENTRY.tag.nvcl.ptx), for
 * experiments such as register limits or LLVM options; kernels without the
 * file show "-". */
variant extra[MAX_ROWS];
unsigned num_extra;

static void add_extra_variants(void) {
  static char buf[512];
  static char labels[MAX_ROWS][48];
  const char *env = getenv("VENDOR_EXTRA");
  snprintf(buf, sizeof buf, "%s", env ? env : "");
  for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok && num_extra < MAX_ROWS;
       tok = strtok_r(NULL, " ", &save)) {
    snprintf(labels[num_extra], sizeof labels[0], "gac %s", tok);
    extra[num_extra] = (variant){NULL, tok, labels[num_extra]};
    add_variant("xgemm", tok, labels[num_extra++]);
  }
}

/* VENDOR_ONLY="sgemm xgemm ...": those tables alone (sgemm, sgemm_fast,
 * xgemm, stencil, corpus); VENDOR_CORPUS=ENTRY is the corpus' ENTRY alone. */
static bool wanted(const char *table) {
  const char *only = getenv("VENDOR_ONLY");
  if (getenv("VENDOR_CORPUS"))
    return !strcmp(table, "corpus");
  if (!only)
    return true;
  size_t len = strlen(table);
  for (const char *p = strstr(only, table); p; p = strstr(p + 1, table))
    if ((p == only || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
      return true;
  return false;
}

unsigned long long vendor_hash(size_t i, unsigned seed) { /* splitmix64 */
  unsigned long long z = i * 0x9e3779b97f4a7c15ull + seed * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static float input_value(size_t i, unsigned seed) { return (float)((vendor_hash(i, seed) >> 40) * (2.0 / 16777216.0) - 1.0); }

/* One SGEMM of the benchmark: C = A B (n x n, row-major). bench/cuda's
 * kernels take (A, B, C, n), one work-group per tile x tile of C; CLBlast's
 * Xgemm takes (N, M, K, alpha, beta, B, A^T, C, 0, 0) over {n/4, n/4}
 * (third_party/clblast/README.md: the row-major recipe). */
typedef struct gemm_case {
  const char *file, *kernel;
  size_t local[2];
  unsigned tile;
  bool clblast;
  const variant *variants; /* NULL: the benchmark's own list */
  unsigned num_variants;
} gemm_case;

/* Sets k's arguments for g and n. */
static void gemm_args(const gemm_case *g, cl_kernel k, unsigned n, cl_mem dA, cl_mem dAT, cl_mem dB, cl_mem dC) {
  if (!g->clblast) {
    cl_uint nn = n;
    clSetKernelArg(k, 0, sizeof dA, &dA);
    clSetKernelArg(k, 1, sizeof dB, &dB);
    clSetKernelArg(k, 2, sizeof dC, &dC);
    clSetKernelArg(k, 3, sizeof nn, &nn);
    return;
  }
  cl_int size = (cl_int)n, zero = 0;
  float alpha = 1, beta = 0;
  for (unsigned a = 0; a < 3; a++)
    clSetKernelArg(k, a, sizeof size, &size);
  clSetKernelArg(k, 3, sizeof alpha, &alpha);
  clSetKernelArg(k, 4, sizeof beta, &beta);
  clSetKernelArg(k, 5, sizeof dB, &dB);
  clSetKernelArg(k, 6, sizeof dAT, &dAT);
  clSetKernelArg(k, 7, sizeof dC, &dC);
  clSetKernelArg(k, 8, sizeof zero, &zero);
  clSetKernelArg(k, 9, sizeof zero, &zero);
}

/* C = A B (n x n, row-major): every variant of g, and cuBLAS; a sample of
 * entries against the host's double-precision sums. */
static bool bench_sgemm(const gemm_case *g, unsigned n) {
  const char *name = g->kernel;
  size_t count = (size_t)n * n, bytes = count * sizeof(float);
  float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
  for (size_t i = 0; i < count; i++)
    A[i] = input_value(i, 1), B[i] = input_value(i, 2);
  enum { SAMPLES = 2048 };
  size_t at[SAMPLES];
  double want[SAMPLES], scale[SAMPLES];
  for (unsigned s = 0; s < SAMPLES; s++) {
    size_t i = vendor_hash(s, 7) % n, j = vendor_hash(s, 8) % n;
    double sum = 0, mag = 0;
    for (unsigned k = 0; k < n; k++)
      sum += (double)A[i * n + k] * B[(size_t)k * n + j], mag += fabs((double)A[i * n + k] * B[(size_t)k * n + j]);
    at[s] = i * n + j, want[s] = sum, scale[s] = mag;
  }
  cl_int err;
  cl_mem dA = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, A, &err);
  cl_mem dB = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, B, &err);
  cl_mem dC = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  nvcl_check(err, "clCreateBuffer");
  cl_mem dAT = NULL; /* A^T, for Xgemm */
  if (g->clblast) {
    float *AT = malloc(bytes);
    for (size_t i = 0; i < n; i++)
      for (size_t k = 0; k < n; k++)
        AT[k * n + i] = A[i * n + k];
    dAT = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, AT, &err);
    nvcl_check(err, "clCreateBuffer");
    free(AT);
  }
  double flop = 2.0 * n * (double)n * n;
  row rows[MAX_ROWS];
  unsigned nr = 0;
  size_t global[2] = {n / 4, n / 4}; /* Xgemm: a 4 x 4 block of C per work-item */
  if (!g->clblast)
    global[0] = n / g->tile * g->local[0], global[1] = n / g->tile * g->local[1];
  const variant *vs = g->variants ? g->variants : variants;
  unsigned nv = g->variants ? g->num_variants : listed(variants);
  cl_kernel ks[MAX_ROWS] = {0};
  cl_program ps[MAX_ROWS] = {0};
  /* Each variant is built and checked, then all are timed taking turns:
   * none gains from running first, while the card is cooler. */
  for (unsigned v = 0; v < nv && nr < MAX_ROWS - 1; v++) {
    row *r = &rows[nr++];
    memset(r, 0, sizeof *r);
    snprintf(r->label, sizeof r->label, "%s", vs[v].label);
    double start = wall_ms();
    cl_kernel k = build(vs[v].file ? vs[v].file : g->file, name, vs[v].how, &ps[v]);
    r->build_ms = wall_ms() - start;
    if (!k)
      continue;
    float nan = NAN;
    nvcl_check(clEnqueueFillBuffer(cl.queue, dC, &nan, sizeof nan, 0, bytes, 0, NULL, NULL), "fill");
    gemm_args(g, k, n, dA, dAT, dB, dC);
    nvcl_check(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, g->local, 0, NULL, NULL), "enqueue");
    nvcl_check(clEnqueueReadBuffer(cl.queue, dC, CL_TRUE, 0, bytes, C, 0, NULL, NULL), "read C");
    unsigned bad = 0;
    for (unsigned s = 0; s < SAMPLES; s++)
      bad += !(fabs(C[at[s]] - want[s]) <= 1e-4 * scale[s] + 1e-6);
    r->ok = bad == 0;
    r->ran = true;
    ks[v] = k;
    if (bad)
      printf("FAIL %s %s: %u of %d sampled entries off the host reference\n", name, r->label, bad, SAMPLES);
  }
  time_rows(rows, ks, ps, nr, 2, global, g->local, flop / 1e12);
  /* cuBLAS, column-major: C^T = B^T A^T. */
  row *r = &rows[nr++];
  memset(r, 0, sizeof *r);
  snprintf(r->label, sizeof r->label, "cuBLAS");
  float *cA, *cB, *cC;
  cublasHandle_t h;
  if (cudaMalloc((void **)&cA, bytes) == cudaSuccess && cudaMalloc((void **)&cB, bytes) == cudaSuccess &&
      cudaMalloc((void **)&cC, bytes) == cudaSuccess && cublasCreate(&h) == CUBLAS_STATUS_SUCCESS) {
    cudaMemcpy(cA, A, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(cB, B, bytes, cudaMemcpyHostToDevice);
    const float one = 1, zero = 0;
    double ms[REPS];
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int i = -WARMUP; i < REPS; i++) {
      cudaEventRecord(e0, 0);
      cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, cB, n, cA, n, &zero, cC, n);
      cudaEventRecord(e1, 0);
      cudaEventSynchronize(e1);
      float t;
      cudaEventElapsedTime(&t, e0, e1);
      if (i >= 0)
        ms[i] = t;
    }
    qsort(ms, REPS, sizeof ms[0], cmp_double);
    r->ms = ms[REPS / 2];
    r->value = flop / (r->ms * 1e-3) / 1e12;
    r->ran = true;
    cudaMemcpy(C, cC, bytes, cudaMemcpyDeviceToHost);
    unsigned bad = 0;
    for (unsigned s = 0; s < SAMPLES; s++)
      bad += !(fabs(C[at[s]] - want[s]) <= 1e-4 * scale[s] + 1e-6);
    r->ok = bad == 0;
    cublasDestroy(h);
    cudaFree(cA), cudaFree(cB), cudaFree(cC);
  } else {
    printf("  cuBLAS not available\n");
  }
  char title[96];
  snprintf(title, sizeof title, "%s n=%u", name, n);
  const char *const refs[] = {"cuBLAS", "nvidia plain loads", "nvidia 1D copies"};
  const char *const clblast_refs[] = {"cuBLAS", "nvidia CLBlast as is", "nvidia 2D as plain loads"};
  print_table(title, "TFLOP/s", rows, nr, g->clblast ? clblast_refs : refs, 3);
  clReleaseMemObject(dA), clReleaseMemObject(dB), clReleaseMemObject(dC);
  if (dAT)
    clReleaseMemObject(dAT);
  free(A), free(B), free(C);
  bool ok = true;
  for (unsigned i = 0; i < nr; i++)
    ok &= rows[i].ran && rows[i].ok;
  return ok;
}

/* The 5-point stencil of bench/cuda/stencil.cl, checked in full. */
static bool bench_stencil(unsigned n, unsigned count) {
  size_t pitch = n + 2, in_count = pitch * pitch, out_count = (size_t)n * n;
  float *in = malloc(in_count * sizeof(float)), *out = malloc(out_count * sizeof(float));
  for (size_t i = 0; i < in_count; i++)
    in[i] = input_value(i, 3);
  cl_int err;
  cl_mem din = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, in_count * 4, in, &err);
  cl_mem dout = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, out_count * 4, NULL, &err);
  nvcl_check(err, "clCreateBuffer");
  double gbytes = (in_count + out_count) * 4.0 / 1e9;
  row rows[MAX_ROWS];
  unsigned nr = 0;
  size_t global[2] = {n, n / (32 * count) * 8}, local[2] = {32, 8};
  cl_kernel ks[MAX_ROWS] = {0};
  cl_program ps[MAX_ROWS] = {0};
  for (unsigned v = 0, nv = listed(variants); v < nv; v++) { /* built and checked; then timed taking turns */
    row *r = &rows[nr++];
    memset(r, 0, sizeof *r);
    snprintf(r->label, sizeof r->label, "%s", variants[v].label);
    double start = wall_ms();
    cl_kernel k = build("stencil", "stencil", variants[v].how, &ps[v]);
    r->build_ms = wall_ms() - start;
    if (!k)
      continue;
    float nan = NAN;
    nvcl_check(clEnqueueFillBuffer(cl.queue, dout, &nan, sizeof nan, 0, out_count * 4, 0, NULL, NULL), "fill");
    cl_uint nn = n, cc = count;
    clSetKernelArg(k, 0, sizeof din, &din);
    clSetKernelArg(k, 1, sizeof dout, &dout);
    clSetKernelArg(k, 2, sizeof nn, &nn);
    clSetKernelArg(k, 3, sizeof cc, &cc);
    nvcl_check(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL), "enqueue");
    nvcl_check(clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, out_count * 4, out, 0, NULL, NULL), "read");
    size_t bad = 0;
    for (size_t y = 0; y < n; y++)
      for (size_t x = 0; x < n; x++) {
        const float *c = in + (y + 1) * pitch + x + 1;
        float want = 0.5f * c[0] + 0.125f * (c[-(long)pitch] + c[pitch] + c[-1] + c[1]);
        bad += !(fabsf(out[y * n + x] - want) <= 1e-5f);
      }
    r->ok = bad == 0;
    r->ran = true;
    ks[v] = k;
    if (bad)
      printf("FAIL stencil %s: %zu of %zu outputs wrong\n", r->label, bad, out_count);
  }
  time_rows(rows, ks, ps, nr, 2, global, local, gbytes);
  char title[96];
  snprintf(title, sizeof title, "stencil n=%u count=%u", n, count);
  const char *const refs[] = {"nvidia plain loads", "nvidia 1D copies"};
  print_table(title, "GB/s", rows, nr, refs, 2);
  clReleaseMemObject(din), clReleaseMemObject(dout);
  free(in), free(out);
  bool ok = true;
  for (unsigned i = 0; i < nr; i++)
    ok &= rows[i].ran && rows[i].ok;
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: vendor-bench SRC_DIR PTX_DIR\n");
    return 2;
  }
  src_dir = argv[1], ptx_dir = argv[2];
  setvbuf(stdout, NULL, _IOLBF, 0);
  add_layer_variants();
  add_extra_variants();
  nvcl_open(&cl);
  printf("vendor benchmark on %s (%s), driver %s; ratios: value / the reference's (> 1: faster)\n", cl.device_name,
         cl.platform_name, cl.driver_version);
  static const gemm_case sgemm = {"sgemm", "sgemm", {32, 8}, 32, false, NULL, 0};
  static const gemm_case sgemm_fast = {"sgemm_fast", "sgemm_fast", {16, 16}, 128, false, NULL, 0};
  const gemm_case xgemm = {"xgemm", "Xgemm", {8, 16}, 0, true, clblast_variants, listed(clblast_variants)};
  bool ok = true;
  if (wanted("sgemm"))
    ok &= bench_sgemm(&sgemm, 4096);
  if (wanted("sgemm_fast"))
    ok &= bench_sgemm(&sgemm_fast, 4096);
  if (wanted("xgemm"))
    ok &= bench_sgemm(&xgemm, 4096);
  if (wanted("stencil"))
    ok &= bench_stencil(8192, 8);
  if (wanted("corpus"))
    ok &= bench_corpus();
  nvcl_close(&cl);
  printf("\n%s\n", ok ? "all results correct" : "FAIL: some results are wrong or missing");
  return ok ? 0 : 1;
}
