/* The parts of the PTX path (docs/PTX.md). */
#ifndef GAC_PTX_INTERNAL_H
#define GAC_PTX_INTERNAL_H

#include <stddef.h>

#include "gac/diag.h"
#include "gac/ptx.h"

/* llvm-spirv-15's SPIR 1.2 bitcode of a module lowered for PTX, retargeted
 * to nvptx64-nvidia-cuda and compiled by LLVM 19's NVPTX backend for sm_<sm>
 * (llvm_nvptx.c). *ptx is malloc'd and NUL-terminated. */
bool gac_ptx_from_bitcode(const void *bitcode, size_t size, const gac_ptx_options *options, char **ptx,
                          size_t *ptx_size, gac_diag *diag);

/* The OpenCL builtins and gac's cp.async functions, defined with NVVM
 * intrinsics (nvvm_builtins.c). */
#include <llvm-c/Core.h>
bool gac_ptx_define_builtins(LLVMModuleRef mod, gac_ptx_abi abi, gac_diag *diag);

/* Calls of printf become calls of CUDA's vprintf (printf.c). */
bool gac_ptx_lower_printf(LLVMModuleRef mod, gac_diag *diag);

/* The rest of the OpenCL C library, from libdevice and libclc; every
 * function but the kernels made internal (opencl_library.c). */
bool gac_ptx_link_opencl_library(LLVMModuleRef mod, bool fast_math, gac_diag *diag);

/* Removes each barrier after which every path meets another barrier before
 * any memory access (redundant_barriers.c); returns how many. */
unsigned gac_ptx_remove_redundant_barriers(LLVMModuleRef mod);

/* Whether i calls a function whose name starts with prefix; whether i is a
 * work-group barrier (bar.sync 0); whether i may read or write memory or
 * order it (loads, stores, atomics, fences, calls but arithmetic
 * intrinsics, special-register reads and cp.async commits and waits).
 * redundant_barriers.c. */
bool gac_ptx_calls(LLVMValueRef i, const char *prefix);
bool gac_ptx_is_barrier(LLVMValueRef i);
bool gac_ptx_touches_memory(LLVMValueRef i);

/* Global-to-shared stores of loaded values before a barrier become cp.async
 * and one wait before it (async_tile_loads.c); returns how many. 16-byte
 * units fill L1 with cp_async_l1. */
unsigned gac_ptx_async_tile_loads(LLVMModuleRef mod, bool cp_async_l1);

#endif
