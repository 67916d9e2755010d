/* The PTX target (--lower-async-copies=ptx[,sm=80|90], docs/PTX.md): the
 * shared copy lowering, cooperative, with cp.async units and, on sm_90,
 * bulk copies (lower_ptx_copies.c); the waits counted as cp.async groups
 * and on mbarrier rings (lower_ptx_waits.c); warp-specialised functions
 * prepared before and finished after (lower_ptx_warp_specialize.c); the
 * proxy fences trimmed (lower_ptx_fence.c). Events are then dead: a copy's
 * result is its Event operand. Also the SPIR-V half of --emit=ptx. */
#include <string.h>

#include "gac/pass.h"
#include "gac/ptx.h"
#include "lowering.h"
#include "ptx_lowering.h"

/* sm_90, a producer warp's copy: its bulk copies complete on the full
 * mbarrier of the ring slot it fills. */
static void plan(gac_lowering *L, gac_builder *b, const gac_inst *copy, lower_copy_plan *p) {
  if (ptx_state(L)->sm90)
    p->completes_on = lower_ptx_ws_full_slot(L, b, copy);
}

static bool finish(gac_lowering *L, lower_outcome outcome, gac_diag *diag) {
  if (outcome == LOWER_NO_COPIES) {
    lower_ptx_rings_free(L);
    return lower_ptx_ws_finish(L, diag);
  }
  if (ptx_state(L)->sm90)
    lower_ptx_fences(L);
  bool ok = lower_ptx_ws_finish(L, diag);
  lower_ptx_rings_free(L);
  return ok;
}

static const lower_target ptx_target = {
    .waits = &lower_ptx_waits,
    .warp_specialize = true,
    .core_copies = true,
    .events_dead = true,
    .step_units = true,
    .whole_element_units = true,
    .prepare = lower_ptx_ws_prepare,
    .participants = lower_ptx_ws_participants,
    .copy_run = lower_ptx_copy_run,
    .plan = plan,
    .before_units = lower_ptx_bulk_copy,
    .opaque = lower_ptx_opaque,
    .move_unit = lower_ptx_move_unit,
    .finish = finish,
};

bool lower_ptx_copies(gac_module *m, const void *options, gac_diag *diag) {
  const gac_ptx_options *o = options;
  ptx_lowering P = {.sm90 = o->sm == 90, .cp_async_l1 = o->cp_async_l1};
  return lower_async_copies_for(m, &ptx_target, &P, diag);
}

bool lower_ptx_arg(const char *arg, gac_ptx_options *o) {
  o->sm = arg && strcmp(arg, "ptx,sm=90") == 0 ? 90 : 80;
  return arg && (strcmp(arg, "ptx") == 0 || strcmp(arg, "ptx,sm=80") == 0 || strcmp(arg, "ptx,sm=90") == 0);
}

void gac_ptx_pipeline_wants(const gac_ptx_options *options, gac_pipeline_loops_options *o) {
  (void)options; /* sm_80 and sm_90 alike */
  o->wide_copies = true;
  o->local_memory_limit = 48 * 1024;
  o->local_memory_limit_is = "a CUDA device gives static shared memory: its PTX cannot be launched";
}

bool gac_ptx_lower_spirv(gac_module *m, const gac_ptx_options *options, gac_diag *diag) {
  if (options->sm != 80 && options->sm != 90) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.sm", "sm_%u: the PTX path targets sm_80 and sm_90",
                 options->sm);
    return false;
  }
  if (options->warp_specialize) {
    if (options->abi == GAC_PTX_ABI_OPENCL) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.abi",
                   "warp-specialize: a warp-specialised kernel runs in blocks of its work-group plus a producer "
                   "warp, a shape that clEnqueueNDRangeKernel cannot launch (its blocks are the local size); "
                   "use --sm=90 for NVIDIA's OpenCL, or the CUDA ABI");
      return false;
    }
    if (options->sm != 90) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.warp-specialize",
                   "warp-specialize: the producer warp's mbarrier handshakes need --sm=90");
      return false;
    }
    /* Loops still annotated; those pipelined already keep their schedule.
     * A loop that cannot be specialised is pipelined for every work-item
     * without wide copies, as this path has always built it. */
    gac_pipeline_loops_options po = {.warp_specialize = true};
    gac_ptx_pipeline_wants(options, &po);
    po.wide_copies = false;
    gac_pipeline_loops_with(m, &po, diag);
    if (!gac_pass_succeeded(m, "pipeline-loops", diag))
      return false;
  }
  return gac_gpu_lower_spirv(m, lower_ptx_copies, options, "ptx", diag);
}
