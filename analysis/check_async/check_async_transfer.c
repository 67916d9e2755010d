/* Transfer through one instruction for --check-async: an async copy adds a
 * fact (pending until committed), a commit gives pending facts their queue,
 * a wait on a queue or on events removes what it covers, a call's callee
 * may start copies or touch buffers, and each access is evaluated against
 * the state before it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builtins.h"
#include "gac/check_async.h"
#include "gac/known.h"

/* What a call's callee may hold that matters to the checker: copies, uses
 * of the module's Workgroup variables, or what orders copies without
 * naming them (a copy fence, a wait on a queue; or on events, which it may
 * have been handed in memory the checker does not follow). */
enum holding { HOLDS_COPY, HOLDS_WORKGROUP_USE, HOLDS_ORDER };


static bool uses_workgroup_variable(const gac_module *m, const gac_inst *i) {
  for (unsigned k = gac_inst_first_in_operand(i); k < i->num_operands; k++) {
    const gac_inst *d = i->operands[k].kind == GAC_OPERAND_ID ? gac_def(m, gac_operand_word(i, k)) : NULL;
    if (d && d->opcode == SpvOpVariable && d->words[3] == SpvStorageClassWorkgroup && !gac_inst_function(d))
      return true;
  }
  return false;
}

static bool inst_holds(const gac_module *m, const gac_inst *i, enum holding what) {
  uint32_t op;
  switch (what) {
  case HOLDS_COPY: return ca_is_copy(m, i);
  case HOLDS_WORKGROUP_USE: return uses_workgroup_variable(m, i);
  default:
    op = gac_async_pipeline_op_of(m, i);
    return op == GAC_ASYNC_COPY_FENCE || op == GAC_ASYNC_WAIT || i->opcode == SpvOpGroupWaitEvents;
  }
}

static bool is_fence_builtin(const gac_builtin *b) {
  return b && strcmp(b->set, GAC_ASYNC_PIPELINE_SET) == 0 && b->op == GAC_ASYNC_COPY_FENCE;
}

/* gac's builtins, called where a module is not raised yet (gac-cc --raw),
 * hold the instruction they raise to: the copies copy, the fence and the
 * queue wait order copies, and none touches memory but through its
 * arguments. */
static bool builtin_holds(const gac_builtin *b, enum holding what) {
  bool pipeline = strcmp(b->set, GAC_ASYNC_PIPELINE_SET) == 0;
  switch (what) {
  case HOLDS_COPY: return !pipeline;
  case HOLDS_WORKGROUP_USE: return false;
  default: return pipeline && (b->op == GAC_ASYNC_COPY_FENCE || b->op == GAC_ASYNC_WAIT);
  }
}

/* Does function fn_def, or what it calls, hold `what`? Any other
 * declaration, or calls nested too deep, may hold anything. */
static bool function_holds(const gac_module *m, const gac_inst *fn_def, enum holding what, unsigned depth) {
  if (!fn_def || depth > 8)
    return true;
  gac_foreach_function(f, (gac_module *)m) {
    if (f->def != fn_def)
      continue;
    const gac_builtin *builtin = gac_builtin_of(m, f);
    if (builtin)
      return builtin_holds(builtin, what);
    if (!f->first_block)
      return true;
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (inst_holds(m, i, what) ||
            (i->opcode == SpvOpFunctionCall && function_holds(m, gac_def(m, ca_in_operand(i, 0)), what, depth + 1)))
          return true;
      }
    }
    return false;
  }
  return true;
}

/* The element offset operand of a copy's side of the buffer (the
 * DestinationOffset or SourceOffset of GroupAsyncCopy2D2D/3D3D), or 0. */

/* Do two accesses of one buffer version surely meet, as far as the copies'
 * offsets tell? A copy at a runtime offset (a ring of slots by offset) may
 * miss the part the other touches: then only "cannot decide". */

/* function_holds for a call's callee, asked once per function: cache[id]
 * is 0 (not asked yet), 1 (no) or 2 (maybe). */
static bool callee_holds(const checker *c, const gac_inst *call, enum holding what) {
  uint32_t fn = ca_in_operand(call, 0);
  if (fn >= c->m->bound)
    return true;
  uint8_t *cache = c->holds[what];
  if (!cache[fn])
    cache[fn] = function_holds(c->m, gac_def(c->m, fn), what, 0) ? 2 : 1;
  return cache[fn] == 2;
}

static bool call_touches_variables(checker *c, const gac_inst *call) {
  return callee_holds(c, call, HOLDS_WORKGROUP_USE);
}

bool ca_call_starts_copies(checker *c, const gac_inst *call) {
  return callee_holds(c, call, HOLDS_COPY);
}

static uint8_t bump(uint8_t x) { return x < POS_CAP ? (uint8_t)(x + 1) : x; }

static void commit(checker *c, state *s, const gac_inst *i) {
  uint64_t q;
  bool known_queue = gac_constant_value(c->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q);
  uint32_t e = ca_resolve_value(c, i->words[GAC_PIPELINE_VALUE_WORD], i);
  bool matched = false;
  for (unsigned k = 0; k < s->nf; k++) {
    fact *f = &s->f[k];
    if (f->queue == PENDING && ca_fact_names(f, e) && known_queue) {
      f->queue = (uint32_t)q;
      f->lo = f->hi = f->must_pos = 0;
      f->kept_by = NULL;
      matched = true;
    } else if (f->queue != PENDING && (!known_queue || f->queue == q)) {
      f->hi = bump(f->hi);
      f->must_pos = bump(f->must_pos);
      if (known_queue)
        f->lo = bump(f->lo);
      else
        ca_drop_must(f), f->doubt = i;
    }
  }
  /* A group the checker cannot name may be any pending one: they may have been committed. */
  if (!matched && !ca_is_null_event(c->m, e)) {
    const gac_inst *d = gac_def(c->m, e);
    copy_view v;
    if (!d || !(ca_copy_of(c->m, d, &v) || d->opcode == SpvOpPhi))
      for (unsigned k = 0; k < s->nf; k++)
        if (s->f[k].queue == PENDING)
          ca_drop_must(&s->f[k]), s->f[k].doubt = i;
  }
  ca_state_normalize(s);
}

static void async_wait(checker *c, state *s, const gac_inst *i) {
  uint64_t q;
  bool known_queue = gac_constant_value(c->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q);
  /* A count that is not a constant by its range (clang merges wait(0, 1)
   * and wait(0, 0) of two branches into one wait of a select): complete
   * what every count completes, in flight what every count leaves. */
  c->at = i;
  c->cur = s;
  ca_ranges r = ca_ranges_at(c);
  ca_interval n = ca_value_range(&r, i->words[GAC_PIPELINE_VALUE_WORD]);
  c->cur = NULL;
  bool known_count = n.hi <= POS_CAP;
  unsigned out = 0;
  for (unsigned k = 0; k < s->nf; k++) {
    fact f = s->f[k];
    if (f.queue != PENDING && (!known_queue || f.queue == q)) {
      if (known_queue && known_count && f.lo >= n.hi)
        continue; /* at least n groups were committed after it: complete */
      if (!known_queue || !known_count)
        ca_drop_must(&f), f.doubt = i;
      else if (f.must_pos >= n.lo || f.must_pos == POS_CAP)
        ca_drop_must(&f);
      if (known_queue && known_count && f.hi >= n.hi)
        f.hi = (uint8_t)(n.hi - 1); /* the older ones it stood for are complete */
      f.kept_by = i;
    }
    s->f[out++] = f;
  }
  s->nf = out;
}

/* The length of array variable var, 0 if it is none or not known. */
static uint32_t array_length(const checker *c, uint32_t var) {
  const gac_inst *t = gac_value_type(c->m, var);
  const gac_inst *a = t && t->opcode == SpvOpTypePointer ? gac_def(c->m, t->words[3]) : NULL;
  uint64_t n;
  bool fits = a && a->opcode == SpvOpTypeArray && gac_constant_value(c->m, a->words[3], &n) && n <= UINT32_MAX;
  return fits ? (uint32_t)n : 0;
}

/* The element a store or a wait's list names, when the checker sees every
 * store to its variable: the variable, its index as a version mod the
 * array's length (a runtime index such as t & 1 too), and that length. */
static bool holder_of(checker *c, state *s, uint32_t ptr, uint32_t *var, gac_version *at, uint32_t *len) {
  uint32_t index;
  uint64_t k;
  if (!ca_element_of(c, ptr, var, &index) || *var >= c->m->bound || c->escaped[*var])
    return false;
  *len = array_length(c, *var);
  if (!index || gac_constant_value(c->m, index, &k)) {
    *at = (gac_version){true, {0, index ? (int64_t)k : 0}};
    *len = *len ? *len : UINT32_MAX; /* a constant index: compared as it is */
    return true;
  }
  if (!*len)
    return false;
  c->cur = s;
  *at = gac_version_of_index(c->m, index, *len, ca_version_lower_bound, c);
  c->cur = NULL;
  return at->known;
}

/* An element's index with its offset mod the array's length, so that the facts of a loop stay finite. */
gac_version ca_canonical_index(gac_version v, uint32_t len) {
  if (len && len != UINT32_MAX) {
    int64_t r = v.value.offset % (int64_t)len;
    v.value.offset = r < 0 ? r + (int64_t)len : r;
  }
  return v;
}

static gac_version_relation held_relation(const state *s, const fact *f, uint32_t var, gac_version at) {
  if (f->held_var != var)
    return GAC_VERSION_MAYBE;
  return gac_version_compare(ca_resolve_version(s, f->held_at), ca_resolve_version(s, at), f->held_len);
}

/* A store to an event element: what it held there is no longer there (or,
 * where it may be the same element, may still be: somewhere), and the
 * groups the stored event names are held there now (a group stored in two
 * elements: somewhere, in no one element the checker knows). */
static void store_event(checker *c, state *s, const gac_inst *i) {
  uint32_t var, len;
  gac_version at;
  if (!holder_of(c, s, ca_in_operand(i, 0), &var, &at, &len))
    return;
  uint32_t e = ca_resolve_value(c, ca_in_operand(i, 1), i);
  for (unsigned k = 0; k < s->nf; k++) {
    fact *f = &s->f[k];
    gac_version_relation r = f->held_var == var ? held_relation(s, f, var, at) : GAC_VERSION_OTHER;
    if (r != GAC_VERSION_OTHER)
      f->held_var = r == GAC_VERSION_SAME ? 0 : HELD_SOMEWHERE;
    if (!ca_fact_names(f, e))
      continue;
    if (f->held_var) {
      f->held_var = HELD_SOMEWHERE;
    } else {
      f->held_var = var;
      f->held_at = ca_canonical_index(at, len);
      f->held_len = len;
    }
  }
}

/* Whether an element of Function variable var may hold the event of f's
 * group: some store to it stores what may be that event. A group named by
 * its copy is only in an element that a store of that copy's event (or of
 * what the checker cannot tell apart from it) wrote. */
static bool may_hold(checker *c, uint32_t var, const fact *f) {
  copy_view v;
  const gac_inst *named = gac_def(c->m, f->group);
  if (!named || !ca_copy_of(c->m, named, &v))
    return true;
  gac_foreach_block(b, c->cfg.f) {
    gac_foreach_inst(i, &b->insts) {
      uint32_t into, index;
      if (i->opcode != SpvOpStore || !ca_element_of(c, i->words[1], &into, &index) || into != var)
        continue;
      uint32_t e = ca_resolve_value(c, i->words[2], i);
      const gac_inst *d = gac_def(c->m, e);
      if (!ca_is_null_event(c->m, e) && (!d || !ca_copy_of(c->m, d, &v) || ca_fact_names(f, e)))
        return true;
    }
  }
  return false;
}

/* OpGroupWaitEvents on events in Function variables: one, or consecutive
 * elements of an array, at a constant or runtime index. */
static void wait_events(checker *c, state *s, const gac_inst *i) {
  enum { MAX_EVENTS = 16 };
  uint64_t count, first;
  uint32_t var, events[MAX_EVENTS];
  if (gac_constant_value(c->m, ca_in_operand(i, 1), &count) && count == 0)
    return; /* waits for no event */
  bool known_count = gac_constant_value(c->m, ca_in_operand(i, 1), &count) && count >= 1 && count <= MAX_EVENTS;
  bool traced = known_count && ca_slot_of(c, ca_in_operand(i, 2), &var, &first);
  for (unsigned k = 0; traced && k < count; k++) {
    events[k] = ca_slot_value(c, var, first + k, i);
    traced = events[k] != 0;
    if (traced)
      events[k] = ca_resolve_value(c, events[k], i);
  }
  uint32_t hvar = 0, hlen = 0;
  gac_version hat = {0};
  bool held = known_count && holder_of(c, s, ca_in_operand(i, 2), &hvar, &hat, &hlen);
  unsigned out = 0;
  for (unsigned k = 0; k < s->nf; k++) {
    fact f = s->f[k];
    bool waited = false, elsewhere = held && f.held_var && f.held_var != HELD_SOMEWHERE;
    for (unsigned e = 0; traced && e < count; e++)
      waited |= ca_fact_names(&f, events[e]);
    /* The element holds the group's event on every path where it is in
     * flight, and no other element does (a store of it to a second one
     * forgets both): one known to be another element, of its variable or
     * of another, holds another event. */
    for (uint64_t e = 0; held && f.held_var == hvar && e < count; e++) {
      gac_version at = hat;
      at.value.offset += (int64_t)e;
      gac_version_relation r = held_relation(s, &f, hvar, at);
      waited |= r == GAC_VERSION_SAME;
      elsewhere &= r == GAC_VERSION_OTHER;
    }
    if (waited)
      continue;
    elsewhere &= !(c->element_stores[hvar] & ELEMENT_UNTRACKED);
    /* Its event was never stored where the wait reads (the event of the copy waited for by mistake). */
    if (held && !elsewhere && !traced)
      elsewhere = !may_hold(c, hvar, &f);
    /* The events waited for are unknown, or the fact lost its group's name
     * (a merge, a back edge), and the wait is not known to be on another
     * element: it may be for it. */
    if (!elsewhere && (!traced || !f.group))
      ca_drop_must(&f), f.doubt = i;
    s->f[out++] = f;
  }
  s->nf = out;
}

/* A copy fence with these flags: the copies in flight come before the
 * later copies' accesses to local memory, not before the work-items' own
 * (the checker knows only local memory). Flags that are not a constant
 * order nothing it can rely on. */
static void copy_fence(checker *c, state *s, uint32_t flags_id) {
  uint64_t flags;
  if (gac_constant_value(c->m, flags_id, &flags) && (flags & GAC_FENCE_LOCAL)) {
    for (unsigned k = 0; k < s->nf; k++)
      s->f[k].fenced = true;
    ca_state_normalize(s);
  }
}

void ca_transfer_call(checker *c, state *s, const gac_inst *i, bool eval, unsigned ctx, unsigned block) {
  /* The fence builtin is the AsyncCopyFence it raises to. */
  const gac_builtin *fence = gac_builtin_called(c->m, i);
  if (is_fence_builtin(fence) && ca_num_in_operands(i) == 1 + fence->num_args) {
    copy_fence(c, s, ca_in_operand(i, 1));
    return;
  }
  /* A callee that fences or waits may have ordered or completed any of them. */
  if (callee_holds(c, i, HOLDS_ORDER))
    for (unsigned k = 0; k < s->nf; k++)
      ca_drop_must(&s->f[k]), s->f[k].doubt = i;
  /* The callee may use the module's Workgroup variables without being passed them. */
  if (eval && call_touches_variables(c, i))
    ca_evaluate_place(c, s, i, 0, ACCESS_CALL, (place){.buffer = UNKNOWN_BUFFER}, ctx, block);
  for (unsigned a = 1; a < ca_num_in_operands(i); a++) {
    uint32_t arg = ca_in_operand(i, a);
    const gac_inst *t = gac_value_type(c->m, arg);
    if (!t)
      continue;
    if (t->opcode == SpvOpTypePointer) {
      if (eval)
        ca_evaluate_access(c, s, i, a, ACCESS_CALL, arg, ctx, block);
      if (t->words[2] == SpvStorageClassFunction) /* the callee may wait on events stored there */
        for (unsigned k = 0; k < s->nf; k++)
          ca_drop_must(&s->f[k]), s->f[k].doubt = i;
    } else if (t->opcode == SpvOpTypeEvent) {
      uint32_t e = ca_resolve_value(c, arg, i);
      for (unsigned k = 0; k < s->nf; k++)
        if (ca_fact_names(&s->f[k], e))
          ca_drop_must(&s->f[k]), s->f[k].doubt = i;
    }
  }
  if (ca_call_starts_copies(c, i)) {
    const gac_inst *rt = gac_def(c->m, i->type_id);
    ca_state_add(s, (fact){.copy = i, .copy_in_loop = c->cfg.loop_of[block] >= 0, .buffer = UNKNOWN_BUFFER,
                        .versions = 1, .queue = PENDING,
                        .group = rt && rt->opcode == SpvOpTypeEvent ? i->result_id : 0});
  }
}

void ca_transfer_inst(checker *c, state *s, const gac_inst *i, bool eval, unsigned ctx, unsigned block) {
  copy_view v;
  switch (i->opcode) {
  case SpvOpLoad:
    if (eval)
      ca_evaluate_access(c, s, i, 0, ACCESS_READ, ca_in_operand(i, 0), ctx, block);
    return;
  case SpvOpStore:
    if (eval)
      ca_evaluate_access(c, s, i, 0, ACCESS_WRITE, ca_in_operand(i, 0), ctx, block);
    store_event(c, s, i);
    return;
  case SpvOpCopyMemory: case SpvOpCopyMemorySized:
    if (eval) {
      ca_evaluate_access(c, s, i, 1, ACCESS_READ, ca_in_operand(i, 1), ctx, block);
      ca_evaluate_access(c, s, i, 0, ACCESS_WRITE, ca_in_operand(i, 0), ctx, block);
    }
    return;
  case SpvOpGroupWaitEvents:
    wait_events(c, s, i);
    return;
  case SpvOpFunctionCall:
    ca_transfer_call(c, s, i, eval, ctx, block);
    return;
  default:
    break;
  }
  if ((i->opcode >= SpvOpAtomicLoad && i->opcode <= SpvOpAtomicXor) || i->opcode == SpvOpAtomicFlagTestAndSet ||
      i->opcode == SpvOpAtomicFlagClear) {
    if (eval)
      ca_evaluate_access(c, s, i, 0, ACCESS_WRITE, ca_in_operand(i, 0), ctx, block);
    return;
  }
  unsigned ptr;
  gac_memory_use use = gac_opencl_std_memory_use(c->m, i, &ptr);
  if (use != GAC_MEMORY_NONE) { /* vload4, vstore4, fract's pointer, ... */
    if (eval) {
      c->cur = s;
      place p = ca_place_of(c, gac_operand_word(i, ptr), i);
      c->cur = NULL;
      /* The vector loads and stores take (offset, p): they touch
       * p[offset * n], which may be in another version unless offset is 0. */
      uint64_t offset;
      bool vector = gac_operand_word(i, 3) >= OpenCLstd_Vloadn;
      if (vector && !(gac_constant_value(c->m, gac_operand_word(i, ptr - 1), &offset) && offset == 0))
        p.version.known = false, p.followed = false, p.part = (ca_part){.why = PART_WHY_POINTER};
      ca_evaluate_place(c, s, i, 0, use == GAC_MEMORY_READ ? ACCESS_READ : ACCESS_WRITE, p, ctx, block);
    }
    return;
  }
  uint32_t op = gac_async_pipeline_op_of(c->m, i);
  if (op == GAC_ASYNC_COPY_FENCE) {
    copy_fence(c, s, i->words[GAC_FENCE_FLAGS_WORD]);
    return;
  }
  if (op && i->num_words == GAC_PIPELINE_NUM_WORDS) {
    if (op == GAC_ASYNC_COMMIT)
      commit(c, s, i);
    else if (op == GAC_ASYNC_WAIT)
      async_wait(c, s, i);
    return;
  }
  if (!ca_copy_of(c->m, i, &v))
    return;
  /* What it writes and reads: in a flat buffer, from its pointer on by its offset, its extent. */
  c->cur = s;
  place dst = ca_place_of(c, v.destination, i), src = ca_place_of(c, v.source, i);
  c->at = i;
  ca_ranges r = ca_ranges_at(c);
  dst.part = ca_copy_part(c, &r, i, false, dst.part);
  src.part = ca_copy_part(c, &r, i, true, src.part);
  c->cur = NULL;
  if (eval) {
    ca_evaluate_place(c, s, i, 1, ACCESS_READ, src, ctx, block);
    ca_evaluate_place(c, s, i, 0, ACCESS_COPY_WRITE, dst, ctx, block);
  }
  /* Chained through its Event operand, the copy joins that group: its
   * result resolves to the event the group is named by. */
  uint32_t group = ca_resolve_value(c, i->result_id, i);
  fact f = {.copy = i, .copy_in_loop = c->cfg.loop_of[block] >= 0, .queue = PENDING, .group = group,
            .must = true};
  if (dst.buffer != NOT_WORKGROUP) {
    f.buffer = dst.buffer;
    f.versions = dst.buffer >= 0 ? c->buffers[dst.buffer].versions : 1;
    f.version = dst.version;
    f.part = dst.part;
    ca_state_add(s, f);
  }
  if (src.buffer != NOT_WORKGROUP) {
    f.buffer = src.buffer;
    f.versions = src.buffer >= 0 ? c->buffers[src.buffer].versions : 1;
    f.version = src.version;
    f.part = src.part;
    f.async_read = true;
    ca_state_add(s, f);
  }
  ca_state_normalize(s);
}
