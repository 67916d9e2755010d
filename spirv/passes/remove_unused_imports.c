/* Removes extended instruction imports that nothing uses, and the
 * SPV_KHR_non_semantic_info extension once no NonSemantic import is left
 * (some consumers, llvm-spirv-15 among them, reject that extension). */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/module.h"

bool gac_remove_unused_imports(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg;
  (void)diag;
  bool progress = false, non_semantic_left = false;
  gac_foreach_inst(i, &m->sections[GAC_SECTION_EXT_INST_IMPORT]) {
    if (!gac_first_use(m, i->result_id)) {
      gac_inst_remove(m, i);
      progress = true;
      continue;
    }
    const char *name = gac_inst_string(i, 1);
    if (name && strncmp(name, "NonSemantic.", 12) == 0)
      non_semantic_left = true;
  }
  if (non_semantic_left)
    return progress;
  gac_foreach_inst(i, &m->sections[GAC_SECTION_EXTENSION]) {
    const char *name = gac_inst_string(i, 0);
    if (name && strcmp(name, "SPV_KHR_non_semantic_info") == 0) {
      gac_inst_remove(m, i);
      progress = true;
    }
  }
  return progress;
}
