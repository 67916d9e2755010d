/* The bridge of every GPU path: the module the SPIR-V half lowered
 * (lowering/common/gpu_lower_spirv.c) to SPIR 1.2 bitcode with
 * llvm-spirv-15 -r (a subprocess, as the OpenCL layer does), in libgac:
 * no LLVM library is needed for it. docs/PTX.md says why this route. */
#include <stdio.h>
#include <stdlib.h>

#include "bridge.h"
#include "subprocess.h"

bool gac_gpu_bitcode(const gac_module *m, const char *llvm_spirv, const char *rule, unsigned char **bitcode,
                     size_t *size, gac_diag *diag) {
  char r[64];
  *bitcode = NULL;
  snprintf(r, sizeof r, "%s.internal", rule);
  uint32_t *words = NULL;
  size_t num_words = 0;
  if (!gac_module_write(m, &words, &num_words)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "out of memory writing the module");
    return false;
  }
  char *log = NULL;
  bool ok = gac_spirv_to_bitcode(words, num_words, llvm_spirv, bitcode, size, &log);
  free(words);
  if (!ok) {
    snprintf(r, sizeof r, "%s.bridge", rule);
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "%s", log ? log : "llvm-spirv-15 -r failed");
    free(log);
  }
  return ok;
}
