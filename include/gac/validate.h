/* Validation: the GroupAsyncCopies rules, and SPIRV-Tools' core validator run
 * on a stand-in module so that every other rule is still checked. */
#ifndef GAC_VALIDATE_H
#define GAC_VALIDATE_H

#include "gac/module.h"

typedef struct gac_validate_options {
  bool core;                  /* also run SPIRV-Tools' validator */
  int target_env;             /* spv_target_env; -1 for universal SPIR-V 1.6, as spirv-val */
} gac_validate_options;

/* The rules of the NonSemantic.Codeplay.GroupAsyncCopies spec. Returns true if none is violated. */
bool gac_validate_async_copies(const gac_module *m, gac_diag *diag);

/* SPIRV-Tools' validator on the module with each copy's result re-expressed in
 * core SPIR-V (see docs/VALIDATION.md). */
bool gac_validate_core(const gac_module *m, int target_env, gac_diag *diag);

bool gac_validate(const gac_module *m, const gac_validate_options *opts, gac_diag *diag);

/* Parses names such as "opencl1.2", "opencl2.0", "spv1.4", "universal1.5". -1 if unknown. */
int gac_target_env_parse(const char *name);

#endif
