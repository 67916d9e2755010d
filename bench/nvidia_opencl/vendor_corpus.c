/* The vendor benchmark's corpus part (docs/VENDOR.md): the
 * kernels of conformance/corpus that copy tiles into local memory with 2D
 * and 3D copies, at sizes that take milliseconds, through NVIDIA's OpenCL
 * driver. Each is built seven ways, with the same buffers and NDRange:
 *  - by NVIDIA's compiler: the source's plain variant (-DGAC_ASYNC=0, no
 *    local tile: what it reads it reads from global memory), and the copy
 *    variant (-DGAC_ASYNC=1) with vendor_copies.h in front, its copies as
 *    per-line 1D async_work_group_copy or as plain cooperative loads;
 *  - as gac's PTX of the corpus (PTX_DIR/corpus/ENTRY.{plain,async}.
 *    sm{80,90}.nvcl.ptx, made by conformance/corpus/ptx_status.sh): the
 *    plain variant, and the copy variant from sm_80 and sm_90 PTX and from
 *    sm_80 PTX with --ptx-cp-async-l1 (ENTRY.async.l1.sm80.nvcl.ptx).
 * Inputs are small integers (or bytes), so every variant's output must be
 * the same bits: each is checked against NVIDIA's build of the plain
 * variant, a different compiler on code without copies. */
#include "vendor_bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An argument: an input buffer (filled as gen says), an output buffer, or a
 * scalar (int or ushort). */
typedef enum { IN_FLOAT_INTS, IN_BYTES, IN_USHORTS, OUT_BUF, INT_ARG, USHORT_ARG } arg_kind;
typedef struct corpus_arg {
  arg_kind kind;
  size_t elem, count; /* buffers: element size and count */
  int lo, hi;         /* IN_FLOAT_INTS: the integers' range */
  long value;         /* scalars */
} corpus_arg;

typedef struct corpus_case {
  const char *entry;   /* the corpus entry: its PTX file's stem */
  const char *file;    /* conformance/corpus/kernels/FILE.cl */
  const char *kernel;  /* the kernel function */
  const char *options; /* the entry's build options (kernels.def) */
  unsigned dims;
  size_t global[3], local[3];
  corpus_arg args[4];
  unsigned num_args;
  const char *unit; /* "GB/s" (bytes in and out) or "GFLOP/s" */
  double work;      /* bytes or flops of one launch */
} corpus_case;

enum { MM = 2048, IMG = 4096, BYTE_IMG = 8192, VOL = 256, TW = 64, TH = 1 << 18 };

#define FLOAT_INTS(n, l, h) {.kind = IN_FLOAT_INTS, .elem = 4, .count = (n), .lo = (l), .hi = (h)}
#define BYTES_IN(n) {.kind = IN_BYTES, .elem = 1, .count = (n)}
#define USHORTS_IN(n) {.kind = IN_USHORTS, .elem = 2, .count = (n)}
#define OUT(elem_, n) {.kind = OUT_BUF, .elem = (elem_), .count = (n)}
#define INT(v) {.kind = INT_ARG, .value = (v)}
#define USHORT(v) {.kind = USHORT_ARG, .value = (v)}
#define TRAFFIC(n_in, n_out, elem) (((double)(n_in) + (n_out)) * (elem))
#define IMG_IN ((size_t)(IMG + 2) * (IMG + 2))
#define IMG_OUT ((size_t)IMG * IMG)
#define BIMG_IN ((size_t)(BYTE_IMG + 2) * (BYTE_IMG + 2))
#define BIMG_OUT ((size_t)BYTE_IMG * BYTE_IMG)
#define VOL_IN ((size_t)(VOL + 2) * (VOL + 2) * (VOL + 2))
#define VOL_OUT ((size_t)VOL * VOL * VOL)
static const corpus_case cases[] = {
    {"matmul_f32", "matmul", "matmul", "-DTS=8", 2, {MM, MM}, {8, 8},
     {FLOAT_INTS((size_t)MM * MM, -8, 8), FLOAT_INTS((size_t)MM * MM, -8, 8), OUT(4, (size_t)MM * MM), INT(MM)}, 4,
     "GFLOP/s", 2.0 * MM * MM * MM},
    {"conv2d", "conv2d", "conv2d", "", 2, {IMG, IMG}, {8, 8},
     {FLOAT_INTS(IMG_IN, 0, 255), OUT(4, IMG_OUT), INT(IMG)}, 3, "GB/s", TRAFFIC(IMG_IN, IMG_OUT, 4)},
    {"box_blur", "image_u8", "filter_u8", "", 2, {BYTE_IMG, BYTE_IMG}, {8, 8},
     {BYTES_IN(BIMG_IN), OUT(1, BIMG_OUT), INT(BYTE_IMG)}, 3, "GB/s", TRAFFIC(BIMG_IN, BIMG_OUT, 1)},
    {"sobel", "image_u8", "filter_u8", "-DSOBEL", 2, {BYTE_IMG, BYTE_IMG}, {8, 8},
     {BYTES_IN(BIMG_IN), OUT(1, BIMG_OUT), INT(BYTE_IMG)}, 3, "GB/s", TRAFFIC(BIMG_IN, BIMG_OUT, 1)},
    {"stencil3d", "stencil3d", "stencil3d", "", 3, {VOL, VOL, VOL}, {4, 4, 4},
     {FLOAT_INTS(VOL_IN, -100, 100), OUT(4, VOL_OUT), INT(VOL)}, 3, "GB/s", TRAFFIC(VOL_IN, VOL_OUT, 4)},
    {"volume_u16", "volume_u16", "volume_u16", "", 3, {VOL, VOL, VOL}, {4, 4, 4},
     {USHORTS_IN(VOL_OUT), OUT(2, VOL_OUT), INT(VOL), USHORT(1000)}, 4, "GB/s", TRAFFIC(VOL_OUT, VOL_OUT, 2)},
    {"transpose_divmod", "transpose_divmod", "transpose_divmod", "", 1, {(size_t)TW * TH}, {2 * TW},
     {FLOAT_INTS((size_t)TW * TH, -1000, 1000), OUT(4, (size_t)TW * TH), INT(TW), INT(TH)}, 4, "GB/s",
     TRAFFIC((size_t)TW * TH, (size_t)TW * TH, 4)},
};

/* The ways each is built: NVIDIA's compiler ("plain", or the copy variant
 * with vendor_copies.h's "1d" or "loads") or gac's PTX (a file tag); then
 * VENDOR_EXTRA's tags. */
static const variant ways[] = {
    {NULL, "plain", "nvidia plain"},
    {NULL, "1d", "nvidia tile, 1D copies"},
    {NULL, "loads", "nvidia tile, plain loads"},
    {NULL, "plain.sm80", "gac plain"},
    {NULL, "async.sm80", "gac tile, copies sm80"},
    {NULL, "async.sm90", "gac tile, copies sm90"},
    {NULL, "async.l1.sm80", "gac tile, copies sm80 .ca"}, /* --ptx-cp-async-l1 */
};
enum { NUM_WAYS = sizeof ways / sizeof ways[0] };

static const variant *way(unsigned w) { return w < NUM_WAYS ? &ways[w] : &extra[w - NUM_WAYS]; }

static void fill(const corpus_arg *a, void *buf, unsigned seed) {
  for (size_t i = 0; i < a->count; i++) {
    unsigned long long r = vendor_hash(i, seed);
    if (a->kind == IN_FLOAT_INTS)
      ((float *)buf)[i] = (float)(a->lo + (long)(r % (unsigned long long)(a->hi - a->lo + 1)));
    else if (a->kind == IN_BYTES)
      ((uint8_t *)buf)[i] = (uint8_t)r;
    else
      ((uint16_t *)buf)[i] = (uint16_t)r;
  }
}

/* The kernel of case c built the way `how` says; NULL (with a message) if
 * it does not build. */
static cl_kernel build_case(const corpus_case *c, const char *how, cl_program *program) {
  char path[512], options[256];
  if (!strcmp(how, "plain") || !strcmp(how, "1d") || !strcmp(how, "loads")) { /* NVIDIA's compiler */
    bool copies = strcmp(how, "plain") != 0;
    snprintf(path, sizeof path, "%s/corpus/%s.cl", src_dir, c->file);
    snprintf(options, sizeof options, "-DGAC_ASYNC=%d %s", copies, c->options);
    const char *define = !copies ? NULL : !strcmp(how, "1d") ? "VENDOR_1D" : "VENDOR_PLAIN";
    return vendor_build_source(path, define, options, c->kernel, program);
  }
  snprintf(path, sizeof path, "%s/corpus/%s.%s.nvcl.ptx", ptx_dir, c->entry, how);
  return vendor_build_ptx(path, c->kernel, program);
}

static bool bench_case(const corpus_case *c) {
  cl_mem mem[4] = {0};
  void *host[4] = {0};
  int out = -1;
  cl_int err;
  for (unsigned i = 0; i < c->num_args; i++) {
    const corpus_arg *a = &c->args[i];
    if (a->kind == INT_ARG || a->kind == USHORT_ARG)
      continue;
    size_t bytes = a->elem * a->count;
    host[i] = malloc(bytes);
    if (a->kind == OUT_BUF) {
      out = (int)i;
      mem[i] = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    } else {
      fill(a, host[i], 11 + i);
      mem[i] = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host[i], &err);
    }
    nvcl_check(err, "clCreateBuffer");
  }
  size_t out_bytes = c->args[out].elem * c->args[out].count;
  void *want = NULL; /* NVIDIA's build of the plain variant */
  row rows[MAX_ROWS];
  cl_kernel ks[MAX_ROWS] = {0};
  cl_program ps[MAX_ROWS] = {0};
  unsigned num_rows = NUM_WAYS + num_extra < MAX_ROWS ? NUM_WAYS + num_extra : MAX_ROWS;
  for (unsigned w = 0; w < num_rows; w++) { /* built and checked; then timed taking turns */
    row *r = &rows[w];
    memset(r, 0, sizeof *r);
    snprintf(r->label, sizeof r->label, "%s", way(w)->label);
    if (getenv("VENDOR_VERBOSE")) /* which one, should a launch fail (nvcl_check exits) */
      fprintf(stderr, "corpus %s: %s\n", c->entry, r->label);
    double start = wall_ms();
    cl_kernel k = build_case(c, way(w)->how, &ps[w]);
    r->build_ms = wall_ms() - start;
    if (!k)
      continue;
    unsigned char poison = 0xa5;
    nvcl_check(clEnqueueFillBuffer(cl.queue, mem[out], &poison, 1, 0, out_bytes, 0, NULL, NULL), "fill");
    for (unsigned i = 0; i < c->num_args; i++) {
      const corpus_arg *a = &c->args[i];
      cl_int v = (cl_int)a->value;
      cl_ushort h = (cl_ushort)a->value;
      if (a->kind == INT_ARG)
        clSetKernelArg(k, i, sizeof v, &v);
      else if (a->kind == USHORT_ARG)
        clSetKernelArg(k, i, sizeof h, &h);
      else
        clSetKernelArg(k, i, sizeof mem[i], &mem[i]);
    }
    nvcl_check(clEnqueueNDRangeKernel(cl.queue, k, c->dims, NULL, c->global, c->local, 0, NULL, NULL), "enqueue");
    nvcl_check(clEnqueueReadBuffer(cl.queue, mem[out], CL_TRUE, 0, out_bytes, host[out], 0, NULL, NULL), "read");
    r->ran = true;
    ks[w] = k;
    if (w == 0) {
      want = malloc(out_bytes);
      memcpy(want, host[out], out_bytes);
      r->ok = true; /* the reference; a wrong one shows as every other row failing */
    } else if (want) {
      size_t bad = 0, first = 0;
      for (size_t b = 0; b < out_bytes; b++)
        if (((unsigned char *)host[out])[b] != ((unsigned char *)want)[b] && bad++ == 0)
          first = b;
      r->ok = bad == 0;
      if (bad)
        printf("FAIL %s %s: %zu of %zu bytes differ from NVIDIA's plain build (first at byte %zu)\n", c->entry,
               r->label, bad, out_bytes, first);
    }
  }
  time_rows(rows, ks, ps, num_rows, c->dims, c->global, c->local, c->work / 1e9);
  char title[96];
  snprintf(title, sizeof title, "corpus %s", c->entry);
  const char *const refs[] = {"nvidia plain", "nvidia tile, plain loads"};
  print_table(title, c->unit, rows, num_rows, refs, 2);
  for (unsigned i = 0; i < c->num_args; i++) {
    if (mem[i])
      clReleaseMemObject(mem[i]);
    free(host[i]);
  }
  bool ok = want != NULL;
  free(want);
  for (unsigned w = 0; w < num_rows; w++)
    ok &= rows[w].ran && rows[w].ok;
  return ok;
}

/* VENDOR_CORPUS=ENTRY: that entry alone. */
bool bench_corpus(void) {
  const char *only = getenv("VENDOR_CORPUS");
  bool ok = true;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (!only || !strcmp(only, cases[i].entry))
      ok &= bench_case(&cases[i]);
  return ok;
}
