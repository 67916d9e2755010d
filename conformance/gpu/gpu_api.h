/* The few driver calls the conformance runner makes, under one set of
 * names for CUDA's driver API and HIP's module API, which are the same
 * calls (runner.c is built once against each: gac-conformance-cuda and,
 * with GAC_HIP, gac-conformance-hip). */
#ifndef GAC_GPU_API_H
#define GAC_GPU_API_H

#ifdef GAC_HIP
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
typedef hipError_t gpu_result;
typedef hipModule_t gpu_module;
typedef hipFunction_t gpu_function;
typedef hipDeviceptr_t gpu_ptr;
typedef hipDevice_t gpu_device;
typedef hipCtx_t gpu_context;
#define GPU_SUCCESS hipSuccess
#define GPU_NOT_FOUND hipErrorNotFound
#define GPU_API "HIP"
#define GPU_TARGET "AMDGCN code object from gac-opt --emit=amdgcn"
#define gpu_init hipInit
#define gpu_device_get hipDeviceGet
#define gpu_device_name hipDeviceGetName
/* HIP keeps the device's context itself: selecting the device is all. */
static inline gpu_result gpu_context_retain(gpu_context *c, gpu_device d) {
  *c = NULL;
  return hipSetDevice(d);
}
static inline gpu_result gpu_context_release(gpu_device d) { (void)d; return hipSuccess; }
static inline gpu_result gpu_context_set(gpu_context c) { (void)c; return hipSuccess; }
#define gpu_module_load_log(m, image, log, size) hipModuleLoadData(m, image)
#define gpu_module_unload hipModuleUnload
#define gpu_module_function hipModuleGetFunction
#define gpu_module_global hipModuleGetGlobal
#define gpu_alloc hipMalloc
#define gpu_free hipFree
#define gpu_copy_to(dst, src, n) hipMemcpyHtoD(dst, (void *)(src), n)
#define gpu_copy_from hipMemcpyDtoH
#define gpu_launch hipModuleLaunchKernel
#define gpu_synchronize hipDeviceSynchronize
static inline const char *gpu_error_name(gpu_result r) { return hipGetErrorName(r); }
#else
#include <cuda.h>
typedef CUresult gpu_result;
typedef CUmodule gpu_module;
typedef CUfunction gpu_function;
typedef CUdeviceptr gpu_ptr;
typedef CUdevice gpu_device;
typedef CUcontext gpu_context;
#define GPU_SUCCESS CUDA_SUCCESS
#define GPU_NOT_FOUND CUDA_ERROR_NOT_FOUND
#define GPU_API "CUDA"
#define GPU_TARGET "PTX from gac-opt --emit=ptx"
#define gpu_init cuInit
#define gpu_device_get cuDeviceGet
#define gpu_device_name cuDeviceGetName
#define gpu_context_retain cuDevicePrimaryCtxRetain
#define gpu_context_release cuDevicePrimaryCtxRelease
#define gpu_context_set cuCtxSetCurrent
/* The JIT's error log says why a PTX module does not load. */
static inline gpu_result gpu_module_load_log(gpu_module *m, const void *image, char *log, size_t size) {
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)size};
  return cuModuleLoadDataEx(m, image, 2, opts, values);
}
#define gpu_module_unload cuModuleUnload
#define gpu_module_function cuModuleGetFunction
#define gpu_module_global cuModuleGetGlobal
#define gpu_alloc cuMemAlloc
#define gpu_free cuMemFree
#define gpu_copy_to cuMemcpyHtoD
#define gpu_copy_from cuMemcpyDtoH
#define gpu_launch cuLaunchKernel
#define gpu_synchronize cuCtxSynchronize
static inline const char *gpu_error_name(gpu_result r) {
  const char *s = NULL;
  cuGetErrorName(r, &s);
  return s ? s : "unknown CUDA error";
}
#endif

#endif
