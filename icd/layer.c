/* Entry points of the layer (cl_layer.h, cl_loader_layers 1.0.1): the ICD
 * loader calls clInitLayer or clInitLayerWithProperties with the dispatch
 * table of what is below, and calls through the table we return. We override
 * a few entries and forward everything else unchanged, so the driver's
 * objects (PoCL's, NVIDIA's) stay its own. A loader that deinitialises its
 * layers (Khronos's) calls clDeinitLayer last: the layer then lets go of
 * what it holds and can be initialised again. */
#include "layer.h"

#include <CL/cl_layer.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Headers older than cl_loader_layers 1.0.1 (Debian 12's) lack these. */
#ifndef CL_LAYER_PROPERTIES_LIST_END
typedef cl_properties cl_layer_properties;
#define CL_LAYER_PROPERTIES_LIST_END ((cl_layer_properties)0)
extern CL_API_ENTRY cl_int CL_API_CALL clInitLayerWithProperties(cl_uint num_entries,
                                                                 const cl_icd_dispatch *target_dispatch,
                                                                 cl_uint *num_entries_ret,
                                                                 const cl_icd_dispatch **layer_dispatch_ret,
                                                                 const cl_layer_properties *properties);
extern CL_API_ENTRY cl_int CL_API_CALL clDeinitLayer(void);
#endif

const cl_icd_dispatch *gac_next;
static cl_icd_dispatch dispatch;
static cl_icd_dispatch next_entries; /* the loader's table, up to its num_entries */

static void *CL_API_CALL gac_GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name) {
  if (name && strcmp(name, "clCreateProgramWithILKHR") == 0)
    return (void *)gac_CreateProgramWithIL;
  return gac_next->clGetExtensionFunctionAddressForPlatform(platform, name);
}

/* The four entry points loaders look up; everything else is hidden. */
#define GAC_EXPORT __attribute__((visibility("default")))

GAC_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info param_name, size_t param_value_size,
                                               void *param_value, size_t *param_value_size_ret) {
  switch (param_name) {
  case CL_LAYER_API_VERSION: {
    cl_layer_api_version v = CL_LAYER_API_VERSION_100;
    return gac_answer(&v, sizeof v, param_value_size, param_value, param_value_size_ret);
  }
  case CL_LAYER_NAME: {
    static const char name[] = "gac: SPIR-V, cl_khr_extended_async_copies and cl_khr_async_work_group_copy_fence";
    return gac_answer(name, sizeof name, param_value_size, param_value, param_value_size_ret);
  }
  default:
    return CL_INVALID_VALUE;
  }
}

/* The entries the layer overrides or calls go up to clCreateProgramWithIL
 * (OpenCL 2.1); a loader built against older headers may pass a table that
 * ends sooner than this build's header, which has later extensions' entries
 * too: the layer needs only its own. */
#define NEEDED_ENTRIES (offsetof(cl_icd_dispatch, clCreateProgramWithIL) / sizeof(void *) + 1)

/* Reads no entry of target_dispatch past num_entries. */
static cl_int init(cl_uint num_entries, const cl_icd_dispatch *target_dispatch, cl_uint *num_entries_ret,
                   const cl_icd_dispatch **layer_dispatch_ret) {
  const cl_uint ours = sizeof(cl_icd_dispatch) / sizeof(void *);
  if (!target_dispatch || !num_entries_ret || !layer_dispatch_ret)
    return CL_INVALID_VALUE;
  if (num_entries < NEEDED_ENTRIES) {
    fprintf(stderr, "gac layer: the ICD loader's dispatch table has %u entries, fewer than the %zu the layer needs; "
            "not loaded\n", num_entries, (size_t)NEEDED_ENTRIES);
    return CL_INVALID_VALUE;
  }
  /* As many entries as both know; the rest stay NULL, in the copy the layer
   * calls through as in the table it gives. */
  memset(&next_entries, 0, sizeof next_entries);
  memcpy(&next_entries, target_dispatch, (num_entries < ours ? num_entries : ours) * sizeof(void *));
  gac_next = &next_entries;
  dispatch = next_entries;
  dispatch.clGetPlatformInfo = gac_GetPlatformInfo;
  dispatch.clGetDeviceInfo = gac_GetDeviceInfo;
  dispatch.clGetExtensionFunctionAddressForPlatform = gac_GetExtensionFunctionAddressForPlatform;
  dispatch.clCreateProgramWithIL = gac_CreateProgramWithIL;
  dispatch.clBuildProgram = gac_BuildProgram;
  dispatch.clGetProgramInfo = gac_GetProgramInfo;
  dispatch.clGetProgramBuildInfo = gac_GetProgramBuildInfo;
  dispatch.clReleaseProgram = gac_ReleaseProgram;
  dispatch.clRetainProgram = gac_RetainProgram;
  dispatch.clSetProgramReleaseCallback = gac_SetProgramReleaseCallback;
  dispatch.clSetProgramSpecializationConstant = gac_SetProgramSpecializationConstant;
  dispatch.clCreateProgramWithSource = gac_CreateProgramWithSource;
  dispatch.clCreateProgramWithBinary = gac_CreateProgramWithBinary;
  dispatch.clCreateKernel = gac_CreateKernel;
  dispatch.clCreateKernelsInProgram = gac_CreateKernelsInProgram;
  dispatch.clGetKernelInfo = gac_GetKernelInfo;
  dispatch.clReleaseKernel = gac_ReleaseKernel;
  dispatch.clCompileProgram = gac_CompileProgram;
  dispatch.clLinkProgram = gac_LinkProgram;
  *num_entries_ret = num_entries < ours ? num_entries : ours;
  *layer_dispatch_ret = &dispatch;
  return CL_SUCCESS;
}

GAC_EXPORT CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const cl_icd_dispatch *target_dispatch,
                                            cl_uint *num_entries_ret, const cl_icd_dispatch **layer_dispatch_ret) {
  return init(num_entries, target_dispatch, num_entries_ret, layer_dispatch_ret);
}

/* cl_loader_layers 1.0.1 defines no property, so the layer knows none: any
 * name before the list's end is CL_INVALID_PROPERTY (a value cannot be
 * checked for a name that is not known, nor the list read past it). */
GAC_EXPORT CL_API_ENTRY cl_int CL_API_CALL clInitLayerWithProperties(cl_uint num_entries,
                                                          const cl_icd_dispatch *target_dispatch,
                                                          cl_uint *num_entries_ret,
                                                          const cl_icd_dispatch **layer_dispatch_ret,
                                                          const cl_layer_properties *properties) {
  if (properties && properties[0] != CL_LAYER_PROPERTIES_LIST_END) {
    fprintf(stderr, "gac layer: unknown layer property 0x%llx; not loaded\n", (unsigned long long)properties[0]);
    return CL_INVALID_PROPERTY;
  }
  return init(num_entries, target_dispatch, num_entries_ret, layer_dispatch_ret);
}

/* The loader calls nothing of the layer's after this, unless it initialises
 * it again. What the layer holds goes: the host's programs made from OpenCL C
 * that it never released (with the driver's program and context they hold;
 * the loader keeps the driver loaded until its layers are done), the records
 * of IL programs, the index of PoCL's kernel library. Cache entries on disk
 * stay: each was written whole when it was stored. */
GAC_EXPORT CL_API_ENTRY cl_int CL_API_CALL clDeinitLayer(void) {
  if (!gac_next)
    return CL_SUCCESS; /* not initialised, or deinitialised already */
  gac_layer_release_source_programs();
  gac_layer_release_programs();
  gac_layer_release_link_check();
  gac_next = NULL;
  return CL_SUCCESS;
}

const cl_icd_dispatch *gac_layer_dispatch(void) { return &dispatch; }

cl_int gac_answer(const void *value, size_t size, size_t param_value_size, void *param_value,
                  size_t *param_value_size_ret) {
  if (param_value) {
    if (param_value_size < size)
      return CL_INVALID_VALUE;
    memcpy(param_value, value, size);
  }
  if (param_value_size_ret)
    *param_value_size_ret = size;
  return CL_SUCCESS;
}
