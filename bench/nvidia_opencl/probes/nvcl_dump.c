/* nvcl-dump: what NVIDIA's OpenCL compiler makes of OpenCL C, for learning
 * its kernel ABI (docs/VENDOR.md).
 *
 *   nvcl-dump --info                     the platform, device and extensions
 *   nvcl-dump SRC.cl OUT.ptx [OPTIONS]   build SRC with OPTIONS, write
 *                                        CL_PROGRAM_BINARIES (PTX) to OUT
 *   nvcl-dump --load PTX [KERNEL...]     load a PTX binary, print each named
 *                                        kernel's argument count and its
 *                                        CL_KERNEL_WORK_GROUP_SIZE etc. */
#include "nvcl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  nvcl cl;
  if (argc >= 2 && !strcmp(argv[1], "--info")) {
    nvcl_open(&cl);
    char ext[8192] = "", version[256] = "", cver[256] = "";
    clGetDeviceInfo(cl.device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
    clGetDeviceInfo(cl.device, CL_DEVICE_VERSION, sizeof version, version, NULL);
    clGetDeviceInfo(cl.device, CL_DEVICE_OPENCL_C_VERSION, sizeof cver, cver, NULL);
    size_t wg = 0;
    cl_ulong local = 0;
    clGetDeviceInfo(cl.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetDeviceInfo(cl.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    printf("platform: %s\ndevice: %s\ndriver: %s\nversion: %s\nOpenCL C: %s\nmax work-group size: %zu\n"
           "local memory: %llu\nextensions: %s\n",
           cl.platform_name, cl.device_name, cl.driver_version, version, cver, wg, (unsigned long long)local, ext);
    nvcl_close(&cl);
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "--load")) {
    nvcl_open(&cl);
    size_t size;
    char *ptx = nvcl_read_file(argv[2], &size);
    if (!ptx) {
      perror(argv[2]);
      return 1;
    }
    cl_program p = nvcl_build_ptx(&cl, ptx, size + 1, "");
    if (!p)
      return 1;
    for (int i = 3; i < argc; i++) {
      cl_int err;
      cl_kernel k = clCreateKernel(p, argv[i], &err);
      if (err != CL_SUCCESS) {
        printf("%s: clCreateKernel: error %d\n", argv[i], err);
        continue;
      }
      cl_uint nargs = 0;
      size_t wg = 0, reqd[3] = {0};
      cl_ulong local = 0, priv = 0;
      clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
      clGetKernelWorkGroupInfo(k, cl.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
      clGetKernelWorkGroupInfo(k, cl.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd, NULL);
      clGetKernelWorkGroupInfo(k, cl.device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
      clGetKernelWorkGroupInfo(k, cl.device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, NULL);
      printf("%s: %u args, work-group size %zu, compile size %zu %zu %zu, local %llu, private %llu\n", argv[i], nargs,
             wg, reqd[0], reqd[1], reqd[2], (unsigned long long)local, (unsigned long long)priv);
      clReleaseKernel(k);
    }
    clReleaseProgram(p);
    nvcl_close(&cl);
    return 0;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: nvcl-dump --info | SRC.cl OUT.ptx [OPTIONS] | --load PTX [KERNEL...]\n");
    return 2;
  }
  nvcl_open(&cl);
  size_t size;
  char *source = nvcl_read_file(argv[1], &size);
  if (!source) {
    perror(argv[1]);
    return 1;
  }
  cl_program p = nvcl_build_source(&cl, source, argc > 3 ? argv[3] : "");
  if (!p)
    return 1;
  char *log = nvcl_build_log(&cl, p);
  if (*log)
    fprintf(stderr, "%s: build log:\n%s\n", argv[1], log);
  char *binary = nvcl_binary(&cl, p, &size);
  if (!nvcl_write_file(argv[2], binary, size)) {
    perror(argv[2]);
    return 1;
  }
  printf("%s: %zu bytes of binary from %s (%s, driver %s)\n", argv[2], size, argv[1], cl.device_name,
         cl.driver_version);
  return 0;
}
