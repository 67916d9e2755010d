/* The SPIR-V half of every GPU path: raise builtin calls, lower copies and
 * queues for the target in SPIR-V, check the result, and bridge it to SPIR
 * 1.2 bitcode with llvm-spirv-15 -r (a subprocess, as the OpenCL layer
 * does). docs/PTX.md says why this route. */
#include <stdio.h>
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "gac/pass.h"
#include "gac/validate.h"
#include "llvm_gpu.h"
#include "subprocess.h"

static bool run_pass(gac_module *m, const char *name, const char *arg, gac_diag *diag) {
  gac_pass_find(name)->run(m, arg, diag);
  return !gac_diag_has_errors(diag);
}

/* ByVal copies a parameter from private memory. On a pointer to any other
 * storage class LLVM's NVPTX backend aborted the process ("Cannot cast
 * between two non-generic address spaces"); refuse it here, named. */
static bool byval_is_private(const gac_module *m, const char *rule, gac_diag *diag) {
  char r[64];
  snprintf(r, sizeof r, "%s.byval", rule);
  bool ok = true;
  gac_foreach_inst(d, &m->sections[GAC_SECTION_ANNOTATION]) {
    if (d->opcode != SpvOpDecorate || d->num_words < 4 || d->words[2] != SpvDecorationFuncParamAttr ||
        d->words[3] != SpvFunctionParameterAttributeByVal)
      continue;
    const gac_inst *p = gac_def(m, d->words[1]);
    const gac_inst *t = p ? gac_def(m, p->type_id) : NULL;
    if (!t || t->opcode != SpvOpTypePointer || t->num_words < 4 || t->words[2] != SpvStorageClassFunction) {
      gac_diag_add(diag, GAC_ERROR, d->offset, d->words[1], r,
                   "FuncParamAttr ByVal on a parameter that is not a pointer to Function memory: the GPU paths "
                   "pass only private memory by value");
      ok = false;
    }
  }
  return ok;
}

bool gac_gpu_lower_to_bitcode(gac_module *m, const char *lowering, const char *llvm_spirv, const char *rule,
                              unsigned char **bitcode, size_t *size, gac_diag *diag) {
  char r[64];
  *bitcode = NULL;
  if (!byval_is_private(m, rule, diag) || !run_pass(m, "raise-async-copies", NULL, diag) ||
      !run_pass(m, "lower-async-copies", lowering, diag))
    return false;
  /* What goes to llvm-spirv-15 must be valid SPIR-V: a lowering bug shows
   * up here, named, rather than as a translator crash. (Any SPIR-V version
   * llvm-spirv-15 reads: its output for -O0 code can be 1.4.) */
  gac_validate_options vopts = {.core = true, .target_env = -1};
  snprintf(r, sizeof r, "%s.internal", rule);
  if (!gac_validate(m, &vopts, diag)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, r, "the module lowered for the target is invalid");
    return false;
  }
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
