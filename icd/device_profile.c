/* The device profile the layer lowers copies for (strategy=auto's
 * device=...): what kind of device the wrapped driver reports. PoCL's CPU
 * device runs a work-group's work-items one after another on one core,
 * which is what the pocl-cpu profile was measured on (bench/pocl); a GPU or
 * accelerator runs them side by side (the gpu profile). A CPU device of
 * another driver is taken to be like PoCL's. */
#include <string.h>

#include "layer.h"

const char *gac_device_profile(cl_device_id device) {
  cl_device_type type = CL_DEVICE_TYPE_CPU;
  if (!device || gac_next->clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS)
    return "pocl-cpu";
  return type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR) ? "gpu" : "pocl-cpu";
}
