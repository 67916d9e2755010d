#include "cl_device.h"

#include <stdio.h>

bool gac_cl_open_first(const char *self, cl_device_id *device, cl_context *context, cl_command_queue *queue) {
  cl_platform_id platform;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  if (err == CL_SUCCESS)
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, device, NULL);
  if (err == CL_SUCCESS)
    *context = clCreateContext(NULL, 1, device, NULL, NULL, &err);
  if (err == CL_SUCCESS)
    *queue = clCreateCommandQueue(*context, *device, 0, &err);
  if (err != CL_SUCCESS)
    fprintf(stderr, "%s: no OpenCL device (%d)\n", self, err);
  return err == CL_SUCCESS;
}
