/* What the layer builds for a wrapped device (layer.h: gac_layer_target).
 *
 * NVIDIA's GPUs (vendor id 0x10de) get PTX from gac's PTX path for their
 * compute capability (sm_90 from 9.0 on, sm_80 for 8.x), by NVIDIA's
 * OpenCL ABI (--ptx-abi=opencl, docs/VENDOR.md), which the driver builds
 * with clCreateProgramWithBinary; an older NVIDIA GPU has no cp.async, and
 * gac refuses to build for it (the program's build log says so). Every
 * other device gets its copies lowered by the OpenCL target: as SPIR-V
 * where the driver says it takes SPIR-V (CL_DEVICE_IL_VERSION; PoCL 5 and
 * later), else as SPIR 1.2 bitcode from llvm-spirv-15 -r (PoCL 3.1, which
 * takes no IL). GAC_LAYER_POCL_BITCODE=1 asks for the bitcode anyway.
 *
 * The profile strategy=auto lowers copies for (device=...): PoCL's CPU
 * device runs a work-group's work-items one after another on one core,
 * which is what the pocl-cpu profile was measured on (bench/pocl); a GPU or
 * accelerator runs them side by side (the gpu profile). A CPU device of
 * another driver is taken to be like PoCL's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer.h"

/* cl_nv_device_attribute_query */
#define NV_COMPUTE_CAPABILITY_MAJOR 0x4000
#define NV_COMPUTE_CAPABILITY_MINOR 0x4001
#define NVIDIA_VENDOR_ID 0x10de

gac_opencl_device gac_device_profile(cl_device_id device) {
  cl_device_type type = CL_DEVICE_TYPE_CPU;
  if (!device || gac_next->clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS)
    return GAC_OPENCL_DEVICE_POCL_CPU;
  return type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR) ? GAC_OPENCL_DEVICE_GPU : GAC_OPENCL_DEVICE_POCL_CPU;
}

/* Whether the driver builds SPIR-V itself (its own answer, not the layer's). */
static bool takes_spirv(cl_device_id device) {
  const char *bitcode = getenv("GAC_LAYER_POCL_BITCODE");
  if (bitcode && strcmp(bitcode, "1") == 0)
    return false;
  char il[1024] = "";
  return gac_next->clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof il - 1, il, NULL) == CL_SUCCESS &&
         strstr(il, "SPIR-V") != NULL;
}

/* PoCL's major version from its platform version ("OpenCL 3.0 PoCL 5.0+debian
 * ..."), 0 if the driver is not PoCL. From 5.0 on PoCL aborts on the
 * run-time choice of a copy's unit width inside loops with barriers
 * (conformance/random/known/pocl50-branch-loops-abort.cl): such a device
 * gets units=one. And its work-group compiler crashes on pipelined loops
 * (a barrier in the branch that skips a short loop's prologue and epilogue:
 * conformance/random/known/pocl6-cond-barrier-pre-phi.cl, from its own
 * front end): there annotated loops run as written (correct, the
 * annotations being hints; on PoCL's CPU device the copies are done when
 * issued anyway, so pipelining hides no latency there). Its kernel library
 * waits for events only in a generic list (lowering/opencl/pocl_generic_events.c):
 * events=generic. */
static unsigned pocl_major(cl_device_id device) {
  cl_platform_id platform;
  char version[256] = "";
  if (gac_next->clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL) != CL_SUCCESS ||
      gac_next->clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version - 1, version, NULL) != CL_SUCCESS)
    return 0;
  const char *pocl = strstr(version, "PoCL ");
  return pocl ? (unsigned)strtoul(pocl + 5, NULL, 10) : 0;
}

gac_layer_target gac_device_target(cl_device_id device) {
  gac_layer_target t = {.kind = GAC_LAYER_SPIR, .opencl = gac_opencl_options_default()};
  t.opencl.device = gac_device_profile(device);
  cl_uint vendor = 0, major = 0, minor = 0;
  if (!device || gac_next->clGetDeviceInfo(device, CL_DEVICE_VENDOR_ID, sizeof vendor, &vendor, NULL) != CL_SUCCESS ||
      vendor != NVIDIA_VENDOR_ID) {
    if (device && takes_spirv(device))
      t.kind = GAC_LAYER_SPIRV;
    t.opencl.one_unit_loop = t.opencl.generic_events = t.loops_as_written = device && pocl_major(device) >= 5;
    return t;
  }
  t.kind = GAC_LAYER_PTX;
  if (gac_next->clGetDeviceInfo(device, NV_COMPUTE_CAPABILITY_MAJOR, sizeof major, &major, NULL) == CL_SUCCESS)
    gac_next->clGetDeviceInfo(device, NV_COMPUTE_CAPABILITY_MINOR, sizeof minor, &minor, NULL);
  t.sm = major >= 9 ? 90 : major == 8 ? 80 : 0;
  t.compute_capability = major * 10 + minor;
  return t;
}

void gac_layer_target_text(const gac_layer_target *t, char *out, size_t len) {
  char units[96];
  snprintf(units, sizeof units, "%s%s%s", t->opencl.one_unit_loop ? ", units=one" : "",
           t->opencl.generic_events ? ", events=generic" : "", t->loops_as_written ? ", loops as written" : "");
  const char *profile = t->opencl.device == GAC_OPENCL_DEVICE_GPU ? "gpu" : "pocl-cpu";
  if (t->kind == GAC_LAYER_PTX && !t->sm)
    snprintf(out, len, "no PTX for an NVIDIA GPU of compute capability %u.%u (gac's PTX path needs 8.0, cp.async)",
             t->compute_capability / 10, t->compute_capability % 10);
  else if (t->kind == GAC_LAYER_PTX)
    snprintf(out, len, "PTX for sm_%u (an NVIDIA GPU of compute capability %u.%u)", t->sm,
             t->compute_capability / 10, t->compute_capability % 10);
  else if (t->kind == GAC_LAYER_SPIRV)
    snprintf(out, len, "lowered SPIR-V (the driver takes SPIR-V), copies for the %s profile%s", profile, units);
  else
    snprintf(out, len, "SPIR 1.2 bitcode (the driver takes no SPIR-V), copies for the %s profile%s", profile,
             units);
}
