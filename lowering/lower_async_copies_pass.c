/* The pass --lower-async-copies=ARG: ARG names the target (opencl, ptx,
 * amdgcn, with its options), whose folder lowers the copies through the
 * shared lowering (common/lower_async_copies.c). This wrapper sits above
 * the targets, as the registry does: the shared lowering names none. */
#include "gac/amdgcn.h"
#include "gac/pass.h"
#include "gac/ptx.h"
#include "lowering.h"
#include "amdgcn_lowering.h"
#include "opencl_lowering.h"
#include "ptx_lowering.h"

/* The target's copy lowering and its options, typed, from arg. */
static bool lower_for_target(gac_module *m, const char *arg, gac_diag *diag) {
  gac_opencl_options opencl;
  gac_ptx_options ptx = {0};
  gac_amdgcn_options amdgcn = {0};
  if (gac_opencl_options_parse(arg, &opencl))
    return gac_lower_async_copies_with(m, lower_opencl_copies, &opencl, diag);
  if (lower_ptx_arg(arg, &ptx))
    return gac_lower_async_copies_with(m, lower_ptx_copies, &ptx, diag);
  if (lower_amdgcn_arg(arg, &amdgcn))
    return gac_lower_async_copies_with(m, lower_amdgcn_copies, &amdgcn, diag);
  gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "lower.argument",
               "--lower-async-copies=%s: expected opencl[,strategy=S][,device=D][,helpers=H] with S one of "
               "lines, cooperative, leader, auto, serial, late, D one of pocl-cpu, gpu (for auto) and H one of "
               "auto, always, never; or ptx[,sm=80|90]; or "
               "amdgcn[,mcpu=gfx90a|gfx942][,pingpong]",
               arg);
  return false;
}

bool gac_lower_async_copies(gac_module *m, const char *arg, gac_diag *diag) { return lower_for_target(m, arg, diag); }
