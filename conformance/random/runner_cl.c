/* gac-random-cl: runs a batch of random async-copy kernels on an OpenCL
 * device (PoCL here) and compares every output buffer with the host model.
 *
 * Usage: gac-random-cl BATCH.cl (--bc BATCH.bc | --spv BATCH.spv | --source) [--target NAME] [--only INDEX] [--from INDEX] [--repeat N] [--mutate] [--quiet]
 *   --bc: the batch lowered by gac and bridged to SPIR 1.2 bitcode
 *   --spv: the batch lowered by gac, as SPIR-V, for a device that takes it
 *          (clCreateProgramWithIL; PoCL 5 and later built with SPIR-V)
 *   (build_batch.sh); --source: BATCH.cl itself through
 *   clCreateProgramWithSource, as a host program gives it to the gac layer
 *   (OPENCL_LAYERS=libgac-layer.so). Exit status 1 if a case failed. */
#define CL_TARGET_OPENCL_VERSION 210 /* clCreateProgramWithIL */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct ocl {
  cl_context context;
  cl_command_queue queue;
  cl_device_id device;
  cl_program program;
} ocl;

static bool run_case(void *self, const rt_case *c, const rt_buffers *b, unsigned char *got[RT_MAX_GBUF], char *why,
                     size_t why_len) {
  ocl *o = self;
  char name[32];
  snprintf(name, sizeof name, "k%" PRIu64, c->index);
  cl_int err;
  cl_kernel k = clCreateKernel(o->program, name, &err);
  if (err != CL_SUCCESS) {
    snprintf(why, why_len, "clCreateKernel(%s): %d", name, err);
    return false;
  }
  cl_mem mem[RT_MAX_GBUF] = {0};
  for (unsigned g = 0; g < RT_MAX_GBUF && err == CL_SUCCESS; g++)
    if (c->gbuf_used[g])
      mem[g] = clCreateBuffer(o->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, b->size[g], b->init[g], &err);
  for (unsigned i = 0; i < c->nargs && err == CL_SUCCESS; i++) {
    const rt_arg *a = &c->args[i];
    if (a->kind == A_BUF) {
      err = clSetKernelArg(k, i, sizeof(cl_mem), &mem[a->value]);
    } else if (a->kind == A_LOCAL) {
      err = clSetKernelArg(k, i, (size_t)a->value, NULL);
    } else if (a->kind == A_U64) {
      cl_ulong v = a->value;
      err = clSetKernelArg(k, i, sizeof v, &v);
    } else {
      cl_int v = (cl_int)a->value;
      err = clSetKernelArg(k, i, sizeof v, &v);
    }
  }
  size_t local = c->local_size, global = (size_t)c->local_size * c->groups;
  if (err == CL_SUCCESS)
    err = clEnqueueNDRangeKernel(o->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(o->queue);
  for (unsigned g = 0; g < RT_MAX_GBUF; g++) {
    if (mem[g] && err == CL_SUCCESS)
      err = clEnqueueReadBuffer(o->queue, mem[g], CL_TRUE, 0, b->size[g], got[g], 0, NULL, NULL);
    if (mem[g])
      clReleaseMemObject(mem[g]);
  }
  clReleaseKernel(k);
  if (err != CL_SUCCESS)
    snprintf(why, why_len, "OpenCL error %d", err);
  return err == CL_SUCCESS;
}

int main(int argc, char **argv) {
  rt_run_options ro = {0};
  const char *bc = NULL;
  bool source = false, spv = false;
  for (int i = 1; i < argc; i++) {
    if (rt_common_option(&ro, argc, argv, &i))
      continue;
    if ((strcmp(argv[i], "--bc") == 0 || strcmp(argv[i], "--spv") == 0) && i + 1 < argc)
      spv = argv[i][2] == 's', bc = argv[++i];
    else if (strcmp(argv[i], "--source") == 0)
      source = true;
    else if (!ro.batch && argv[i][0] != '-')
      ro.batch = argv[i];
    else
      ro.batch = NULL, i = argc;
  }
  if (!ro.batch || (!bc) == !source) {
    fprintf(stderr, "usage: gac-random-cl BATCH.cl (--bc BATCH.bc | --spv BATCH.spv | --source) [--target NAME] [--only INDEX] [--from INDEX] [--repeat N] "
                    "[--mutate] [--quiet]\n");
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  ocl o = {0};
  cl_platform_id platform;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS)
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &o.device, NULL);
  if (err == CL_SUCCESS)
    o.context = clCreateContext(NULL, 1, &o.device, NULL, NULL, &err);
  if (err == CL_SUCCESS)
    o.queue = clCreateCommandQueue(o.context, o.device, 0, &err);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "gac-random-cl: no OpenCL device (%d)\n", err);
    return 1;
  }
  size_t size = 0;
  char *bytes = rt_read_file(source ? ro.batch : bc, &size);
  if (!bytes) {
    fprintf(stderr, "gac-random-cl: cannot read %s\n", source ? ro.batch : bc);
    return 1;
  }
  if (source)
    o.program = clCreateProgramWithSource(o.context, 1, (const char **)&bytes, &size, &err);
  else if (spv)
    o.program = clCreateProgramWithIL(o.context, bytes, size, &err);
  else
    o.program = clCreateProgramWithBinary(o.context, 1, &o.device, &size, (const unsigned char **)&bytes, NULL, &err);
  free(bytes);
  if (err == CL_SUCCESS)
    err = clBuildProgram(o.program, 1, &o.device, source || spv ? "" : "-x spir -spir-std=1.2", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[4096] = "";
    if (o.program)
      clGetProgramBuildInfo(o.program, o.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    /* The whole batch is lost: every case counts as failed (a build failure). */
    printf("BUILD-FAIL %s %s: %d %s\n", ro.target ? ro.target : "?", ro.batch, err, log);
    return 1;
  }
  rt_backend be = {&o, run_case};
  unsigned failed = rt_drive(&be, &ro);
  clReleaseProgram(o.program);
  clReleaseCommandQueue(o.queue);
  clReleaseContext(o.context);
  return failed ? 1 : 0;
}
