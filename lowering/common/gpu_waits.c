/* The waits of --lower-async-copies=ptx (docs/PTX.md): on sm_80 the copies
 * are per-thread cp.async, and all queues share the one hardware queue of
 * cp.async groups, whose wait count must be an immediate.
 *
 *   AsyncCommit(q, e)  -> __gac_cp_async_commit()        (cp.async.commit_group)
 *   AsyncWait(q, N)    -> __gac_cp_async_wait(M); barrier (cp.async.wait_group M)
 *   OpGroupWaitEvents  -> __gac_cp_async_wait_all(); barrier, or only the
 *                         barrier where no copy the wait may wait for is
 *                         in flight (wait_copies.h: every copy chained onto
 *                         its events, through phis, selects, memory and
 *                         calls; global -> local ones are in flight), so a
 *                         store-side wait does not drain the prefetches
 *
 * M is the number of hardware groups committed after the newest group of q
 * that must complete (the (N+1)-th most recent commit to q): wait_group M
 * leaves at most those M in flight. A forward dataflow over the CFG tracks
 * the known newest commits (queue numbers, newest first); at a join only
 * the common newest part stays known. If q's (N+1)-th commit lies in the
 * known part at position i, M = i on every path; if not, it is older than
 * all L known commits and M = L is safe (at least L groups are newer). A
 * runtime N gives M = 0, except an OpPhi or OpSelect of two constants
 * (clang-15 merges the waits of an if/else so), which becomes a branch
 * between the two counts. Calls of functions that may commit forget what is
 * known, since their groups share the hardware queue. A wait_all counts as
 * one more group (it commits an empty one). The barrier makes the other
 * threads' copies visible: cp.async groups are per thread.
 *
 * AMDGCN (--lower-async-copies=amdgcn) counts in the same way, but what a
 * wave can wait for is a number of its memory instructions, not groups:
 * `s_waitcnt vmcnt(X)` leaves at most X of them in flight, and they
 * complete in order. So each commit weighs the LDS-direct loads the wave
 * issued since the one before (lower_amdgcn_dma_per_wave: a lower bound,
 * 0 when unknown; a join keeps the smaller), and X is the weight of the
 * commits newer than q's (N+1)-th plus the loads issued since the newest:
 * at least the loads in flight that may stay so. Other loads and stores
 * in flight only make the wait stricter. Commits become their marker
 * (__gac_amdgcn_commit(q, 0)), waits __gac_amdgcn_wait_vm(X, q, N) and a
 * barrier: the markers say what the source waits for, and gac-isa-check
 * checks X against the machine code's loads (docs/AMDGCN.md).
 *
 * An empty group (a commit of the null event: the pipeliner's skipped
 * async statement when a loop runs fewer times than it has stages) would
 * weigh 0, and at the join with the full one the weight would fall to 0
 * for every wait after it. So, where all other commits of its queue weigh
 * the same K, an empty commit issues K loads that do nothing
 * (__gac_amdgcn_commit(q, K): buffer loads through a null descriptor, out
 * of range: no memory access, but counted in vmcnt) and weighs K too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/ptx.h"
#include "lower_util.h"
#include "lowering.h"
#include "wait_copies.h"

enum { HISTORY = 32, WAIT_ALL_GROUP = UINT32_MAX, PAD_QUEUES = 16 };

typedef struct history {
  bool reached;
  unsigned len;
  uint32_t queue[HISTORY];  /* newest first */
  uint32_t weight[HISTORY]; /* what each group counts for: 1 (PTX), its loads (AMDGCN) */
  uint32_t pending;         /* AMDGCN: loads issued since the newest commit */
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
 * local is cp.async or bulk copies (PTX) or LDS-direct loads (AMDGCN),
 * in flight until waited for; every other copy is loads and stores done
 * when the copy returns. */
static bool copy_in_flight(const gac_module *m, const gac_inst *copy, void *user) {
  (void)user;
  gac_async_copy k;
  if (copy->opcode == SpvOpGroupAsyncCopy) /* (Execution, Destination, Source, ...) */
    return lower_global_to_local(m, gac_operand_word(copy, 3), gac_operand_word(copy, 4));
  return gac_async_copy_decode(m, copy, &k) && lower_global_to_local(m, k.destination, k.source);
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
    if (i->opcode != SpvOpGroupWaitEvents || !gac_wait_may_wait_for(a, i, copy_in_flight, NULL))
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

/* Whether OpGroupWaitEvents `wait` may wait for copies in flight. */
static bool wait_drains(const draining *d, const gac_inst *wait) {
  return d->num && bsearch(&wait, d->waits, d->num, sizeof *d->waits, compare_inst);
}

/* Whether a function commits groups (directly, or by calling a function
 * with a body: conservatively, any call may). */
static bool commits(const gac_module *m, const gac_function *f) {
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) {
      if (i->opcode == SpvOpGroupWaitEvents || gac_async_pipeline_op_of(m, i) == GAC_ASYNC_COMMIT)
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

/* AMDGCN: the loads an empty commit to queue q is padded with (see the top). */
typedef struct pads {
  uint32_t k[PAD_QUEUES];
  bool seen[PAD_QUEUES], differ[PAD_QUEUES];
} pads;

static void step(gac_lowering *L, const module_facts *mf, const pads *pad, const gac_inst *i, history *h) {
  const gac_module *m = L->m;
  uint32_t op = gac_async_pipeline_op_of(m, i);
  uint64_t q;
  if (op == GAC_ASYNC_COMMIT && lower_known(L, i->words[GAC_PIPELINE_QUEUE_WORD], &q)) {
    uint32_t weight = 1;
    if (L->amdgcn)
      weight = pad && q < PAD_QUEUES && commits_nothing(m, i) ? pad->k[q] : h->pending;
    push(h, (uint32_t)q, weight);
    h->pending = 0;
  } else if (op == GAC_ASYNC_COMMIT) {
    h->pending = 0; /* into an unknown queue: its loads count for no known group */
  } else if (i->opcode == SpvOpGroupWaitEvents && wait_drains(&mf->draining, i)) {
    push(h, WAIT_ALL_GROUP, L->amdgcn ? 0 : 1);
  } else if (i->opcode == SpvOpFunctionCall) {
    uint32_t callee = gac_operand_word(i, 2);
    if (callee < m->bound && mf->committing[callee])
      h->len = 0, h->pending = 0;
  } else if (L->amdgcn) {
    const gac_block *b = gac_inst_block(i);
    uint32_t loads = b ? lower_amdgcn_dma_per_wave(L, b->function, i) : 0;
    h->pending = h->pending + loads > 63 ? 63 : h->pending + loads;
  }
}

/* M (PTX) or X (AMDGCN) for a wait(q, n) in state h (see the top of the
 * file): the weight of the groups newer than q's (n+1)-th commit, or of all
 * that are known if that one is older. */
static uint32_t count_for(uint64_t q, uint64_t n, const history *h) {
  uint64_t seen = 0, weight = h->pending;
  for (unsigned k = 0; k < h->len; k++) {
    if (h->queue[k] == q && ++seen == n + 1)
      break;
    weight += h->weight[k];
  }
  return weight > 63 ? 63 : (uint32_t)weight; /* vmcnt holds 6 bits; PTX's M stays below HISTORY */
}

typedef struct rewrite {
  gac_inst *inst;
  uint32_t op;      /* GAC_ASYNC_COMMIT, GAC_ASYNC_WAIT, or 0 for OpGroupWaitEvents */
  uint32_t count;   /* M of a wait */
  uint32_t split;   /* In Flight one of two constants: the first (an id), */
  uint32_t count2;  /* and M for the other (count: for the first) */
  bool drain;       /* a wait on cp.async (or bulk) loads */
  /* AMDGCN's markers (docs/AMDGCN.md): the queue and In Flight (for the
   * first and the other constant), GAC_AMDGCN_ANY where not known */
  uint32_t queue, n, n2;
} rewrite;

/* M for AsyncWait w->inst in state h. clang-15 merges the waits of an
 * if/else into one whose In Flight is an OpPhi or OpSelect of two
 * constants: each gets its own M, and the wait becomes a branch on which
 * one In Flight is. */
static void wait_counts(const gac_lowering *L, rewrite *w, const history *h, bool tighten) {
  uint64_t q, n;
  uint32_t in_flight = w->inst->words[GAC_PIPELINE_VALUE_WORD];
  if (!lower_known(L, w->inst->words[GAC_PIPELINE_QUEUE_WORD], &q))
    return;
  w->queue = (uint32_t)q;
  if (lower_known(L, in_flight, &n)) {
    w->count = count_for(q, tighten && n ? n - 1 : n, h); /* a ping-pong loop's: one group more */
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
    if (!lower_known(L, v, &n))
      return;
    if ((distinct == 0 || values[0] != v) && (distinct < 2 || values[1] != v)) {
      if (distinct == 2)
        return;
      values[distinct++] = v;
    }
  }
  if (distinct == 0)
    return;
  lower_known(L, values[0], &n);
  w->count = count_for(q, n, h);
  w->n = (uint32_t)n;
  if (distinct == 2) {
    w->split = values[0];
    lower_known(L, values[1], &n);
    w->count2 = count_for(q, n, h);
    w->n2 = (uint32_t)n;
  }
}

void lower_ptx_call(gac_lowering *L, gac_builder *b, const char *name, unsigned n, const uint32_t *types,
                    const uint32_t *args) {
  uint32_t void_type = gac_type_void(L->m);
  uint32_t f = gac_require_import_function(L->m, name, void_type, types, n);
  gac_op ops[8];
  ops[0] = GAC_ID(f);
  for (unsigned i = 0; i < n && i < 7; i++)
    ops[i + 1] = GAC_ID(args[i]);
  gac_build(b, SpvOpFunctionCall, void_type, GAC_NEW_ID, ops, n + 1);
}

static void call0(gac_lowering *L, gac_builder *b, const char *name) { lower_ptx_call(L, b, name, 0, NULL, NULL); }

/* PTX: cp.async.wait_group count. AMDGCN: s_waitcnt vmcnt(count) with the
 * marker of what it waits for (queue, In Flight n; GAC_AMDGCN_ANY: all),
 * which gac-isa-check checks the count against. */
static void wait_call(gac_lowering *L, gac_builder *b, uint32_t count, uint32_t queue, uint32_t n) {
  gac_module *m = L->m;
  uint32_t uint = gac_type_int(m, 32, 0), types[3] = {uint, uint, uint};
  uint32_t args[3] = {gac_constant_int(m, uint, count)};
  if (!L->amdgcn) {
    lower_ptx_call(L, b, GAC_PTX_WAIT, 1, types, args);
    return;
  }
  if (n == GAC_AMDGCN_ANY) /* a runtime In Flight: the lowering waits for all */
    queue = GAC_AMDGCN_ANY;
  args[1] = gac_constant_int(m, uint, queue);
  args[2] = gac_constant_int(m, uint, n);
  lower_ptx_call(L, b, GAC_AMDGCN_WAIT_VM, 3, types, args);
}

uint32_t lower_ptx_opaque(gac_lowering *L, gac_builder *b, uint32_t x) {
  uint32_t f = gac_require_import_function(L->m, GAC_PTX_OPAQUE, L->size_type, &L->size_type, 1);
  return gac_build_ops(b, SpvOpFunctionCall, L->size_type, GAC_NEW_ID, GAC_ID(f), GAC_ID(x))->result_id;
}

void lower_ptx_cp_async(gac_lowering *L, gac_builder *b, unsigned width, uint32_t dst, uint32_t src) {
  char name[32];
  snprintf(name, sizeof name, GAC_PTX_CP_ASYNC_PREFIX "%u", width);
  uint32_t types[2] = {gac_type_pointer(L->m, SpvStorageClassWorkgroup, L->uchar_type),
                       gac_type_pointer(L->m, SpvStorageClassCrossWorkgroup, L->uchar_type)};
  uint32_t args[2] = {dst, src};
  lower_ptx_call(L, b, name, 2, types, args);
}

/* Whether f has a copy that may be bulk copies, global -> local (`load`:
 * on sm_90 f then gets a ring) or local -> global (its waits then wait
 * for bulk stores). */
static bool has_bulk(const gac_lowering *L, const gac_function *f, bool load) {
  const gac_module *m = L->m;
  gac_foreach_block(b, f) {
    gac_foreach_inst(i, &b->insts) {
      gac_async_copy k;
      uint32_t dst = 0, src = 0;
      if (gac_async_copy_decode(m, i, &k)) {
        dst = k.destination;
        src = k.source;
      } else if (i->opcode == SpvOpGroupAsyncCopy) {
        dst = gac_operand_word(i, 3);
        src = gac_operand_word(i, 4);
      } else {
        continue;
      }
      if ((load ? lower_global_to_local(m, dst, src) : lower_global_to_local(m, src, dst)) &&
          lower_ptx_may_bulk(L, i) && !lower_ptx_ws_producer_copy(L, i))
        return true;
    }
  }
  return false;
}


/* One commit, wait or OpGroupWaitEvents, replaced. On sm_90 with a ring,
 * the same groups are counted on the mbarriers: a commit also arrives, a
 * wait also waits for the ring's groups older than the M newest; where the
 * module may have bulk stores, every wait also completes them
 * (cp.async.bulk.wait_group 0). */
static void rewrite_one(gac_lowering *L, gac_ptx_ring *r, bool bulk_stores, const rewrite *w) {
  gac_module *m = L->m;
  gac_builder b = gac_builder_before(m, w->inst);
  uint32_t uint = gac_type_int(m, 32, 0);
  /* AMDGCN: a commit is its marker (and an empty group's padding), a wait
   * a vmcnt (a wait for all: 0). */
  if (L->amdgcn && w->op == GAC_ASYNC_COMMIT) {
    uint32_t types[2] = {uint, uint};
    uint32_t args[2] = {gac_constant_int(m, uint, w->queue), gac_constant_int(m, uint, w->count)};
    lower_ptx_call(L, &b, GAC_AMDGCN_COMMIT, 2, types, args);
    gac_inst_remove(m, w->inst);
    return;
  }
  if (L->amdgcn && w->op != GAC_ASYNC_WAIT && w->drain) {
    wait_call(L, &b, 0, GAC_AMDGCN_ANY, GAC_AMDGCN_ANY);
  } else if (w->op == GAC_ASYNC_COMMIT || w->drain) {
    uint32_t cond = 0;
    if (w->op == GAC_ASYNC_WAIT && w->split)
      cond = lower_op2(&b, SpvOpIEqual, L->bool_type, w->inst->words[GAC_PIPELINE_VALUE_WORD], w->split);
    if (cond) {
      /* if (In Flight == split) wait_group count; else wait_group count2 */
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
        wait_call(L, &a, counts[k], w->queue, ns[k]);
        gac_build_ops(&a, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(rest)));
      }
    } else if (w->op == GAC_ASYNC_WAIT) {
      wait_call(L, &b, w->count, w->queue, w->n);
    } else {
      call0(L, &b, w->op == GAC_ASYNC_COMMIT ? GAC_PTX_COMMIT : GAC_PTX_WAIT_ALL);
    }
    if (r && w->op != GAC_ASYNC_WAIT)
      lower_ptx_ring_commit(L, r, w->inst); /* an OpGroupWaitEvents commits what is pending, then waits for all */
    if (r && w->op != GAC_ASYNC_COMMIT) {
      uint32_t in_flight = gac_constant_int(m, L->size_type, w->op == GAC_ASYNC_WAIT ? w->count : 0);
      if (cond) {
        gac_builder s = gac_builder_before(m, w->inst);
        in_flight = gac_build_ops(&s, SpvOpSelect, L->size_type, GAC_NEW_ID, GAC_ID(cond), GAC_ID(in_flight),
                                  GAC_ID(gac_constant_int(m, L->size_type, w->count2)))->result_id;
      }
      lower_ptx_ring_wait(L, r, w->inst, in_flight);
    }
  }
  if (w->op != GAC_ASYNC_COMMIT) {
    gac_builder e = gac_builder_before(m, w->inst);
    if (bulk_stores)
      call0(L, &e, GAC_PTX_BULK_WAIT);
    /* AMDGCN: OpenCL's barrier through libclc also waits for vmcnt, which
     * would drain the loads left in flight on purpose. */
    if (L->amdgcn)
      call0(L, &e, GAC_AMDGCN_BARRIER);
    else
      lower_workgroup_barrier(L, &e);
  }
  gac_inst_remove(m, w->inst);
}

/* The fixpoint of the histories at the blocks' entries (in[0]: f's entry). */
static void solve(gac_lowering *L, const module_facts *mf, const pads *pad, gac_block **blocks, size_t num_blocks,
                  const uint32_t *index_of, history *in) {
  memset(in, 0, num_blocks * sizeof *in);
  in[0].reached = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t k = 0; k < num_blocks; k++) {
      if (!in[k].reached)
        continue;
      history h = in[k];
      gac_foreach_inst(i, &blocks[k]->insts) step(L, mf, pad, i, &h);
      gac_block *succ[64];
      unsigned ns = gac_block_successors(L->m, blocks[k], succ, 64);
      for (unsigned s = 0; s < ns; s++)
        changed |= meet(&in[index_of[gac_block_label(succ[s])]], &h);
    }
  }
}

/* AMDGCN: the weight K each queue's non-empty commits all have (loads
 * issued since the commit before), if they agree and it is not 0; true if
 * some queue has one. */
static bool find_pads(gac_lowering *L, const module_facts *mf, gac_block **blocks, size_t num_blocks,
                      const history *in, pads *pad) {
  for (size_t k = 0; k < num_blocks; k++) {
    history h = in[k];
    gac_foreach_inst(i, &blocks[k]->insts) {
      uint64_t q;
      if (gac_async_pipeline_op_of(L->m, i) == GAC_ASYNC_COMMIT && !commits_nothing(L->m, i) &&
          lower_known(L, i->words[GAC_PIPELINE_QUEUE_WORD], &q) && q < PAD_QUEUES && in[k].reached) {
        pad->differ[q] |= pad->seen[q] && pad->k[q] != h.pending;
        pad->k[q] = h.pending;
        pad->seen[q] = true;
      }
      step(L, mf, NULL, i, &h);
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

/* Replaces the commits and waits of f, with the counts of the fixpoint. */
static void lower_function(gac_lowering *L, const module_facts *mf, const bool *tighten, bool bulk_stores,
                           gac_function *f) {
  gac_module *m = L->m;
  size_t num_blocks = 0;
  gac_foreach_block(b, f) num_blocks++;
  if (num_blocks == 0)
    return;
  gac_block **blocks = malloc(num_blocks * sizeof *blocks);
  history *in = calloc(num_blocks, sizeof *in);
  uint32_t *index_of = calloc(m->bound, sizeof *index_of); /* label id -> block index */
  size_t n = 0;
  gac_foreach_block(b, f) {
    index_of[gac_block_label(b)] = (uint32_t)n;
    blocks[n++] = b;
  }
  solve(L, mf, NULL, blocks, num_blocks, index_of, in);
  pads pad = {0};
  const pads *padded = L->amdgcn && find_pads(L, mf, blocks, num_blocks, in, &pad) ? &pad : NULL;
  if (padded)
    solve(L, mf, padded, blocks, num_blocks, index_of, in);
  size_t num = 0, cap = 16;
  rewrite *todo = malloc(cap * sizeof *todo);
  uint32_t deepest = 0;
  for (size_t k = 0; k < num_blocks; k++) {
    history h = in[k];
    gac_foreach_inst(i, &blocks[k]->insts) {
      uint32_t op = gac_async_pipeline_op_of(m, i);
      rewrite w = {.inst = i, .op = op, .queue = GAC_AMDGCN_ANY, .n = GAC_AMDGCN_ANY, .n2 = GAC_AMDGCN_ANY};
      uint64_t q;
      if (op == GAC_ASYNC_WAIT)
        wait_counts(L, &w, &h, tighten && tighten[i->result_id]);
      if (op == GAC_ASYNC_COMMIT && lower_known(L, i->words[GAC_PIPELINE_QUEUE_WORD], &q) && q < GAC_AMDGCN_ANY)
        w.queue = (uint32_t)q;
      if (L->amdgcn && op == GAC_ASYNC_COMMIT && commits_nothing(m, i) && w.queue < PAD_QUEUES)
        w.count = pad.k[w.queue]; /* the loads it is padded with */
      w.drain = op == GAC_ASYNC_WAIT || (i->opcode == SpvOpGroupWaitEvents && wait_drains(&mf->draining, i));
      step(L, mf, padded, i, &h);
      /* (The warp-specialised handshakes are lower_ptx_warp_specialize.c's.) */
      if ((!op || op >= GAC_WARP_SPECIALIZE) && i->opcode != SpvOpGroupWaitEvents)
        continue;
      if (num == cap)
        todo = realloc(todo, (cap *= 2) * sizeof *todo);
      todo[num++] = w;
      deepest = w.count > deepest ? w.count : deepest;
      deepest = w.count2 > deepest ? w.count2 : deepest;
    }
  }
  /* sm_90: the ring holds the groups that may be in flight at once. */
  gac_ptx_ring *r = L->sm90 && has_bulk(L, f, true) ? lower_ptx_ring_create(L, f, deepest + 1) : NULL;
  for (size_t k = 0; k < num; k++)
    rewrite_one(L, r, bulk_stores, &todo[k]);
  free(todo);
  free(blocks);
  free(in);
  free(index_of);
}

bool lower_async_waits_ptx(gac_lowering *L) {
  /* Markers of loops not pipelined go first: they are neither commits nor
   * waits (each once became a barrier here). */
  lower_drop_pipeline_markers(L->m);
  bool progress = false;
  /* AMDGCN ping-pong: its calls first, so that committing knows them. */
  bool *tighten = NULL;
  if (L->amdgcn && L->pingpong) {
    tighten = calloc(L->m->bound, sizeof *tighten);
    gac_foreach_function(f, L->m) lower_amdgcn_pingpong(L, f, tighten);
  }
  module_facts mf = {.committing = calloc(L->m->bound, sizeof *mf.committing), .draining = find_draining(L->m)};
  gac_foreach_function(f, L->m) mf.committing[f->def->result_id] = commits(L->m, f);
  /* A wait may be in another function than the bulk store it waits for
   * (an event passed or returned): any in the module makes every wait
   * complete them. */
  bool bulk_stores = false;
  gac_foreach_function(f, L->m) bulk_stores |= L->sm90 && has_bulk(L, f, false);
  gac_foreach_function(f, L->m) {
    gac_foreach_block(b, f) {
      gac_foreach_inst(i, &b->insts) progress |= i->opcode == SpvOpGroupWaitEvents || gac_async_pipeline_op_of(L->m, i);
    }
    lower_function(L, &mf, tighten, bulk_stores, f);
  }
  free(mf.committing);
  free(mf.draining.waits);
  free(tighten);
  return progress;
}
