/* --check-async: for every access to a Workgroup buffer that an async copy
 * writes, prove that a wait covering the copy's group comes first, or say
 * where it does not (docs/CHECK_ASYNC.md).
 *
 * Forward dataflow per function over (block, context) pairs, context 0
 * being the first iteration of the block's innermost loop (or no loop) and
 * context 1 a later one. A state is the set of async accesses that may be
 * in flight ("facts"), each with the buffer and version it touches, its
 * queue (or pending, not committed yet), how many groups were committed to
 * that queue after it ([lo, hi] over the paths), whether it is in flight on
 * every path of the context (must), and the equalities known between ids
 * (k = init in a first iteration, k = n after the loop). Joins keep a fact
 * that is on any path (may); must only survives where both sides have it.
 *
 * This file runs it: per function, the stores of events and the buffers
 * they name, the loops that copy, the fixpoint over (block, context) pairs
 * and then one more pass that gives each access its verdict; and the pass
 * (--check-async[=strict][,verbose]). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "check_async_dataflow.h"
#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/check_async.h"

static int by_position(const void *x, const void *y) {
  const access *a = x, *b = y;
  if (a->inst->offset != b->inst->offset)
    return a->inst->offset < b->inst->offset ? -1 : 1;
  return (a->role > b->role) - (a->role < b->role);
}

/* Whether the Workgroup pointer parameters of `function` are distinct
 * allocations: it is a kernel, or it is called (at least once) and every
 * call passes them parameters of such a function, no two the same (as
 * llvm-spirv's kernel wrappers do). */
static bool distinct_parameters(const gac_module *m, uint32_t function, unsigned depth) {
  if (gac_is_entry_point(m, function))
    return true;
  if (depth > 4)
    return false;
  bool called = false;
  gac_foreach_function(f, (gac_module *)m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) {
        if (i->opcode != SpvOpFunctionCall || ca_in_operand(i, 0) != function)
          continue;
        called = true;
        for (unsigned a = 1; a < ca_num_in_operands(i); a++) {
          uint32_t arg = ca_in_operand(i, a);
          if (ca_storage_class_of(m, arg) != SpvStorageClassWorkgroup)
            continue;
          const gac_inst *d = gac_def(m, arg);
          if (!d || d->opcode != SpvOpFunctionParameter || gac_inst_function(d) != f)
            return false;
          for (unsigned o = 1; o < a; o++)
            if (ca_in_operand(i, o) == arg)
              return false;
        }
        if (!distinct_parameters(m, f->def->result_id, depth + 1))
          return false;
      }
    }
  }
  return called;
}

/* Function variables: the stores to each element, and whether the address
 * escapes (an OpBitcast only for OpLifetimeStart/Stop, as clang -O2 writes,
 * does not). */
/* Whether a value stored is an event the checker names groups by (a
 * copy's, a phi's, none), or no event at all. */
static bool stores_tracked_event(const gac_module *m, uint32_t value) {
  const gac_inst *t = gac_value_type(m, value), *d = gac_def(m, value);
  copy_view v;
  return !t || t->opcode != SpvOpTypeEvent ||
         (d && (d->opcode == SpvOpPhi || d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef ||
                ca_copy_of(m, d, &v)));
}

static void scan_stores(checker *c) {
  uint32_t *cast_of = calloc(c->m->bound, sizeof *cast_of);
  if (!cast_of)
    abort();
  gac_foreach_block(b, c->cfg.f) {
    gac_foreach_inst(i, &b->insts) {
      copy_view v;
      c->any_copy |= ca_copy_of(c->m, i, &v);
      if (i->opcode == SpvOpFunctionCall && ca_call_starts_copies(c, i))
        c->any_copy = c->unknown_writes = true;
      unsigned first = gac_inst_first_in_operand(i);
      for (unsigned k = first; k < i->num_operands; k++) {
        if (i->operands[k].kind != GAC_OPERAND_ID)
          continue;
        uint32_t id = gac_operand_word(i, k), var, index;
        bool element = ca_element_of(c, id, &var, &index);
        if (id < c->m->bound && cast_of[id]) {
          if (i->opcode != SpvOpLifetimeStart && i->opcode != SpvOpLifetimeStop)
            c->escaped[cast_of[id]] = true;
          continue;
        }
        if (i->opcode == SpvOpBitcast && ca_is_function_variable(c->m, id) && i->result_id < c->m->bound) {
          cast_of[i->result_id] = id;
          continue;
        }
        if (!element) {
          /* The variable as the base of an element's access chain is followed there. */
          if (ca_is_function_variable(c->m, id) && !(ca_element_of(c, i->result_id, &var, &index) && k == first))
            c->escaped[id] = true;
          continue;
        }
        uint64_t constant;
        if (i->opcode == SpvOpStore && k == first) {
          if (!index || gac_constant_value(c->m, index, &constant)) {
            slot *e = ca_find_slot(c, var, index ? constant : 0, true);
            e->stores++;
            e->store = i;
          } else {
            c->element_stores[var] |= ELEMENT_DYNAMIC;
          }
          if (!stores_tracked_event(c->m, ca_in_operand(i, 1)))
            c->element_stores[var] |= ELEMENT_UNTRACKED;
        } else if (!(i->opcode == SpvOpLoad && k == first) && !(i->opcode == SpvOpGroupWaitEvents && k == first + 2)) {
          c->escaped[var] = true;
        }
      }
    }
  }
  free(cast_of);
}

static void mark_written(checker *c) {
  gac_foreach_block(b, c->cfg.f) {
    gac_foreach_inst(i, &b->insts) {
      copy_view v;
      if (!ca_copy_of(c->m, i, &v))
        continue;
      place p = ca_place_of(c, v.destination, i), q = ca_place_of(c, v.source, i);
      if (p.buffer >= 0)
        c->buffers[p.buffer].written = true;
      if (q.buffer >= 0)
        c->buffers[q.buffer].read = true;
      c->unknown_writes |= p.buffer == UNKNOWN_BUFFER;
    }
  }
}

static void mark_loops_that_copy(checker *c) {
  c->loop_copies = calloc(c->cfg.num_loops ? c->cfg.num_loops : 1, sizeof *c->loop_copies);
  if (!c->loop_copies)
    abort();
  for (unsigned b = 0; b < c->cfg.n; b++) {
    bool copies = false;
    gac_foreach_inst(i, &c->cfg.blocks[b]->insts) copies |= ca_is_copy(c->m, i);
    for (unsigned l = 0; copies && l < c->cfg.num_loops; l++)
      c->loop_copies[l] |= c->cfg.loops[l].body[b];
  }
}

static void check_function(checker *c, gac_function *f) {
  memset(c->pipe_var, 0, c->m->bound ? c->m->bound : 1);
  ca_check_pipes(c->m, f, c->opt, c->diag, c->counts, c->pipe_var);
  ca_cfg_build(&c->cfg, c->m, f);
  c->kernel = distinct_parameters(c->m, f->def->result_id, 0);
  uint64_t local_size[3];
  gac_local_size((gac_module *)c->m, f->def->result_id, GAC_LOCAL_SIZE_BOUND, local_size);
  for (unsigned d = 0; d < 3; d++)
    c->local_size[d] = (uint32_t)local_size[d];
  c->escaped = calloc(c->m->bound, sizeof *c->escaped);
  c->element_stores = calloc(c->m->bound ? c->m->bound : 1, sizeof *c->element_stores);
  if (!c->escaped || !c->element_stores)
    abort();
  c->gave_up = c->cfg.irreducible;
  c->gave_up_why = "the control flow is irreducible";
  scan_stores(c);
  mark_written(c);
  mark_loops_that_copy(c);
  unsigned n = c->cfg.n;
  state *states = calloc(NCTX * (n ? n : 1), sizeof *states);
  if (!states)
    abort();
  if (c->any_copy && n) {
    states[0].reached = true;
    bool changed = true;
    unsigned rounds = 0;
    state out = {0};
    for (; changed && rounds < MAX_ROUNDS; rounds++) {
      changed = false;
      for (unsigned r = 0; r < c->cfg.num_rpo; r++) {
        unsigned b = c->cfg.rpo[r];
        for (unsigned ctx = 0; ctx < NCTX; ctx++) {
          if (!states[NCTX * b + ctx].reached)
            continue;
          ca_state_copy(&out, &states[NCTX * b + ctx]);
          ca_transfer_block(c, &out, b, false, ctx);
          for (unsigned k = 0; k < c->cfg.num_succ[b]; k++)
            changed |= ca_propagate_edge(c, states, &out, b, ctx, c->cfg.succ[b][k]);
        }
      }
    }
    if (changed) {
      c->gave_up = true;
      c->gave_up_why = "the analysis found no fixpoint";
    }
    for (unsigned r = 0; r < c->cfg.num_rpo; r++) {
      unsigned b = c->cfg.rpo[r];
      for (unsigned ctx = 0; ctx < NCTX; ctx++) {
        if (!states[NCTX * b + ctx].reached)
          continue;
        ca_state_copy(&out, &states[NCTX * b + ctx]);
        ca_transfer_block(c, &out, b, true, ctx);
      }
    }
    ca_state_free(&out);
    if (c->nacc)
      qsort(c->acc, c->nacc, sizeof *c->acc, by_position);
    for (unsigned k = 0; k < c->nacc; k++)
      ca_report_access(c, &c->acc[k]);
  }
  for (unsigned k = 0; k < NCTX * n; k++)
    ca_state_free(&states[k]);
  free(states);
  free(c->escaped);
  free(c->element_stores);
  free(c->loop_copies);
  c->loop_copies = NULL;
  free(c->slots);
  c->slots = NULL;
  c->nslots = 0;
  free(c->buffers);
  free(c->acc);
  c->escaped = NULL;
  c->element_stores = NULL;
  c->buffers = NULL;
  c->acc = NULL;
  c->nb = c->nacc = 0;
  c->any_copy = c->unknown_writes = false;
  ca_cfg_free(&c->cfg);
}

void gac_check_async(const gac_module *m, const gac_check_async_options *options, gac_diag *diag,
                     gac_check_async_counts *counts) {
  gac_check_async_counts local = {0};
  gac_check_async_options defaults = {0};
  checker c = {.m = m, .opt = options ? options : &defaults, .diag = diag, .counts = counts ? counts : &local};
  memset(c.counts, 0, sizeof *c.counts);
  for (unsigned k = 0; k < 3; k++)
    if (!(c.holds[k] = calloc(m->bound ? m->bound : 1, 1)))
      abort();
  c.pipe_var = calloc(m->bound ? m->bound : 1, 1);
  if (!c.pipe_var)
    abort();
  gac_foreach_function(f, (gac_module *)m) {
    if (f->first_block)
      check_function(&c, f);
  }
  for (unsigned k = 0; k < 3; k++)
    free(c.holds[k]);
  free(c.pipe_var);
}

bool gac_check_async_pass(gac_module *m, const char *arg, gac_diag *diag) {
  gac_check_async_options o = {0};
  for (const char *p = arg; p && *p;) {
    size_t len = strcspn(p, ",");
    if (len == 6 && strncmp(p, "strict", 6) == 0)
      o.strict = true;
    else if (len == 7 && strncmp(p, "verbose", 7) == 0)
      o.verbose = true;
    else {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "CheckAsync.Option",
                   "--check-async takes 'strict' and 'verbose', not '%.*s'", (int)len, p);
      return false;
    }
    p += len + (p[len] == ',');
  }
  gac_check_async_counts counts;
  gac_check_async(m, &o, diag, &counts);
  if (counts.proved + counts.undecided + counts.violated)
    gac_diag_add(diag, GAC_REMARK, GAC_NO_OFFSET, 0, "CheckAsync.Summary",
                 "check-async: %zu proved, %zu violated, %zu cannot decide", counts.proved, counts.violated,
                 counts.undecided);
  return false; /* an analysis: the module is unchanged */
}
