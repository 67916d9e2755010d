#include "cl_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gac_cl_open_first(const char *self, cl_device_type type, cl_device_id *device, cl_context *context,
                       cl_command_queue *queue) {
  cl_platform_id platforms[8];
  cl_uint n = 0;
  cl_int err = clGetPlatformIDs(8, platforms, &n);
  /* GAC_CL_DEVICE_TYPE=gpu|cpu: where the loader lists several platforms
   * (PoCL's and NVIDIA's on the GPU machine), the one to take. */
  const char *want = getenv("GAC_CL_DEVICE_TYPE");
  if (want && strcmp(want, "gpu") == 0)
    type = CL_DEVICE_TYPE_GPU;
  else if (want && strcmp(want, "cpu") == 0)
    type = CL_DEVICE_TYPE_CPU;
  bool found = false;
  for (cl_uint i = 0; err == CL_SUCCESS && i < n && i < 8 && !found; i++)
    found = clGetDeviceIDs(platforms[i], type, 1, device, NULL) == CL_SUCCESS;
  if (err == CL_SUCCESS && !found)
    err = CL_DEVICE_NOT_FOUND;
  if (err == CL_SUCCESS)
    *context = clCreateContext(NULL, 1, device, NULL, NULL, &err);
  if (err == CL_SUCCESS)
    *queue = clCreateCommandQueue(*context, *device, 0, &err);
  if (err != CL_SUCCESS)
    fprintf(stderr, "%s: no OpenCL device (%d)\n", self, err);
  return err == CL_SUCCESS;
}
