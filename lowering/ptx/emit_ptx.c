/* gac_emit_ptx (include/gac/ptx.h): the SPIR-V half with the PTX lowering
 * (lowering/common/gpu_lower_spirv.c: --lower-async-copies=ptx), the bridge
 * (lowering/llvm/bridge.c), then LLVM 19 (llvm_nvptx.c) in libgac-llvm.so,
 * opened only now (lowering/llvm/llvm_library.h). */
#include <stdlib.h>

#include "lowering.h"
#include "ptx_lowering.h"
#include "gac/ptx.h"
#include "bridge.h"
#include "llvm_library.h"

bool gac_emit_ptx(gac_module *m, const gac_ptx_options *options, char **ptx, size_t *size, gac_diag *diag) {
  *ptx = NULL;
  *size = 0;
  unsigned char *bitcode = NULL;
  size_t bitcode_size = 0;
  const gac_llvm_library *llvm = NULL;
  if (!gac_ptx_lower_spirv(m, options, diag) || !(llvm = gac_llvm_library_open("ptx", diag)) ||
      !gac_gpu_bitcode(m, options->llvm_spirv, "ptx", &bitcode, &bitcode_size, diag))
    return false;
  bool ok = llvm->ptx_from_bitcode(bitcode, bitcode_size, options, ptx, size, diag);
  free(bitcode);
  if (ok && options->tune_occupancy)
    ok = gac_ptx_tune_occupancy(ptx, size, options->sm, diag);
  return ok;
}
