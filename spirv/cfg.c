/* Control-flow edits: splitting blocks, removing functions, builtin inputs. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "gac/cfg.h"
#include "internal.h"

unsigned gac_terminator_targets(const gac_inst *term, unsigned *operands, unsigned max) {
  unsigned n = 0;
  switch (term->opcode) {
  case SpvOpBranch:
    if (max >= 1 && term->num_operands >= 1)
      operands[n++] = 0;
    break;
  case SpvOpBranchConditional:
    if (max >= 2 && term->num_operands >= 3) {
      operands[n++] = 1;
      operands[n++] = 2;
    }
    break;
  case SpvOpSwitch:
    for (unsigned i = 1; i < term->num_operands && n < max; i++) /* default, then (literal, label) pairs */
      if (term->operands[i].kind == GAC_OPERAND_ID)
        operands[n++] = i;
    break;
  default:
    break;
  }
  return n;
}

unsigned gac_block_successors(const gac_module *m, const gac_block *b, gac_block **out, unsigned max) {
  gac_inst *term = gac_block_terminator(b);
  unsigned ops[64], n = term ? gac_terminator_targets(term, ops, 64) : 0, k = 0;
  for (unsigned i = 0; i < n && k < max; i++) {
    gac_inst *label = gac_def(m, gac_operand_word(term, ops[i]));
    if (label && gac_inst_block(label))
      out[k++] = gac_inst_block(label);
  }
  return k;
}

static void retarget_phis(gac_module *m, uint32_t target_label, uint32_t old_pred, uint32_t new_pred) {
  gac_inst *label = gac_def(m, target_label);
  gac_block *target = label ? gac_inst_block(label) : NULL;
  if (!target)
    return;
  for (gac_inst *i = target->insts.first->next; i && i->opcode == SpvOpPhi; i = i->next)
    for (unsigned k = 3; k < i->num_operands; k += 2) /* (value, parent) pairs */
      if (gac_operand_word(i, k) == old_pred)
        gac_inst_set_id_operand(m, i, k, new_pred);
}

gac_block *gac_block_split_after(gac_module *m, gac_inst *inst) {
  gac_block *from = gac_inst_block(inst);
  gac_block *to = gac_block_create(m, from->function, from);
  for (gac_inst *i = inst->next, *next; i; i = next) {
    next = i->next;
    gac_inst_remove(m, i);
    gac_list_append(m, &to->insts, i);
  }
  gac_inst *term = gac_block_terminator(to);
  if (term) {
    unsigned ops[64];
    unsigned n = gac_terminator_targets(term, ops, 64);
    for (unsigned k = 0; k < n; k++)
      retarget_phis(m, gac_operand_word(term, ops[k]), gac_block_label(from), gac_block_label(to));
  }
  return to;
}

static bool targets(const gac_inst *i, uint32_t id) {
  return i->num_operands > 0 && i->operands[0].kind == GAC_OPERAND_ID && gac_operand_word(i, 0) == id;
}

static void remove_names_and_decorations(gac_module *m, uint32_t id) {
  gac_inst_list *lists[] = {&m->sections[GAC_SECTION_DEBUG_NAME], &m->sections[GAC_SECTION_ANNOTATION]};
  for (unsigned l = 0; l < 2; l++)
    gac_foreach_inst(i, lists[l]) if (targets(i, id)) gac_inst_remove(m, i);
}

void gac_remove_dangling_names(gac_module *m) {
  gac_inst_list *lists[] = {&m->sections[GAC_SECTION_DEBUG_NAME], &m->sections[GAC_SECTION_ANNOTATION]};
  for (unsigned l = 0; l < 2; l++)
    gac_foreach_inst(i, lists[l]) if (i->num_operands > 0 && i->operands[0].kind == GAC_OPERAND_ID &&
                                      !gac_def(m, gac_operand_word(i, 0))) gac_inst_remove(m, i);
}

static bool dangles(const gac_module *m, const gac_inst *i) {
  if (i->opcode != SpvOpExtInst || i->num_operands < 4)
    return false;
  const gac_inst *set = gac_def(m, gac_operand_word(i, 2));
  const char *name = set && set->opcode == SpvOpExtInstImport ? gac_inst_string(set, 1) : NULL;
  if (!name || strncmp(name, "NonSemantic.", 12) != 0)
    return false;
  for (unsigned k = 4; k < i->num_operands; k++)
    if (i->operands[k].kind == GAC_OPERAND_ID && !gac_def(m, gac_operand_word(i, k)))
      return true;
  return false;
}

void gac_remove_dangling_non_semantic(gac_module *m) {
  for (bool changed = true; changed;) {
    changed = false;
    gac_foreach_inst(i, &m->sections[GAC_SECTION_GLOBAL]) if (dangles(m, i)) {
      gac_inst_remove(m, i);
      changed = true;
    }
    gac_foreach_function(f, m) {
      gac_foreach_block(b, f) {
        gac_foreach_inst(i, &b->insts) if (dangles(m, i)) {
          gac_inst_remove(m, i);
          changed = true;
        }
      }
    }
  }
}

void gac_function_remove(gac_module *m, gac_function *f) {
  remove_names_and_decorations(m, f->def->result_id);
  gac_foreach_inst(p, &f->params) {
    remove_names_and_decorations(m, p->result_id);
    gac_inst_remove(m, p);
  }
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) gac_inst_remove(m, i);
  }
  gac_inst_unlink(m, f->def);
  gac_inst_unlink(m, f->end);
  if (f->prev)
    f->prev->next = f->next;
  else
    m->first_function = f->next;
  if (f->next)
    f->next->prev = f->prev;
  else
    m->last_function = f->prev;
}

void gac_function_remove_unreachable_blocks(gac_module *m, gac_function *f) {
  gac_cfg cfg;
  if (!gac_cfg_build(&cfg, m, f))
    return;
  uint8_t *gone = calloc(m->bound, 1); /* ids the removed blocks define, their labels too */
  bool any = false;
  gac_foreach_block(b, f) {
    if (gac_cfg_index_of_block(&cfg, b) >= 0)
      continue;
    gac_foreach_inst(i, &b->insts) if (i->result_id && i->result_id < m->bound) gone[i->result_id] = 1;
    any = true;
  }
  gac_cfg_free(&cfg);
  if (!any) {
    free(gone);
    return;
  }
  /* Phis of the blocks that stay lose the pairs whose parent goes. */
  gac_foreach_block(b, f) {
    if (!b->insts.first || gone[gac_block_label(b)])
      continue;
    for (gac_inst *i = b->insts.first->next, *next; i && i->opcode == SpvOpPhi; i = next) {
      next = i->next;
      gac_op ops[256];
      unsigned n = 0;
      bool dropped = false;
      for (unsigned k = 2; k + 1 < i->num_operands && n + 2 <= 256; k += 2) {
        uint32_t parent = gac_operand_word(i, k + 1);
        if (parent < m->bound && gone[parent]) {
          dropped = true;
          continue;
        }
        ops[n++] = GAC_ID(gac_operand_word(i, k));
        ops[n++] = GAC_ID(parent);
      }
      if (!dropped)
        continue;
      gac_builder pb = gac_builder_before(m, i); /* the new phi first: it takes over the id */
      gac_build(&pb, SpvOpPhi, i->type_id, i->result_id, ops, n);
      gac_inst_remove(m, i);
    }
  }
  /* The blocks, and the names and decorations of what they defined. */
  gac_inst_list *lists[] = {&m->sections[GAC_SECTION_DEBUG_NAME], &m->sections[GAC_SECTION_ANNOTATION]};
  for (unsigned l = 0; l < 2; l++)
    gac_foreach_inst(i, lists[l]) if (i->num_operands > 0 && i->operands[0].kind == GAC_OPERAND_ID &&
                                      gac_operand_word(i, 0) < m->bound && gone[gac_operand_word(i, 0)])
        gac_inst_remove(m, i);
  for (gac_block *b = f->first_block, *next; b; b = next) {
    next = b->next;
    if (b->insts.first && gone[gac_block_label(b)])
      gac_block_remove(m, b);
  }
  free(gone);
}

void gac_block_remove(gac_module *m, gac_block *b) {
  gac_function *f = b->function;
  gac_foreach_inst(i, &b->insts) gac_inst_remove(m, i);
  if (b->prev)
    b->prev->next = b->next;
  else
    f->first_block = b->next;
  if (b->next)
    b->next->prev = b->prev;
  else
    f->last_block = b->prev;
  b->prev = b->next = NULL;
}

/* Lists var in every entry point's interface that does not list it yet
 * (SPIR-V 1.0-1.3 ask for the Input variables an entry point uses; listing
 * one it does not use is allowed). */
void gac_add_to_interfaces(gac_module *m, uint32_t var) {
  gac_foreach_inst(ep, &m->sections[GAC_SECTION_ENTRY_POINT]) {
    gac_op ops[256];
    unsigned n = 0;
    bool listed = false;
    for (unsigned k = 0; k < ep->num_operands && n < 255; k++) {
      const gac_operand *o = &ep->operands[k];
      listed = listed || (k >= 3 && ep->words[o->offset] == var);
      ops[n++] = o->kind == GAC_OPERAND_STRING ? GAC_STR((const char *)&ep->words[o->offset])
                                               : (gac_op){o->kind, ep->words[o->offset], NULL};
    }
    if (listed)
      continue;
    ops[n++] = GAC_ID(var);
    gac_builder b = gac_builder_before(m, ep);
    gac_build(&b, SpvOpEntryPoint, 0, 0, ops, n);
    gac_inst_remove(m, ep);
  }
}

uint32_t gac_require_builtin_input(gac_module *m, uint32_t builtin, uint32_t type) {
  uint32_t var = 0;
  uint32_t ptr = gac_type_pointer(m, SpvStorageClassInput, type);
  gac_foreach_inst(d, &m->sections[GAC_SECTION_ANNOTATION]) {
    /* Only an Input variable of that type: loading another one (a Workgroup
     * array decorated BuiltIn, say) as `type` gave an invalid module. */
    const gac_inst *v = d->opcode == SpvOpDecorate && d->num_words >= 4 && d->words[2] == SpvDecorationBuiltIn &&
                                d->words[3] == builtin
                            ? gac_def(m, d->words[1])
                            : NULL;
    if (v && v->opcode == SpvOpVariable && v->type_id == ptr)
      var = d->words[1];
  }
  if (!var) {
    gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]);
    var = gac_build_ops(&g, SpvOpVariable, ptr, GAC_NEW_ID, GAC_LIT(SpvStorageClassInput))->result_id;
    gac_builder a = gac_builder_at_end(m, &m->sections[GAC_SECTION_ANNOTATION]);
    gac_build_ops(&a, SpvOpDecorate, 0, 0, GAC_ID(var), GAC_LIT(SpvDecorationBuiltIn), GAC_LIT(builtin));
    gac_build_ops(&a, SpvOpDecorate, 0, 0, GAC_ID(var), GAC_LIT(SpvDecorationConstant));
  }
  gac_add_to_interfaces(m, var);
  return var;
}

const char *gac_linkage_name(const gac_module *m, uint32_t id) {
  gac_foreach_inst(d, &m->sections[GAC_SECTION_ANNOTATION]) {
    if (d->opcode == SpvOpDecorate && d->num_words >= 4 && d->words[1] == id &&
        d->words[2] == SpvDecorationLinkageAttributes)
      return gac_inst_string(d, 2);
  }
  return NULL;
}

uint32_t gac_require_import_function(gac_module *m, const char *name, uint32_t return_type,
                                     const uint32_t *param_types, unsigned num_params) {
  for (gac_function *f = m->first_function; f; f = f->next) {
    const char *n = f->first_block ? NULL : gac_linkage_name(m, f->def->result_id);
    if (n && strcmp(n, name) == 0)
      return f->def->result_id;
  }
  gac_require_capability(m, SpvCapabilityLinkage);
  uint32_t type = gac_type_function(m, return_type, param_types, num_params);
  gac_function *f = gac_function_create(m, return_type, SpvFunctionControlMaskNone, type);
  for (unsigned i = 0; i < num_params; i++)
    gac_function_add_param(m, f, param_types[i]);
  /* Declarations come before definitions: move it to the front. */
  if (f != m->first_function) {
    f->prev->next = NULL;
    m->last_function = f->prev;
    f->prev = NULL;
    f->next = m->first_function;
    m->first_function->prev = f;
    m->first_function = f;
  }
  uint32_t id = f->def->result_id;
  gac_builder a = gac_builder_at_end(m, &m->sections[GAC_SECTION_ANNOTATION]);
  gac_build_ops(&a, SpvOpDecorate, 0, 0, GAC_ID(id), GAC_LIT(SpvDecorationLinkageAttributes), GAC_STR(name),
                GAC_LIT(SpvLinkageTypeImport));
  gac_builder n = gac_builder_at_end(m, &m->sections[GAC_SECTION_DEBUG_NAME]);
  gac_build_ops(&n, SpvOpName, 0, 0, GAC_ID(id), GAC_STR(name));
  return id;
}
