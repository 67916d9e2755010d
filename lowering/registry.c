/* The pass registry: the passes of spirv/passes and of lowering/, by name
 * (gac/pass.h). It sits above both, so the library's floor (spirv/)
 * depends on no pass. */
#include <string.h>

#include "gac/check_async.h"
#include "gac/pass.h"
#include "gac/passes.h"
#include "lowering.h"

static const gac_pass_info passes[] = {
    {"remove-unused-imports",
     "Remove OpExtInstImport instructions nothing uses, and SPV_KHR_non_semantic_info when no "
     "NonSemantic set is left",
     gac_remove_unused_imports, false},
    {"sort-blocks",
     "Order blocks so that each comes after its dominator, and move a function's OpVariables to the start of "
     "its first block, as SPIR-V asks (llvm-spirv-15 output does not always)",
     gac_sort_blocks, true},
    {"split-event-selects",
     "Turn an OpSelect of events (or of composites before SPIR-V 1.4), which clang-15 and llvm-spirv-15 make of "
     "`if (c) e = a; else e = b;`, into the branch and OpPhi SPIR-V allows",
     gac_split_event_selects, true},
    {"specialize-generic-pointers",
     "Give builtins (OpenCL.std instructions, atomics, OpGroupWaitEvents) the named-address-space pointer a "
     "generic one was cast from: OpenCL C 2.0/3.0 code then calls builtins PoCL 3.1's library defines",
     gac_specialize_generic_pointers, false},
    {"raise-async-copies",
     "Turn calls to the cl_khr_extended_async_copies builtins (declared by "
     "include/gac/cl/extended_async_copies.h) into GroupAsyncCopy2D2D/3D3D",
     gac_raise_async_copies, false},
    {"collapse-async-copies",
     "Rewrite each GroupAsyncCopy2D2D/3D3D whose lines follow one another on both sides (line lengths equal to "
     "the line: the same id or equal constants) as one line, and a 3D copy's planes too where its plane areas "
     "equal that line; --lower-async-copies does this first by itself",
     gac_collapse_async_copies, false},
    {"lower-async-copies",
     "=opencl[,strategy=lines|cooperative|serial|late][,helpers=auto|always|never]: lower GroupAsyncCopy2D2D/3D3D "
     "to core SPIR-V for OpenCL (late: copies land only at their waits, for testing; helpers: copies of a class "
     "call one function per module, docs/LOWERING.md); "
     "=ptx: to cp.async calls and group waits for the PTX path (docs/PTX.md); "
     "=amdgcn[,mcpu=gfx90a|gfx942][,pingpong]: to LDS-direct loads and counted vmcnt waits; pingpong: 8-wave pipelined loops in two halves a cluster apart (docs/AMDGCN.md)",
     gac_lower_async_copies, false},
    {"lower-async-queues",
     "=opencl: lower AsyncCommit/AsyncWait (NonSemantic.Gac.AsyncPipeline) to rings of events "
     "(--lower-async-copies does this first by itself)",
     gac_lower_async_queues, false},
    {"pipeline-loops",
     GAC_PIPELINE_LOOPS_ARGS ": software-pipeline loops annotated with PipelineLoop/PipelineStatement "
     "into prologue, body and epilogue, with multi-buffered Workgroup arrays and AsyncCommit/AsyncWait (no-prune "
     "keeps waits that cannot wait; late-waits puts each wait just before its first reader, as the RFC does; "
     "wide-copies adds a body that copies in 16-byte elements where a test before it finds them aligned, as "
     "--emit=ptx asks; warp-specialize gives the copies a producer warp, for sm_90; svg= draws each loop's "
     "schedule)",
     gac_pipeline_loops, false},
    {"check-async",
     "[=strict][,verbose]: prove that every access to a Workgroup buffer an async copy writes comes after a wait "
     "covering the copy (docs/CHECK_ASYNC.md); changes nothing",
     gac_check_async_pass, false},
    {NULL, NULL, NULL, false},
};

const gac_pass_info *gac_passes(void) { return passes; }

const gac_pass_info *gac_pass_find(const char *name) {
  for (const gac_pass_info *p = passes; p->name; p++)
    if (strcmp(p->name, name) == 0)
      return p;
  return NULL;
}

bool gac_run_pass(gac_module *m, const char *name, const char *arg, gac_diag *diag) {
  gac_pass_find(name)->run(m, arg, diag);
  return gac_pass_succeeded(m, name, diag);
}
