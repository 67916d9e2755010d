/* The copy fence (cl_khr_async_work_group_copy_fence's
 * async_work_group_copy_fence, AsyncCopyFence of NonSemantic.Gac.AsyncPipeline):
 * what a fence orders, which every target's lowering asks (copy_fences.c).
 *
 * The model. A fence with Flags F orders, for the memories F names, every
 * access of a copy issued before it against every access of a copy issued
 * after it (both by the work-group). Two copies need that order only if
 * they conflict: in a memory F names, one of them writes and their buffers
 * may be the same. An import (global -> local) writes local memory and
 * reads global memory; an export (local -> global) the reverse. So:
 *   local  (1): an import on either side, and local buffers that may alias;
 *   global (2): an export on either side, and global buffers that may alias.
 * A buffer is the variable or parameter a pointer is derived from (access
 * chains and casts). Distinct variables never alias, nor do a kernel's
 * local arguments (distinct allocations); global parameters may (the same
 * buffer may be passed twice); anything else may alias anything.
 *
 * "Before" and "after" are paths in the function's control-flow graph: a
 * copy is before the fence if some path leads from it to the fence (round
 * a loop too), after it if some path leads from the fence to it. A call of
 * a function that copies stands for unknown copies on its side, and so do
 * the callers of a function that is not a kernel: such a fence orders
 * everything it might. */
#ifndef GAC_COPY_FENCES_H
#define GAC_COPY_FENCES_H

#include "lower_util.h"
#include "wait_copies.h"

/* Whether fence orders a copy before it that `earlier` says yes for (NULL:
 * any copy) against a conflicting copy after it. An unknown copy (a call)
 * is one that `earlier` says yes for. */
bool lower_fence_orders(gac_module *m, const gac_inst *fence, gac_copy_predicate earlier, void *user);

/* Whether m has a fence. */
bool lower_module_has_fences(const gac_module *m);

/* Removes the fences that order nothing; true if a fence is left. */
bool lower_drop_idle_fences(gac_module *m);

/* Each fence left becomes a work-group barrier over both memories: all a
 * fence needs where every copy is done when the work-items return from it
 * (the OpenCL target's own ways). */
void lower_fences_as_barriers(gac_lowering *L);

#endif
