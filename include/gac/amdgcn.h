/* The AMDGCN path (docs/AMDGCN.md): a SPIR-V module with async copies and
 * queues to AMDGPU assembly or a loadable HSA code object for gfx90a (MI200)
 * or gfx942 (MI300), through LLVM 19's AMDGPU backend. */
#ifndef GAC_AMDGCN_H
#define GAC_AMDGCN_H

#include <stddef.h>

#include "gac/module.h"

typedef enum gac_amdgcn_output {
  GAC_AMDGCN_ASSEMBLY, /* .s */
  GAC_AMDGCN_CODE_OBJECT, /* .hsaco: the object linked by ld.lld-19 -shared */
} gac_amdgcn_output;

typedef struct gac_amdgcn_options {
  const char *mcpu;       /* "gfx90a" or "gfx942" */
  gac_amdgcn_output output;
  const char *llvm_spirv; /* the llvm-spirv-15 to run; NULL: $GAC_LLVM_SPIRV or "llvm-spirv-15" */
  const char *lld;        /* the linker; NULL: $GAC_LLD or "ld.lld-19" */
  bool fast_relaxed_math;
  bool pingpong;          /* ping-pong the pipelined loops that allow it (docs/AMDGCN.md) */
} gac_amdgcn_options;

/* What the AMDGCN target asks of --pipeline-loops before it
 * (gac/pipeline.h), added to o: the 64 KiB of LDS a work-group of gfx90a
 * and gfx942 may take, past which the pipeliner warns. */
struct gac_pipeline_loops_options;
void gac_amdgcn_pipeline_wants(const gac_amdgcn_options *options, struct gac_pipeline_loops_options *o);

/* Validates m, lowers its copies and queues for AMDGCN (m is changed),
 * bridges it to LLVM and emits the output. On success *out is a malloc'd
 * buffer of *size bytes (NUL-terminated for assembly); on failure false,
 * with diagnostics that name the instruction or function and the rule. */
bool gac_emit_amdgcn(gac_module *m, const gac_amdgcn_options *options, char **out, size_t *size, gac_diag *diag);

#endif
