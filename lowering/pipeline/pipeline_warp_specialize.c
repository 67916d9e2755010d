/* The warp-specialised schedule of --pipeline-loops=warp-specialize: why
 * a loop cannot take it (ws_why_not), and its emission: a producer warp
 * that runs the async statements into the Pipes' rings, and the consumers
 * that run the others, with Pipe and Mutex handshakes (named barriers). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/async_copy.h"
#include "gac/async_pipeline.h"
#include "gac/builder.h"
#include "gac/cfg.h"
#include "gac/validate.h"
#include "lower_util.h"
#include "lowering.h"
#include "pipeline_loops_internal.h"
#include "pipeline_schedule.h"

/* ---- Warp specialisation (--pipeline-loops=warp-specialize) ------------ */

/* Seed 004's handshakes as the loop's schedule: the kernel gets one more
 * warp, the producer, which runs the async statements of every iteration
 * into a ring of `depth` versions of their arrays (Pipe: acquire a free
 * slot, copy, commit the copies to the slot), while the C work-items of the
 * kernel's own size (the consumers) run the other statements (wait for the
 * slot, compute, release it). Only the PTX path (sm_90) lowers this. */

static bool ws_is_barrier(const gac_inst *i) { return i->opcode == SpvOpControlBarrier; }

/* Does function fid (or one it calls) synchronise the work-group or read a
 * work-item builtin? The consumer geometry is rewritten in the kernel's
 * own function only (lowering/ptx/lower_ptx_warp_specialize.c). */
static bool ws_callee_unfit(const gac_module *m, uint32_t fid, unsigned depth) {
  const gac_function *g = lower_function_by_id(m, fid);
  if (!g || depth > 8)
    return true;
  gac_foreach_block(b, g) {
    gac_foreach_inst(i, &b->insts) {
      if (ws_is_barrier(i))
        return true;
      if (i->opcode == SpvOpLoad) {
        const gac_inst *v = gac_def(m, gac_operand_word(i, 2));
        if (v && v->opcode == SpvOpVariable && v->words[3] == SpvStorageClassInput)
          return true;
      }
      if (i->opcode == SpvOpFunctionCall && ws_callee_unfit(m, gac_operand_word(i, 2), depth + 1))
        return true;
    }
  }
  return false;
}

bool pipeline_is_pipe_buffer(const pipeliner *P, uint32_t root) {
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].var == root)
      return P->buffers[k].writer >= 0 && P->stmts[P->buffers[k].writer].async;
  return false;
}

/* The scalar type a ring made of variable `var` holds in its slots. */
static uint32_t slot_scalar(const gac_module *m, const gac_inst *var) {
  const gac_inst *t = gac_def(m, var->type_id);
  return t && t->opcode == SpvOpTypePointer ? gac_pipe_scalar_of(m, t->words[3]) : 0;
}

/* Why the loop cannot be warp-specialised, or NULL (then *w is filled). */
const char *pipeline_ws_why_not(pipeliner *P, ws_plan *w, char *why, size_t len) {
  gac_module *m = P->m;
  uint64_t size[3];
  const gac_inst *ftype = gac_def(m, P->f->def->words[4]);
  if (!ftype || gac_def(m, ftype->words[2])->opcode != SpvOpTypeVoid)
    return "the function returns a value (the producer warp returns when its loop ends)";
  if (!gac_local_size(m, P->f->def->result_id, GAC_LOCAL_SIZE_EVERY_LAUNCH, size))
    return "the kernel has no reqd_work_group_size (the producer warp is added to a known size)";
  w->consumers = size[0] * size[1] * size[2];
  if (w->consumers % 32 || w->consumers + WS_PRODUCERS > 1024) {
    snprintf(why, len, "the work-group size %llu is not a multiple of 32 below %d",
             (unsigned long long)w->consumers, 1024 - WS_PRODUCERS + 1);
    return why;
  }
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].version_elems && pipeline_is_pipe_buffer(P, P->buffers[k].var))
      return "a tile is a __local pointer parameter (the ring is made of arrays the kernel declares)";
  unsigned loops = 0;
  gac_foreach_block(b, P->f) gac_foreach_inst(i, &b->insts) loops += pipeline_is_marker(P, i, GAC_PIPELINE_LOOP);
  if (loops != 1)
    return "the function has several pipelined loops (one producer warp serves one loop)";
  int producer_stage = -1;
  for (unsigned s = 0; s < P->num_stmts; s++) {
    const stmt_info *st = &P->stmts[s];
    if (!st->async)
      continue;
    if (producer_stage >= 0 && (unsigned)producer_stage != st->stage)
      return "async statements in several stages (one ring serves one stage)";
    producer_stage = (int)st->stage;
    if (st->wait_conditional)
      return "an async statement waits under a condition";
  }
  if (producer_stage < 0)
    return "no async statement";
  w->producer_stage = (unsigned)producer_stage;
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (!P->stmts[s].async && P->stmts[s].stage <= w->producer_stage) {
      snprintf(why, len, "statement %u (stage %u) is not async but not after the async stage %u", s,
               P->stmts[s].stage, w->producer_stage);
      return why;
    }
  for (unsigned k = 0; k < P->num_carried; k++)
    if (P->stmts[P->carried[k].owner].async)
      return "an async statement carries a value round the loop";
  /* What each side may do. */
  w->keep_barriers = false;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    bool in = P->in_loop[b];
    int s = in ? P->region[b] : -1;
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      if (i->opcode == SpvOpFunctionCall && ws_callee_unfit(m, gac_operand_word(i, 2), 0)) {
        snprintf(why, len, "the function calls %%%u, which synchronises the work-group or reads a work-item "
                 "builtin", gac_operand_word(i, 2));
        return why;
      }
      if (!in || s < 0)
        continue;
      bool producer = P->stmts[s].async;
      if (producer) {
        bool copy = gac_is_async_copy_inst(m, i) || i->opcode == SpvOpGroupAsyncCopy;
        bool event_var = (i->opcode == SpvOpStore || i->opcode == SpvOpLoad) &&
                         lower_storage_class(m, gac_operand_word(i, i->opcode == SpvOpStore ? 0 : 2)) ==
                             SpvStorageClassFunction;
        uint32_t dst = copy ? gac_operand_word(i, i->opcode == SpvOpGroupAsyncCopy ? 3 : 4) : 0, scalar;
        if (copy && lower_storage_class(m, dst) != SpvStorageClassWorkgroup)
          return "an async statement copies into global memory (the producer fills local buffers only)";
        /* The ring's slots hold the buffer's element type, which the
         * producer's copies must write (AsyncPipeline.PipeShape). */
        const gac_inst *root = copy ? gac_pipe_pointer_root(m, dst, &scalar) : NULL;
        if (root && scalar != slot_scalar(m, root)) {
          snprintf(why, len, "a copy writes %%%u with another element type than its elements (the ring's slots "
                   "hold one type)", root->result_id);
          return why;
        }
        if (!copy && !event_var && !pipeline_is_pure(P, i) && !pipeline_is_hint(i) && i != P->stmts[s].wait &&
            i->opcode != SpvOpLabel && i != gac_block_terminator(pipeline_block_at(P, b)) && !gac_async_pipeline_op_of(m, i)) {
          snprintf(why, len, "an async statement does more than copy (%s %%%u)", pipeline_opname(i->opcode), i->result_id);
          return why;
        }
        continue;
      }
      uint32_t scalar;
      const gac_inst *read = i->opcode == SpvOpLoad ? gac_pipe_pointer_root(m, gac_operand_word(i, 2), &scalar) : NULL;
      if (read && pipeline_is_pipe_buffer(P, read->result_id) && gac_pipe_scalar_of(m, i->type_id) != slot_scalar(m, read)) {
        snprintf(why, len, "a load reads %%%u as another type than its elements (the ring's slots hold one type)",
                 read->result_id);
        return why;
      }
      for (unsigned k = (i->type_id != 0) + (i->result_id != 0); k < i->num_operands; k++) {
        uint32_t root = i->operands[k].kind == GAC_OPERAND_ID ? pipeline_buffer_root(P, gac_operand_word(i, k)) : 0;
        if (root && !pipeline_is_pure(P, i) && !pipeline_is_pipe_buffer(P, root))
          w->keep_barriers = true;
      }
      if (i->opcode == SpvOpFunctionCall || gac_is_async_copy_inst(m, i) || i->opcode == SpvOpGroupAsyncCopy)
        w->keep_barriers = true;
    }
  }
  /* The code before the loop runs in every work-item, the producer warp's
   * too, whose local ids lie beyond the work-group: it may only compute. */
  gac_cfg *c = &P->cfg;
  bool *before = calloc(c->num_blocks, sizeof *before);
  unsigned stack[4096], sp = 0;
  stack[sp++] = P->preheader;
  before[P->preheader] = true;
  while (sp) {
    unsigned x = stack[--sp];
    for (unsigned k = 0; k < c->num_pred[x]; k++) {
      unsigned p = c->pred[x][k];
      if (!before[p] && !P->in_loop[p] && sp < 4096)
        before[p] = true, stack[sp++] = p;
    }
  }
  const char *r = NULL;
  w->barriers_after = false;
  for (unsigned b = 0; b < c->num_blocks && !r; b++) {
    if (!before[b]) {
      gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) w->barriers_after |= !P->in_loop[b] && ws_is_barrier(i);
      continue;
    }
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      bool ok = i->opcode == SpvOpLabel || i->opcode == SpvOpVariable || pipeline_is_pure(P, i) || pipeline_is_hint(i) ||
                i == gac_block_terminator(pipeline_block_at(P, b)) || i->opcode == SpvOpPhi || ws_is_barrier(i) ||
                gac_async_pipeline_op_of(m, i);
      if (!ok && (i->opcode == SpvOpStore || i->opcode == SpvOpLoad))
        ok = lower_storage_class(m, gac_operand_word(i, i->opcode == SpvOpStore ? 0 : 2)) == SpvStorageClassFunction;
      if (!ok) {
        snprintf(why, len, "the code before the loop does more than compute (%s %%%u), and the producer warp "
                 "runs it too", pipeline_opname(i->opcode), i->result_id);
        r = why;
        break;
      }
    }
  }
  free(before);
  return r;
}

static uint32_t ws_ext(pipeliner *P, gac_builder *b, uint32_t op, unsigned n, const uint32_t *ids) {
  gac_op ops[8] = {GAC_ID(P->pipeline_set), GAC_LIT(op)};
  for (unsigned k = 0; k < n && k < 6; k++)
    ops[2 + k] = GAC_ID(ids[k]);
  return gac_build(b, SpvOpExtInst, P->void_type, GAC_NEW_ID, ops, 2 + n)->result_id;
}

static uint32_t u32_const(pipeliner *P, uint32_t v) { return gac_constant_int(P->m, gac_type_int(P->m, 32, 0), v); }

/* A loop `for (t = 0; t < n; t++)` from `from`; returns the body block (the
 * caller ends it with the latch: ws_loop_close) and sets *exit, *t. */
typedef struct ws_loop {
  gac_block *header, *body, *exit;
  uint32_t t, t_next;
  gac_inst *t_phi;
} ws_loop;

static ws_loop ws_loop_open(pipeliner *P, gac_block *from) {
  gac_module *m = P->m;
  ws_loop lp = {gac_block_create(m, P->f, NULL), gac_block_create(m, P->f, NULL), gac_block_create(m, P->f, NULL),
                gac_module_new_id(m), gac_module_new_id(m), NULL};
  gac_builder f = gac_builder_at_end(m, &from->insts);
  gac_build_ops(&f, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(lp.header)));
  gac_builder h = gac_builder_at_end(m, &lp.header->insts);
  lp.t_phi = gac_build_ops(&h, SpvOpPhi, P->iv_type, lp.t, GAC_ID(pipeline_iv_const(P, 0)), GAC_ID(gac_block_label(from)),
                           GAC_ID(lp.t_next), GAC_ID(0));
  return lp;
}

/* The header's test and branch, once its phis are all in. */
static void ws_loop_test(pipeliner *P, ws_loop *lp, uint32_t n) {
  gac_builder h = gac_builder_at_end(P->m, &lp->header->insts);
  uint32_t more = lower_op2(&h, SpvOpULessThan, P->L.bool_type, lp->t, n);
  gac_build_ops(&h, SpvOpBranchConditional, 0, 0, GAC_ID(more), GAC_ID(gac_block_label(lp->body)),
                GAC_ID(gac_block_label(lp->exit)));
}

static void ws_loop_close(pipeliner *P, ws_loop *lp, gac_block *last) {
  gac_builder l = gac_builder_at_end(P->m, &last->insts);
  gac_build_ops(&l, SpvOpIAdd, P->iv_type, lp->t_next, GAC_ID(lp->t), GAC_ID(pipeline_iv_const(P, 1)));
  gac_build_ops(&l, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(lp->header)));
  gac_inst_set_id_operand(P->m, lp->t_phi, 5, gac_block_label(last));
}

/* Blocks reachable from `from` (new code, no cfg): their barriers become
 * MutexSync of `mutex`, or go where `drop` (the consumer loop's, when the
 * pipe alone orders what the consumers share). */
static void ws_rewrite_barriers(pipeliner *P, gac_block *from, gac_block *stop, uint32_t mutex, bool drop) {
  gac_module *m = P->m;
  uint8_t *seen = calloc(m->bound, 1);
  lower_reach_blocks(m, from, stop, seen, m->bound);
  gac_foreach_block(b, P->f) {
    if (gac_block_label(b) >= m->bound || !seen[gac_block_label(b)])
      continue;
    for (gac_inst *i = b->insts.first, *next; i; i = next) {
      next = i->next;
      if (!ws_is_barrier(i))
        continue;
      if (!drop) {
        gac_builder ib = gac_builder_before(m, i);
        ws_ext(P, &ib, GAC_MUTEX_SYNC, 1, &mutex);
      }
      gac_inst_remove(m, i);
    }
  }
  free(seen);
}

/* The named barrier for a live range: the lowest id of the pool (1..15; 0
 * is barrier()'s) no Mutex of the function holds. */
static bool ws_assign_named_barrier(pipeliner *P, uint32_t *id) {
  uint32_t used = 1;
  gac_foreach_block(b, P->f) gac_foreach_inst(i, &b->insts) {
    uint64_t v;
    if (gac_async_pipeline_op_of(P->m, i) == GAC_MUTEX &&
        gac_constant_value(P->m, i->words[GAC_MUTEX_BARRIER_WORD], &v) && v < 32)
      used |= 1u << v;
  }
  for (uint32_t k = 1; k < GAC_NAMED_BARRIERS; k++)
    if (!(used >> k & 1)) {
      *id = k;
      return true;
    }
  return pipeline_fail(P, P->loop_marker, "Pipeline.NamedBarrier", "fails to assign named barrier: all %d of the pool are "
              "taken", GAC_NAMED_BARRIERS - 1);
}

bool pipeline_emit_warp_specialized(pipeliner *P, const ws_plan *w) {
  gac_module *m = P->m;
  gac_function *f = P->f;
  /* The ring: every array an async statement writes gets `depth` versions. */
  for (unsigned k = 0; k < P->num_buffers; k++) {
    buffer_info *bi = &P->buffers[k];
    bi->versions = pipeline_is_pipe_buffer(P, bi->var) ? w->depth : 1;
    if (bi->versions > 1)
      pipeline_add_versions(P, bi);
  }
  uint32_t barrier_id = 0;
  if ((w->keep_barriers || w->barriers_after) && !ws_assign_named_barrier(P, &barrier_id))
    return false;
  gac_block *cur = pipeline_enter_new_code(P);
  gac_builder b = gac_builder_at_end(m, &cur->insts);
  uint32_t n = pipeline_trip_count(P, &b);
  /* The handshakes, declared where both sides see them. */
  const stmt_info *first_async = NULL;
  for (unsigned s = 0; s < P->num_stmts && !first_async; s++)
    if (P->stmts[s].async)
      first_async = &P->stmts[s];
  uint32_t pipe = ws_ext(P, &b, GAC_PIPE, 3, (uint32_t[]){u32_const(P, w->depth), u32_const(P, first_async->stage),
                                                          u32_const(P, first_async->order)});
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].versions > 1)
      ws_ext(P, &b, GAC_PIPE_BUFFER, 2, (uint32_t[]){pipe, P->buffers[k].var});
  uint32_t mutex = 0;
  unsigned consumer_stage = 0, consumer_order = 0;
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (!P->stmts[s].async && !consumer_stage)
      consumer_stage = P->stmts[s].stage, consumer_order = P->stmts[s].order;
  if (barrier_id)
    mutex = ws_ext(P, &b, GAC_MUTEX, 4, (uint32_t[]){u32_const(P, barrier_id), u32_const(P, (uint32_t)w->consumers),
                                                     u32_const(P, consumer_stage), u32_const(P, consumer_order)});
  uint32_t lin, size;
  lower_linear_local_id(&P->L, &b, f, &lin, &size);
  uint32_t is_producer = lower_op2(&b, SpvOpUGreaterThanEqual, P->L.bool_type, lin,
                                   gac_constant_int(m, P->L.size_type, w->consumers));
  gac_block *prod = gac_block_create(m, f, NULL), *cons = gac_block_create(m, f, NULL);
  gac_build_ops(&b, SpvOpBranchConditional, 0, 0, GAC_ID(is_producer), GAC_ID(gac_block_label(prod)),
                GAC_ID(gac_block_label(cons)));

  /* Producer: for each iteration, a free slot, the copies, the commit. */
  ws_loop pl = ws_loop_open(P, prod);
  ws_loop_test(P, &pl, n);
  gac_block *pc = pl.body;
  gac_builder pb = gac_builder_at_end(m, &pc->insts);
  ws_ext(P, &pb, GAC_PIPE_PRODUCER_ACQUIRE, 2, (uint32_t[]){pipe, pl.t});
  uint32_t chain = 0, none[MAX_CARRIED] = {0};
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (P->stmts[s].async)
      chain = pipeline_emit_instance(P, &pc, s, pl.t, none, chain, false, 0);
  pb = gac_builder_at_end(m, &pc->insts);
  ws_ext(P, &pb, GAC_PIPE_PRODUCER_COMMIT, 3, (uint32_t[]){pipe, pl.t, chain ? chain : P->null_event});
  ws_loop_close(P, &pl, pc);
  gac_builder pe = gac_builder_at_end(m, &pl.exit->insts);
  gac_build_ops(&pe, SpvOpReturn, 0, 0);

  /* Consumers: wait for the slot, the other statements in order, release. */
  gac_builder cb = gac_builder_at_end(m, &cons->insts);
  ws_ext(P, &cb, GAC_WARP_SPECIALIZE, 2, (uint32_t[]){u32_const(P, (uint32_t)w->consumers), u32_const(P, WS_PRODUCERS)});
  ws_loop cl = ws_loop_open(P, cons);
  uint32_t vals[MAX_CARRIED], last_in[MAX_CARRIED];
  gac_inst *phis[MAX_CARRIED], *in_phis[MAX_CARRIED];
  gac_builder hb = gac_builder_at_end(m, &cl.header->insts);
  for (unsigned k = 0; k < P->num_carried; k++) {
    uint32_t type = P->carried[k].phi->type_id;
    phis[k] = gac_build_ops(&hb, SpvOpPhi, type, GAC_NEW_ID, GAC_ID(P->carried[k].init), GAC_ID(gac_block_label(cons)),
                            GAC_ID(P->carried[k].init), GAC_ID(0));
    /* The input of the iteration before: what the last one was given. */
    in_phis[k] = gac_build_ops(&hb, SpvOpPhi, type, GAC_NEW_ID, GAC_ID(P->carried[k].init),
                               GAC_ID(gac_block_label(cons)), GAC_ID(P->carried[k].init), GAC_ID(0));
    vals[k] = phis[k]->result_id;
  }
  ws_loop_test(P, &cl, n);
  gac_block *cc = cl.body;
  gac_builder wb = gac_builder_at_end(m, &cc->insts);
  ws_ext(P, &wb, GAC_PIPE_CONSUMER_WAIT, 2, (uint32_t[]){pipe, cl.t});
  for (unsigned s = 0; s < P->num_stmts; s++)
    if (!P->stmts[s].async)
      pipeline_emit_instance(P, &cc, s, cl.t, vals, 0, false, 0);
  gac_builder rb = gac_builder_at_end(m, &cc->insts);
  ws_ext(P, &rb, GAC_PIPE_CONSUMER_RELEASE, 2, (uint32_t[]){pipe, cl.t});
  ws_loop_close(P, &cl, cc);
  for (unsigned k = 0; k < P->num_carried; k++) {
    gac_inst_set_id_operand(m, phis[k], 4, vals[k]);
    gac_inst_set_id_operand(m, phis[k], 5, gac_block_label(cc));
    gac_inst_set_id_operand(m, in_phis[k], 4, phis[k]->result_id);
    gac_inst_set_id_operand(m, in_phis[k], 5, gac_block_label(cc));
    vals[k] = phis[k]->result_id;
    last_in[k] = in_phis[k]->result_id;
  }
  /* The consumer loop's barriers order nothing the pipe does not when the
   * consumers share only its buffers; after the loop they are the
   * consumers' named barrier (the producer warp has returned). */
  ws_rewrite_barriers(P, cl.body, cl.header, mutex, !w->keep_barriers);
  pipeline_join_exit(P, cl.exit, w->escapes, w->num_escapes, n, vals, last_in);
  ws_rewrite_barriers(P, cl.exit, NULL, mutex, false);
  return true;
}
