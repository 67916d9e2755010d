/* The gac OpenCL layer: shared state of its parts. */
#ifndef GAC_ICD_LAYER_H
#define GAC_ICD_LAYER_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gac/opencl.h"

/* The next layer or the ICD: where every call not ours goes on to. */
extern const cl_icd_dispatch *gac_next;

/* extensions.c: what the layer adds to the platform and device queries. */
cl_int CL_API_CALL gac_GetPlatformInfo(cl_platform_id, cl_platform_info, size_t, void *, size_t *);
cl_int CL_API_CALL gac_GetDeviceInfo(cl_device_id, cl_device_info, size_t, void *, size_t *);

/* programs.c: programs made from SPIR-V. */
cl_program CL_API_CALL gac_CreateProgramWithIL(cl_context, const void *, size_t, cl_int *);
cl_int CL_API_CALL gac_BuildProgram(cl_program, cl_uint, const cl_device_id *, const char *,
                                    void(CL_CALLBACK *)(cl_program, void *), void *);
cl_int CL_API_CALL gac_GetProgramInfo(cl_program, cl_program_info, size_t, void *, size_t *);
cl_int CL_API_CALL gac_GetProgramBuildInfo(cl_program, cl_device_id, cl_program_build_info, size_t, void *,
                                           size_t *);
cl_int CL_API_CALL gac_ReleaseProgram(cl_program);
cl_program CL_API_CALL gac_CreateProgramWithBinary(cl_context, cl_uint, const cl_device_id *, const size_t *,
                                                   const unsigned char **, cl_int *, cl_int *);
/* The driver's build log of program, after prefix (a line of the layer's). */
cl_int gac_prefixed_build_log(cl_program program, cl_device_id device, const char *prefix, size_t size, void *value,
                              size_t *size_ret);
/* A program the driver made: any record the layer kept at its address is stale. */
cl_program gac_program_created(cl_program program);
cl_int CL_API_CALL gac_RetainProgram(cl_program);
/* Entries that take a program: a wrapper (source_programs.c) is answered
 * here, as the loader's entry for it would come back to the layer's table. */
cl_int CL_API_CALL gac_SetProgramReleaseCallback(cl_program, void(CL_CALLBACK *)(cl_program, void *), void *);
cl_int CL_API_CALL gac_SetProgramSpecializationConstant(cl_program, cl_uint, size_t, const void *);
cl_kernel CL_API_CALL gac_CreateKernel(cl_program, const char *, cl_int *);
cl_int CL_API_CALL gac_CreateKernelsInProgram(cl_program, cl_uint, cl_kernel *, cl_uint *);
cl_int CL_API_CALL gac_GetKernelInfo(cl_kernel, cl_kernel_info, size_t, void *, size_t *);
cl_int CL_API_CALL gac_CompileProgram(cl_program, cl_uint, const cl_device_id *, const char *, cl_uint,
                                      const cl_program *, const char **,
                                      void(CL_CALLBACK *)(cl_program, void *), void *);
cl_program CL_API_CALL gac_LinkProgram(cl_context, cl_uint, const cl_device_id *, const char *, cl_uint,
                                       const cl_program *, void(CL_CALLBACK *)(cl_program, void *), void *,
                                       cl_int *);

/* source_programs.c: OpenCL C programs that use the 2D/3D builtins, as the
 * layer's own objects wrapping the PoCL program built from them. */
typedef struct gac_source_program gac_source_program;
const cl_icd_dispatch *gac_layer_dispatch(void);
cl_program CL_API_CALL gac_CreateProgramWithSource(cl_context, cl_uint, const char **, const size_t *, cl_int *);
gac_source_program *gac_source_find(const void *program); /* NULL if not a wrapper */
gac_source_program *gac_source_of_inner(cl_program inner);
cl_program gac_source_inner(gac_source_program *w); /* NULL until built */
cl_int gac_source_retain(gac_source_program *w);
cl_int gac_source_release(gac_source_program *w);
cl_int gac_source_set_release_callback(gac_source_program *w, void(CL_CALLBACK *)(cl_program, void *), void *);
cl_int CL_API_CALL gac_ReleaseKernel(cl_kernel);
cl_int gac_source_build(gac_source_program *w, cl_uint, const cl_device_id *, const char *,
                        void(CL_CALLBACK *)(cl_program, void *), void *);
cl_int gac_source_compile(gac_source_program *w, cl_uint, const cl_device_id *, const char *, cl_uint,
                          const cl_program *, const char **, void(CL_CALLBACK *)(cl_program, void *), void *);
bool gac_source_compiled(gac_source_program *w, const void **il, size_t *size);
cl_int gac_source_info(gac_source_program *w, cl_program_info, size_t, void *, size_t *);
cl_int gac_source_build_info(gac_source_program *w, cl_device_id, cl_program_build_info, size_t, void *, size_t *);

/* device_profile.c: what the layer builds for a device. */
typedef enum gac_layer_target_kind {
  GAC_LAYER_SPIR,  /* SPIR 1.2 bitcode (PoCL 3.1), built with -x spir -spir-std=1.2 */
  GAC_LAYER_SPIRV, /* lowered SPIR-V, to the driver's clCreateProgramWithIL (PoCL 5 and later) */
  GAC_LAYER_PTX,   /* PTX for NVIDIA's OpenCL driver, built as a binary */
} gac_layer_target_kind;
typedef struct gac_layer_target {
  gac_layer_target_kind kind;
  /* SPIR, SPIRV: the OpenCL lowering's options the device asks for: its
   * profile (strategy=auto's device=, from CL_DEVICE_TYPE), units=one and
   * events=generic (PoCL 5 and later); the strategy is GAC_LAYER_STRATEGY's
   * (bridge.c). */
  gac_opencl_options opencl;
  unsigned sm;                 /* PTX: 80 or 90; 0 if the GPU has neither */
  unsigned compute_capability; /* PTX: major * 10 + minor, as the driver reports it */
  bool loops_as_written;       /* SPIR, SPIRV: annotated loops not pipelined (PoCL 5 and later) */
} gac_layer_target;
gac_layer_target gac_device_target(cl_device_id device);
/* The profile strategy=auto lowers copies for on `device` (from its
 * CL_DEVICE_TYPE): PoCL's CPU device, or a GPU. */
gac_opencl_device gac_device_profile(cl_device_id device);
/* What t builds, in words, for the layer's log and build logs. */
void gac_layer_target_text(const gac_layer_target *t, char *out, size_t len);

/* bridge.c: SPIR-V -> validated, lowered SPIR-V -> what target t builds:
 * SPIR 1.2 bitcode or the lowered SPIR-V for PoCL, or PTX (with its NUL)
 * for NVIDIA's driver.
 * On failure returns false with a build log in *log (malloc'd); on success
 * *warnings has the passes' warnings as build-log text (malloc'd), or NULL. */
bool gac_bridge_il(const void *il, size_t size, const gac_layer_target *t, unsigned char **binary,
                   size_t *binary_size, char **log, char **warnings);
/* The module with its builtin calls raised, for linking (*out malloc'd). */
bool gac_raise_il(const void *il, size_t size, void **out, size_t *out_size, char **log);
/* cache.c: FNV-1a of size bytes, continuing from h (0xcbf29ce484222325 to start). */
uint64_t gac_layer_hash(const void *data, size_t size, uint64_t h);

/* The layer's cache folder ($GAC_LAYER_CACHE_DIR, else $XDG_CACHE_HOME/gac,
 * else ~/.cache/gac), made if missing; false when caching is off. */
bool gac_layer_cache_dir(char *out, size_t len);
/* An entry of the cache: the key (a path prefix) of an input and a salt;
 * the result stored under key+out_ext if key+in_ext holds the same input
 * (compared in full); storing writes the result, then the input. */
bool gac_layer_cache_key(const char *salt, const void *input, size_t size, char *out, size_t len);
bool gac_layer_cache_lookup(const char *key, const char *in_ext, const char *out_ext, const void *input, size_t size,
                            unsigned char **out, size_t *out_size);
void gac_layer_cache_store(const char *key, const char *in_ext, const char *out_ext, const void *input, size_t size,
                           const void *result, size_t result_size);

/* link_check.c: true if PoCL's kernel library provides every function the
 * bitcode calls (or the check cannot run); else false with a build log naming
 * the missing functions in *log (malloc'd). */
bool gac_check_pocl_links(const unsigned char *bc, size_t bc_size, char **log);

/* Subprocesses, files, scratch folders and llvm-spirv-15 -r: support/. */
#include "subprocess.h"

/* clDeinitLayer: each part lets go of what it holds (programs.c,
 * source_programs.c, link_check.c); the layer can be initialised again. */
void gac_layer_release_programs(void);
void gac_layer_release_source_programs(void);
void gac_layer_release_link_check(void);

/* Answers a query with a value of `size` bytes, the OpenCL way. */
cl_int gac_answer(const void *value, size_t size, size_t param_value_size, void *param_value,
                  size_t *param_value_size_ret);

#endif
