/* Which instruction a call of one of gac's OpenCL C builtins is
 * (gac/builtins.h): the table of their manglings. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/builtins.h"

static const gac_builtin builtins[] = {
    {"_Z30gac_async_work_group_copy_2D2D", GAC_ASYNC_COPIES_SET, GAC_GROUP_ASYNC_COPY_2D2D, 10},
    {"_Z30gac_async_work_group_copy_3D3D", GAC_ASYNC_COPIES_SET, GAC_GROUP_ASYNC_COPY_3D3D, 13},
    {"_Z16gac_async_commit", GAC_ASYNC_PIPELINE_SET, GAC_ASYNC_COMMIT, 2},
    {"_Z14gac_async_wait", GAC_ASYNC_PIPELINE_SET, GAC_ASYNC_WAIT, 2},
    {"_Z17gac_pipeline_loop", GAC_ASYNC_PIPELINE_SET, GAC_PIPELINE_LOOP, 1},
    {"_Z18gac_pipeline_stage", GAC_ASYNC_PIPELINE_SET, GAC_PIPELINE_STATEMENT, 2},
    {"_Z31gac_async_work_group_copy_fence", GAC_ASYNC_PIPELINE_SET, GAC_ASYNC_COPY_FENCE, 1},
};

const gac_builtin *gac_builtin_of(const gac_module *m, const gac_function *f) {
  if (!f || f->first_block)
    return NULL;
  const char *name = gac_linkage_name(m, f->def->result_id);
  for (unsigned i = 0; name && i < sizeof builtins / sizeof builtins[0]; i++)
    if (strncmp(name, builtins[i].prefix, strlen(builtins[i].prefix)) == 0)
      return &builtins[i];
  return NULL;
}

const gac_builtin *gac_builtin_called(const gac_module *m, const gac_inst *call) {
  if (!call || call->opcode != SpvOpFunctionCall || call->num_words < 4)
    return NULL;
  gac_foreach_function(f, (gac_module *)m) {
    if (f->def->result_id == call->words[3])
      return gac_builtin_of(m, f);
  }
  return NULL;
}
