/* sm_90: warp-specialised loops (--pipeline-loops=warp-specialize, seed
 * 004's Pipe_ and Mutex_; docs/PTX.md).
 *
 * A function with WarpSpecialize runs with C + P work-items: the
 * consumers (the kernel's own C) and a producer warp (P = 32). Each Pipe
 * of depth d gets two rings of d mbarriers in local memory:
 *
 *   full[k]   count P: every producer lane's cp.async.mbarrier.arrive.noinc
 *             after its copies, so the phase completes when all of the
 *             slot's cp.async have landed; bulk copies (lines of 256 bytes
 *             or more, 16-byte aligned: lower_async_copies.c) complete on
 *             it too, lane 0 adding their bytes with expect_tx first;
 *   empty[k]  count C: every consumer arrives when done with the slot.
 *
 *   PipeProducerAcquire(t)  wait empty[t mod d], parity ((t / d) & 1) ^ 1
 *                           (a fresh mbarrier counts its phase "before 0",
 *                           parity 1, as complete: the first d pass at once)
 *   the copies              the producer lanes share them (cp.async units,
 *                           or bulk copies per line)
 *   PipeProducerCommit(t)   cp.async.mbarrier.arrive.noinc full[t mod d]
 *   PipeConsumerWait(t)     wait full[t mod d], parity (t / d) & 1
 *   PipeConsumerRelease(t)  arrive on empty[t mod d]
 *   MutexSync               barrier.sync Barrier, Threads (a named barrier;
 *                           not .aligned: a consumer warp may be split there)
 *
 * The producer returns after its loop, so every barrier the consumers meet
 * after the split (their MutexSyncs, and the barriers that the copy
 * lowering put after their waits) is their named barrier, never barrier 0.
 * The launch is one-dimensional, C + P work-items (the kernel's entry
 * exports __gac_block_threads_<name> saying so); the consumers' ids and
 * sizes are rebuilt from the linear id as the kernel's required size
 * gives them, so the kernel sees the geometry it was written for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/ptx.h"
#include "ptx_lowering.h"

typedef struct pipe_rings {
  uint32_t pipe, depth, full, empty; /* full/empty: local ulong[depth] */
} pipe_rings;

static uint32_t ring_array(gac_lowering *L, uint32_t depth, const char *name) {
  gac_module *m = L->m;
  uint32_t ulong = lower_ulong_type(m);
  uint32_t array = gac_type_array(m, ulong, gac_constant_int(m, gac_type_int(m, 32, 0), depth));
  gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]);
  uint32_t var = gac_build_ops(&g, SpvOpVariable, gac_type_pointer(m, SpvStorageClassWorkgroup, array), GAC_NEW_ID,
                               GAC_LIT(SpvStorageClassWorkgroup))->result_id;
  gac_builder n = gac_builder_at_end(m, &m->sections[GAC_SECTION_DEBUG_NAME]);
  gac_build_ops(&n, SpvOpName, 0, 0, GAC_ID(var), GAC_STR(name));
  if (m->version >= 0x00010400)
    gac_add_to_interfaces(m, var);
  return var;
}

static uint32_t slot(gac_lowering *L, gac_builder *b, uint32_t ring, uint32_t depth, uint32_t t) {
  gac_module *m = L->m;
  uint32_t type = gac_value_type(m, t)->result_id;
  uint32_t index = lower_op2(b, SpvOpUMod, type, t, gac_constant_int(m, type, depth));
  uint32_t ptr = gac_type_pointer(m, SpvStorageClassWorkgroup, lower_ulong_type(m));
  return gac_build_ops(b, SpvOpAccessChain, ptr, GAC_NEW_ID, GAC_ID(ring), GAC_ID(index))->result_id;
}

enum { MAX_PIPES = 8 };

struct gac_ptx_ws {
  gac_function *f;
  uint32_t consumers, producers;
  pipe_rings rings[MAX_PIPES];
  unsigned num_rings;
  gac_block *consumer_start;
  uint8_t *producer_block; /* by label id, below bound */
  uint32_t bound;
  struct gac_ptx_ws *next;
};

static gac_block *block_of_label(const gac_module *m, uint32_t label) {
  gac_inst *l = gac_def(m, label);
  return l && l->opcode == SpvOpLabel ? gac_inst_block(l) : NULL;
}

static uint64_t constant_of(const gac_lowering *L, uint32_t id) {
  uint64_t v = 0;
  gac_constant_value(L->m, id, &v);
  return v;
}

bool lower_ptx_ws_prepare(gac_lowering *L, gac_diag *diag) {
  gac_module *m = L->m;
  gac_foreach_function(f, m) {
    gac_inst *ws = NULL;
    gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) if (gac_async_pipeline_op_of(m, i) == GAC_WARP_SPECIALIZE) ws = i;
    if (!ws)
      continue;
    if (!ptx_state(L)->sm90) {
      gac_diag_add(diag, GAC_ERROR, ws->offset, ws->result_id, "ptx.warp-specialize",
                   "WarpSpecialize: a warp-specialised loop needs sm_90 (mbarriers with a producer warp); "
                   "emit with --sm=90");
      return false;
    }
    struct gac_ptx_ws *w = calloc(1, sizeof *w);
    w->f = f;
    w->consumers = (uint32_t)constant_of(L, ws->words[GAC_WS_CONSUMERS_WORD]);
    w->producers = (uint32_t)constant_of(L, ws->words[GAC_WS_PRODUCERS_WORD]);
    w->consumer_start = gac_inst_block(ws);
    w->bound = m->bound;
    w->producer_block = calloc(m->bound, 1);
    w->next = ptx_state(L)->ws;
    ptx_state(L)->ws = w;
    /* The producer side: the other way of the branch into the consumers. */
    gac_foreach_block(b, f) {
      gac_inst *t = gac_block_terminator(b);
      if (t && t->opcode == SpvOpBranchConditional &&
          gac_operand_word(t, 2) == gac_block_label(w->consumer_start)) {
        gac_block *p = block_of_label(m, gac_operand_word(t, 1));
        if (p)
          lower_reach_blocks(m, p, w->consumer_start, w->producer_block, w->bound);
      }
    }
    /* Each pipe's rings, which the producer's copies already arm. */
    gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
      if (gac_async_pipeline_op_of(m, i) != GAC_PIPE)
        continue;
      if (w->num_rings == MAX_PIPES) {
        gac_diag_add(diag, GAC_ERROR, i->offset, i->result_id, "ptx.warp-specialize", "Pipe: at most %d per function",
                     MAX_PIPES);
        return false;
      }
      uint32_t d = (uint32_t)constant_of(L, i->words[GAC_PIPE_DEPTH_WORD]);
      w->rings[w->num_rings++] = (pipe_rings){i->result_id, d, ring_array(L, d, "__gac_full"),
                                              ring_array(L, d, "__gac_empty")};
    }
  }
  return true;
}

/* Whether block b runs in the producer warp: one found so by prepare, or
 * one the copy lowering has made since (label past the bound) that a
 * producer's block leads to. */
static bool in_producer(const struct gac_ptx_ws *w, const gac_block *b, uint8_t *seen, uint32_t bound) {
  uint32_t label = gac_block_label(b);
  if (label < w->bound)
    return w->producer_block[label];
  if (label >= bound || seen[label])
    return false;
  seen[label] = 1;
  gac_foreach_block(p, w->f) {
    const gac_inst *t = gac_block_terminator(p);
    unsigned targets[8], n = t ? gac_terminator_targets(t, targets, 8) : 0;
    for (unsigned k = 0; k < n; k++)
      if (gac_operand_word(t, targets[k]) == label && in_producer(w, p, seen, bound))
        return true;
  }
  return false;
}

static const struct gac_ptx_ws *ws_of_block(const gac_lowering *L, const gac_block *b) {
  for (const struct gac_ptx_ws *w = ptx_state(L)->ws; w && b; w = w->next) {
    if (w->f != b->function)
      continue;
    uint8_t *seen = calloc(L->m->bound, 1);
    bool producer = in_producer(w, b, seen, L->m->bound);
    free(seen);
    return producer ? w : NULL;
  }
  return NULL;
}

/* The pipe ring a producer's copy fills, and the iteration: the
 * PipeProducerCommit whose group the copy is in. */
static const pipe_rings *ring_of_copy(const gac_lowering *L, const struct gac_ptx_ws *w, const gac_inst *copy,
                                      uint32_t *t) {
  gac_module *m = L->m;
  gac_foreach_block(b, w->f) gac_foreach_inst(i, &b->insts) {
    if (gac_async_pipeline_op_of(m, i) != GAC_PIPE_PRODUCER_COMMIT)
      continue;
    uint32_t e = i->words[GAC_PIPE_EVENT_WORD];
    for (unsigned depth = 0; e && depth < 256; depth++) {
      gac_async_copy k;
      const gac_inst *d = gac_def(m, e);
      if (d == copy)
        for (unsigned r = 0; r < w->num_rings; r++)
          if (w->rings[r].pipe == i->words[GAC_PIPE_OF_WORD]) {
            *t = i->words[GAC_PIPE_ITERATION_WORD];
            return &w->rings[r];
          }
      if (!d || !gac_async_copy_decode(m, d, &k))
        break;
      e = k.event;
    }
  }
  return NULL;
}

bool lower_ptx_ws_producer_copy(const gac_lowering *L, const gac_inst *copy) {
  return ptx_state(L)->ws && ws_of_block(L, gac_inst_block(copy));
}

uint32_t lower_ptx_ws_full_slot(gac_lowering *L, gac_builder *b, const gac_inst *copy) {
  const struct gac_ptx_ws *w = ptx_state(L)->ws ? ws_of_block(L, gac_inst_block(copy)) : NULL;
  uint32_t t;
  const pipe_rings *r = w ? ring_of_copy(L, w, copy, &t) : NULL;
  return r ? slot(L, b, r->full, r->depth, t) : 0;
}

void lower_ptx_ws_participants(const gac_lowering *L, gac_builder *b, uint32_t *id, uint32_t *size) {
  if (!ptx_state(L)->ws || !b->list || !b->list->first)
    return;
  const struct gac_ptx_ws *w = ws_of_block(L, gac_inst_block(b->list->first));
  if (!w)
    return;
  *id = lower_op2(b, SpvOpISub, L->size_type, *id, gac_constant_int(L->m, L->size_type, w->consumers));
  *size = gac_constant_int(L->m, L->size_type, w->producers);
}

/* ---- finishing ---------------------------------------------------------- */

/* (t / depth) & 1, flipped for the producer's wait on empty[]. */
static uint32_t parity(gac_lowering *L, gac_builder *b, uint32_t depth, uint32_t t, bool flip) {
  gac_module *m = L->m;
  uint32_t type = gac_value_type(m, t)->result_id;
  uint32_t p = lower_op2(b, SpvOpBitwiseAnd, type, lower_op2(b, SpvOpUDiv, type, t, gac_constant_int(m, type, depth)),
                         gac_constant_int(m, type, 1));
  if (flip)
    p = lower_op2(b, SpvOpBitwiseXor, type, p, gac_constant_int(m, type, 1));
  uint32_t uint = gac_type_int(m, 32, 0);
  return type == uint ? p : gac_build_ops(b, SpvOpUConvert, uint, GAC_NEW_ID, GAC_ID(p))->result_id;
}

static void mbar_call(gac_lowering *L, gac_builder *b, const char *name, uint32_t mbar, uint32_t arg) {
  uint32_t types[2] = {gac_def(L->m, mbar)->type_id, gac_type_int(L->m, 32, 0)}, args[2] = {mbar, arg};
  lower_call(L, b, name, arg ? 2 : 1, types, args);
}

static void named_barrier(gac_lowering *L, gac_builder *b, uint32_t id, uint32_t threads) {
  uint32_t uint = gac_type_int(L->m, 32, 0);
  uint32_t types[2] = {uint, uint}, args[2] = {gac_constant_int(L->m, uint, id), gac_constant_int(L->m, uint, threads)};
  lower_call(L, b, GAC_PTX_NAMED_BARRIER, 2, types, args);
}

/* The rings' mbarriers, initialised by work-item 0 at the function's entry
 * (every work-item is there), then fenced and seen by all. */
static void init_rings(gac_lowering *L, gac_function *f, const pipe_rings *r, unsigned n, uint32_t producers,
                       uint32_t consumers) {
  gac_module *m = L->m;
  gac_inst *first = gac_function_after_variables(f);
  gac_block *pre = gac_inst_block(first);
  gac_block *join = gac_block_split_after(m, first->prev);
  gac_block *init = gac_block_create(m, f, pre);
  gac_builder b = gac_builder_at_end(m, &pre->insts);
  uint32_t id, size;
  lower_linear_local_id(L, &b, f, &id, &size);
  gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(lower_op2(&b, SpvOpIEqual, L->bool_type, id, L->zero)),
                GAC_ID(gac_block_label(init)), GAC_ID(gac_block_label(join)));
  gac_builder e = gac_builder_at_end(m, &init->insts);
  uint32_t uint = gac_type_int(m, 32, 0);
  for (unsigned p = 0; p < n; p++)
    for (uint32_t k = 0; k < r[p].depth; k++) {
      uint32_t index = gac_constant_int(m, uint, k);
      mbar_call(L, &e, GAC_PTX_MBAR_INIT_COUNT, slot(L, &e, r[p].full, r[p].depth, index),
                gac_constant_int(m, uint, producers));
      mbar_call(L, &e, GAC_PTX_MBAR_INIT_COUNT, slot(L, &e, r[p].empty, r[p].depth, index),
                gac_constant_int(m, uint, consumers));
    }
  lower_call(L, &e, GAC_PTX_MBAR_INIT_FENCE, 0, NULL, NULL);
  gac_build_ops(&e, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(join)));
  gac_builder j = gac_builder_before(m, join->insts.first->next);
  lower_workgroup_barrier(L, &j);
}

/* The consumers' geometry: ids from the linear id of the one-dimensional
 * launch, as the required size (X, Y, Z) lays them out; the outermost
 * dimension of more than one takes the rest undivided, so the producer
 * warp's ids lie just past the work-group there. */
static void rewrite_geometry(gac_lowering *L, gac_function *f, const uint64_t size[3]) {
  gac_module *m = L->m;
  uint32_t v3 = gac_type_vector(m, L->size_type, 3);
  unsigned last = size[2] > 1 ? 2 : size[1] > 1 ? 1 : 0;
  gac_foreach_block(blk, f) {
    for (gac_inst *i = blk->insts.first, *next; i; i = next) {
      next = i->next;
      if (i->opcode != SpvOpLoad)
        continue;
      uint32_t var = gac_operand_word(i, 2), builtin = ~0u;
      gac_foreach_inst(d, &m->sections[GAC_SECTION_ANNOTATION]) if (d->opcode == SpvOpDecorate && d->words[1] == var &&
                                                                    d->words[2] == SpvDecorationBuiltIn) builtin =
          d->words[3];
      if (builtin != SpvBuiltInLocalInvocationId && builtin != SpvBuiltInWorkgroupSize &&
          builtin != SpvBuiltInEnqueuedWorkgroupSize && builtin != SpvBuiltInGlobalInvocationId &&
          builtin != SpvBuiltInGlobalSize)
        continue;
      if (i->type_id != v3)
        continue; /* (SPIR64 and SPIR32 both load size-type vectors) */
      gac_builder b = gac_builder_after(m, i);
      uint32_t c[3], s[3];
      for (unsigned d = 0; d < 3; d++)
        s[d] = gac_constant_int(m, L->size_type, size[d]);
      if (builtin == SpvBuiltInWorkgroupSize || builtin == SpvBuiltInEnqueuedWorkgroupSize) {
        memcpy(c, s, sizeof c);
      } else if (builtin == SpvBuiltInGlobalSize) {
        uint32_t groups = gac_build_ops(&b, SpvOpLoad, v3, GAC_NEW_ID,
                                        GAC_ID(gac_require_builtin_input(m, SpvBuiltInNumWorkgroups, v3)))->result_id;
        for (unsigned d = 0; d < 3; d++)
          c[d] = lower_mul(L, &b, gac_build_ops(&b, SpvOpCompositeExtract, L->size_type, GAC_NEW_ID, GAC_ID(groups),
                                                GAC_LIT(d))->result_id, s[d]);
      } else {
        uint32_t lid = gac_build_ops(&b, SpvOpLoad, v3, GAC_NEW_ID,
                                     GAC_ID(gac_require_builtin_input(m, SpvBuiltInLocalInvocationId, v3)))->result_id;
        uint32_t rest = gac_build_ops(&b, SpvOpCompositeExtract, L->size_type, GAC_NEW_ID, GAC_ID(lid), GAC_LIT(0))->result_id;
        for (unsigned d = 0; d < 3; d++) {
          if (d > last) {
            c[d] = L->zero;
          } else if (d == last) {
            c[d] = rest;
          } else {
            c[d] = lower_op2(&b, SpvOpUMod, L->size_type, rest, s[d]);
            rest = lower_op2(&b, SpvOpUDiv, L->size_type, rest, s[d]);
          }
        }
        if (builtin == SpvBuiltInGlobalInvocationId) {
          uint32_t g = gac_build_ops(&b, SpvOpLoad, v3, GAC_NEW_ID,
                                     GAC_ID(gac_require_builtin_input(m, SpvBuiltInWorkgroupId, v3)))->result_id;
          for (unsigned d = 0; d < 3; d++)
            c[d] = lower_add(L, &b, lower_mul(L, &b, gac_build_ops(&b, SpvOpCompositeExtract, L->size_type, GAC_NEW_ID,
                                                                   GAC_ID(g), GAC_LIT(d))->result_id, s[d]), c[d]);
        }
      }
      /* Inserts, not OpCompositeConstruct: llvm-spirv-15 reads that as a
       * constant vector and crashes on any other constituent. */
      uint32_t v = gac_constant_null(m, v3);
      for (unsigned d = 0; d < 3; d++)
        v = gac_build_ops(&b, SpvOpCompositeInsert, v3, GAC_NEW_ID, GAC_ID(c[d]), GAC_ID(v), GAC_LIT(d))->result_id;
      gac_replace_all_uses(m, i->result_id, v);
      gac_inst_remove(m, i);
    }
  }
}

/* __gac_block_threads_<kernel>: what the host launches a warp-specialised
 * kernel with, one-dimensional (conformance/gpu/runner.c, bench/cuda). */
static void export_block_threads(gac_lowering *L, gac_function *f, uint32_t threads) {
  gac_module *m = L->m;
  gac_foreach_inst(e, &m->sections[GAC_SECTION_ENTRY_POINT]) {
    gac_function *k = lower_function_by_id(m, e->words[2]);
    bool runs_f = k == f;
    gac_foreach_block(b, k) gac_foreach_inst(i, &b->insts) runs_f |= i->opcode == SpvOpFunctionCall &&
                                                                    gac_operand_word(i, 2) == f->def->result_id;
    if (!runs_f)
      continue;
    char name[256];
    snprintf(name, sizeof name, GAC_PTX_BLOCK_THREADS_PREFIX "%s", gac_inst_string(e, 2));
    gac_require_capability(m, SpvCapabilityLinkage);
    uint32_t uint = gac_type_int(m, 32, 0);
    gac_builder g = gac_builder_at_end(m, &m->sections[GAC_SECTION_GLOBAL]);
    uint32_t var = gac_build_ops(&g, SpvOpVariable, gac_type_pointer(m, SpvStorageClassCrossWorkgroup, uint),
                                 GAC_NEW_ID, GAC_LIT(SpvStorageClassCrossWorkgroup),
                                 GAC_ID(gac_constant_int(m, uint, threads)))->result_id;
    gac_builder a = gac_builder_at_end(m, &m->sections[GAC_SECTION_ANNOTATION]);
    gac_build_ops(&a, SpvOpDecorate, 0, 0, GAC_ID(var), GAC_LIT(SpvDecorationLinkageAttributes), GAC_STR(name),
                  GAC_LIT(SpvLinkageTypeExport));
    gac_build_ops(&a, SpvOpDecorate, 0, 0, GAC_ID(var), GAC_LIT(SpvDecorationConstant));
  }
}

static bool finish_one(gac_lowering *L, struct gac_ptx_ws *w, gac_diag *diag) {
  gac_module *m = L->m;
  gac_function *f = w->f;
  const pipe_rings *rings = w->rings;
  unsigned nr = w->num_rings;
  uint32_t mutex_id = 0;
  gac_foreach_block(b, f) gac_foreach_inst(i, &b->insts) {
    if (gac_async_pipeline_op_of(m, i) == GAC_MUTEX)
      mutex_id = (uint32_t)constant_of(L, i->words[GAC_MUTEX_BARRIER_WORD]);
  }
  if (!mutex_id)
    mutex_id = 1; /* the pool's first: no Mutex holds any */
  /* Barriers the consumers meet: theirs alone. */
  uint8_t *consumer = calloc(m->bound, 1);
  lower_reach_blocks(m, w->consumer_start, NULL, consumer, m->bound);
  gac_foreach_block(b, f) {
    if (gac_block_label(b) >= m->bound || !consumer[gac_block_label(b)])
      continue;
    for (gac_inst *i = b->insts.first, *next; i; i = next) {
      next = i->next;
      if (i->opcode != SpvOpControlBarrier)
        continue;
      gac_builder ib = gac_builder_before(m, i);
      named_barrier(L, &ib, mutex_id, w->consumers);
      gac_inst_remove(m, i);
    }
  }
  free(consumer);
  /* The handshakes. */
  gac_foreach_block(b, f) {
    for (gac_inst *i = b->insts.first, *next; i; i = next) {
      next = i->next;
      uint32_t op = gac_async_pipeline_op_of(m, i);
      if (!op)
        continue;
      gac_builder ib = gac_builder_before(m, i);
      const pipe_rings *r = NULL;
      for (unsigned k = 0; k < nr && op >= GAC_PIPE_PRODUCER_ACQUIRE && op <= GAC_PIPE_CONSUMER_RELEASE; k++)
        if (rings[k].pipe == i->words[GAC_PIPE_OF_WORD])
          r = &rings[k];
      uint32_t t = op >= GAC_PIPE_PRODUCER_ACQUIRE && op <= GAC_PIPE_CONSUMER_RELEASE ? i->words[GAC_PIPE_ITERATION_WORD] : 0;
      if (t && !r) {
        gac_diag_add(diag, GAC_ERROR, i->offset, i->result_id, "ptx.warp-specialize", "the Pipe operand is no Pipe");
        return false;
      }
      switch (op) {
      case GAC_PIPE_PRODUCER_ACQUIRE:
        mbar_call(L, &ib, GAC_PTX_MBAR_WAIT, slot(L, &ib, r->empty, r->depth, t), parity(L, &ib, r->depth, t, true));
        break;
      case GAC_PIPE_PRODUCER_COMMIT:
        mbar_call(L, &ib, GAC_PTX_CP_ASYNC_MBAR_ARRIVE, slot(L, &ib, r->full, r->depth, t), 0);
        break;
      case GAC_PIPE_CONSUMER_WAIT:
        mbar_call(L, &ib, GAC_PTX_MBAR_WAIT, slot(L, &ib, r->full, r->depth, t), parity(L, &ib, r->depth, t, false));
        break;
      case GAC_PIPE_CONSUMER_RELEASE:
        mbar_call(L, &ib, GAC_PTX_MBAR_ARRIVE, slot(L, &ib, r->empty, r->depth, t), 0);
        break;
      case GAC_MUTEX_SYNC:
        named_barrier(L, &ib, mutex_id, w->consumers);
        break;
      default:
        break;
      }
      gac_inst_remove(m, i);
    }
  }
  uint64_t size[3];
  if (!gac_local_size(m, f->def->result_id, GAC_LOCAL_SIZE_EVERY_LAUNCH, size)) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "ptx.warp-specialize",
                 "a warp-specialised function needs the required work-group size of the kernels that call it");
    return false;
  }
  init_rings(L, f, rings, nr, w->producers, w->consumers);
  rewrite_geometry(L, f, size);
  export_block_threads(L, f, w->consumers + w->producers);
  return true;
}

bool lower_ptx_ws_finish(gac_lowering *L, gac_diag *diag) {
  bool ok = true;
  while (ptx_state(L)->ws) {
    struct gac_ptx_ws *next = ptx_state(L)->ws->next;
    ok = ok && finish_one(L, ptx_state(L)->ws, diag);
    free(ptx_state(L)->ws->producer_block);
    free(ptx_state(L)->ws);
    ptx_state(L)->ws = next;
  }
  return ok;
}
