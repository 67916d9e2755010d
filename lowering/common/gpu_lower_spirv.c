/* The SPIR-V half of every GPU path, in libgac (no LLVM): raise builtin
 * calls, lower copies and queues for the target in SPIR-V, and check the
 * result, with the target's copy lowering and its typed options (each
 * target's gac_<target>_lower_spirv checks its options and calls this). The
 * emission then bridges it to LLVM (lowering/llvm/bridge.c); the fuzz target
 * fuzz_lower_gpu runs this half alone, thousands of times a second. */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/pass.h"
#include "gac/validate.h"
#include "lowering.h"

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

bool gac_gpu_lower_spirv(gac_module *m, gac_copy_lowering lower, const void *options, const char *rule,
                         gac_diag *diag) {
  char r[64];
  if (!byval_is_private(m, rule, diag))
    return false;
  gac_raise_async_copies(m, NULL, diag);
  if (!gac_pass_succeeded(m, "raise-async-copies", diag))
    return false;
  gac_lower_async_copies_with(m, lower, options, diag);
  if (!gac_pass_succeeded(m, "lower-async-copies", diag))
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
  return true;
}
