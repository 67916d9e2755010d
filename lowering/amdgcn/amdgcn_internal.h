/* The parts of the AMDGCN path (docs/AMDGCN.md). */
#ifndef GAC_AMDGCN_INTERNAL_H
#define GAC_AMDGCN_INTERNAL_H

#include <llvm-c/Core.h>

#include "gac/amdgcn.h"

/* llvm-spirv-15's SPIR 1.2 bitcode to AMDGPU assembly or an object file
 * (llvm_amdgcn.c); *out is malloc'd. */
bool gac_amdgcn_from_bitcode(const void *bitcode, size_t size, const gac_amdgcn_options *options, bool object,
                             char **out, size_t *out_size, gac_diag *diag);

/* LDS-direct loads, vmcnt waits and barriers for what the lowering calls,
 * and OpenCL's barrier (amdgcn_builtins.c). */
bool gac_amdgcn_define_builtins(LLVMModuleRef mod, const char *mcpu, gac_diag *diag);

/* Private memory (private.c): builtins with private-pointer parameters as
 * libclc's AMDGPU library declares them (on the SPIR module), and allocas
 * in address space 5 (after retargeting). */
void gac_amdgcn_private_builtins(LLVMModuleRef mod);
void gac_amdgcn_private_allocas(LLVMModuleRef mod);

#endif
