/* gac_emit_ptx (include/gac/ptx.h): raise builtin calls, lower copies and
 * queues for PTX in SPIR-V (--lower-async-copies=ptx), check the result,
 * bridge it to SPIR 1.2 bitcode with llvm-spirv-15 -r (a subprocess, as the
 * OpenCL layer does), then LLVM 19 (llvm_nvptx.c). docs/PTX.md says why
 * this route. */
#include <stdlib.h>
#include <string.h>

#include "gac/pass.h"
#include "gac/ptx.h"
#include "gac/validate.h"
#include "ptx_internal.h"
#include "subprocess.h"

static bool run_pass(gac_module *m, const char *name, const char *arg, gac_diag *diag) {
  gac_pass_find(name)->run(m, arg, diag);
  return !gac_diag_has_errors(diag);
}

bool gac_emit_ptx(gac_module *m, const gac_ptx_options *options, char **ptx, size_t *size, gac_diag *diag) {
  *ptx = NULL;
  *size = 0;
  if (options->sm != 80 && options->sm != 90) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.sm", "sm_%u: the PTX path targets sm_80 and sm_90",
                 options->sm);
    return false;
  }
  const char *lower = options->sm == 90 ? "ptx,sm=90" : "ptx";
  if (!run_pass(m, "raise-async-copies", NULL, diag) || !run_pass(m, "lower-async-copies", lower, diag))
    return false;
  /* What goes to llvm-spirv-15 must be valid SPIR-V: a lowering bug shows
   * up here, named, rather than as a translator crash. (Any SPIR-V version
   * llvm-spirv-15 reads: its output for -O0 code can be 1.4.) */
  gac_validate_options vopts = {.core = true, .target_env = -1};
  if (!gac_validate(m, &vopts, diag)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.internal", "the module lowered for PTX is invalid");
    return false;
  }
  uint32_t *words = NULL;
  size_t num_words = 0;
  if (!gac_module_write(m, &words, &num_words)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.internal", "out of memory writing the module");
    return false;
  }
  unsigned char *bitcode = NULL;
  size_t bitcode_size = 0;
  char *log = NULL;
  bool ok = gac_spirv_to_bitcode(words, num_words, options->llvm_spirv, &bitcode, &bitcode_size, &log);
  free(words);
  if (!ok) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.bridge", "%s", log ? log : "llvm-spirv-15 -r failed");
    free(log);
    return false;
  }
  ok = gac_ptx_from_bitcode(bitcode, bitcode_size, options, ptx, size, diag);
  free(bitcode);
  return ok;
}
