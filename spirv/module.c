/* The module: id tables, instruction lists, use lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/pass.h"
#include "internal.h"
#include "spirv_tools.h"

static const char *const section_names[GAC_SECTION_COUNT] = {
    "capabilities",      "extensions",   "extended instruction imports",
    "memory model",      "entry points", "execution modes",
    "debug (sources)",   "debug (names)", "debug (module processed)",
    "annotations",       "types, constants and global variables",
};

const char *gac_section_name(gac_section s) {
  return s < GAC_SECTION_COUNT ? section_names[s] : "functions";
}

gac_module *gac_module_create(uint32_t version) {
  gac_module *m = gac_xmalloc(sizeof(*m));
  memset(m, 0, sizeof(*m));
  m->magic = SpvMagicNumber;
  m->version = version;
  m->bound = 1;
  m->arena = gac_arena_create();
  for (int s = 0; s < GAC_SECTION_COUNT; s++)
    m->sections[s] = (gac_inst_list){.kind = GAC_LIST_SECTION, .owner = m};
  return m;
}

void gac_module_destroy(gac_module *m) {
  if (!m)
    return;
  free(m->defs);
  free(m->use_heads);
  gac_arena_destroy(m->arena);
  free(m);
}

void gac_module_reserve_ids(gac_module *m, uint32_t bound) {
  if (bound <= m->defs_capacity)
    return;
  uint32_t cap = m->defs_capacity ? m->defs_capacity : 64;
  while (cap < bound)
    cap = cap > UINT32_MAX / 2 ? bound : cap * 2;
  m->defs = gac_xrealloc(m->defs, (size_t)cap * sizeof(*m->defs));
  memset(m->defs + m->defs_capacity, 0, (size_t)(cap - m->defs_capacity) * sizeof(*m->defs));
  if (m->uses_built) {
    m->use_heads = gac_xrealloc(m->use_heads, (size_t)cap * sizeof(*m->use_heads));
    memset(m->use_heads + m->defs_capacity, 0,
           (size_t)(cap - m->defs_capacity) * sizeof(*m->use_heads));
  }
  m->defs_capacity = cap;
}

uint32_t gac_module_new_id(gac_module *m) {
  uint32_t id = m->bound++;
  gac_module_reserve_ids(m, m->bound);
  return id;
}

bool gac_module_ids_fit(const gac_module *m, gac_diag *diag) {
  if (m->bound <= GAC_MAX_ID_BOUND)
    return true;
  gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "module.id-bound",
               "the module needs an id bound of %u, larger than SPIR-V's limit of %u", m->bound, GAC_MAX_ID_BOUND);
  return false;
}

bool gac_pass_succeeded(gac_module *m, const char *name, gac_diag *diag) {
  if (gac_diag_has_errors(diag))
    return false;
  if (m->bound > GAC_MAX_ID_BOUND) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "module.id-bound",
                 "--%s needs an id bound of %u, larger than SPIR-V's limit of %u: the module has too many ids "
                 "for this pass",
                 name, m->bound, GAC_MAX_ID_BOUND);
    return false;
  }
  return true;
}

const gac_inst *gac_value_type(const gac_module *m, uint32_t id) {
  const gac_inst *def = gac_def(m, id);
  return def && def->type_id ? gac_def(m, def->type_id) : NULL;
}

unsigned gac_inst_first_in_operand(const gac_inst *inst) {
  return (inst->type_id != 0) + (inst->result_id != 0);
}

const char *gac_inst_string(const gac_inst *inst, unsigned operand) {
  if (operand >= inst->num_operands || inst->operands[operand].kind != GAC_OPERAND_STRING)
    return NULL;
  return (const char *)&inst->words[inst->operands[operand].offset];
}

static void link_use(gac_module *m, gac_operand *op) {
  uint32_t id = op->inst->words[op->offset];
  if (id >= m->defs_capacity)
    return; /* out of range ids are diagnosed by the reader, never built */
  op->prev_use = NULL;
  op->next_use = m->use_heads[id];
  if (op->next_use)
    op->next_use->prev_use = op;
  m->use_heads[id] = op;
}

static void unlink_use(gac_module *m, gac_operand *op) {
  uint32_t id = op->inst->words[op->offset];
  if (op->prev_use)
    op->prev_use->next_use = op->next_use;
  else if (id < m->defs_capacity && m->use_heads[id] == op)
    m->use_heads[id] = op->next_use;
  if (op->next_use)
    op->next_use->prev_use = op->prev_use;
  op->prev_use = op->next_use = NULL;
}

void gac_inst_link(gac_module *m, gac_inst *inst) {
  if (inst->result_id) {
    gac_module_reserve_ids(m, inst->result_id + 1);
    m->defs[inst->result_id] = inst;
  }
  if (m->uses_built) {
    for (unsigned i = 0; i < inst->num_operands; i++)
      if (inst->operands[i].kind == GAC_OPERAND_ID)
        link_use(m, &inst->operands[i]);
  }
}

void gac_inst_unlink(gac_module *m, gac_inst *inst) {
  if (inst->result_id && inst->result_id < m->defs_capacity && m->defs[inst->result_id] == inst)
    m->defs[inst->result_id] = NULL;
  if (m->uses_built) {
    for (unsigned i = 0; i < inst->num_operands; i++)
      if (inst->operands[i].kind == GAC_OPERAND_ID)
        unlink_use(m, &inst->operands[i]);
  }
}

static void build_uses_of(gac_inst *inst, void *user) {
  gac_module *m = user;
  for (unsigned i = 0; i < inst->num_operands; i++)
    if (inst->operands[i].kind == GAC_OPERAND_ID)
      link_use(m, &inst->operands[i]);
}

void gac_module_build_uses(gac_module *m) {
  if (m->uses_built)
    return;
  /* The reader reserved every referenced id; the bound itself may be huge. */
  m->use_heads = gac_xrealloc(m->use_heads, (size_t)m->defs_capacity * sizeof(*m->use_heads));
  memset(m->use_heads, 0, (size_t)m->defs_capacity * sizeof(*m->use_heads));
  m->uses_built = true;
  gac_module_visit(m, build_uses_of, m);
}

gac_operand *gac_first_use(gac_module *m, uint32_t id) {
  gac_module_build_uses(m);
  return id < m->defs_capacity ? m->use_heads[id] : NULL;
}

size_t gac_use_count(gac_module *m, uint32_t id) {
  size_t n = 0;
  for (gac_operand *u = gac_first_use(m, id); u; u = u->next_use)
    n++;
  return n;
}

void gac_list_insert_before(gac_module *m, gac_inst_list *list, gac_inst *before, gac_inst *inst) {
  inst->list = list;
  inst->next = before;
  inst->prev = before ? before->prev : list->last;
  if (inst->prev)
    inst->prev->next = inst;
  else
    list->first = inst;
  if (before)
    before->prev = inst;
  else
    list->last = inst;
  gac_inst_link(m, inst);
}

void gac_inst_remove(gac_module *m, gac_inst *inst) {
  gac_inst_list *list = inst->list;
  if (!list)
    return;
  gac_inst_unlink(m, inst);
  if (inst->prev)
    inst->prev->next = inst->next;
  else
    list->first = inst->next;
  if (inst->next)
    inst->next->prev = inst->prev;
  else
    list->last = inst->prev;
  inst->prev = inst->next = NULL;
  inst->list = NULL;
}

void gac_inst_set_id_operand(gac_module *m, gac_inst *inst, unsigned operand, uint32_t id) {
  gac_operand *op = &inst->operands[operand];
  bool linked = m->uses_built && inst->list && op->kind == GAC_OPERAND_ID;
  if (linked)
    unlink_use(m, op);
  inst->words[op->offset] = id;
  if (op->offset == 1 && inst->type_id)
    inst->type_id = id;
  if (linked)
    link_use(m, op);
}

size_t gac_replace_all_uses(gac_module *m, uint32_t old_id, uint32_t new_id) {
  size_t n = 0;
  gac_operand *u = gac_first_use(m, old_id);
  while (u) {
    gac_operand *next = u->next_use;
    gac_inst_set_id_operand(m, u->inst, (unsigned)(u - u->inst->operands), new_id);
    u = next;
    n++;
  }
  return n;
}

static void visit_list(gac_inst_list *l, void (*fn)(gac_inst *, void *), void *user) {
  gac_foreach_inst(i, l) fn(i, user);
}

void gac_module_visit(gac_module *m, void (*fn)(gac_inst *, void *), void *user) {
  for (int s = 0; s < GAC_SECTION_COUNT; s++)
    visit_list(&m->sections[s], fn, user);
  gac_foreach_function(f, m) {
    fn(f->def, user);
    visit_list(&f->params, fn, user);
    gac_foreach_block(b, f) visit_list(&b->insts, fn, user);
    fn(f->end, user);
  }
}

gac_block *gac_inst_block(const gac_inst *inst) {
  return inst->list && inst->list->kind == GAC_LIST_BLOCK ? inst->list->owner : NULL;
}

gac_function *gac_inst_function(const gac_inst *inst) {
  if (!inst->list)
    return NULL;
  if (inst->list->kind == GAC_LIST_BLOCK)
    return ((gac_block *)inst->list->owner)->function;
  if (inst->list->kind == GAC_LIST_PARAMS)
    return inst->list->owner;
  return NULL;
}

uint32_t gac_module_addressing_model(const gac_module *m) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_MEMORY_MODEL]) {
    if (i->opcode == SpvOpMemoryModel && i->num_words >= 2)
      return i->words[1];
  }
  return ~0u;
}

bool gac_module_has_capability(const gac_module *m, uint32_t capability) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_CAPABILITY]) {
    if (i->opcode == SpvOpCapability && i->num_words >= 2 && i->words[1] == capability)
      return true;
  }
  return false;
}

bool gac_is_entry_point(const gac_module *m, uint32_t fn) {
  gac_foreach_inst(e, &m->sections[GAC_SECTION_ENTRY_POINT]) {
    if (e->opcode == SpvOpEntryPoint && e->num_words > 2 && e->words[2] == fn)
      return true;
  }
  return false;
}

extern const uint32_t gac_shader_capabilities[]; /* capability_table.c, sorted */
extern const size_t gac_num_shader_capabilities;

uint32_t gac_module_shader_capability(const gac_module *m) {
  gac_foreach_inst(i, &m->sections[GAC_SECTION_CAPABILITY]) {
    if (i->opcode != SpvOpCapability || i->num_words < 2)
      continue;
    for (size_t k = 0; k < gac_num_shader_capabilities && gac_shader_capabilities[k] <= i->words[1]; k++)
      if (gac_shader_capabilities[k] == i->words[1])
        return i->words[1];
  }
  return ~0u;
}

gac_section gac_section_of_opcode(uint16_t op) {
  switch (op) {
  case SpvOpCapability:
    return GAC_SECTION_CAPABILITY;
  case SpvOpExtension:
    return GAC_SECTION_EXTENSION;
  case SpvOpExtInstImport:
    return GAC_SECTION_EXT_INST_IMPORT;
  case SpvOpMemoryModel:
    return GAC_SECTION_MEMORY_MODEL;
  case SpvOpEntryPoint:
    return GAC_SECTION_ENTRY_POINT;
  case SpvOpExecutionMode:
  case SpvOpExecutionModeId:
    return GAC_SECTION_EXECUTION_MODE;
  case SpvOpString:
  case SpvOpSource:
  case SpvOpSourceContinued:
  case SpvOpSourceExtension:
    return GAC_SECTION_DEBUG_SOURCE;
  case SpvOpName:
  case SpvOpMemberName:
    return GAC_SECTION_DEBUG_NAME;
  case SpvOpModuleProcessed:
    return GAC_SECTION_DEBUG_PROCESSED;
  case SpvOpDecorate:
  case SpvOpMemberDecorate:
  case SpvOpDecorationGroup:
  case SpvOpGroupDecorate:
  case SpvOpGroupMemberDecorate:
  case SpvOpDecorateId:
  case SpvOpDecorateString:
  case SpvOpMemberDecorateString:
    return GAC_SECTION_ANNOTATION;
  default:
    return GAC_SECTION_GLOBAL;
  }
}

bool gac_opcode_is_terminator(uint16_t op) {
  switch (op) {
  case SpvOpBranch:
  case SpvOpBranchConditional:
  case SpvOpSwitch:
  case SpvOpReturn:
  case SpvOpReturnValue:
  case SpvOpKill:
  case SpvOpUnreachable:
  case SpvOpTerminateInvocation:
  case SpvOpIgnoreIntersectionKHR:
  case SpvOpTerminateRayKHR:
  case SpvOpEmitMeshTasksEXT:
    return true;
  default:
    return false;
  }
}

const char *gac_opcode_name(uint16_t opcode) {
  /* A few rotating buffers so that one message can name several opcodes. */
  static _Thread_local char names[4][64];
  static _Thread_local unsigned next;
  char *buf = names[next++ % 4];
  snprintf(buf, sizeof names[0], "Op%s", spvOpcodeString(opcode));
  return buf;
}

gac_function *gac_function_append(gac_module *m, gac_inst *def) {
  gac_function *f = gac_arena_alloc(m->arena, sizeof(*f));
  f->def = def;
  f->params = (gac_inst_list){.kind = GAC_LIST_PARAMS, .owner = f};
  gac_inst_link(m, def);
  f->prev = m->last_function;
  if (f->prev)
    f->prev->next = f;
  else
    m->first_function = f;
  m->last_function = f;
  return f;
}

gac_block *gac_block_append(gac_module *m, gac_function *f, gac_inst *label) {
  gac_block *b = gac_arena_alloc(m->arena, sizeof(*b));
  b->function = f;
  b->insts = (gac_inst_list){.kind = GAC_LIST_BLOCK, .owner = b};
  b->prev = f->last_block;
  if (b->prev)
    b->prev->next = b;
  else
    f->first_block = b;
  f->last_block = b;
  gac_list_append(m, &b->insts, label);
  return b;
}
