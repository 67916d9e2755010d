/* The OpenCL target of the copy lowering (lower_target.h): copies in core
 * SPIR-V any OpenCL device accepts, by the strategy asked for
 * (docs/LOWERING.md). */
#ifndef GAC_OPENCL_LOWERING_H
#define GAC_OPENCL_LOWERING_H

#include "gac/opencl.h"
#include "copy_helpers.h"
#include "copy_strategy.h"

/* The options: gac_opencl_options (gac/opencl.h). */

/* --lower-async-copies=opencl... (lower_opencl_target.c); options is a
 * gac_opencl_options (a gac_copy_lowering). */
bool lower_opencl_copies(gac_module *m, const void *options, gac_diag *diag);
/* strategy=late, the whole module its own way (lower_late.c; after validation). */
bool gac_lower_late(gac_module *m, gac_diag *diag);
/* Every load of the WorkgroupSize builtin clamped to [1, 2^32 - 1], which
 * keeps PoCL 3.1 from a miscompile (pocl_local_size.c says which); returns
 * progress. */
bool opencl_clamp_local_size(gac_module *m);
/* Every OpGroupWaitEvents left takes its events list through
 * OpPtrCastToGeneric, for PoCL 5.0's kernel library
 * (pocl_generic_events.c says why); returns progress. */
bool opencl_generic_wait_events(gac_module *m);
/* Folds barrier `mine` into `into` if that is a barrier of the same scopes
 * with constant memory semantics: `into` then orders both semantics' memory
 * (one ordering: theirs if the same, else sequentially consistent). The
 * caller removes `mine`. */
bool opencl_merge_barrier(gac_module *m, const gac_inst *mine, gac_inst *into);
/* A barrier that ends a block, folded into the one that starts the block it
 * branches to unconditionally (fold_barriers.c); returns progress. */
bool opencl_fold_barriers(gac_module *m);

#endif
