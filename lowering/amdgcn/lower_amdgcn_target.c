/* The AMDGCN target (--lower-async-copies=amdgcn[,mcpu=gfx90a|gfx942]
 * [,pingpong], docs/AMDGCN.md): the shared copy lowering, cooperative,
 * with LDS-direct loads (lower_amdgcn_copies.c), the waits counted in
 * vmcnt (lower_amdgcn_waits.c), and with pingpong the pipelined loops of
 * 8-wave kernels in two halves a cluster apart (lower_amdgcn_pingpong.c).
 * Events are then dead, as for PTX. Also the SPIR-V half of --emit=amdgcn. */
#include <stdio.h>
#include <string.h>

#include "gac/amdgcn.h"
#include "gac/pass.h"
#include "lowering.h"
#include "amdgcn_lowering.h"

static const lower_target amdgcn_target = {
    .waits = &lower_amdgcn_waits,
    .core_copies = true,
    .events_dead = true,
    .step_units = true,
    .whole_element_units = true,
    .unit_widths = lower_amdgcn_unit_widths,
    .unit_loop = lower_amdgcn_unit_loop,
    .unit_loop_end = lower_amdgcn_unit_loop_end,
};

/* gfx942 also has LDS-direct loads of 1 and 2 bytes. */
bool lower_amdgcn_copies(gac_module *m, const void *options, gac_diag *diag) {
  const gac_amdgcn_options *o = options;
  amdgcn_lowering A = {.dma_narrow = o->mcpu && strcmp(o->mcpu, "gfx942") == 0, .pingpong = o->pingpong};
  return lower_async_copies_for(m, &amdgcn_target, &A, diag);
}

/* amdgcn[,mcpu=gfx90a|gfx942][,pingpong]; amdgcn alone is gfx90a. */
bool lower_amdgcn_arg(const char *arg, gac_amdgcn_options *o) {
  static const char *const forms[] = {"amdgcn", "amdgcn,mcpu=gfx90a", "amdgcn,mcpu=gfx942"};
  for (unsigned k = 0; arg && k < 3; k++) {
    size_t len = strlen(forms[k]);
    if (strncmp(arg, forms[k], len) == 0 && (!arg[len] || strcmp(arg + len, ",pingpong") == 0)) {
      o->mcpu = k == 2 ? "gfx942" : "gfx90a";
      o->pingpong = arg[len] != 0;
      return true;
    }
  }
  return false;
}

void gac_amdgcn_pipeline_wants(const gac_amdgcn_options *options, gac_pipeline_loops_options *o) {
  (void)options; /* gfx90a and gfx942 alike */
  o->local_memory_limit = 64 * 1024;
  o->local_memory_limit_is = "an AMD GPU gives a work-group's LDS: its code object cannot be launched";
}

bool gac_amdgcn_lower_spirv(gac_module *m, const gac_amdgcn_options *options, gac_diag *diag) {
  if (!options->mcpu || (strcmp(options->mcpu, "gfx90a") != 0 && strcmp(options->mcpu, "gfx942") != 0)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "amdgcn.mcpu",
                 "%s: the AMDGCN path targets gfx90a (MI200) and gfx942 (MI300)",
                 options->mcpu ? options->mcpu : "(none)");
    return false;
  }
  return gac_gpu_lower_spirv(m, lower_amdgcn_copies, options, "amdgcn", diag);
}
