/* Passes: bool pass(module, options, diag) returning progress, run by a
 * manager that validates between passes (as Mesa's NIR does). */
#ifndef GAC_PASS_H
#define GAC_PASS_H

#include "gac/module.h"

typedef bool (*gac_pass_fn)(gac_module *m, const char *arg, gac_diag *diag);

typedef struct gac_pass_info {
  const char *name;     /* command-line flag without the leading "--" */
  const char *help;
  gac_pass_fn run;
  /* A repair: it takes a module that breaks a core rule it exists to fix
   * (--sort-blocks: block order), so the input is validated after it. */
  bool repairs;
} gac_pass_info;

const gac_pass_info *gac_pass_find(const char *name);
/* The registry, terminated by an entry with name NULL. */
const gac_pass_info *gac_passes(void);

/* Runs the pass NAME (which must exist) on M, as a manager does: true when
 * it reported no error. A pass that makes the module outgrow SPIR-V's id
 * bound is refused here ([module.id-bound], naming the pass), so no caller
 * mistakes a module too big to write for an invalid one. */
bool gac_run_pass(gac_module *m, const char *name, const char *arg, gac_diag *diag);

/* After pass NAME ran on M, called directly (as passes call each other,
 * without the registry): what gac_run_pass decides, true when it reported
 * no error and M still fits SPIR-V's id bound (spirv/module.c). */
bool gac_pass_succeeded(gac_module *m, const char *name, gac_diag *diag);

#endif
