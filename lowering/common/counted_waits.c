/* Counted waits, the dataflow every target with a hardware queue of copy
 * groups shares (lower_target.h: lower_wait_emitter). A wait on a queue,
 * AsyncWait(q, N), must leave in flight at most what was committed after
 * q's (N+1)-th most recent commit; the hardware waits only take a count
 * that is an immediate (PTX's cp.async.wait_group M, AMDGCN's s_waitcnt
 * vmcnt(X): ptx/lower_ptx_waits.c, amdgcn/lower_amdgcn_waits.c say how
 * their counts are written).
 *
 * A forward dataflow over the CFG tracks the known newest commits (queue
 * numbers, newest first, each with its weight: 1 per group, or what the
 * target's `issued` counts of the instructions since the commit before, a
 * lower bound); at a join only the common newest part stays known, with
 * the smaller weights. If q's (N+1)-th commit lies in the known part, the
 * count is the weight of the commits newer than it, plus what was issued
 * since the newest; if not, it is older than all that is known and the
 * weight of all known commits is safe. A runtime N gives 0, except an
 * OpPhi or OpSelect of two constants (clang-15 merges the waits of an
 * if/else so), which becomes a branch between the two counts. Calls of
 * functions that may commit forget what is known, since their groups share
 * the hardware queue. An OpGroupWaitEvents that may wait for copies in
 * flight (wait_copies.h: every copy chained onto its events, through phis,
 * selects, memory and calls) is a wait for all; with weights of 1 it
 * commits one more (empty) group, as cp.async.wait_all does. Others need
 * only the barrier: a store-side wait does not drain the prefetches. A
 * copy fence (copy_fences.h) is such a wait: for all where it orders a copy
 * in flight before it against a copy after it, else only the barrier.
 *
 * An empty group (a commit of the null event: the pipeliner's skipped
 * async statement when a loop runs fewer times than it has stages) would
 * weigh 0 where weights count what was issued, and at the join with the
 * full one the weight would fall to 0 for every wait after it. So, where
 * all other commits of its queue weigh the same K, an empty commit is
 * padded with K issues that do nothing (the emitter's commit, count K)
 * and weighs K too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "copy_fences.h"
#include "lower_target.h"
#include "wait_copies.h"

enum { HISTORY = 32, WAIT_ALL_GROUP = UINT32_MAX, PAD_QUEUES = 16 };

typedef struct history {
  bool reached;
  unsigned len;
  uint32_t queue[HISTORY];  /* newest first */
  uint32_t weight[HISTORY]; /* what each group counts for: 1, or what was issued for it */
  uint32_t pending;         /* issued since the newest commit */
} history;

static void push(history *h, uint32_t queue, uint32_t weight) {
  unsigned keep = h->len < HISTORY ? h->len : HISTORY - 1;
  memmove(h->queue + 1, h->queue, keep * sizeof h->queue[0]);
  memmove(h->weight + 1, h->weight, keep * sizeof h->weight[0]);
  h->queue[0] = queue;
  h->weight[0] = weight;
  h->len = keep + 1;
}

/* dst := meet(dst, src); true if dst changed. */
static bool meet(history *dst, const history *src) {
  if (!src->reached)
    return false;
  if (!dst->reached) {
    *dst = *src;
    return true;
  }
  unsigned k = 0;
  bool changed = false;
  while (k < dst->len && k < src->len && dst->queue[k] == src->queue[k]) {
    if (src->weight[k] < dst->weight[k])
      dst->weight[k] = src->weight[k], changed = true;
    k++;
  }
  changed |= k < dst->len || src->pending < dst->pending;
  dst->len = k;
  if (src->pending < dst->pending)
    dst->pending = src->pending;
  return changed;
}

/* Whether a wait for copy needs more than the barrier: a copy global ->
 * local is in flight until waited for (cp.async, bulk copies, LDS-direct
 * loads); every other copy is loads and stores done when the copy returns. */
static bool copy_in_flight(const gac_module *m, const gac_inst *copy, void *user) {
  (void)user;
  return lower_copy_loads_local(m, copy);
}

/* The OpGroupWaitEvents of the module that may wait for copies in flight
 * (wait_copies.h), decided before any is rewritten: sorted, for bsearch. */
typedef struct draining {
  const gac_inst **waits;
  size_t num;
} draining;

static int compare_inst(const void *x, const void *y) {
  uintptr_t a = (uintptr_t) * (const gac_inst *const *)x, b = (uintptr_t) * (const gac_inst *const *)y;
  return a < b ? -1 : a > b;
}

static draining find_draining(gac_module *m) {
  draining d = {0};
  gac_wait_copies *a = gac_wait_copies_analyze(m);
  size_t cap = 0;
  gac_foreach_function(f, m) gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    /* A fence drains where it orders a copy in flight before it against a
     * copy after it (copy_fences.h); else its barrier orders the rest. */
    bool drains = i->opcode == SpvOpGroupWaitEvents ? gac_wait_may_wait_for(a, i, copy_in_flight, NULL)
                  : gac_async_pipeline_op_of(m, i) == GAC_ASYNC_COPY_FENCE && lower_fence_orders(m, i, copy_in_flight, NULL);
    if (!drains)
      continue;
    if (d.num == cap)
      d.waits = realloc(d.waits, (cap = cap ? 2 * cap : 16) * sizeof *d.waits);
    d.waits[d.num++] = i;
  }
  gac_wait_copies_free(a);
  if (d.num)
    qsort(d.waits, d.num, sizeof *d.waits, compare_inst);
  return d;
}

/* Whether OpGroupWaitEvents or fence `wait` may wait for copies in flight. */
static bool wait_drains(const draining *d, const gac_inst *wait) {
  return d->num && bsearch(&wait, d->waits, d->num, sizeof *d->waits, compare_inst);
}

/* Whether a function commits groups (directly, or by calling a function
 * with a body: conservatively, any call may). */
static bool commits(const gac_module *m, const gac_function *f) {
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) {
      uint32_t op = gac_async_pipeline_op_of(m, i);
      if (i->opcode == SpvOpGroupWaitEvents || op == GAC_ASYNC_COMMIT || op == GAC_ASYNC_COPY_FENCE)
        return true;
      if (i->opcode == SpvOpFunctionCall) {
        gac_function *callee = lower_function_by_id(m, gac_operand_word(i, 2));
        if (callee && callee->first_block)
          return true;
      }
    }
  }
  return false;
}

/* What is decided of the module before any wait is rewritten:
 * committing[id] for each function id, and the draining waits. */
typedef struct module_facts {
  bool *committing;
  draining draining;
} module_facts;

/* Whether commit i commits the null event (an empty group). */
static bool commits_nothing(const gac_module *m, const gac_inst *i) {
  const gac_inst *event = gac_def(m, i->words[GAC_PIPELINE_VALUE_WORD]);
  return event && (event->opcode == SpvOpConstantNull || event->opcode == SpvOpUndef);
}

/* What an empty commit to queue q is padded with (see the top). */
typedef struct pads {
  uint32_t k[PAD_QUEUES];
  bool seen[PAD_QUEUES], differ[PAD_QUEUES];
} pads;

static void step(gac_lowering *L, const lower_wait_emitter *E, const module_facts *mf, const pads *pad,
                 const gac_inst *i, history *h) {
  const gac_module *m = L->m;
  uint32_t op = gac_async_pipeline_op_of(m, i);
  uint64_t q;
  if (op == GAC_ASYNC_COMMIT && gac_constant_value(L->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q)) {
    uint32_t weight = 1;
    if (E->issued)
      weight = pad && q < PAD_QUEUES && commits_nothing(m, i) ? pad->k[q] : h->pending;
    push(h, (uint32_t)q, weight);
    h->pending = 0;
  } else if (op == GAC_ASYNC_COMMIT) {
    h->pending = 0; /* into an unknown queue: its loads count for no known group */
  } else if ((i->opcode == SpvOpGroupWaitEvents || op == GAC_ASYNC_COPY_FENCE) && wait_drains(&mf->draining, i)) {
    push(h, WAIT_ALL_GROUP, E->issued ? 0 : 1);
  } else if (i->opcode == SpvOpFunctionCall) {
    uint32_t callee = gac_operand_word(i, 2);
    if (callee < m->bound && mf->committing[callee])
      h->len = 0, h->pending = 0;
  } else if (E->issued) {
    const gac_block *b = gac_inst_block(i);
    uint32_t loads = b ? E->issued(L, b->function, i) : 0;
    h->pending = h->pending + loads > 63 ? 63 : h->pending + loads;
  }
}

/* The count for a wait(q, n) in state h (see the top of the file): the
 * weight of the groups newer than q's (n+1)-th commit, or of all that are
 * known if that one is older. */
static uint32_t count_for(uint64_t q, uint64_t n, const history *h) {
  uint64_t seen = 0, weight = h->pending;
  for (unsigned k = 0; k < h->len; k++) {
    if (h->queue[k] == q && ++seen == n + 1)
      break;
    weight += h->weight[k];
  }
  return weight > 63 ? 63 : (uint32_t)weight; /* counts of 6 bits (vmcnt's); with weights of 1 below HISTORY */
}


/* The count for AsyncWait w->inst in state h. clang-15 merges the waits of an
 * if/else into one whose In Flight is an OpPhi or OpSelect of two
 * constants: each gets its own M, and the wait becomes a branch on which
 * one In Flight is. */
static void wait_counts(const gac_lowering *L, lower_wait *w, const history *h, bool tighten) {
  uint64_t q, n;
  uint32_t in_flight = w->inst->words[GAC_PIPELINE_VALUE_WORD];
  if (!gac_constant_value(L->m, w->inst->words[GAC_PIPELINE_QUEUE_WORD], &q))
    return;
  w->queue = (uint32_t)q;
  if (gac_constant_value(L->m, in_flight, &n)) {
    w->count = count_for(q, tighten && n ? n - 1 : n, h); /* one group more */
    w->n = (uint32_t)n;
    return;
  }
  const gac_inst *def = gac_def(L->m, in_flight);
  unsigned first = def && def->opcode == SpvOpSelect ? 3 : 2, step = def && def->opcode == SpvOpSelect ? 1 : 2;
  if (!def || (def->opcode != SpvOpSelect && def->opcode != SpvOpPhi))
    return;
  uint32_t values[2] = {0, 0};
  unsigned distinct = 0;
  for (unsigned k = first; k < def->num_operands; k += step) {
    uint32_t v = gac_operand_word(def, k);
    if (!gac_constant_value(L->m, v, &n))
      return;
    if ((distinct == 0 || values[0] != v) && (distinct < 2 || values[1] != v)) {
      if (distinct == 2)
        return;
      values[distinct++] = v;
    }
  }
  if (distinct == 0)
    return;
  gac_constant_value(L->m, values[0], &n);
  w->count = count_for(q, n, h);
  w->n = (uint32_t)n;
  if (distinct == 2) {
    w->split = values[0];
    gac_constant_value(L->m, values[1], &n);
    w->count2 = count_for(q, n, h);
    w->n2 = (uint32_t)n;
  }
}

/* One commit, wait or OpGroupWaitEvents, replaced: the emitter's commit,
 * or its wait (a branch between two where In Flight is one of two
 * constants) or wait for all, then its barrier. */
static void rewrite_one(gac_lowering *L, const lower_wait_emitter *E, const lower_wait *w) {
  gac_module *m = L->m;
  gac_builder b = gac_builder_before(m, w->inst);
  if (w->op == GAC_ASYNC_COMMIT) {
    if (E->commit)
      E->commit(L, &b, w);
  } else if (w->drain && E->wait) {
    uint32_t cond = 0;
    if (w->op == GAC_ASYNC_WAIT && w->split)
      cond = lower_op2(&b, SpvOpIEqual, L->bool_type, w->inst->words[GAC_PIPELINE_VALUE_WORD], w->split);
    if (cond) {
      /* if (In Flight == split) wait(count); else wait(count2) */
      gac_block *pre = gac_inst_block(w->inst);
      gac_block *rest = gac_block_split_after(m, w->inst->prev);
      gac_block *yes = gac_block_create(m, pre->function, pre), *no = gac_block_create(m, pre->function, yes);
      gac_builder p = gac_builder_at_end(m, &pre->insts);
      gac_build_ops(&p, SpvOpBranchConditional, 0, 0, GAC_ID(cond), GAC_ID(gac_block_label(yes)),
                    GAC_ID(gac_block_label(no)));
      gac_block *arms[2] = {yes, no};
      uint32_t counts[2] = {w->count, w->count2}, ns[2] = {w->n, w->n2};
      for (unsigned k = 0; k < 2; k++) {
        gac_builder a = gac_builder_at_end(m, &arms[k]->insts);
        E->wait(L, &a, counts[k], w->queue, ns[k]);
        gac_build_ops(&a, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(rest)));
      }
    } else if (w->op == GAC_ASYNC_WAIT) {
      E->wait(L, &b, w->count, w->queue, w->n);
    } else if (E->wait_all) {
      E->wait_all(L, &b);
    }
    if (E->after_wait)
      E->after_wait(L, w, cond);
  }
  if (w->op != GAC_ASYNC_COMMIT) {
    gac_builder e = gac_builder_before(m, w->inst);
    E->barrier(L, &e);
  }
  gac_inst_remove(m, w->inst);
}

/* The fixpoint of the histories at the blocks' entries (in[0]: f's entry). */
static void solve(gac_lowering *L, const lower_wait_emitter *E, const module_facts *mf, const pads *pad,
                  gac_block **blocks, size_t num_blocks, const uint32_t *index_of, history *in) {
  memset(in, 0, num_blocks * sizeof *in);
  in[0].reached = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < num_blocks; k++) {
      if (!in[k].reached)
        continue;
      history h = in[k];
      gac_foreach_inst(i, &blocks[k]->insts) step(L, E, mf, pad, i, &h);
      gac_block *succ[64];
      unsigned ns = gac_block_successors(L->m, blocks[k], succ, 64);
      for (unsigned s = 0; s < ns; s++)
        changed |= meet(&in[index_of[gac_block_label(succ[s])]], &h);
    }
  }
}

/* The weight K each queue's non-empty commits all have (what was issued
 * since the commit before), if they agree and it is not 0; true if
 * some queue has one. */
static bool find_pads(gac_lowering *L, const lower_wait_emitter *E, const module_facts *mf, gac_block **blocks,
                      size_t num_blocks, const history *in, pads *pad) {
  for (size_t k = 0; k < num_blocks; k++) {
    history h = in[k];
    gac_foreach_inst(i, &blocks[k]->insts) {
      uint64_t q;
      if (gac_async_pipeline_op_of(L->m, i) == GAC_ASYNC_COMMIT && !commits_nothing(L->m, i) &&
          gac_constant_value(L->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q) && q < PAD_QUEUES && in[k].reached) {
        pad->differ[q] |= pad->seen[q] && pad->k[q] != h.pending;
        pad->k[q] = h.pending;
        pad->seen[q] = true;
      }
      step(L, E, mf, NULL, i, &h);
    }
  }
  bool any = false;
  for (unsigned q = 0; q < PAD_QUEUES; q++) {
    if (pad->differ[q])
      pad->k[q] = 0;
    any |= pad->k[q] != 0;
  }
  return any;
}

/* Label id -> block index, one array for the module: each function sets
 * its own labels' entries, and reads only those (a branch goes to a block
 * of its function), so nothing is cleared between functions; it grows with
 * the module's id bound. One array per function, zeroed, cost a memset of
 * the whole bound for each (697 kernels of a 1M-instruction module: most of
 * this pass's time). */
typedef struct label_index {
  uint32_t *at;
  uint32_t size;
} label_index;

static uint32_t *label_index_for(label_index *x, uint32_t bound) {
  if (bound > x->size) {
    uint32_t *grown = realloc(x->at, (size_t)bound * sizeof *grown);
    if (!grown)
      abort();
    memset(grown + x->size, 0, (size_t)(bound - x->size) * sizeof *grown);
    x->at = grown, x->size = bound;
  }
  return x->at;
}

/* Replaces the commits and waits of f, with the counts of the fixpoint. */
static void lower_function(gac_lowering *L, const lower_wait_emitter *E, const module_facts *mf, const bool *tighten,
                           label_index *labels, gac_function *f) {
  gac_module *m = L->m;
  size_t num_blocks = 0;
  gac_foreach_block(b, f) num_blocks++;
  if (num_blocks == 0)
    return;
  gac_block **blocks = malloc(num_blocks * sizeof *blocks);
  history *in = calloc(num_blocks, sizeof *in);
  uint32_t *index_of = label_index_for(labels, m->bound);
  size_t n = 0;
  gac_foreach_block(b, f) {
    index_of[gac_block_label(b)] = (uint32_t)n;
    blocks[n++] = b;
  }
  solve(L, E, mf, NULL, blocks, num_blocks, index_of, in);
  pads pad = {0};
  const pads *padded = E->issued && find_pads(L, E, mf, blocks, num_blocks, in, &pad) ? &pad : NULL;
  if (padded)
    solve(L, E, mf, padded, blocks, num_blocks, index_of, in);
  size_t num = 0, cap = 16;
  lower_wait *todo = malloc(cap * sizeof *todo);
  uint32_t deepest = 0;
  for (size_t k = 0; k < num_blocks; k++) {
    history h = in[k];
    gac_foreach_inst(i, &blocks[k]->insts) {
      uint32_t op = gac_async_pipeline_op_of(m, i);
      lower_wait w = {.inst = i, .op = op, .queue = LOWER_WAIT_ANY, .n = LOWER_WAIT_ANY, .n2 = LOWER_WAIT_ANY};
      uint64_t q;
      if (op == GAC_ASYNC_WAIT)
        wait_counts(L, &w, &h, tighten && tighten[i->result_id]);
      if (op == GAC_ASYNC_COMMIT && gac_constant_value(L->m, i->words[GAC_PIPELINE_QUEUE_WORD], &q) &&
          q < LOWER_WAIT_ANY)
        w.queue = (uint32_t)q;
      if (E->issued && op == GAC_ASYNC_COMMIT && commits_nothing(m, i) && w.queue < PAD_QUEUES)
        w.count = pad.k[w.queue]; /* the loads it is padded with */
      bool fence = op == GAC_ASYNC_COPY_FENCE;
      w.drain = op == GAC_ASYNC_WAIT || ((i->opcode == SpvOpGroupWaitEvents || fence) && wait_drains(&mf->draining, i));
      step(L, E, mf, padded, i, &h);
      /* (The warp-specialised handshakes are the target's, in prepare and finish.) */
      if ((!op || op >= GAC_WARP_SPECIALIZE) && i->opcode != SpvOpGroupWaitEvents && !fence)
        continue;
      if (num == cap)
        todo = realloc(todo, (cap *= 2) * sizeof *todo);
      todo[num++] = w;
      deepest = w.count > deepest ? w.count : deepest;
      deepest = w.count2 > deepest ? w.count2 : deepest;
    }
  }
  if (E->begin_function)
    E->begin_function(L, f, deepest);
  for (size_t k = 0; k < num; k++)
    rewrite_one(L, E, &todo[k]);
  free(todo);
  free(blocks);
  free(in);
}

bool lower_counted_waits(gac_lowering *L, const lower_wait_emitter *E) {
  /* Markers of loops not pipelined go first: they are neither commits nor
   * waits (each once became a barrier here). */
  lower_drop_pipeline_markers(L->m);
  bool progress = false;
  /* The target's first (its calls, which committing then knows). */
  bool *tighten = calloc(L->m->bound, sizeof *tighten);
  if (E->begin)
    E->begin(L, tighten);
  module_facts mf = {.committing = calloc(L->m->bound, sizeof *mf.committing), .draining = find_draining(L->m)};
  gac_foreach_function(f, L->m) mf.committing[f->def->result_id] = commits(L->m, f);
  label_index labels = {0};
  gac_foreach_function(f, L->m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) progress |= i->opcode == SpvOpGroupWaitEvents || gac_async_pipeline_op_of(L->m, i);
    }
    lower_function(L, E, &mf, tighten, &labels, f);
  }
  free(labels.at);
  free(mf.committing);
  free(mf.draining.waits);
  free(tighten);
  return progress;
}
