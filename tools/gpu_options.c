/* The GPU options of gac-opt and gac-cc (gpu_options.h). */
#include "gpu_options.h"

#include <stdio.h>
#include <string.h>

#include "gac/pass.h"

gpu_options gpu_options_default(void) {
  return (gpu_options){.ptx = {.sm = 80, .abi = GAC_PTX_ABI_CUDA}, .amdgcn = {.mcpu = "gfx90a"}};
}

/* The flags: an option of its own each. */
static const struct {
  const char *name;
  size_t flag; /* offset of its bool in gac_ptx_options */
} ptx_flags[] = {
    {"--ptx-occupancy", offsetof(gac_ptx_options, tune_occupancy)},
    {"--ptx-cp-async-l1", offsetof(gac_ptx_options, cp_async_l1)},
    {"--ptx-keep-tile-loads", offsetof(gac_ptx_options, keep_tile_loads)},
};

int gpu_option_parse(const char *arg, gpu_options *o, char *why, size_t why_len) {
  for (size_t k = 0; k < sizeof ptx_flags / sizeof *ptx_flags; k++) {
    if (strcmp(arg, ptx_flags[k].name) == 0) {
      *(bool *)((char *)&o->ptx + ptx_flags[k].flag) = true;
      return 1;
    }
  }
  if (strncmp(arg, "--sm=", 5) == 0) {
    const char *v = arg + 5;
    bool ws = strcmp(v, "90,warp-specialize") == 0;
    if (strcmp(v, "80") != 0 && strcmp(v, "90") != 0 && !ws) {
      snprintf(why, why_len, "%s: expected 80, 90 or 90,warp-specialize", arg);
      return -1;
    }
    o->ptx.sm = v[0] == '9' ? 90 : 80;
    o->ptx.warp_specialize = ws;
    return 1;
  }
  if (strncmp(arg, "--ptx-abi=", 10) == 0) {
    const char *v = arg + 10;
    if (strcmp(v, "cuda") != 0 && strcmp(v, "opencl") != 0) {
      snprintf(why, why_len, "%s: expected cuda or opencl", arg);
      return -1;
    }
    o->ptx.abi = strcmp(v, "opencl") == 0 ? GAC_PTX_ABI_OPENCL : GAC_PTX_ABI_CUDA;
    return 1;
  }
  if (strncmp(arg, "--mcpu=", 7) == 0) {
    const char *v = arg + 7;
    if (strcmp(v, "gfx90a") != 0 && strcmp(v, "gfx942") != 0) {
      snprintf(why, why_len, "%s: expected gfx90a or gfx942", arg);
      return -1;
    }
    o->amdgcn.mcpu = v;
    return 1;
  }
  return 0;
}

bool gpu_pipeline_loops(gac_module *m, const char *arg, const gpu_options *o, gpu_emit emit, gac_diag *diag) {
  gac_pipeline_loops_options po;
  if (!gac_pipeline_loops_parse(arg, &po, diag))
    return false;
  if (emit == GPU_EMIT_PTX)
    gac_ptx_pipeline_wants(&o->ptx, &po);
  else if (emit == GPU_EMIT_AMDGCN)
    gac_amdgcn_pipeline_wants(&o->amdgcn, &po);
  gac_pipeline_loops_with(m, &po, diag);
  return gac_pass_succeeded(m, "pipeline-loops", diag);
}
