/* The passes of the library (spirv/passes/), for callers that run one
 * directly: a pass calls another's function, not the registry
 * (lowering/registry.c, which sits above every pass and serves the tools
 * by name). Each is a gac_pass_fn; arg is NULL for all of them. */
#ifndef GAC_PASSES_H
#define GAC_PASSES_H

#include "gac/module.h"

/* Removes OpExtInstImport instructions nothing uses (and
 * SPV_KHR_non_semantic_info when no NonSemantic set is left). */
bool gac_remove_unused_imports(gac_module *m, const char *arg, gac_diag *diag);
/* Orders blocks so that each comes after its dominator. */
bool gac_sort_blocks(gac_module *m, const char *arg, gac_diag *diag);
/* Turns an OpSelect of events (or of composites before SPIR-V 1.4) into a
 * branch and an OpPhi. */
bool gac_split_event_selects(gac_module *m, const char *arg, gac_diag *diag);
/* Gives builtins the named-address-space pointer a generic one was cast from. */
bool gac_specialize_generic_pointers(gac_module *m, const char *arg, gac_diag *diag);

#endif
