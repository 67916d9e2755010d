/* The lowering passes (registered in lowering/registry.c). */
#ifndef GAC_LOWERING_H
#define GAC_LOWERING_H

#include "gac/module.h"

bool gac_raise_async_copies(gac_module *m, const char *arg, gac_diag *diag);
bool gac_lower_async_copies(gac_module *m, const char *arg, gac_diag *diag);
bool gac_lower_async_queues(gac_module *m, const char *arg, gac_diag *diag);
bool gac_pipeline_loops(gac_module *m, const char *arg, gac_diag *diag);
/* lower_late.c: --lower-async-copies=opencl,strategy=late (after validation). */
bool gac_lower_late(gac_module *m, gac_diag *diag);

/* common/gpu_lower_spirv.c: the SPIR-V half of the GPU paths (raising,
 * --lower-async-copies for the target, validation with a "<rule>.internal"
 * error when the lowering made the module invalid), what gac_emit_ptx and
 * gac_emit_amdgcn do before llvm-spirv-15; each target's entry checks its
 * options first (ptx/lower_ptx_target.c, amdgcn/lower_amdgcn_target.c). */
struct gac_ptx_options;
struct gac_amdgcn_options;
bool gac_gpu_lower_spirv(gac_module *m, const char *lowering, const char *rule, gac_diag *diag);
bool gac_ptx_lower_spirv(gac_module *m, const struct gac_ptx_options *options, gac_diag *diag);
bool gac_amdgcn_lower_spirv(gac_module *m, const struct gac_amdgcn_options *options, gac_diag *diag);

#endif
