/* The lowering passes (registered in lowering/registry.c). */
#ifndef GAC_LOWERING_H
#define GAC_LOWERING_H

#include "gac/module.h"
#include "gac/pipeline.h"

bool gac_raise_async_copies(gac_module *m, const char *arg, gac_diag *diag);
bool gac_lower_async_copies(gac_module *m, const char *arg, gac_diag *diag);
bool gac_collapse_async_copies(gac_module *m, const char *arg, gac_diag *diag);
bool gac_lower_async_queues(gac_module *m, const char *arg, gac_diag *diag);
bool gac_pipeline_loops(gac_module *m, const char *arg, gac_diag *diag);
/* --pipeline-loops' grammar and its typed options: gac/pipeline.h. */

/* A target's copy lowering, called with its typed options (the PTX
 * target's: gac_ptx_options; AMDGCN's: gac_amdgcn_options), as the pass
 * --lower-async-copies=ARG calls it once ARG is parsed. */
typedef bool (*gac_copy_lowering)(gac_module *m, const void *options, gac_diag *diag);
/* What --lower-async-copies does with a lowering chosen and its options
 * typed (common/lower_async_copies.c): runs it, then removes the names and
 * non-semantic instructions left on what it deleted. */
bool gac_lower_async_copies_with(gac_module *m, gac_copy_lowering lower, const void *options, gac_diag *diag);

/* common/gpu_lower_spirv.c: the SPIR-V half of the GPU paths (raising,
 * the target's copy lowering with its options, validation with a
 * "<rule>.internal" error when the lowering made the module invalid), what
 * the GPU emitters do before llvm-spirv-15; each target's entry (declared
 * in its own folder's header) checks its options first and hands them on
 * typed. */
bool gac_gpu_lower_spirv(gac_module *m, gac_copy_lowering lower, const void *options, const char *rule,
                         gac_diag *diag);

#endif
