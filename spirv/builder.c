/* The builder: new instructions, unique types and constants, functions and blocks. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "internal.h"

gac_builder gac_builder_at_end(gac_module *m, gac_inst_list *list) {
  return (gac_builder){m, list, NULL};
}

gac_builder gac_builder_before(gac_module *m, gac_inst *inst) {
  return (gac_builder){m, inst->list, inst};
}

gac_builder gac_builder_after(gac_module *m, gac_inst *inst) {
  return (gac_builder){m, inst->list, inst->next};
}

static unsigned op_words(const gac_op *op) {
  return op->kind == GAC_OPERAND_STRING ? (unsigned)(strlen(op->str) / 4 + 1) : 1;
}

gac_inst *gac_inst_create(gac_module *m, uint16_t opcode, uint32_t type_id, uint32_t result_id,
                          const gac_op *ops, unsigned num_ops) {
  if (result_id == GAC_NEW_ID)
    result_id = gac_module_new_id(m);
  else if (result_id >= m->bound)
    m->bound = result_id + 1;
  unsigned n = 1 + (type_id != 0) + (result_id != 0);
  for (unsigned i = 0; i < num_ops; i++)
    n += op_words(&ops[i]);

  gac_inst *inst = gac_arena_alloc(m->arena, sizeof(*inst));
  inst->words = gac_arena_alloc(m->arena, n * sizeof(uint32_t));
  inst->num_words = (uint16_t)n;
  inst->opcode = opcode;
  inst->type_id = type_id;
  inst->result_id = result_id;
  inst->offset = GAC_NO_OFFSET;
  inst->num_operands = (uint16_t)((type_id != 0) + (result_id != 0) + num_ops);
  inst->operands = gac_arena_alloc(m->arena, inst->num_operands * sizeof(gac_operand));
  inst->words[0] = (uint32_t)n << 16 | opcode;

  unsigned w = 1, k = 0;
  if (type_id) {
    inst->operands[k++] = (gac_operand){.offset = (uint16_t)w, .num_words = 1, .kind = GAC_OPERAND_ID};
    inst->words[w++] = type_id;
  }
  if (result_id) {
    inst->operands[k++] = (gac_operand){.offset = (uint16_t)w, .num_words = 1, .kind = GAC_OPERAND_RESULT_ID};
    inst->words[w++] = result_id;
  }
  for (unsigned i = 0; i < num_ops; i++) {
    unsigned nw = op_words(&ops[i]);
    inst->operands[k++] = (gac_operand){.offset = (uint16_t)w, .num_words = (uint16_t)nw, .kind = ops[i].kind};
    if (ops[i].kind == GAC_OPERAND_STRING)
      memcpy(&inst->words[w], ops[i].str, strlen(ops[i].str)); /* the rest is zero */
    else
      inst->words[w] = ops[i].value;
    w += nw;
  }
  for (unsigned i = 0; i < inst->num_operands; i++)
    inst->operands[i].inst = inst;
  return inst;
}

gac_inst *gac_build(gac_builder *b, uint16_t opcode, uint32_t type_id, uint32_t result_id,
                    const gac_op *ops, unsigned num_ops) {
  gac_inst *inst = gac_inst_create(b->module, opcode, type_id, result_id, ops, num_ops);
  gac_list_insert_before(b->module, b->list, b->before, inst);
  return inst;
}

/* Finds a global instruction with this opcode whose words after the result id match. */
uint32_t gac_find_global(const gac_module *m, uint16_t opcode, uint32_t type_id, const uint32_t *words,
                         unsigned n) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_GLOBAL]) {
    if (i->opcode != opcode || i->type_id != type_id)
      continue;
    unsigned first = 1 + (i->type_id != 0) + 1;
    if (i->num_words == first + n && (n == 0 || memcmp(&i->words[first], words, n * sizeof(uint32_t)) == 0))
      return i->result_id;
  }
  return 0;
}

static uint32_t unique_global(gac_module *m, uint16_t opcode, uint32_t type_id, const uint32_t *words,
                              unsigned n) {
  uint32_t id = gac_find_global(m, opcode, type_id, words, n);
  if (id)
    return id;
  gac_op stack_ops[16], *ops = n > 16 ? gac_xmalloc(n * sizeof *ops) : stack_ops;
  for (unsigned i = 0; i < n; i++)
    ops[i] = GAC_LIT(words[i]);
  gac_builder b = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]);
  gac_inst *inst = gac_build(&b, opcode, type_id, GAC_NEW_ID, ops, n);
  if (ops != stack_ops)
    free(ops);
  /* Operands that name ids must be ids for the use lists (operand 0 is the
   * result): a vector's component type (not its count), a pointer's pointee
   * (not its storage class), every type of a function type. */
  if (opcode == SpvOpTypeVector)
    inst->operands[1].kind = GAC_OPERAND_ID;
  if (opcode == SpvOpTypeFunction)
    for (unsigned i = 1; i < inst->num_operands; i++)
      inst->operands[i].kind = GAC_OPERAND_ID;
  if (opcode == SpvOpTypePointer)
    inst->operands[2].kind = GAC_OPERAND_ID;
  if (opcode == SpvOpTypeArray)
    inst->operands[1].kind = inst->operands[2].kind = GAC_OPERAND_ID;
  if (inst->list && b.module->uses_built) {
    /* Re-link so the ids just marked are on their use lists. */
    gac_inst_unlink(m, inst);
    gac_inst_link(m, inst);
  }
  return inst->result_id;
}

uint32_t gac_type_void(gac_module *m) { return unique_global(m, SpvOpTypeVoid, 0, NULL, 0); }
uint32_t gac_type_bool(gac_module *m) { return unique_global(m, SpvOpTypeBool, 0, NULL, 0); }
uint32_t gac_type_event(gac_module *m) { return unique_global(m, SpvOpTypeEvent, 0, NULL, 0); }

uint32_t gac_type_int(gac_module *m, uint32_t width, uint32_t signedness) {
  return unique_global(m, SpvOpTypeInt, 0, (uint32_t[]){width, signedness}, 2);
}

uint32_t gac_type_float(gac_module *m, uint32_t width) {
  return unique_global(m, SpvOpTypeFloat, 0, (uint32_t[]){width}, 1);
}

uint32_t gac_type_vector(gac_module *m, uint32_t component, uint32_t count) {
  return unique_global(m, SpvOpTypeVector, 0, (uint32_t[]){component, count}, 2);
}

uint32_t gac_type_array(gac_module *m, uint32_t element, uint32_t length) {
  return unique_global(m, SpvOpTypeArray, 0, (uint32_t[]){element, length}, 2);
}

uint32_t gac_type_pointer(gac_module *m, uint32_t storage_class, uint32_t pointee) {
  return unique_global(m, SpvOpTypePointer, 0, (uint32_t[]){storage_class, pointee}, 2);
}

uint32_t gac_type_function(gac_module *m, uint32_t ret, const uint32_t *params, unsigned n) {
  uint32_t stack_words[16], *words = n + 1 > 16 ? gac_xmalloc((n + 1) * sizeof *words) : stack_words;
  words[0] = ret;
  if (n)
    memcpy(words + 1, params, n * sizeof *params);
  uint32_t id = unique_global(m, SpvOpTypeFunction, 0, words, n + 1);
  if (words != stack_words)
    free(words);
  return id;
}

uint32_t gac_constant_int(gac_module *m, uint32_t type, uint64_t value) {
  gac_inst *t = gac_def(m, type);
  uint32_t words[2] = {(uint32_t)value, (uint32_t)(value >> 32)};
  return unique_global(m, SpvOpConstant, type, words, t && t->words[2] > 32 ? 2 : 1);
}

uint32_t gac_constant_null(gac_module *m, uint32_t type) {
  return unique_global(m, SpvOpConstantNull, type, NULL, 0);
}

void gac_require_capability(gac_module *m, uint32_t capability) {
  if (gac_module_has_capability(m, capability))
    return;
  gac_builder b = gac_builder_at_end(m, &m->sections[GAC_SECTION_CAPABILITY]);
  gac_build_ops(&b, SpvOpCapability, 0, 0, GAC_LIT(capability));
}

void gac_require_extension(gac_module *m, const char *name) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_EXTENSION]) {
    const char *s = gac_inst_string(i, 0);
    if (s && strcmp(s, name) == 0)
      return;
  }
  gac_builder b = gac_builder_at_end(m, &m->sections[GAC_SECTION_EXTENSION]);
  gac_build_ops(&b, SpvOpExtension, 0, 0, GAC_STR(name));
}

uint32_t gac_find_ext_inst_import(const gac_module *m, const char *name) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_EXT_INST_IMPORT]) {
    const char *s = gac_inst_string(i, 1);
    if (s && strcmp(s, name) == 0)
      return i->result_id;
  }
  return 0;
}

uint32_t gac_require_ext_inst_import(gac_module *m, const char *name) {
  uint32_t id = gac_find_ext_inst_import(m, name);
  if (id)
    return id;
  gac_builder b = gac_builder_at_end(m, &m->sections[GAC_SECTION_EXT_INST_IMPORT]);
  return gac_build_ops(&b, SpvOpExtInstImport, 0, GAC_NEW_ID, GAC_STR(name))->result_id;
}

gac_function *gac_function_create(gac_module *m, uint32_t return_type, uint32_t control,
                                  uint32_t function_type) {
  gac_function *f = gac_function_append(
      m, gac_inst_create(m, SpvOpFunction, return_type, GAC_NEW_ID,
                         (gac_op[]){GAC_LIT(control), GAC_ID(function_type)}, 2));
  f->end = gac_inst_create(m, SpvOpFunctionEnd, 0, 0, NULL, 0);
  return f;
}

uint32_t gac_function_add_param(gac_module *m, gac_function *f, uint32_t type) {
  gac_builder b = gac_builder_at_end(m, &f->params);
  return gac_build(&b, SpvOpFunctionParameter, type, GAC_NEW_ID, NULL, 0)->result_id;
}

gac_block *gac_block_create(gac_module *m, gac_function *f, gac_block *after) {
  gac_block *blk = gac_arena_alloc(m->arena, sizeof(*blk));
  blk->function = f;
  blk->insts = (gac_inst_list){.kind = GAC_LIST_BLOCK, .owner = blk};
  blk->prev = after ? after : f->last_block;
  blk->next = blk->prev ? blk->prev->next : f->first_block;
  if (blk->prev)
    blk->prev->next = blk;
  else
    f->first_block = blk;
  if (blk->next)
    blk->next->prev = blk;
  else
    f->last_block = blk;
  gac_builder b = gac_builder_at_end(m, &blk->insts);
  gac_build(&b, SpvOpLabel, 0, GAC_NEW_ID, NULL, 0);
  return blk;
}

gac_inst *gac_block_terminator(const gac_block *b) {
  return b->insts.last && gac_opcode_is_terminator(b->insts.last->opcode) ? b->insts.last : NULL;
}

gac_inst *gac_function_after_variables(const gac_function *f) {
  gac_inst *first = f->first_block && f->first_block->insts.first ? f->first_block->insts.first->next : NULL;
  while (first && first->opcode == SpvOpVariable)
    first = first->next;
  return first;
}

gac_inst *gac_inst_clone(gac_module *m, const gac_inst *inst, uint32_t (*map)(void *user, uint32_t id), void *user) {
  gac_op stack_ops[64], *ops = inst->num_words > 64 ? malloc(inst->num_words * sizeof *ops) : stack_ops;
  unsigned n = 0, first = (inst->type_id != 0) + (inst->result_id != 0);
  for (unsigned k = first; k < inst->num_operands; k++) {
    const gac_operand *o = &inst->operands[k];
    const uint32_t *w = &inst->words[o->offset];
    if (o->kind == GAC_OPERAND_ID)
      ops[n++] = GAC_ID(map(user, *w));
    else if (o->kind == GAC_OPERAND_STRING)
      ops[n++] = GAC_STR((const char *)w);
    else
      for (unsigned j = 0; j < o->num_words; j++)
        ops[n++] = GAC_LIT(w[j]);
  }
  gac_inst *c = gac_inst_create(m, inst->opcode, inst->type_id, inst->result_id ? map(user, inst->result_id) : 0,
                                ops, n);
  if (ops != stack_ops)
    free(ops);
  return c;
}
