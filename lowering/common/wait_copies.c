/* The copies a wait on events waits for (the model: wait_copies.h). */
#include "wait_copies.h"

#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "lower_util.h"

typedef struct store_ref {
  uint32_t pointer, value;
  uint32_t next; /* index + 1 of the next store to the same memory class, 0 at the end */
} store_ref;

struct gac_wait_copies {
  gac_module *m;
  uint32_t *parent;  /* union-find over ids */
  uint8_t *unknown;  /* by class root */
  store_ref *stores; /* stores of events (and of values holding them) */
  size_t num_stores;
  uint32_t *store_head; /* memory class root -> index + 1 of its first store, 0 if none */
  const gac_inst **copies;
  size_t num_copies;
  /* A tracked value stored through a pointer of unknown memory: any
   * memory may hold any event. */
  bool memory_unknown;
  uint8_t *waited; /* by class root, during one query: its events are waited for */
};

static uint32_t find(const gac_wait_copies *a, uint32_t x) {
  while (a->parent[x] != x) {
    a->parent[x] = a->parent[a->parent[x]];
    x = a->parent[x];
  }
  return x;
}

static void unite(gac_wait_copies *a, uint32_t x, uint32_t y) {
  if (!x || !y || x >= a->m->bound || y >= a->m->bound)
    return;
  x = find(a, x), y = find(a, y);
  if (x == y)
    return;
  a->parent[y] = x;
  a->unknown[x] |= a->unknown[y];
}

static void mark_unknown(gac_wait_copies *a, uint32_t x) {
  if (x && x < a->m->bound)
    a->unknown[find(a, x)] = 1;
}

static bool contains_event(const gac_module *m, uint32_t type, unsigned depth) {
  const gac_inst *t = gac_def(m, type);
  if (!t || depth > 8)
    return false;
  if (t->opcode == SpvOpTypeEvent)
    return true;
  if (t->opcode == SpvOpTypeArray || t->opcode == SpvOpTypeRuntimeArray)
    return contains_event(m, t->words[2], depth + 1);
  if (t->opcode == SpvOpTypeStruct)
    for (unsigned k = 2; k < t->num_words; k++)
      if (contains_event(m, t->words[k], depth + 1))
        return true;
  return false;
}

/* Values the analysis follows: pointers, events and composites of events. */
static bool tracked_type(const gac_module *m, uint32_t type) {
  const gac_inst *t = gac_def(m, type);
  return t && (t->opcode == SpvOpTypePointer || contains_event(m, type, 0));
}

static bool tracked(const gac_module *m, uint32_t id) {
  const gac_inst *t = gac_value_type(m, id);
  return t && tracked_type(m, t->result_id);
}

static bool is_pointer(const gac_module *m, uint32_t id) {
  const gac_inst *t = gac_value_type(m, id);
  return t && t->opcode == SpvOpTypePointer;
}

/* No event at all: a copy given it starts a group of its own. */
static bool no_event(const gac_module *m, uint32_t id) {
  const gac_inst *d = gac_def(m, id);
  return d && (d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef);
}

static uint32_t in_operand(const gac_inst *i, unsigned k) {
  unsigned first = gac_inst_first_in_operand(i);
  return first + k < i->num_operands ? gac_operand_word(i, first + k) : 0;
}

static unsigned num_in_operands(const gac_inst *i) { return i->num_operands - gac_inst_first_in_operand(i); }

/* The Event operand of copy i, if it is one. */
static bool copy_event(const gac_module *m, const gac_inst *i, uint32_t *event) {
  gac_async_copy k;
  if (i->opcode == SpvOpGroupAsyncCopy) { /* (Execution, Destination, Source, Num, Stride, Event) */
    *event = in_operand(i, 5);
    return true;
  }
  if (gac_async_copy_decode(m, i, &k)) {
    *event = k.event;
    return true;
  }
  return false;
}

static void add_store(gac_wait_copies *a, uint32_t pointer, uint32_t value) {
  if (a->num_stores % 64 == 0)
    a->stores = realloc(a->stores, (a->num_stores + 64) * sizeof *a->stores);
  a->stores[a->num_stores++] = (store_ref){pointer, value, 0};
}

static void add_copy(gac_wait_copies *a, const gac_inst *i) {
  if (a->num_copies % 64 == 0)
    a->copies = realloc(a->copies, (a->num_copies + 64) * sizeof *a->copies);
  a->copies[a->num_copies++] = i;
}

/* Whether a function may be called from where the analysis does not see:
 * an entry point, or one that no call in m names. */
static bool called_from_outside(gac_module *m, const gac_function *f) {
  uint32_t id = f->def->result_id;
  if (gac_is_entry_point(m, id))
    return true;
  for (gac_operand *u = gac_first_use(m, id); u; u = u->next_use)
    if (u->inst->opcode == SpvOpFunctionCall && gac_operand_word(u->inst, 2) == id)
      return false;
  return true;
}

/* The unions one call makes (see wait_copies.h). */
static void call(gac_wait_copies *a, const gac_inst *i) {
  gac_module *m = a->m;
  const gac_function *callee = lower_function_by_id(m, gac_operand_word(i, 2));
  bool body = callee && callee->first_block;
  const gac_inst *param = callee ? callee->params.first : NULL;
  for (unsigned k = 3; k < i->num_operands; k++) {
    while (param && param->opcode != SpvOpFunctionParameter)
      param = param->next;
    uint32_t arg = gac_operand_word(i, k);
    if (tracked(m, arg)) {
      if (body && param)
        unite(a, arg, param->result_id);
      else if (is_pointer(m, arg))
        mark_unknown(a, arg); /* a declaration may store anything there */
    }
    param = param ? param->next : NULL;
  }
  if (i->result_id && tracked(m, i->result_id)) {
    if (body)
      unite(a, i->result_id, callee->def->result_id); /* the function's id stands for what it returns */
    else
      mark_unknown(a, i->result_id);
  }
}

/* The unions and stores of one instruction of a function's body. */
static void visit(gac_wait_copies *a, const gac_function *f, const gac_inst *i) {
  gac_module *m = a->m;
  uint32_t event;
  if (copy_event(m, i, &event)) {
    add_copy(a, i);
    if (!no_event(m, event))
      unite(a, i->result_id, event);
    return;
  }
  switch (i->opcode) {
  case SpvOpFunctionCall:
    call(a, i);
    return;
  case SpvOpStore:
    if (tracked(m, in_operand(i, 1))) {
      if (is_pointer(m, in_operand(i, 1)))
        mark_unknown(a, in_operand(i, 1)); /* an address in memory: written where we do not look */
      add_store(a, in_operand(i, 0), in_operand(i, 1));
    }
    return;
  case SpvOpCopyMemory:
  case SpvOpCopyMemorySized:
    unite(a, in_operand(i, 0), in_operand(i, 1));
    return;
  case SpvOpReturnValue:
    if (tracked(m, in_operand(i, 0)))
      unite(a, in_operand(i, 0), f->def->result_id);
    return;
  default:
    break;
  }
  if (!i->result_id || !i->type_id || !tracked_type(m, i->type_id))
    return;
  switch (i->opcode) {
  case SpvOpVariable:
  case SpvOpConstantNull:
  case SpvOpUndef:
    return; /* memory of its own, or no event */
  case SpvOpLoad:
    if (is_pointer(m, i->result_id))
      mark_unknown(a, i->result_id);
    return; /* events: once the memory classes are known (gac_wait_copies_analyze) */
  case SpvOpAccessChain:
  case SpvOpInBoundsAccessChain:
  case SpvOpPtrAccessChain:
  case SpvOpInBoundsPtrAccessChain:
  case SpvOpCompositeExtract:
  case SpvOpCopyObject:
  case SpvOpCopyLogical:
  case SpvOpBitcast:
  case SpvOpPtrCastToGeneric:
  case SpvOpGenericCastToPtr:
  case SpvOpGenericCastToPtrExplicit:
    if (tracked(m, in_operand(i, 0)))
      unite(a, i->result_id, in_operand(i, 0));
    else
      mark_unknown(a, i->result_id); /* from an integer, say */
    return;
  case SpvOpPhi:
    for (unsigned k = 0; k < num_in_operands(i); k += 2)
      unite(a, i->result_id, in_operand(i, k));
    return;
  case SpvOpSelect:
    unite(a, i->result_id, in_operand(i, 1));
    unite(a, i->result_id, in_operand(i, 2));
    return;
  case SpvOpCompositeConstruct:
  case SpvOpCompositeInsert:
    for (unsigned k = 0; k < num_in_operands(i); k++)
      if (tracked(m, in_operand(i, k)))
        unite(a, i->result_id, in_operand(i, k));
    return;
  default:
    mark_unknown(a, i->result_id);
    return;
  }
}

gac_wait_copies *gac_wait_copies_analyze(gac_module *m) {
  gac_wait_copies *a = calloc(1, sizeof *a);
  a->m = m;
  a->parent = malloc((m->bound ? m->bound : 1) * sizeof *a->parent);
  a->unknown = calloc(m->bound ? m->bound : 1, 1);
  a->store_head = calloc(m->bound ? m->bound : 1, sizeof *a->store_head);
  a->waited = calloc(m->bound ? m->bound : 1, 1);
  for (uint32_t id = 0; id < m->bound; id++)
    a->parent[id] = id;
  gac_module_build_uses(m);
  gac_foreach_function(f, m) {
    bool outside = called_from_outside(m, f);
    gac_foreach_inst(p, &f->params) {
      if (p->opcode == SpvOpFunctionParameter && outside && tracked(m, p->result_id))
        mark_unknown(a, p->result_id);
    }
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) visit(a, f, i);
    }
  }
  /* The memory classes are final: list each one's stores. */
  for (size_t s = a->num_stores; s-- > 0;) {
    uint32_t root = find(a, a->stores[s].pointer);
    if (a->unknown[root])
      a->memory_unknown = true;
    a->stores[s].next = a->store_head[root];
    a->store_head[root] = (uint32_t)s + 1;
  }
  /* A load may be any event stored where it loads from. */
  gac_foreach_function(f, m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode != SpvOpLoad || !tracked(m, i->result_id) || is_pointer(m, i->result_id))
          continue;
        uint32_t root = find(a, in_operand(i, 0));
        if (a->unknown[root] || a->memory_unknown)
          mark_unknown(a, i->result_id);
        for (uint32_t s = a->store_head[root]; s; s = a->stores[s - 1].next)
          unite(a, i->result_id, a->stores[s - 1].value);
      }
    }
  }
  return a;
}

void gac_wait_copies_free(gac_wait_copies *a) {
  if (!a)
    return;
  free(a->parent);
  free(a->unknown);
  free(a->stores);
  free(a->store_head);
  free(a->copies);
  free(a->waited);
  free(a);
}

/* The one value the wait's list holds, where the last store before it in
 * its block stores exactly there (see wait_copies.h); 0 if none. */
static uint32_t last_stored(const gac_wait_copies *a, const gac_inst *wait, uint32_t list, uint32_t root) {
  for (const gac_inst *i = wait->prev; i; i = i->prev) {
    if (i->opcode == SpvOpStore && find(a, in_operand(i, 0)) == root)
      return in_operand(i, 0) == list ? in_operand(i, 1) : 0;
    if ((i->opcode == SpvOpCopyMemory || i->opcode == SpvOpCopyMemorySized) && find(a, in_operand(i, 0)) == root)
      return 0;
    if (i->opcode == SpvOpFunctionCall)
      for (unsigned k = 3; k < i->num_operands; k++)
        if (gac_operand_word(i, k) < a->m->bound && find(a, gac_operand_word(i, k)) == root)
          return 0;
  }
  return 0;
}

/* Marks the class of event `value` as waited for; false if it is unknown. */
static bool mark_waited(const gac_wait_copies *a, uint32_t value) {
  if (!value || value >= a->m->bound)
    return false;
  if (no_event(a->m, value))
    return true;
  uint32_t root = find(a, value);
  a->waited[root] = 1;
  return !a->unknown[root];
}

/* Whether a copy of a marked class needs more than the barrier; clears the marks. */
static bool marked_need(const gac_wait_copies *a, gac_copy_predicate needs, void *user) {
  bool result = false;
  for (size_t c = 0; c < a->num_copies; c++)
    if (!result && a->waited[find(a, a->copies[c]->result_id)] && needs(a->m, a->copies[c], user))
      result = true;
  for (size_t c = 0; c < a->num_copies; c++)
    a->waited[find(a, a->copies[c]->result_id)] = 0;
  return result;
}

bool gac_wait_may_wait_for(const gac_wait_copies *a, const gac_inst *wait, gac_copy_predicate needs, void *user) {
  const gac_module *m = a->m;
  uint32_t count = in_operand(wait, 1), list = in_operand(wait, 2);
  if (!list || list >= m->bound)
    return true;
  uint32_t root = find(a, list);
  if (a->unknown[root] || a->memory_unknown)
    return true;
  const gac_inst *c = gac_def(m, count);
  bool one = c && c->opcode == SpvOpConstant && c->num_words == 4 && c->words[3] == 1;
  uint32_t last = one ? last_stored(a, wait, list, root) : 0;
  bool known = true;
  if (last)
    known = mark_waited(a, last);
  for (uint32_t s = a->store_head[root]; !last && s; s = a->stores[s - 1].next)
    known &= mark_waited(a, a->stores[s - 1].value);
  bool need = marked_need(a, needs, user); /* also clears the marks */
  return !known || need;
}
