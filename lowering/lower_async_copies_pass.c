/* The pass --lower-async-copies=ARG: ARG names the target (opencl, ptx,
 * amdgcn, with its options), whose folder lowers the copies through the
 * shared lowering (common/lower_async_copies.c). This wrapper sits above
 * the targets, as the registry does: the shared lowering names none. */
#include "gac/builder.h"
#include "gac/pass.h"
#include "lowering.h"
#include "amdgcn_lowering.h"
#include "opencl_lowering.h"
#include "ptx_lowering.h"

static bool lower_for_target(gac_module *m, const char *arg, gac_diag *diag) {
  opencl_options opencl;
  unsigned sm;
  bool dma_narrow, pingpong;
  if (lower_opencl_arg(arg, &opencl))
    return lower_opencl_copies(m, &opencl, diag);
  if (lower_ptx_arg(arg, &sm))
    return lower_ptx_copies(m, sm, diag);
  if (lower_amdgcn_arg(arg, &dma_narrow, &pingpong))
    return lower_amdgcn_copies(m, dma_narrow, pingpong, diag);
  gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "lower.argument",
               "--lower-async-copies=%s: expected opencl[,strategy=S][,device=D][,helpers=H] with S one of "
               "lines, cooperative, leader, auto, serial, late, D one of pocl-cpu, gpu (for auto) and H one of "
               "auto, always, never; or ptx[,sm=80|90]; or "
               "amdgcn[,mcpu=gfx90a|gfx942][,pingpong]",
               arg);
  return false;
}

bool gac_lower_async_copies(gac_module *m, const char *arg, gac_diag *diag) {
  bool ok = lower_for_target(m, arg, diag);
  /* What the lowering deleted (commits, waits, copies, markers) may have had
   * a name, or other non-semantic instructions that use it. */
  gac_remove_dangling_non_semantic(m);
  gac_remove_dangling_names(m);
  return ok;
}
