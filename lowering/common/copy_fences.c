/* What a copy fence orders (copy_fences.h states the model), and the two
 * lowerings every target shares: a fence that orders nothing goes, and
 * where every copy is done when the work-items return from it a fence is
 * a barrier. The targets whose copies stay in flight (cp.async, bulk
 * copies, LDS-direct loads) ask lower_fence_orders with their own
 * predicate in their counted waits (counted_waits.c). */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/cfg.h"
#include "copy_fences.h"

/* One side of a fence: the copies on it, with their buffers. */
typedef struct side_copy {
  const gac_inst *copy; /* NULL: unknown copies (a call, or the callers) */
  bool import;          /* writes local memory, reads global memory */
  uint32_t local, global; /* the buffers: an OpVariable or OpFunctionParameter id, 0 if unknown */
} side_copy;

typedef struct side {
  side_copy *c;
  size_t n, cap;
} side;

static void add(side *s, side_copy c) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    s->c = realloc(s->c, s->cap * sizeof *s->c);
    if (!s->c)
      abort();
  }
  s->c[s->n++] = c;
}

/* Whether f is a kernel that no function calls: its parameters are the
 * launch's arguments. */
static bool is_closed_kernel(gac_module *m, const gac_function *f) {
  uint32_t id = f->def->result_id;
  if (!gac_is_entry_point(m, id))
    return false;
  for (gac_operand *u = gac_first_use(m, id); u; u = u->next_use)
    if (u->inst->opcode == SpvOpFunctionCall && gac_operand_word(u->inst, 2) == id)
      return false;
  return true;
}

/* The function whose parameter `param` is, and its index there. */
static const gac_function *param_function(const gac_module *m, const gac_inst *param, unsigned *index) {
  gac_foreach_function(f, m) {
    unsigned k = 0;
    gac_foreach_inst(p, &f->params) {
      if (p == param) {
        *index = k;
        return f;
      }
      k += p->opcode == SpvOpFunctionParameter;
    }
  }
  return NULL;
}

/* The variable or parameter ptr is derived from by access chains and
 * casts, and through the argument of a function's only call; 0 where it
 * comes from anything else (a phi, a load, a select). */
static uint32_t buffer_of(gac_module *m, uint32_t ptr) {
  for (unsigned steps = 0; steps < 64; steps++) {
    const gac_inst *d = gac_def(m, ptr);
    if (!d)
      return 0;
    switch (d->opcode) {
    case SpvOpVariable: return ptr;
    case SpvOpFunctionParameter: {
      unsigned index;
      const gac_function *f = param_function(m, d, &index);
      const gac_inst *call = f && !is_closed_kernel(m, f) ? lower_only_call(m, f->def->result_id) : NULL;
      if (!call || 3 + index >= call->num_operands)
        return ptr;
      ptr = gac_operand_word(call, 3 + index);
      break;
    }
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain:
    case SpvOpBitcast:
    case SpvOpCopyObject:
    case SpvOpGenericCastToPtr:
    case SpvOpPtrCastToGeneric:
    case SpvOpGenericCastToPtrExplicit: ptr = gac_operand_word(d, 2); break;
    default: return 0;
    }
  }
  return 0;
}

/* Whether two buffers of one memory may be the same (see the header). */
static bool may_alias(gac_module *m, uint32_t a, uint32_t b, bool local) {
  if (!a || !b || a == b)
    return true;
  const gac_inst *x = gac_def(m, a), *y = gac_def(m, b);
  if (x->opcode == SpvOpVariable && y->opcode == SpvOpVariable)
    return false;
  /* A kernel's local arguments are allocations of their own. */
  unsigned index;
  for (int k = 0; local && k < 2; k++) {
    const gac_inst *p = k ? y : x;
    const gac_function *f = p->opcode == SpvOpFunctionParameter ? param_function(m, p, &index) : NULL;
    if (p->opcode != SpvOpVariable && !(f && is_closed_kernel(m, f)))
      return true;
  }
  return !local;
}

/* Whether the copies conflict in the memories `flags` names. */
static bool conflict(gac_module *m, const side_copy *a, const side_copy *b, uint32_t flags) {
  if (!a->copy || !b->copy)
    return true;
  if ((flags & GAC_FENCE_LOCAL) && (a->import || b->import) && may_alias(m, a->local, b->local, true))
    return true;
  return (flags & GAC_FENCE_GLOBAL) && (!a->import || !b->import) && may_alias(m, a->global, b->global, false);
}

/* Whether function `id` or one it calls copies (or fences, which makes its
 * callers' copies matter); depth-limited against recursion, which OpenCL
 * forbids. */
static bool calls_copies(const gac_module *m, uint32_t id, unsigned depth) {
  const gac_function *f = lower_function_by_id(m, id);
  if (!f || !f->first_block)
    return false;
  if (depth > 16)
    return true;
  gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    if (i->opcode == SpvOpGroupAsyncCopy || gac_is_async_copy_inst(m, i))
      return true;
    if (i->opcode == SpvOpFunctionCall && calls_copies(m, gac_operand_word(i, 2), depth + 1))
      return true;
  }
  return false;
}

/* i as a copy on a side: true if it is a copy, or a call that may copy. */
static bool as_side_copy(gac_module *m, const gac_inst *i, side_copy *out) {
  uint32_t dst, src;
  if (lower_copy_ends(m, i, &dst, &src)) {
    bool import = lower_storage_class(m, dst) == SpvStorageClassWorkgroup;
    *out = (side_copy){.copy = i, .import = import, .local = buffer_of(m, import ? dst : src),
                       .global = buffer_of(m, import ? src : dst)};
    return true;
  }
  if (i->opcode == SpvOpFunctionCall && calls_copies(m, gac_operand_word(i, 2), 0)) {
    *out = (side_copy){0};
    return true;
  }
  return false;
}

/* The copies of block k from instruction `from` on (NULL: all) up to `to`
 * (NULL: the end). */
static void add_range(gac_module *m, side *s, const gac_inst *from, const gac_inst *to) {
  for (const gac_inst *i = from; i && i != to; i = i->next) {
    side_copy c;
    if (as_side_copy(m, i, &c))
      add(s, c);
  }
}

/* The copies before and after `at` (a fence, or the call of the function
 * that holds it) in its function, then in that function's only caller
 * (see the header). */
static void collect(gac_module *m, const gac_inst *at, side *before, side *after, unsigned depth) {
  static const side_copy unknown = {0};
  gac_block *block = gac_inst_block(at);
  gac_cfg cfg;
  if (depth > 16 || !gac_cfg_build(&cfg, m, block->function)) {
    add(before, unknown), add(after, unknown);
    return;
  }
  int here = gac_cfg_index_of_block(&cfg, block);
  unsigned n = cfg.num_blocks;
  /* reaches[k]: block k leads to at's block by an edge or more;
   * reached[k]: at's block leads to k. */
  bool *reaches = calloc(n + 1, 1), *reached = calloc(n + 1, 1);
  unsigned *stack = malloc((n + 1) * sizeof *stack), sp = 0;
  if (!reaches || !reached || !stack)
    abort();
  for (int dir = 0; here >= 0 && dir < 2; dir++) {
    bool *mark = dir ? reached : reaches;
    sp = 0;
    stack[sp++] = (unsigned)here;
    while (sp) {
      unsigned k = stack[--sp];
      unsigned cnt = dir ? cfg.num_succ[k] : cfg.num_pred[k];
      unsigned *next = dir ? cfg.succ[k] : cfg.pred[k];
      for (unsigned e = 0; e < cnt; e++)
        if (!mark[next[e]])
          mark[next[e]] = true, stack[sp++] = next[e];
    }
  }
  for (unsigned k = 0; here >= 0 && k < n; k++) {
    const gac_inst *first = cfg.blocks[k]->insts.first;
    if ((int)k == here) {
      /* In its own block: what precedes it, and all of it where a loop
       * leads back (at itself too, a call then standing for its copies
       * of the other iterations). */
      add_range(m, before, first, reaches[k] ? NULL : at);
      add_range(m, after, reached[k] ? first : at->next, NULL);
      continue;
    }
    if (reaches[k])
      add_range(m, before, first, NULL);
    if (reached[k])
      add_range(m, after, first, NULL);
  }
  free(reaches), free(reached), free(stack);
  gac_cfg_free(&cfg);
  const gac_function *f = block->function;
  if (is_closed_kernel(m, f))
    return;
  const gac_inst *call = lower_only_call(m, f->def->result_id);
  if (call)
    collect(m, call, before, after, depth + 1);
  else
    add(before, unknown), add(after, unknown);
}

bool lower_fence_orders(gac_module *m, const gac_inst *fence, gac_copy_predicate earlier, void *user) {
  uint32_t flags = GAC_FENCE_LOCAL | GAC_FENCE_GLOBAL;
  uint64_t value;
  if (gac_constant_value(m, fence->words[GAC_FENCE_FLAGS_WORD], &value))
    flags = (uint32_t)value;
  side before = {0}, after = {0};
  bool orders = false;
  collect(m, fence, &before, &after, 0);
  for (size_t a = 0; !orders && a < before.n; a++) {
    if (earlier && before.c[a].copy && !earlier(m, before.c[a].copy, user))
      continue;
    for (size_t b = 0; !orders && b < after.n; b++)
      orders = conflict(m, &before.c[a], &after.c[b], flags);
  }
  free(before.c), free(after.c);
  return orders;
}

static bool is_fence(const gac_module *m, const gac_inst *i) {
  return gac_async_pipeline_op_of(m, i) == GAC_ASYNC_COPY_FENCE;
}

bool lower_module_has_fences(const gac_module *m) {
  gac_foreach_function(f, m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    if (is_fence(m, i))
      return true;
  }
  return false;
}

bool lower_drop_idle_fences(gac_module *m) {
  bool left = false, copies = false;
  gac_foreach_function(f, m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    copies |= i->opcode == SpvOpGroupAsyncCopy || gac_is_async_copy_inst(m, i);
  }
  gac_foreach_function(f, m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    if (!is_fence(m, i))
      continue;
    if (copies && lower_fence_orders(m, i, NULL, NULL))
      left = true;
    else
      gac_inst_remove(m, i);
  }
  return left;
}

void lower_fences_as_barriers(gac_lowering *L) {
  gac_foreach_function(f, L->m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    if (!is_fence(L->m, i))
      continue;
    gac_builder at = gac_builder_before(L->m, i);
    lower_workgroup_barrier(L, &at);
    gac_inst_remove(L->m, i);
  }
}
