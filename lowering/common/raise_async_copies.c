/* --raise-async-copies: calls to the builtins of include/gac/cl/extended_async_copies.h,
 * as clang-15 + llvm-spirv-15 emit them (OpFunctionCall of an Import-linkage
 * declaration, any mangling of the overloads), become instructions:
 *   _Z30gac_async_work_group_copy_2D2D...  GroupAsyncCopy2D2D
 *   _Z30gac_async_work_group_copy_3D3D...  GroupAsyncCopy3D3D
 *   _Z16gac_async_commit...                AsyncCommit (NonSemantic.Gac.AsyncPipeline)
 *   _Z14gac_async_wait...                  AsyncWait
 *   _Z17gac_pipeline_loop...               PipelineLoop
 *   _Z18gac_pipeline_stage...              PipelineStatement
 *   _Z31gac_async_work_group_copy_fence... AsyncCopyFence
 * and the declarations go. The builtins' parameters are in the order of the
 * instructions' operands. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/builtins.h"
#include "gac/validate.h"
#include "lowering.h"

/* The call becomes the instruction, with the same result id and the call's
 * arguments as its operands. */
static void raise_call(gac_module *m, const gac_builtin *bi, gac_inst *call) {
  if (m->version < 0x00010600)
    gac_require_extension(m, "SPV_KHR_non_semantic_info");
  gac_op ops[2 + 16];
  unsigned n = 0;
  ops[n++] = GAC_ID(gac_require_ext_inst_import(m, bi->set));
  ops[n++] = GAC_LIT(bi->op);
  for (unsigned i = 0; i < bi->num_args; i++)
    ops[n++] = GAC_ID(gac_operand_word(call, 3 + i));
  uint32_t type = call->type_id, result = call->result_id;
  gac_builder b = gac_builder_after(m, call);
  gac_inst_remove(m, call); /* frees the result id */
  gac_build(&b, SpvOpExtInst, type, result, ops, n);
}

bool gac_raise_async_copies(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg;
  bool progress = false;
  for (gac_function *f = m->first_function, *next; f; f = next) {
    next = f->next;
    const gac_builtin *info = gac_builtin_of(m, f);
    if (!info)
      continue;
    uint32_t id = f->def->result_id;
    /* Calls first: every other use (a name, a decoration) goes with the declaration. */
    size_t num_calls = 0, bad = 0;
    gac_inst **calls = malloc(gac_use_count(m, id) * sizeof(gac_inst *) + 1);
    for (gac_operand *u = gac_first_use(m, id); u; u = u->next_use) {
      gac_inst *user = u->inst;
      if (user->opcode != SpvOpFunctionCall)
        continue;
      if (user->num_operands != 3 + info->num_args) {
        gac_diag_add(diag, GAC_ERROR, user->offset, user->result_id, "raise.arguments",
                     "OpFunctionCall of %s passes %u arguments; the builtin takes %u",
                     gac_linkage_name(m, id), user->num_operands - 3, info->num_args);
        bad++;
        continue;
      }
      calls[num_calls++] = user;
    }
    if (bad == 0) {
      for (size_t i = 0; i < num_calls; i++)
        raise_call(m, info, calls[i]);
      gac_function_remove(m, f);
      progress = true;
    }
    free(calls);
  }
  /* A call whose operands break the set's rules (constant line lengths
   * shorter than the line, say) is refused with the rule, not raised into
   * an invalid instruction that nothing downstream would question. */
  if (progress)
    gac_validate_async_copies(m, diag);
  return progress;
}
