/* gac-corpus: the kernel corpus (corpus.h) on an OpenCL device, PoCL here,
 * through one of three paths:
 *   pocl   OpenCL C to clCreateProgramWithSource (no layer; plain variant only:
 *          PoCL 3.1 has no 2D/3D builtins)
 *   layer  the same with OPENCL_LAYERS naming gac's layer (both variants)
 *   cli    SPIR 1.2 bitcode from conformance/build_kernel.sh,
 *          <bc-dir>/<name>.<variant>.bc, to clCreateProgramWithBinary (both)
 *   nvcl   gac's PTX for NVIDIA's OpenCL driver (--ptx-abi=opencl, sm_80),
 *          <bc-dir>/<name>.<variant>.sm80.nvcl.ptx, to clCreateProgramWithBinary
 *          on the first GPU (both; docs/VENDOR.md)
 *
 * Usage: gac-corpus run <pocl|layer|cli|nvcl> <source-dir> <bc-dir> [--save DIR]
 *        gac-corpus compare DIR
 * Prints a row per kernel and variant (result, largest error) and the totals;
 * exit status 1 if any failed (known failures aside). */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cl_device.h"
#include "corpus.h"

typedef struct ocl {
  cl_context context;
  cl_command_queue queue;
  cl_device_id device;
  const char *source_dir, *bc_dir;
  bool binary; /* the cli and nvcl paths */
  bool ptx;    /* nvcl */
} ocl;

/* The program of entry e as `variant`, built (NULL with the log in why). */
static cl_program build(const ocl *o, const corpus_entry *e, unsigned variant, char *why, size_t why_len) {
  char path[1024], options[512];
  if (o->binary)
    snprintf(path, sizeof path, "%s/%s.%s.%s", o->bc_dir, e->name, gac_corpus_variants[variant],
             o->ptx ? "sm80.nvcl.ptx" : "bc");
  else
    snprintf(path, sizeof path, "%s/%s", o->source_dir, e->source);
  size_t size;
  char *text = gac_read_file(path, &size);
  if (!text) {
    snprintf(why, why_len, "cannot read %.900s", path);
    return NULL;
  }
  if (o->ptx)
    size++; /* PTX with its NUL */
  cl_int err, status;
  cl_program p = o->binary ? clCreateProgramWithBinary(o->context, 1, &o->device, &size,
                                                       (const unsigned char **)&text, &status, &err)
                           : clCreateProgramWithSource(o->context, 1, (const char **)&text, &size, &err);
  free(text);
  if (err != CL_SUCCESS) {
    snprintf(why, why_len, "creating the program from %.900s: %d", path, err);
    return NULL;
  }
  if (o->ptx)
    options[0] = '\0';
  else if (o->binary)
    snprintf(options, sizeof options, "-x spir -spir-std=1.2");
  else
    snprintf(options, sizeof options, "%s -DGAC_ASYNC=%u", e->options, variant);
  err = clBuildProgram(p, 1, &o->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, o->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    for (char *c = log; *c; c++)
      if (*c == '\n')
        *c = ' ';
    snprintf(why, why_len, "clBuildProgram(%s): %d %.700s", options, err, log);
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

static void *load(void *self, const corpus_entry *e, unsigned variant, char *why, size_t why_len) {
  cl_program p = build(self, e, variant, why, why_len);
  if (!p)
    return NULL;
  cl_int err;
  cl_kernel k = clCreateKernel(p, e->kernel, &err);
  clReleaseProgram(p); /* the kernel keeps it */
  if (err != CL_SUCCESS)
    snprintf(why, why_len, "clCreateKernel(%s): %d", e->kernel, err);
  return err == CL_SUCCESS ? k : NULL;
}

static bool run(void *self, void *kernel, const corpus_spec *s, corpus_arg *args, char *why, size_t why_len) {
  const ocl *o = self;
  cl_mem mem[CORPUS_MAX_ARGS] = {0};
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; i < CORPUS_MAX_ARGS && args[i].kind != CA_END && err == CL_SUCCESS; i++) {
    if (args[i].kind == CA_IN || args[i].kind == CA_OUT) {
      mem[i] = clCreateBuffer(o->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, args[i].size, args[i].host, &err);
      if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, i, sizeof(cl_mem), &mem[i]);
    } else {
      err = clSetKernelArg(kernel, i, args[i].size, args[i].kind == CA_LOCAL ? NULL : args[i].host);
    }
  }
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(o->queue, kernel, s->dims, NULL, s->global, s->local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(o->queue);
  for (unsigned i = 0; i < CORPUS_MAX_ARGS; i++) {
    if (mem[i] && err == CL_SUCCESS && args[i].kind == CA_OUT)
      err = clEnqueueReadBuffer(o->queue, mem[i], CL_TRUE, 0, args[i].size, args[i].host, 0, NULL, NULL);
    if (mem[i])
      clReleaseMemObject(mem[i]);
  }
  if (err != CL_SUCCESS)
    snprintf(why, why_len, "OpenCL error %d", err);
  return err == CL_SUCCESS;
}

static void release(void *self, void *kernel) {
  (void)self;
  clReleaseKernel(kernel);
}

static int usage(void) {
  fprintf(stderr, "usage: gac-corpus run <pocl|layer|cli|nvcl> <source-dir> <bc-dir> [--save DIR]\n"
                  "       gac-corpus compare DIR\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "compare") == 0)
    return gac_corpus_compare(argv[2]) ? 1 : 0;
  if (!(argc == 5 || (argc == 7 && strcmp(argv[5], "--save") == 0)) || strcmp(argv[1], "run") != 0)
    return usage();
  const char *path = argv[2];
  if (strcmp(path, "pocl") != 0 && strcmp(path, "layer") != 0 && strcmp(path, "cli") != 0 && strcmp(path, "nvcl") != 0)
    return usage();
  bool ptx = strcmp(path, "nvcl") == 0;
  ocl o = {.source_dir = argv[3], .bc_dir = argv[4], .binary = strcmp(path, "cli") == 0 || ptx, .ptx = ptx};
  if (!gac_cl_open_first("gac-corpus", ptx ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, &o.device, &o.context,
                         &o.queue))
    return 1;
  char device[256] = "";
  clGetDeviceInfo(o.device, CL_DEVICE_NAME, sizeof device, device, NULL);
  printf("device: %s; path: %s\n", device, path);
  corpus_backend backend = {&o, path, {true, strcmp(path, "pocl") != 0}, load, run, release};
  unsigned failures = gac_corpus_run(&backend, argc == 7 ? argv[6] : NULL);
  clReleaseCommandQueue(o.queue);
  clReleaseContext(o.context);
  return failures ? 1 : 0;
}
