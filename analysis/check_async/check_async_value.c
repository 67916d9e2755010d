/* What --check-async reads off instructions and values, below every other
 * step: an instruction's operands, a pointer's storage class, the copies
 * (either form) and their offsets, events and versions stored in elements
 * of Function arrays (slots) followed to what was stored, and values
 * followed through copies and chained copies' events. It calls only the
 * checker's view of the CFG (check_async_cfg.c). */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/async_copy.h"
#include "gac/known.h"

void *ca_xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    abort();
  return p;
}

uint32_t ca_in_operand(const gac_inst *i, unsigned k) {
  unsigned first = gac_inst_first_in_operand(i);
  return first + k < i->num_operands ? gac_operand_word(i, first + k) : 0;
}

unsigned ca_num_in_operands(const gac_inst *i) { return i->num_operands - gac_inst_first_in_operand(i); }

uint32_t ca_storage_class_of(const gac_module *m, uint32_t pointer) {
  const gac_inst *t = gac_value_type(m, pointer);
  return t && t->opcode == SpvOpTypePointer ? t->words[2] : ~0u;
}

bool ca_is_function_variable(const gac_module *m, uint32_t id) {
  const gac_inst *d = gac_def(m, id);
  return d && d->opcode == SpvOpVariable && d->words[3] == SpvStorageClassFunction;
}

static bool is_array_variable(const gac_module *m, uint32_t var) {
  const gac_inst *t = gac_value_type(m, var);
  const gac_inst *pointee = t && t->opcode == SpvOpTypePointer ? gac_def(m, t->words[3]) : NULL;
  return pointee && pointee->opcode == SpvOpTypeArray;
}

/* ptr as an element of a Function variable: the variable itself (not an
 * array; *index 0), or an access chain into an array variable with one
 * index, (var, index) or, as clang writes &ev[i], (var, 0, index): *index
 * is the index's id. */
bool ca_element_of(const checker *c, uint32_t ptr, uint32_t *var, uint32_t *index) {
  const gac_inst *d = gac_def(c->m, ptr);
  if (!d)
    return false;
  if (ca_is_function_variable(c->m, ptr) && !is_array_variable(c->m, ptr)) {
    *var = ptr;
    *index = 0;
    return true;
  }
  bool chain = d->opcode == SpvOpAccessChain || d->opcode == SpvOpInBoundsAccessChain;
  bool ptr_chain = d->opcode == SpvOpPtrAccessChain || d->opcode == SpvOpInBoundsPtrAccessChain;
  uint64_t zero;
  if (!(chain && ca_num_in_operands(d) == 2) &&
      !(ptr_chain && ca_num_in_operands(d) == 3 && gac_constant_value(c->m, ca_in_operand(d, 1), &zero) && zero == 0))
    return false;
  if (!ca_is_function_variable(c->m, ca_in_operand(d, 0)))
    return false;
  *var = ca_in_operand(d, 0);
  *index = ca_in_operand(d, ca_num_in_operands(d) - 1);
  return true;
}

/* The same with a constant index: one slot. */
bool ca_slot_of(const checker *c, uint32_t ptr, uint32_t *var, uint64_t *index) {
  uint32_t index_id;
  if (!ca_element_of(c, ptr, var, &index_id))
    return false;
  if (!index_id) {
    *index = 0;
    return true;
  }
  return gac_constant_value(c->m, index_id, index);
}

slot *ca_find_slot(checker *c, uint32_t var, uint64_t index, bool add) {
  for (unsigned k = 0; k < c->nslots; k++)
    if (c->slots[k].var == var && c->slots[k].index == index)
      return &c->slots[k];
  if (!add)
    return NULL;
  c->slots = ca_xrealloc(c->slots, (c->nslots + 1) * sizeof *c->slots);
  c->slots[c->nslots] = (slot){var, index, 0, NULL};
  return &c->slots[c->nslots++];
}

/* The value element `index` of Function variable var holds at `at`: the
 * last store to it before `at` in at's block, or else its single store,
 * when that comes first on every path within the iteration. */
uint32_t ca_slot_value(const checker *c, uint32_t var, uint64_t index, const gac_inst *at) {
  if (var >= c->m->bound || c->escaped[var])
    return 0;
  uint32_t v, index_id;
  uint64_t k;
  for (const gac_inst *i = at->prev; i; i = i->prev)
    if (i->opcode == SpvOpStore && ca_element_of(c, i->words[1], &v, &index_id) && v == var) {
      if (ca_slot_of(c, i->words[1], &v, &k) && k == index)
        return i->words[2];
      if (!ca_slot_of(c, i->words[1], &v, &k))
        return 0; /* an element at a runtime index: maybe this one */
    }
  const slot *s = ca_find_slot((checker *)c, var, index, false);
  if (!s || s->stores != 1 || (c->element_stores[var] & ELEMENT_DYNAMIC))
    return 0;
  int sb = ca_block_of(&c->cfg, s->store), ab = ca_block_of(&c->cfg, at);
  if (sb < 0 || ab < 0 || sb == ab || !ca_dominates(&c->cfg, (unsigned)sb, (unsigned)ab))
    return 0; /* in at's block it would have been found above, so it comes after */
  if (c->cfg.loop_of[sb] >= 0 && c->cfg.loop_of[sb] != c->cfg.loop_of[ab])
    return 0;
  return s->store->words[2];
}

/* The value stored through ptr (an element of a Function array) that `at`
 * sees: ca_slot_value of its slot; 0 if not known. */
uint32_t ca_stored_value(const checker *c, uint32_t ptr, const gac_inst *at) {
  uint32_t var;
  uint64_t index;
  return ca_slot_of(c, ptr, &var, &index) ? ca_slot_value(c, var, index, at) : 0;
}

bool ca_is_null_event(const gac_module *m, uint32_t id) {
  const gac_inst *d = gac_def(m, id);
  return !d || d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef;
}

bool ca_copy_of(const gac_module *m, const gac_inst *i, copy_view *v) {
  gac_async_copy copy;
  if (gac_async_copy_decode(m, i, &copy)) {
    *v = (copy_view){copy.destination, copy.source, copy.event};
    return true;
  }
  if (i->opcode == SpvOpGroupAsyncCopy && ca_num_in_operands(i) == 6) {
    *v = (copy_view){ca_in_operand(i, 1), ca_in_operand(i, 2), ca_in_operand(i, 5)};
    return true;
  }
  return false;
}

/* id through OpCopyObject, single-store Function variables and chained
 * copies: a copy given a non-null event returns that event (OpenCL), so
 * the copies of a chain are one group, named by the chain's first event
 * (its Event operand resolved where the copy is). */
uint32_t ca_resolve_value(const checker *c, uint32_t id, const gac_inst *at) {
  for (unsigned d = 0; d < 16; d++) {
    const gac_inst *def = gac_def(c->m, id);
    copy_view cv;
    if (def && def->opcode == SpvOpCopyObject) {
      id = ca_in_operand(def, 0);
    } else if (def && def->opcode == SpvOpLoad) {
      uint32_t v = ca_stored_value(c, ca_in_operand(def, 0), at);
      if (!v)
        return id;
      id = v;
    } else if (def && ca_copy_of(c->m, def, &cv) && !ca_is_null_event(c->m, cv.event) && gac_inst_block(def)) {
      id = cv.event;
      at = def;
    } else {
      return id;
    }
  }
  return id;
}

bool ca_is_copy(const gac_module *m, const gac_inst *i) {
  copy_view v;
  return ca_copy_of(m, i, &v);
}

uint32_t ca_copy_offset(const gac_module *m, const gac_inst *copy, bool source) {
  if (!copy || copy->opcode != SpvOpExtInst || !gac_is_async_copy_inst(m, copy))
    return 0;
  return gac_operand_word(copy, source ? 7 : 5);
}
