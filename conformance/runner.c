/* gac-conformance: runs the conformance kernels (compiled from OpenCL C,
 * raised, lowered by gac and bridged to SPIR 1.2 bitcode) on an OpenCL device,
 * PoCL here, and compares every result with a host reference.
 *
 * Usage: gac-conformance <dir> <strategy> [--il | --ptx | --source]
 *        gac-conformance --each <list> <strategy>
 *   <dir>/<program>.<strategy>.bc for each program below, built by PoCL from
 *   SPIR 1.2 bitcode, or, where the device takes SPIR-V (its
 *   CL_DEVICE_IL_VERSION: PoCL 5 and later), <dir>/<program>.<strategy>.lowered.spv
 *   (the same lowered module before llvm-spirv-15 -r) given to
 *   clCreateProgramWithIL (GAC_CONFORMANCE_BITCODE=1: the bitcode anyway); with --il, <dir>/<program>.raised.spv (the module
 *   with GroupAsyncCopy2D2D/3D3D) given to clCreateProgramWithIL, as
 *   a host program does through the gac layer (OPENCL_LAYERS); with --ptx
 *   (strategy sm80 or sm90), <dir>/<program>.<strategy>.nvcl.ptx, gac's PTX
 *   for NVIDIA's OpenCL driver (docs/VENDOR.md), as a binary, on the first
 *   platform with a GPU (OCL_ICD_VENDORS naming NVIDIA's); with --source,
 *   each program's OpenCL C and options as <dir>/programs.txt lists them
 *   ("name|source|options" lines, sources relative to <dir>), given to
 *   clCreateProgramWithSource and built with those options, as a host
 *   program does through the layer (the strategy is only a label).
 * Prints a table (kernel, parameters, result, time) and "N passed, M failed".
 * With --each, the suite once per line of <list> ("dir<TAB>only<TAB>kernel":
 * a <dir> as above, and the rows GAC_CONFORMANCE_ONLY and
 * GAC_CONFORMANCE_KERNEL select, empty for all), each headed "== <dir>", in
 * one process: PoCL reads its kernel library once per process (about 1 s of
 * CPU), so the mutant tests run their many small programs this way. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 210
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_device.h"
#include "suite.h"

typedef struct ocl {
  cl_context context;
  cl_command_queue queue;
  cl_device_id device;
  const char *dir, *strategy;
  enum { FROM_BITCODE, FROM_IL, FROM_PTX, FROM_SOURCE, FROM_LOWERED } from; /* LOWERED: chosen, not an option */
  char *programs; /* --source: <dir>/programs.txt, read once */
} ocl;

/* --source: the OpenCL C of `program` and its build options, from
 * <dir>/programs.txt ("name|source|options"); false if it is not listed. */
static bool source_of(const ocl *o, const char *program, char *path, size_t path_len, char *options,
                      size_t options_len) {
  for (const char *line = o->programs, *next; line && *line; line = next) {
    size_t len = strcspn(line, "\n");
    next = line + len + (line[len] == '\n');
    char entry[1024];
    snprintf(entry, sizeof entry, "%.*s", (int)strcspn(line, "\r\n"), line);
    char *source = strchr(entry, '|'), *opts = source ? strchr(source + 1, '|') : NULL;
    if (!opts)
      continue;
    *source++ = '\0';
    *opts++ = '\0';
    if (strcmp(entry, program) != 0)
      continue;
    snprintf(path, path_len, "%s%s%s", source[0] == '/' ? "" : o->dir, source[0] == '/' ? "" : "/", source);
    snprintf(options, options_len, "%s", opts);
    return true;
  }
  return false;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The kernel `name` of <dir>/<program>.<strategy>.bc, or NULL with a message in why. */
static void *load_kernel(void *self, const char *program, const char *name, char *why, size_t why_len) {
  const ocl *o = self;
  char path[1024], options[512] = "";
  static const char *const suffix[] = {"bc", "raised.spv", "nvcl.ptx", NULL, "lowered.spv"};
  if (o->from == FROM_SOURCE) {
    if (!source_of(o, program, path, sizeof path, options, sizeof options)) {
      snprintf(why, why_len, "%s is not in %.400s/programs.txt", program, o->dir);
      return NULL;
    }
  } else if (o->from == FROM_IL) {
    /* One raised module for every strategy: the layer lowers it (GAC_LAYER_STRATEGY). */
    snprintf(path, sizeof path, "%s/%s.%s", o->dir, program, suffix[o->from]);
  } else {
    snprintf(path, sizeof path, "%s/%s.%s.%s", o->dir, program, o->strategy, suffix[o->from]);
  }
  if (o->from == FROM_BITCODE)
    snprintf(options, sizeof options, "-x spir -spir-std=1.2");
  size_t size;
  unsigned char *bin = (unsigned char *)gac_read_file(path, &size);
  if (bin && o->from == FROM_PTX)
    size++; /* the text and its NUL, as NVIDIA's driver takes PTX */
  if (!bin) {
    snprintf(why, why_len, "cannot read %.400s", path);
    return NULL;
  }
  cl_int err, status;
  cl_program p = o->from == FROM_IL || o->from == FROM_LOWERED ? clCreateProgramWithIL(o->context, bin, size, &err)
                 : o->from == FROM_SOURCE ? clCreateProgramWithSource(o->context, 1, (const char **)&bin, &size, &err)
                                          : clCreateProgramWithBinary(o->context, 1, &o->device, &size,
                                                                      (const unsigned char **)&bin, &status, &err);
  free(bin);
  if (err != CL_SUCCESS) {
    snprintf(why, why_len, "creating the program from %.400s: %d", path, err);
    return NULL;
  }
  /* Through the layer the program is IL: the layer knows what PoCL needs. */
  err = clBuildProgram(p, 1, &o->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[2048] = "";
    clGetProgramBuildInfo(p, o->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    snprintf(why, why_len, "clBuildProgram(%.200s): %d %.250s", path, err, log);
    clReleaseProgram(p);
    return NULL;
  }
  cl_kernel k = clCreateKernel(p, name, &err);
  clReleaseProgram(p); /* the kernel keeps it */
  if (err != CL_SUCCESS)
    snprintf(why, why_len, "clCreateKernel(%s): %d", name, err);
  return err == CL_SUCCESS ? k : NULL;
}

/* Runs kernel over global/local (dims 1 or 2); buffers are read back into
 * their host memory. Returns the kernel's time in ms, or -1 on error. */
static double run_kernel(void *self, void *kernel, arg *args, unsigned n, unsigned dims,
                         const size_t *global, const size_t *local, char *why, size_t why_len) {
  const ocl *o = self;
  cl_kernel k = kernel;
  cl_mem mem[24] = {0}; /* the most arguments a kernel here takes, and some */
  cl_int err = CL_SUCCESS;
  for (unsigned i = 0; i < n && err == CL_SUCCESS; i++) {
    switch (args[i].kind) {
    case ARG_BUFFER:
      mem[i] = clCreateBuffer(o->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, args[i].size, args[i].host, &err);
      if (err == CL_SUCCESS)
        err = clSetKernelArg(k, i, sizeof(cl_mem), &mem[i]);
      break;
    case ARG_LOCAL:
      err = clSetKernelArg(k, i, args[i].size, NULL);
      break;
    case ARG_U64: {
      cl_ulong v = args[i].value;
      err = clSetKernelArg(k, i, sizeof v, &v);
      break;
    }
    case ARG_I32: {
      cl_int v = (cl_int)args[i].value;
      err = clSetKernelArg(k, i, sizeof v, &v);
      break;
    }
    }
  }
  double t = -1;
  if (err == CL_SUCCESS) {
    double start = now_ms();
    err = clEnqueueNDRangeKernel(o->queue, k, dims, NULL, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
      err = clFinish(o->queue);
    t = now_ms() - start;
  }
  for (unsigned i = 0; i < n; i++) {
    if (mem[i] && err == CL_SUCCESS)
      err = clEnqueueReadBuffer(o->queue, mem[i], CL_TRUE, 0, args[i].size, args[i].host, 0, NULL, NULL);
    if (mem[i])
      clReleaseMemObject(mem[i]);
  }
  if (err != CL_SUCCESS) {
    snprintf(why, why_len, "OpenCL error %d", err);
    return -1;
  }
  return t;
}

static void release_kernel(void *self, void *kernel) {
  (void)self;
  clReleaseKernel(kernel);
}

/* --each: one line of the list; false at its end. */
static bool next_job(char **cursor, char **dir, char **only, char **kernel) {
  char *line = *cursor;
  if (!line || !*line)
    return false;
  size_t len = strcspn(line, "\n");
  *cursor = line + len + (line[len] == '\n');
  line[len] = '\0';
  *dir = line;
  *only = strchr(line, '\t');
  *kernel = *only ? strchr(*only + 1, '\t') : NULL;
  if (*only)
    *(*only)++ = '\0';
  if (*kernel)
    *(*kernel)++ = '\0';
  return true;
}

/* The suite over each job of the list at path; the failures in all. */
static unsigned run_each(ocl *o, const gac_backend *backend, const char *path) {
  char *list = gac_read_file(path, NULL), *cursor = list, *dir, *only, *kernel;
  if (!list) {
    fprintf(stderr, "gac-conformance: cannot read %s\n", path);
    return 1;
  }
  unsigned failures = 0;
  while (next_job(&cursor, &dir, &only, &kernel)) {
    if (!*dir)
      continue;
    o->dir = dir;
    const char *names[] = {"GAC_CONFORMANCE_ONLY", "GAC_CONFORMANCE_KERNEL"}, *values[] = {only, kernel};
    for (int i = 0; i < 2; i++) {
      if (values[i] && *values[i])
        setenv(names[i], values[i], 1);
      else
        unsetenv(names[i]);
    }
    /* Flushed before the kernels run: PoCL's printf writes past this stream. */
    printf("== %s\n", dir);
    fflush(stdout);
    failures += gac_conformance_suite(backend);
    fflush(stdout);
  }
  free(list);
  return failures;
}

int main(int argc, char **argv) {
  static const char *const froms[] = {NULL, "--il", "--ptx", "--source"};
  const char *each = argc == 4 && strcmp(argv[1], "--each") == 0 ? argv[2] : NULL;
  if (each) { /* as "<dir> <strategy>", the dir set per job */
    argv[1] = (char *)".";
    argv[2] = argv[3];
    argc = 3;
  }
  ocl o = {.dir = argc > 1 ? argv[1] : NULL, .strategy = argc > 2 ? argv[2] : NULL, .from = FROM_BITCODE};
  if (argc == 4)
    for (unsigned i = 1; i < 4; i++)
      if (strcmp(argv[3], froms[i]) == 0)
        o.from = i;
  if (argc < 3 || argc > 4 || (argc == 4 && o.from == FROM_BITCODE)) {
    fprintf(stderr, "usage: gac-conformance <dir> <strategy> [--il | --ptx | --source]\n"
                    "       gac-conformance --each <list> <strategy>\n");
    return 2;
  }
  if (o.from == FROM_SOURCE) {
    char list[1024];
    snprintf(list, sizeof list, "%s/programs.txt", o.dir);
    if (!(o.programs = gac_read_file(list, NULL))) {
      fprintf(stderr, "gac-conformance: cannot read %s\n", list);
      return 2;
    }
  }
  if (!gac_cl_open_first("gac-conformance", o.from == FROM_PTX ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL, &o.device,
                         &o.context, &o.queue))
    return 1;
  char device[256] = "", il[1024] = "";
  clGetDeviceInfo(o.device, CL_DEVICE_NAME, sizeof device, device, NULL);
  const char *bitcode = getenv("GAC_CONFORMANCE_BITCODE");
  if (o.from == FROM_BITCODE && !(bitcode && strcmp(bitcode, "1") == 0) &&
      clGetDeviceInfo(o.device, CL_DEVICE_IL_VERSION, sizeof il - 1, il, NULL) == CL_SUCCESS && strstr(il, "SPIR-V"))
    o.from = FROM_LOWERED;
  printf("device: %s; lowering strategy: %s; programs from %s\n", device, o.strategy,
         o.from == FROM_IL    ? "SPIR-V through clCreateProgramWithIL (the gac layer lowers them)"
         : o.from == FROM_PTX    ? "gac's PTX for NVIDIA's OpenCL ABI, as binaries"
         : o.from == FROM_SOURCE  ? "OpenCL C through clCreateProgramWithSource"
         : o.from == FROM_LOWERED ? "lowered SPIR-V through clCreateProgramWithIL (the device takes SPIR-V)"
                                  : "SPIR 1.2 bitcode");
  gac_backend backend = {&o, load_kernel, run_kernel, release_kernel};
  unsigned failures = each ? run_each(&o, &backend, each) : gac_conformance_suite(&backend);
  printf("* enqueue to finish, including %s\n", o.from == FROM_PTX ? "the driver's first launch of a kernel"
                                                                    : "PoCL's compilation on a kernel's first launch with a local size");
  clReleaseCommandQueue(o.queue);
  clReleaseContext(o.context);
  free(o.programs);
  return failures ? 1 : 0;
}
