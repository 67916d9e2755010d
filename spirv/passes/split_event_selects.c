/* --split-event-selects, a repair: clang-15 -O2 and llvm-spirv-15 turn
 * `if (c) e = a; else e = b;` on events into OpSelect of OpTypeEvent, which
 * SPIR-V allows only for scalars, vectors and pointers (and composites from
 * 1.4 on), so a legal OpenCL C kernel gave an invalid module. Each such select becomes
 * the branch and OpPhi it came from:
 *
 *   B: ... %r = OpSelect %T %c %a %b; rest     B:    ...; OpBranchConditional %c %then %rest
 *                                         ->   then: OpBranch %rest
 *                                              rest: %r = OpPhi %T %a %then %b %B; rest
 *
 * OpenCL modules (Kernel) need no merge instruction for it. */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "gac/module.h"

/* Whether OpSelect may not have result type `type` on condition `cond`: an
 * event (and any other type that is not a scalar, vector or pointer, or
 * before SPIR-V 1.4 a composite), or a vector on a scalar condition (the
 * pipeliner's guard of a carried float4: the sizes must be equal). */
static bool needs_split(const gac_module *m, uint32_t type, uint32_t cond) {
  const gac_inst *t = gac_def(m, type), *c = gac_def(m, cond);
  if (!t)
    return false;
  switch (t->opcode) {
  case SpvOpTypeVector: {
    const gac_inst *ct = c ? gac_def(m, c->type_id) : NULL;
    return ct && ct->opcode != SpvOpTypeVector;
  }
  case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat: case SpvOpTypePointer:
    return false;
  case SpvOpTypeArray: case SpvOpTypeStruct:
    return m->version < 0x10400;
  default:
    return true;
  }
}

static void split(gac_module *m, gac_inst *select) {
  gac_block *b = gac_inst_block(select);
  uint32_t type = select->type_id, result = select->result_id;
  uint32_t cond = gac_operand_word(select, 2), yes_value = gac_operand_word(select, 3),
           no_value = gac_operand_word(select, 4);
  gac_block *rest = gac_block_split_after(m, select->prev);
  gac_block *then = gac_block_create(m, b->function, b);
  gac_builder at_b = gac_builder_at_end(m, &b->insts);
  gac_build_ops(&at_b, SpvOpBranchConditional, 0, 0, GAC_ID(cond), GAC_ID(gac_block_label(then)),
                GAC_ID(gac_block_label(rest)));
  gac_builder at_then = gac_builder_at_end(m, &then->insts);
  gac_build_ops(&at_then, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(rest)));
  gac_builder at_select = gac_builder_before(m, select);
  uint32_t phi = gac_build_ops(&at_select, SpvOpPhi, type, GAC_NEW_ID, GAC_ID(yes_value),
                               GAC_ID(gac_block_label(then)), GAC_ID(no_value), GAC_ID(gac_block_label(b)))
                     ->result_id;
  gac_replace_all_uses(m, result, phi);
  gac_inst_remove(m, select);
}

bool gac_split_event_selects(gac_module *m, const char *arg, gac_diag *diag) {
  (void)arg;
  (void)diag;
  size_t num = 0, cap = 0;
  gac_inst **selects = NULL;
  gac_foreach_function(f, m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    if (i->opcode != SpvOpSelect || i->num_words != 6 || !needs_split(m, i->type_id, gac_operand_word(i, 2)))
      continue;
    const gac_inst *c = gac_value_type(m, gac_operand_word(i, 2));
    if (!c || c->opcode != SpvOpTypeBool)
      continue; /* a vector condition: not a select of two values; left to the validator */
    if (num == cap)
      selects = realloc(selects, (cap = cap ? 2 * cap : 8) * sizeof *selects);
    selects[num++] = i;
  }
  for (size_t k = 0; k < num; k++)
    split(m, selects[k]);
  free(selects);
  return num > 0;
}
