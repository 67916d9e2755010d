/* nvcl.h's calls: see there. */
#include "nvcl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nvcl_check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "nvcl: %s failed: OpenCL error %d\n", what, err);
    exit(1);
  }
}

void nvcl_open(nvcl *cl) {
  memset(cl, 0, sizeof *cl);
  cl_platform_id platforms[8];
  cl_uint n = 0;
  nvcl_check(clGetPlatformIDs(8, platforms, &n), "clGetPlatformIDs");
  for (cl_uint i = 0; i < n && !cl->device; i++)
    if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &cl->device, NULL) == CL_SUCCESS)
      cl->platform = platforms[i];
  if (!cl->device) {
    fprintf(stderr, "nvcl: no OpenCL platform with a GPU (%u platforms); is OCL_ICD_VENDORS set?\n", n);
    exit(1);
  }
  clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof cl->platform_name, cl->platform_name, NULL);
  clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof cl->device_name, cl->device_name, NULL);
  clGetDeviceInfo(cl->device, CL_DRIVER_VERSION, sizeof cl->driver_version, cl->driver_version, NULL);
  cl_int err;
  cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
  nvcl_check(err, "clCreateContext");
  cl->queue = clCreateCommandQueue(cl->context, cl->device, CL_QUEUE_PROFILING_ENABLE, &err);
  nvcl_check(err, "clCreateCommandQueue");
}

void nvcl_close(nvcl *cl) {
  clReleaseCommandQueue(cl->queue);
  clReleaseContext(cl->context);
}

char *nvcl_build_log(nvcl *cl, cl_program program) {
  size_t size = 0;
  clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
  char *log = calloc(size + 1, 1);
  clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
  return log;
}

/* NVCL_BUILD_OPTIONS: more clBuildProgram options, for looking into a build
 * (-cl-nv-verbose puts ptxas's registers and spills in the build log, which
 * NVCL_BUILD_LOG=1 prints; -cl-nv-maxrregcount=N caps the registers). */
static cl_program built(nvcl *cl, cl_program program, const char *options, const char *what) {
  const char *extra = getenv("NVCL_BUILD_OPTIONS");
  char all[1024];
  snprintf(all, sizeof all, "%s %s", options, extra ? extra : "");
  cl_int err = clBuildProgram(program, 1, &cl->device, all, NULL, NULL);
  if (err == CL_SUCCESS && !getenv("NVCL_BUILD_LOG"))
    return program;
  char *log = nvcl_build_log(cl, program);
  if (err == CL_SUCCESS)
    fprintf(stderr, "nvcl: clBuildProgram (%s, options \"%s\") log:\n%s\n", what, all, log);
  else
    fprintf(stderr, "nvcl: clBuildProgram (%s) failed: OpenCL error %d\n%s\n", what, err, log);
  free(log);
  if (err == CL_SUCCESS)
    return program;
  clReleaseProgram(program);
  return NULL;
}

cl_program nvcl_build_source(nvcl *cl, const char *source, const char *options) {
  cl_int err;
  cl_program program = clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);
  nvcl_check(err, "clCreateProgramWithSource");
  return built(cl, program, options, "source");
}

cl_program nvcl_build_ptx(nvcl *cl, const char *ptx, size_t size, const char *options) {
  cl_int err, status;
  const unsigned char *bytes = (const unsigned char *)ptx;
  cl_program program = clCreateProgramWithBinary(cl->context, 1, &cl->device, &size, &bytes, &status, &err);
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    fprintf(stderr, "nvcl: clCreateProgramWithBinary failed: OpenCL error %d (binary status %d)\n", err, status);
    if (program)
      clReleaseProgram(program);
    return NULL;
  }
  return built(cl, program, options, "PTX binary");
}

char *nvcl_binary(nvcl *cl, cl_program program, size_t *size) {
  (void)cl;
  nvcl_check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof *size, size, NULL), "CL_PROGRAM_BINARY_SIZES");
  char *binary = calloc(*size + 1, 1);
  nvcl_check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL), "CL_PROGRAM_BINARIES");
  return binary;
}

double nvcl_event_ms(cl_event event) {
  cl_ulong start = 0, end = 0;
  nvcl_check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL), "profiling start");
  nvcl_check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL), "profiling end");
  return (double)(end - start) * 1e-6;
}

bool nvcl_write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

char *nvcl_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *text = NULL;
  long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = calloc((size_t)n + 1, 1)))
    *size = fread(text, 1, (size_t)n, f);
  fclose(f);
  return text;
}
