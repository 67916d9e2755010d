/* Shows which of the layers in OPENCL_LAYERS the ICD loader really put in
 * front of the driver (scripts/stack-layers.sh): a loader drops a layer
 * whose clInitLayer fails without a word. Two deliberate mistakes, each
 * seen by one validation layer:
 *   clCreateBuffer of size 0: the parameter-verification layer says
 *     "In clCreateBuffer: size is 0. ..."
 *   a context never released: the object-lifetime layer lists it under
 *     "OpenCL object leaks:" at exit.
 * And the gac layer shows itself in CL_DEVICE_EXTENSIONS. Prints
 * "gac: yes|no"; the script reads the validation layers' own lines. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err;
  char ext[16384] = "";

  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL) != CL_SUCCESS) {
    fprintf(stderr, "stack-layers-probe: no OpenCL device\n");
    return 1;
  }
  clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
  printf("gac: %s\n", strstr(ext, "cl_khr_extended_async_copies") ? "yes" : "no");

  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (!ctx) {
    fprintf(stderr, "stack-layers-probe: clCreateContext failed (%d)\n", err);
    return 1;
  }
  cl_mem empty = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
  if (empty)
    clReleaseMemObject(empty);
  /* ctx stays: the leak the object-lifetime layer reports. */
  return 0;
}
