/* The pass registry. */
#include <string.h>

#include "gac/pass.h"

bool gac_remove_unused_imports(gac_module *m, const char *arg, gac_diag *diag);

static const gac_pass_info passes[] = {
    {"remove-unused-imports",
     "Remove OpExtInstImport instructions nothing uses, and SPV_KHR_non_semantic_info when no "
     "NonSemantic set is left",
     gac_remove_unused_imports},
    {NULL, NULL, NULL},
};

const gac_pass_info *gac_passes(void) { return passes; }

const gac_pass_info *gac_pass_find(const char *name) {
  for (const gac_pass_info *p = passes; p->name; p++)
    if (strcmp(p->name, name) == 0)
      return p;
  return NULL;
}
