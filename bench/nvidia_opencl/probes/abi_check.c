/* nvcl-abi-check PROBE.cl GAC.ptx: runs every kernel of ptx_abi_probe.cl
 * twice through NVIDIA's OpenCL driver, once built by NVIDIA's compiler from
 * the source and once from gac's PTX (--ptx-abi=opencl), with the same
 * arguments and NDRanges (global offsets included), and compares the
 * buffers they write byte for byte. Exit 0 when every kernel agrees. */
#include "nvcl.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4096, MAX_ARGS = 9 };

typedef enum { A_GLOBAL, A_CONST, A_LOCAL, A_INT, A_FLOAT, A_LONG, A_UCHAR, A_BYTES, A_FLOAT4 } arg_kind;

typedef struct probe {
  const char *kernel;
  unsigned dims;
  size_t offset[3], global[3], local[3];
  unsigned num_args;
  arg_kind args[MAX_ARGS];
} probe;

/* Buffers: A_GLOBAL is the output (N * 16 bytes, filled with a pattern),
 * A_CONST and A_BYTES are inputs; A_LOCAL takes local[0] * 4 bytes. */
static const probe probes[] = {
    {"args", 1, {0}, {1024}, {128}, 9, {A_GLOBAL, A_CONST, A_LOCAL, A_INT, A_FLOAT, A_LONG, A_UCHAR, A_BYTES, A_FLOAT4}},
    {"args", 1, {64}, {1024}, {256}, 9, {A_GLOBAL, A_CONST, A_LOCAL, A_INT, A_FLOAT, A_LONG, A_UCHAR, A_BYTES, A_FLOAT4}},
    {"two_locals", 1, {0}, {512}, {64}, 3, {A_GLOBAL, A_LOCAL, A_LOCAL}},
    {"builtins", 2, {3, 5}, {64, 4}, {32, 2}, 1, {A_GLOBAL}},
    {"builtins", 3, {1, 2, 3}, {16, 4, 2}, {8, 2, 1}, 1, {A_GLOBAL}},
    {"builtins", 1, {0}, {256}, {64}, 1, {A_GLOBAL}},
    {"static_local", 1, {0}, {1024}, {64}, 1, {A_GLOBAL}},
    {"reqd", 2, {0, 0}, {128, 4}, {64, 2}, 1, {A_GLOBAL}},
    {"async", 1, {0}, {1024}, {256}, 3, {A_GLOBAL, A_LOCAL, A_INT}},
    {"strided", 1, {0}, {256}, {256}, 3, {A_GLOBAL, A_LOCAL, A_INT}},
};

/* Runs probe p from program prog; the output buffer's bytes go to out. */
static bool run(nvcl *cl, cl_program prog, const probe *p, unsigned char *out) {
  cl_int err;
  cl_kernel k = clCreateKernel(prog, p->kernel, &err);
  if (err != CL_SUCCESS) {
    printf("  %s: clCreateKernel: error %d\n", p->kernel, err);
    return false;
  }
  size_t bytes = (size_t)N * 16;
  unsigned char *init = malloc(bytes);
  for (size_t i = 0; i < bytes; i++)
    init[i] = (unsigned char)(i * 7 + 3);
  float consts[64];
  for (int i = 0; i < 64; i++)
    consts[i] = (float)i * 0.5f;
  cl_mem mems[MAX_ARGS] = {0};
  bool ok = true;
  for (unsigned a = 0; a < p->num_args && ok; a++) {
    switch (p->args[a]) {
    case A_GLOBAL:
      mems[a] = clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, init, &err);
      err = err ? err : clSetKernelArg(k, a, sizeof(cl_mem), &mems[a]);
      break;
    case A_CONST:
      mems[a] = clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof consts, consts, &err);
      err = err ? err : clSetKernelArg(k, a, sizeof(cl_mem), &mems[a]);
      break;
    case A_BYTES:
      mems[a] = clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, init, &err);
      err = err ? err : clSetKernelArg(k, a, sizeof(cl_mem), &mems[a]);
      break;
    case A_LOCAL: err = clSetKernelArg(k, a, p->local[0] * 4, NULL); break;
    case A_INT: {
      cl_int v = (cl_int)p->local[0];
      err = clSetKernelArg(k, a, sizeof v, &v);
      break;
    }
    case A_FLOAT: {
      cl_float v = 2.5f;
      err = clSetKernelArg(k, a, sizeof v, &v);
      break;
    }
    case A_LONG: {
      cl_long v = -3;
      err = clSetKernelArg(k, a, sizeof v, &v);
      break;
    }
    case A_UCHAR: {
      cl_uchar v = 200;
      err = clSetKernelArg(k, a, sizeof v, &v);
      break;
    }
    case A_FLOAT4: {
      cl_float4 v = {{1.0f, 2.0f, 4.0f, 8.0f}};
      err = clSetKernelArg(k, a, sizeof v, &v);
      break;
    }
    }
    if (err != CL_SUCCESS) {
      printf("  %s: argument %u: error %d\n", p->kernel, a, err);
      ok = false;
    }
  }
  if (ok) {
    err = clEnqueueNDRangeKernel(cl->queue, k, p->dims, p->offset, p->global, p->local, 0, NULL, NULL);
    err = err ? err : clEnqueueReadBuffer(cl->queue, mems[0], CL_TRUE, 0, bytes, out, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      printf("  %s: enqueue or read: error %d\n", p->kernel, err);
      ok = false;
    }
  }
  for (unsigned a = 0; a < p->num_args; a++)
    if (mems[a])
      clReleaseMemObject(mems[a]);
  clReleaseKernel(k);
  free(init);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: nvcl-abi-check PROBE.cl GAC.ptx\n");
    return 2;
  }
  nvcl cl;
  nvcl_open(&cl);
  size_t size;
  char *source = nvcl_read_file(argv[1], &size), *ptx = nvcl_read_file(argv[2], &size);
  if (!source || !ptx) {
    fprintf(stderr, "nvcl-abi-check: cannot read %s\n", source ? argv[2] : argv[1]);
    return 2;
  }
  cl_program vendor = nvcl_build_source(&cl, source, "");
  cl_program gac = nvcl_build_ptx(&cl, ptx, size + 1, "");
  if (!vendor || !gac)
    return 1;
  size_t bytes = (size_t)N * 16;
  unsigned char *a = malloc(bytes), *b = malloc(bytes);
  unsigned failed = 0, n = sizeof probes / sizeof probes[0];
  for (unsigned i = 0; i < n; i++) {
    const probe *p = &probes[i];
    bool ok = run(&cl, vendor, p, a) && run(&cl, gac, p, b);
    size_t first = bytes;
    for (size_t j = 0; ok && j < bytes && first == bytes; j++)
      if (a[j] != b[j])
        first = j;
    ok = ok && first == bytes;
    printf("%s %s (%uD, offset %zu)%s", ok ? "PASS" : "FAIL", p->kernel, p->dims, p->offset[0],
           first < bytes ? "" : "\n");
    if (first < bytes)
      printf(": byte %zu differs (NVIDIA %02x, gac %02x)\n", first, a[first], b[first]);
    failed += !ok;
  }
  printf("ABI check on %s (driver %s): %u of %u agree\n", cl.device_name, cl.driver_version, n - failed, n);
  return failed != 0;
}
