/* The GPU options gac-opt and gac-cc both take (--sm, --ptx-*, --mcpu):
 * one parser, one set of messages, the options typed as the emitters take
 * them (gac/ptx.h, gac/amdgcn.h). */
#ifndef GAC_TOOLS_GPU_OPTIONS_H
#define GAC_TOOLS_GPU_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "gac/amdgcn.h"
#include "gac/pipeline.h"
#include "gac/ptx.h"

typedef struct gpu_options {
  gac_ptx_options ptx;       /* --sm=80|90|90,warp-specialize, --ptx-abi=, --ptx-occupancy, ... */
  gac_amdgcn_options amdgcn; /* --mcpu=gfx90a|gfx942 */
} gpu_options;

/* The defaults: sm_80, the CUDA ABI, gfx90a. */
gpu_options gpu_options_default(void);
/* Whether arg is one of the GPU options: 1 (set in *o), 0 (not one of
 * them, *o unchanged), or -1 with the reason in why ("--sm=70: expected
 * 80, 90 or 90,warp-specialize"). */
int gpu_option_parse(const char *arg, gpu_options *o, char *why, size_t why_len);

/* What --emit writes: no GPU code, PTX or AMDGCN. */
typedef enum gpu_emit { GPU_EMIT_NONE, GPU_EMIT_PTX, GPU_EMIT_AMDGCN } gpu_emit;
/* --pipeline-loops=ARG (NULL: no word) before --emit: the user's words,
 * and what the target asks of pipelined loops (gac_ptx_pipeline_wants,
 * gac_amdgcn_pipeline_wants); true when the pass reported no error. */
bool gpu_pipeline_loops(gac_module *m, const char *arg, const gpu_options *o, gpu_emit emit, gac_diag *diag);

#endif
