/* gac_emit_ptx (include/gac/ptx.h): the SPIR-V half with the PTX lowering
 * (lowering/common/gpu_lower_spirv.c: --lower-async-copies=ptx), the bridge
 * (lowering/llvm/bridge.c), then LLVM 19 (llvm_nvptx.c). */
#include <stdlib.h>

#include "lowering.h"
#include "gac/ptx.h"
#include "llvm_gpu.h"
#include "ptx_internal.h"

bool gac_emit_ptx(gac_module *m, const gac_ptx_options *options, char **ptx, size_t *size, gac_diag *diag) {
  *ptx = NULL;
  *size = 0;
  unsigned char *bitcode = NULL;
  size_t bitcode_size = 0;
  if (!gac_ptx_lower_spirv(m, options, diag) ||
      !gac_gpu_bitcode(m, options->llvm_spirv, "ptx", &bitcode, &bitcode_size, diag))
    return false;
  bool ok = gac_ptx_from_bitcode(bitcode, bitcode_size, options, ptx, size, diag);
  free(bitcode);
  return ok;
}
