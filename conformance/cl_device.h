/* The OpenCL runners' device (conformance/runner.c, corpus/runner.c,
 * math/math_opencl.c): the first device of `type` (CL_DEVICE_TYPE_ALL: PoCL's
 * CPU; CL_DEVICE_TYPE_GPU: NVIDIA's) on the first platform that has one, a
 * context and an in-order queue. False with "<self>: no OpenCL device (err)" on
 * stderr. */
#ifndef GAC_CL_DEVICE_H
#define GAC_CL_DEVICE_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdbool.h>

bool gac_cl_open_first(const char *self, cl_device_type type, cl_device_id *device, cl_context *context,
                       cl_command_queue *queue);

#endif
