/* gac_emit_ptx (include/gac/ptx.h): the SPIR-V half with the PTX lowering
 * (lowering/llvm/bridge.c: --lower-async-copies=ptx), then LLVM 19
 * (llvm_nvptx.c). */
#include <stdlib.h>

#include "gac/pass.h"
#include "gac/ptx.h"
#include "llvm_gpu.h"
#include "ptx_internal.h"

bool gac_emit_ptx(gac_module *m, const gac_ptx_options *options, char **ptx, size_t *size, gac_diag *diag) {
  *ptx = NULL;
  *size = 0;
  if (options->sm != 80 && options->sm != 90) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.sm", "sm_%u: the PTX path targets sm_80 and sm_90",
                 options->sm);
    return false;
  }
  if (options->warp_specialize) {
    if (options->sm != 90) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.warp-specialize",
                   "warp-specialize: the producer warp's mbarrier handshakes need --sm=90");
      return false;
    }
    /* Loops still annotated; those pipelined already keep their schedule. */
    gac_pass_find("pipeline-loops")->run(m, "warp-specialize", diag);
    if (gac_diag_has_errors(diag))
      return false;
  }
  unsigned char *bitcode = NULL;
  size_t bitcode_size = 0;
  const char *lower = options->sm == 90 ? "ptx,sm=90" : "ptx";
  if (!gac_gpu_lower_to_bitcode(m, lower, options->llvm_spirv, "ptx", &bitcode, &bitcode_size, diag))
    return false;
  bool ok = gac_ptx_from_bitcode(bitcode, bitcode_size, options, ptx, size, diag);
  free(bitcode);
  return ok;
}
