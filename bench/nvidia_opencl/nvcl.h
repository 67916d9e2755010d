/* nvcl: the few OpenCL host calls the vendor benchmark and the ABI probe
 * share, over whichever OpenCL platform the ICD loader offers first with a
 * GPU (on the GPU machine: NVIDIA's, registered through OCL_ICD_VENDORS).
 * Every failure prints the call and its error code and exits: these are
 * benchmark and probe programs, not a library. */
#ifndef GAC_BENCH_NVCL_H
#define GAC_BENCH_NVCL_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: NVIDIA's driver has both */
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct nvcl {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue; /* with profiling */
  char device_name[256], driver_version[64], platform_name[256];
} nvcl;

/* Exits with the call's name when err is not CL_SUCCESS. */
void nvcl_check(cl_int err, const char *what);
void nvcl_open(nvcl *cl);
void nvcl_close(nvcl *cl);

/* A program from OpenCL C source (NVIDIA's compiler) or from a PTX binary
 * (gac's), built with `options`; on failure the build log is printed and
 * NULL returned. */
cl_program nvcl_build_source(nvcl *cl, const char *source, const char *options);
cl_program nvcl_build_ptx(nvcl *cl, const char *ptx, size_t size, const char *options);
/* CL_PROGRAM_BINARIES of a built program (NVIDIA's: PTX text); malloc'd. */
char *nvcl_binary(nvcl *cl, cl_program program, size_t *size);
char *nvcl_build_log(nvcl *cl, cl_program program);

/* The bytes of the file at path, NUL-terminated (*size without the NUL);
 * NULL if it cannot be read. malloc'd. */
char *nvcl_read_file(const char *path, size_t *size);
/* size bytes of data as the file at path; false (errno set) if not all written. */
bool nvcl_write_file(const char *path, const void *data, size_t size);

/* Milliseconds between a profiled event's start and end. */
double nvcl_event_ms(cl_event event);

#endif
