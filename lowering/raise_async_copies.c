/* --raise-async-copies: calls to the cl_khr_extended_async_copies builtins,
 * as clang-15 + llvm-spirv-15 emit them for include/gac/cl/extended_async_copies.h
 * (OpFunctionCall of an Import-linkage declaration named
 * _Z30gac_async_work_group_copy_2D2D... or ..._3D3D..., any mangling of the
 * overloads), become GroupAsyncCopy2D2D/3D3D; the declarations go. The
 * builtins' parameters are in the order of the instructions' operands. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/builder.h"
#include "lowering.h"

static const struct {
  const char *prefix;
  gac_async_copy_op op;
} builtins[] = {
    {"_Z30gac_async_work_group_copy_2D2D", GAC_GROUP_ASYNC_COPY_2D2D},
    {"_Z30gac_async_work_group_copy_3D3D", GAC_GROUP_ASYNC_COPY_3D3D},
};

/* The import name of a declared function, from its LinkageAttributes. */
static const char *import_name(const gac_module *m, uint32_t function) {
  gac_foreach_inst(d, &m->sections[GAC_SECTION_ANNOTATION]) {
    if (d->opcode == SpvOpDecorate && d->num_words >= 4 && d->words[1] == function &&
        d->words[2] == SpvDecorationLinkageAttributes)
      return gac_inst_string(d, 2);
  }
  return NULL;
}

static const gac_async_copy_info *builtin_of(const gac_module *m, const gac_function *f) {
  if (f->first_block)
    return NULL;
  const char *name = import_name(m, f->def->result_id);
  for (unsigned i = 0; name && i < sizeof builtins / sizeof builtins[0]; i++)
    if (strncmp(name, builtins[i].prefix, strlen(builtins[i].prefix)) == 0)
      return gac_async_copy_info_for(builtins[i].op);
  return NULL;
}

static void raise_call(gac_module *m, const gac_async_copy_info *info, gac_inst *call) {
  gac_async_copy k = {.op = info->op, .result_type = call->type_id, .result = call->result_id};
  for (unsigned i = 0; i < info->num_operands; i++)
    *gac_async_copy_field(&k, &info->operands[i]) = gac_operand_word(call, 3 + i);
  gac_builder b = gac_builder_after(m, call);
  gac_inst_remove(m, call); /* frees the result id for the copy */
  gac_async_copy_build(&b, &k);
}

bool gac_raise_async_copies(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg;
  bool progress = false;
  for (gac_function *f = m->first_function, *next; f; f = next) {
    next = f->next;
    const gac_async_copy_info *info = builtin_of(m, f);
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
      if (user->num_operands != 3 + info->num_operands) {
        gac_diag_add(diag, GAC_ERROR, user->offset, user->result_id, "raise.arguments",
                     "OpFunctionCall of %s passes %u arguments; the builtin takes %u",
                     import_name(m, id), user->num_operands - 3, info->num_operands);
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
  return progress;
}
