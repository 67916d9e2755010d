/* The pass registry. */
#include <string.h>

#include "gac/pass.h"
#include "../lowering/lowering.h"

bool gac_remove_unused_imports(gac_module *m, const char *arg, gac_diag *diag);

static const gac_pass_info passes[] = {
    {"remove-unused-imports",
     "Remove OpExtInstImport instructions nothing uses, and SPV_KHR_non_semantic_info when no "
     "NonSemantic set is left",
     gac_remove_unused_imports},
    {"raise-async-copies",
     "Turn calls to the cl_khr_extended_async_copies builtins (declared by "
     "include/gac/cl/extended_async_copies.h) into GroupAsyncCopy2D2D/3D3D",
     gac_raise_async_copies},
    {"lower-async-copies",
     "=opencl[,strategy=lines|cooperative|serial]: lower GroupAsyncCopy2D2D/3D3D to core SPIR-V for OpenCL; "
     "=ptx: to cp.async calls and group waits for the PTX path (docs/PTX.md)",
     gac_lower_async_copies},
    {"lower-async-queues",
     "=opencl: lower AsyncCommit/AsyncWait (NonSemantic.Gac.AsyncPipeline) to rings of events "
     "(--lower-async-copies does this first by itself)",
     gac_lower_async_queues},
    {NULL, NULL, NULL},
};

const gac_pass_info *gac_passes(void) { return passes; }

const gac_pass_info *gac_pass_find(const char *name) {
  for (const gac_pass_info *p = passes; p->name; p++)
    if (strcmp(p->name, name) == 0)
      return p;
  return NULL;
}
