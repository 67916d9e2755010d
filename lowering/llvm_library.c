/* The entry point of libgac-llvm.so (lowering/llvm/llvm_library.h): each
 * target's LLVM side, in one table. It sits above the targets it holds, as
 * the pass registry (registry.c) does; a fourth target with an LLVM
 * backend adds its entry here. */
#include "amdgcn_internal.h"
#include "llvm_library.h"
#include "ptx_internal.h"

__attribute__((visibility("default"))) const gac_llvm_library gac_llvm_library_entry = {
    .abi = GAC_LLVM_LIBRARY_ABI,
    .version = GAC_VERSION,
    .ptx_from_bitcode = gac_ptx_from_bitcode,
    .amdgcn_from_bitcode = gac_amdgcn_from_bitcode,
};
