/* The GroupAsyncCopies instructions as typed views. */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "internal.h"

extern const gac_async_copy_info gac_async_copy_infos[];
extern const unsigned gac_async_copy_num_infos;

/* OpExtInst words: header, result type, result, set, instruction, operands... */
enum { EXT_SET_WORD = 3, EXT_NUMBER_WORD = 4, EXT_FIRST_OPERAND_WORD = 5 };

const gac_async_copy_info *gac_ext_info_by_number(const gac_async_copy_info *infos, unsigned n, uint32_t op) {
  for (unsigned i = 0; i < n; i++)
    if (infos[i].op == op)
      return &infos[i];
  return NULL;
}

const gac_async_copy_info *gac_ext_info_by_name(const gac_async_copy_info *infos, unsigned n, const char *name,
                                                size_t len) {
  for (unsigned i = 0; i < n; i++)
    if (strlen(infos[i].name) == len && memcmp(infos[i].name, name, len) == 0)
      return &infos[i];
  return NULL;
}

const gac_async_copy_info *gac_async_copy_info_for(uint32_t op) {
  return gac_ext_info_by_number(gac_async_copy_infos, gac_async_copy_num_infos, op);
}

const gac_async_copy_info *gac_async_copy_info_by_name(const char *name, size_t len) {
  return gac_ext_info_by_name(gac_async_copy_infos, gac_async_copy_num_infos, name, len);
}

bool gac_is_async_copy_inst(const gac_module *m, const gac_inst *inst) {
  if (inst->opcode != SpvOpExtInst || inst->num_words <= EXT_NUMBER_WORD)
    return false;
  const gac_inst *set = gac_def(m, inst->words[EXT_SET_WORD]);
  if (!set || set->opcode != SpvOpExtInstImport)
    return false;
  const char *name = gac_inst_string(set, 1);
  return name && strcmp(name, GAC_ASYNC_COPIES_SET) == 0;
}

bool gac_async_copy_decode(const gac_module *m, const gac_inst *inst, gac_async_copy *out) {
  if (!gac_is_async_copy_inst(m, inst))
    return false;
  const gac_async_copy_info *info = gac_async_copy_info_for(inst->words[EXT_NUMBER_WORD]);
  if (!info || inst->num_words != EXT_FIRST_OPERAND_WORD + info->num_operands)
    return false;
  memset(out, 0, sizeof(*out));
  out->op = info->op;
  out->result_type = inst->type_id;
  out->result = inst->result_id;
  for (unsigned i = 0; i < info->num_operands; i++)
    *gac_async_copy_field(out, &info->operands[i]) = inst->words[EXT_FIRST_OPERAND_WORD + i];
  return true;
}

void gac_async_copy_store(gac_module *m, gac_inst *inst, const gac_async_copy *copy) {
  const gac_async_copy_info *info = gac_async_copy_info_for(copy->op);
  /* Operand 0 is the type, 1 the result, 2 the set, 3 the number. */
  for (unsigned i = 0; info && i < info->num_operands; i++)
    gac_inst_set_id_operand(m, inst, 4 + i, gac_async_copy_get(copy, &info->operands[i]));
}

gac_inst *gac_async_copy_build(gac_builder *b, const gac_async_copy *copy) {
  gac_module *m = b->module;
  const gac_async_copy_info *info = gac_async_copy_info_for(copy->op);
  if (!info)
    return NULL;
  if (m->version < 0x00010600)
    gac_require_extension(m, "SPV_KHR_non_semantic_info");
  uint32_t set = gac_require_ext_inst_import(m, GAC_ASYNC_COPIES_SET);
  gac_op ops[2 + 16];
  unsigned n = 0;
  ops[n++] = GAC_ID(set);
  ops[n++] = GAC_LIT(info->op);
  for (unsigned i = 0; i < info->num_operands; i++)
    ops[n++] = GAC_ID(gac_async_copy_get(copy, &info->operands[i]));
  uint32_t type = copy->result_type ? copy->result_type : gac_type_event(m);
  uint32_t result = copy->result ? copy->result : GAC_NEW_ID;
  return gac_build(b, SpvOpExtInst, type, result, ops, n);
}

/* The instruction lists of a module, in module order. */
static gac_inst_list *next_list(const gac_module *m, const gac_inst_list *l) {
  gac_module *mm = (gac_module *)m;
  gac_function *f = NULL;
  if (!l)
    return &mm->sections[0];
  switch (l->kind) {
  case GAC_LIST_SECTION: {
    size_t s = (size_t)(l - mm->sections);
    if (s + 1 < GAC_SECTION_COUNT)
      return &mm->sections[s + 1];
    f = mm->first_function;
    return f ? &f->params : NULL;
  }
  case GAC_LIST_PARAMS:
    f = l->owner;
    if (f->first_block)
      return &f->first_block->insts;
    break;
  case GAC_LIST_BLOCK: {
    gac_block *b = l->owner;
    if (b->next)
      return &b->next->insts;
    f = b->function;
    break;
  }
  }
  return f->next ? &f->next->params : NULL;
}

gac_inst *gac_async_copy_next(const gac_module *m, const gac_inst *prev) {
  const gac_inst_list *l = prev ? prev->list : NULL;
  gac_inst *i = prev ? prev->next : NULL;
  for (;;) {
    for (; i; i = i->next)
      if (gac_is_async_copy_inst(m, i))
        return i;
    l = next_list(m, l);
    if (!l)
      return NULL;
    i = l->first;
  }
}
