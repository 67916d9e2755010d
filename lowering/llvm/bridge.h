/* The bridge of every GPU path (bridge.c): libgac's side of the LLVM step,
 * which needs no LLVM library, only llvm-spirv-15 as a subprocess. */
#ifndef GAC_LLVM_BRIDGE_H
#define GAC_LLVM_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "gac/module.h"

/* Bridges a module the SPIR-V half lowered (gac_gpu_lower_spirv,
 * lowering/lowering.h) to SPIR 1.2 bitcode (*bitcode malloc'd) with
 * llvm-spirv-15 -r; errors are "<rule>.bridge". */
bool gac_gpu_bitcode(const gac_module *m, const char *llvm_spirv, const char *rule, unsigned char **bitcode,
                     size_t *size, gac_diag *diag);

#endif
