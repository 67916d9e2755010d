/* The statements of a loop --pipeline-loops takes: the body cut at its
 * PipelineStatement markers, each statement a region of blocks with its
 * stage; the values that cross statements (recomputable from invariants
 * and the counter, or carried in memory, or rejected with the reason); and
 * the Workgroup buffers the statements read and write, with the async
 * statements that copy into them. */
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

/* ---- Statements -------------------------------------------------------- */

bool pipeline_is_marker(const pipeliner *P, const gac_inst *i, uint32_t op) {
  return gac_async_pipeline_op_of(P->m, i) == op;
}

/* Every marker opens a block of its own. */
void pipeline_split_at_markers(pipeliner *P) {
  gac_module *m = P->m;
  gac_foreach_block(b, P->f) {
    for (gac_inst *i = b->insts.first->next; i; i = i->next) {
      if (!pipeline_is_marker(P, i, GAC_PIPELINE_STATEMENT) || i->prev->opcode == SpvOpLabel)
        continue;
      gac_inst *prev = i->prev;
      gac_block *rest = gac_block_split_after(m, prev);
      gac_builder e = gac_builder_at_end(m, &b->insts);
      gac_build_ops(&e, SpvOpBranch, 0, 0, GAC_ID(gac_block_label(rest)));
      break; /* the rest is visited as the next block */
    }
  }
}

const char *pipeline_opname(uint16_t op) {
  switch (op) {
  case SpvOpLoad: return "OpLoad";
  case SpvOpStore: return "OpStore";
  case SpvOpFunctionCall: return "OpFunctionCall";
  case SpvOpPhi: return "OpPhi";
  case SpvOpExtInst: return "OpExtInst";
  default: return "an instruction with side effects or memory access";
  }
}

/* Instructions that only compute from their operands: safe to recompute. */
bool pipeline_is_pure(const pipeliner *P, const gac_inst *i) { return lower_is_pure(P->m, i); }

bool pipeline_is_hint(const gac_inst *i) { return i->opcode == SpvOpLifetimeStart || i->opcode == SpvOpLifetimeStop; }

/* Statement regions: the blocks reachable from a marker's block without
 * passing the next marker's block or leaving the iteration. */
bool pipeline_find_statements(pipeliner *P) {
  gac_module *m = P->m;
  const gac_cfg *c = &P->cfg;
  unsigned n = 0;
  for (unsigned b = 0; b < c->num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      if (pipeline_is_marker(P, i, GAC_PIPELINE_LOOP) && i != P->loop_marker)
        return pipeline_fail(P, i, "Pipeline.Loop", "a loop has one PipelineLoop");
      if (!pipeline_is_marker(P, i, GAC_PIPELINE_STATEMENT))
        continue;
      if (n == MAX_STMTS)
        return pipeline_fail(P, i, "Pipeline.Statements", "more than %d statements", MAX_STMTS);
      if (!gac_cfg_dominates(c, b, P->latch))
        return pipeline_fail(P, i, "Pipeline.StatementPlacement", "a PipelineStatement must be met on every path through the "
                    "loop body (not under a branch, nor in an inner loop)");
      P->stmts[n++] = (stmt_info){i, pipeline_marker_word(m, i, GAC_PIPELINE_STAGE_WORD), pipeline_marker_word(m, i, GAC_PIPELINE_ORDER_WORD),
                                  b, false, NULL, false};
    }
  }
  if (n == 0)
    return pipeline_fail(P, P->loop_marker, "Pipeline.Statements", "the loop has no PipelineStatement");
  /* Markers dominate the latch, so dominance orders them: sort by it (the
   * cfg is in reverse post-order, which agrees with dominance). */
  for (unsigned i = 1; i < n; i++)
    for (unsigned j = i; j > 0 && P->stmts[j - 1].start > P->stmts[j].start; j--) {
      stmt_info t = P->stmts[j];
      P->stmts[j] = P->stmts[j - 1];
      P->stmts[j - 1] = t;
    }
  P->num_stmts = n;
  P->region = malloc(c->num_blocks * sizeof *P->region);
  for (unsigned b = 0; b < c->num_blocks; b++)
    P->region[b] = -1;
  unsigned *work = malloc(c->num_blocks * sizeof *work);
  for (unsigned s = 0; s < n; s++) {
    unsigned nw = 0, stop = s + 1 < n ? P->stmts[s + 1].start : ~0u;
    P->region[P->stmts[s].start] = (int)s;
    work[nw++] = P->stmts[s].start;
    while (nw) {
      unsigned b = work[--nw];
      for (unsigned k = 0; k < c->num_succ[b]; k++) {
        unsigned t = c->succ[b][k];
        if (t == stop || t == P->header || !P->in_loop[t])
          continue;
        if (P->region[t] == (int)s)
          continue;
        if (P->region[t] >= 0)
          return pipeline_fail(P, gac_block_terminator(pipeline_block_at(P, b)), "Pipeline.ControlFlow",
                      "statement %u branches into statement %d", s, P->region[t]);
        P->region[t] = (int)s;
        work[nw++] = t;
      }
    }
  }
  free(work);
  /* Single entry: only a statement's first block is entered from outside it;
   * single exit: it leaves only to the next statement (or the back edge). */
  for (unsigned b = 0; b < c->num_blocks; b++) {
    if (!P->in_loop[b])
      continue;
    int r = P->region[b];
    for (unsigned k = 0; k < c->num_pred[b]; k++) {
      int pr = P->region[c->pred[b][k]];
      bool ok = r < 0 ? (b == P->header ? true : pr < 0)
                      : pr == r || (b == P->stmts[r].start && (r == 0 ? pr < 0 : pr == r - 1));
      if (!ok)
        return pipeline_fail(P, gac_block_terminator(pipeline_block_at(P, c->pred[b][k])), "Pipeline.ControlFlow",
                    "irregular control flow: a branch enters %s from outside it", r < 0 ? "the loop control" : "a statement");
    }
    for (unsigned k = 0; r >= 0 && k < c->num_succ[b]; k++) {
      unsigned t = c->succ[b][k];
      bool ok = P->region[t] == r || (r + 1 < (int)P->num_stmts && t == P->stmts[r + 1].start) ||
                (r + 1 == (int)P->num_stmts && b == P->latch && (t == P->header || t == P->exit_block));
      if (!ok)
        return pipeline_fail(P, gac_block_terminator(pipeline_block_at(P, b)), "Pipeline.ControlFlow",
                    "irregular control flow: statement %d branches out of the loop or back to its start", r);
    }
  }
  for (unsigned st = 0; st < n; st++) {
    unsigned size = 0;
    for (unsigned b = 0; b < c->num_blocks; b++)
      size += P->in_loop[b] && P->region[b] == (int)st;
    if (size > MAX_STMT_BLOCKS)
      return pipeline_fail(P, P->stmts[st].marker, "Pipeline.Statements", "statement %u has %u blocks; at most %d", st, size,
                  MAX_STMT_BLOCKS);
  }
  if (P->region[P->latch] != (int)n - 1)
    return pipeline_fail(P, P->loop_marker, "Pipeline.ControlFlow", "the last statement must end at the loop's back edge");
  /* What is not in a statement is loop control: it may only compute. */
  for (unsigned b = 0; b < c->num_blocks; b++) {
    if (!P->in_loop[b] || P->region[b] >= 0)
      continue;
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      if (i->opcode == SpvOpLabel || i->opcode == SpvOpPhi || i == P->loop_marker || pipeline_is_hint(i) ||
          gac_block_terminator(pipeline_block_at(P, b)) == i || pipeline_is_pure(P, i))
        continue;
      return pipeline_fail(P, i, "Pipeline.Statements", "%s (%%%u) comes before the first PipelineStatement; only "
                  "computations may", pipeline_opname(i->opcode), i->result_id);
    }
  }
  for (unsigned s = 0; s < n; s++)
    if (P->stmts[s].stage >= GAC_PIPELINE_MAX_STAGES)
      return false; /* validated */
  return true;
}

/* ---- Values crossing statements ---------------------------------------- */

int pipeline_region_of_id(const pipeliner *P, uint32_t id) {
  gac_inst *d = gac_def(P->m, id);
  gac_block *b = d ? gac_inst_block(d) : NULL;
  int i = b && b->function == P->f ? gac_cfg_index_of_block(&P->cfg, b) : -1;
  return i >= 0 && P->in_loop[i] ? P->region[i] : -2; /* -2: outside the loop */
}

static carried_info *carried_of(pipeliner *P, uint32_t id) {
  for (unsigned k = 0; k < P->num_carried; k++)
    if (P->carried[k].phi->result_id == id)
      return &P->carried[k];
  return NULL;
}

/* Can `id`, used in statement s, be recomputed there? */
static bool recomputable(pipeliner *P, uint32_t id, unsigned depth) {
  if (pipeline_region_of_id(P, id) == -2 || id == P->iv->result_id)
    return true;
  gac_inst *d = gac_def(P->m, id);
  if (!d || depth > 64 || !pipeline_is_pure(P, d))
    return false;
  for (unsigned k = (d->type_id != 0) + 1; k < d->num_operands; k++)
    if (d->operands[k].kind == GAC_OPERAND_ID && !recomputable(P, gac_operand_word(d, k), depth + 1))
      return false;
  return true;
}

bool pipeline_check_values(pipeliner *P) {
  gac_module *m = P->m;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    int s = P->in_loop[b] ? P->region[b] : -3;
    if (s < 0)
      continue;
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      for (unsigned k = (i->type_id != 0) + (i->result_id != 0); k < i->num_operands; k++) {
        if (i->operands[k].kind != GAC_OPERAND_ID)
          continue;
        uint32_t id = gac_operand_word(i, k);
        int r = pipeline_region_of_id(P, id);
        if (r == s || r == -2 || id == P->iv->result_id || gac_def(m, id)->opcode == SpvOpLabel)
          continue;
        carried_info *ci = carried_of(P, id);
        if (ci) {
          if (ci->owner >= 0 && ci->owner != s)
            return pipeline_fail(P, i, "Pipeline.CrossingValue", "the value %%%u carried round the loop is used in statements %d "
                        "and %d; a carried value belongs to one statement", id, ci->owner, s);
          ci->owner = s;
          continue;
        }
        if (id == P->inc || recomputable(P, id, 0))
          continue;
        return pipeline_fail(P, i, "Pipeline.CrossingValue", "%%%u, computed by %s in %s, is used in statement %d: values "
                    "cross statements only through memory", id, pipeline_opname(gac_def(m, id)->opcode),
                    r >= 0 ? "another statement" : "the loop control", s);
      }
    }
  }
  for (unsigned k = 0; k < P->num_carried; k++) {
    carried_info *ci = &P->carried[k];
    int r = pipeline_region_of_id(P, ci->back);
    if (r >= 0 && ci->owner >= 0 && r != ci->owner)
      return pipeline_fail(P, ci->phi, "Pipeline.CrossingValue", "the carried value %%%u is updated in statement %d but used in "
                  "statement %d", ci->phi->result_id, r, ci->owner);
    if (ci->owner < 0)
      ci->owner = r >= 0 ? r : 0;
    if (r == -1)
      return pipeline_fail(P, ci->phi, "Pipeline.CrossingValue", "the carried value %%%u is updated in the loop control",
                  ci->phi->result_id);
  }
  return true;
}

/* ---- Buffers ----------------------------------------------------------- */

static bool is_workgroup_pointer(const pipeliner *P, uint32_t id) {
  const gac_inst *t = gac_value_type(P->m, id);
  return t && t->opcode == SpvOpTypePointer && t->words[2] == SpvStorageClassWorkgroup;
}

/* The Workgroup variable (module scope) or __local kernel argument a
 * pointer is derived from; 0 if it is not a Workgroup pointer, ~0u if it is
 * one whose origin cannot be followed. */
uint32_t pipeline_buffer_root(const pipeliner *P, uint32_t id) {
  if (!is_workgroup_pointer(P, id))
    return 0;
  for (unsigned depth = 0; depth < 64; depth++) {
    gac_inst *d = gac_def(P->m, id);
    if (!d)
      return ~0u;
    switch (d->opcode) {
    case SpvOpVariable:
    case SpvOpFunctionParameter:
      return id;
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast: case SpvOpCopyObject:
      id = gac_operand_word(d, 2);
      break;
    default:
      return ~0u;
    }
  }
  return ~0u;
}

buffer_info *pipeline_buffer_of(pipeliner *P, uint32_t var) {
  for (unsigned k = 0; k < P->num_buffers; k++)
    if (P->buffers[k].var == var)
      return &P->buffers[k];
  if (P->num_buffers == MAX_BUFFERS)
    return NULL;
  P->buffers[P->num_buffers] = (buffer_info){var, 0, 1, 0, -1, 0, 0};
  return &P->buffers[P->num_buffers++];
}

bool pipeline_writes(const pipeliner *P, const gac_inst *i, unsigned operand) {
  if (i->opcode == SpvOpStore || i->opcode == SpvOpGroupAsyncCopy)
    return operand == (i->opcode == SpvOpStore ? 0u : 3u);
  if (gac_is_async_copy_inst(P->m, i))
    return operand == 4; /* Destination */
  unsigned ptr;
  gac_memory_use use = gac_opencl_std_memory_use(P->m, i, &ptr);
  if (use != GAC_MEMORY_NONE) /* vloadn, vstoren, fract, ... */
    return use == GAC_MEMORY_WRITE && operand == ptr;
  return i->opcode == SpvOpFunctionCall || (i->opcode >= SpvOpAtomicLoad && i->opcode <= SpvOpAtomicXor);
}

bool pipeline_find_buffers(pipeliner *P) {
  gac_module *m = P->m;
  for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
    int s = P->in_loop[b] ? P->region[b] : -1;
    if (s < 0)
      continue;
    gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
      for (unsigned k = (i->type_id != 0) + (i->result_id != 0); k < i->num_operands; k++) {
        uint32_t root = i->operands[k].kind == GAC_OPERAND_ID ? pipeline_buffer_root(P, gac_operand_word(i, k)) : 0;
        if (!root || pipeline_is_pure(P, i))
          continue;
        if (root == ~0u)
          return pipeline_fail(P, i, "Pipeline.Buffers", "cannot tell which Workgroup array operand %%%u points into",
                      gac_operand_word(i, k));
        buffer_info *bi = pipeline_buffer_of(P, root);
        if (!bi)
          return pipeline_fail(P, i, "Pipeline.Buffers", "more than %d Workgroup arrays", MAX_BUFFERS);
        bi->users |= 1ull << s;
        if ((i->opcode == SpvOpGroupAsyncCopy && k == 4) || (gac_is_async_copy_inst(m, i) && k == 6))
          bi->copy_readers |= 1ull << s; /* Source */
        if (!pipeline_writes(P, i, k))
          continue;
        if (bi->writer >= 0 && bi->writer != s)
          return pipeline_fail(P, i, "Pipeline.Buffers", "the Workgroup array %%%u is written by statements %d and %d; "
                      "one statement must produce it", root, bi->writer, s);
        bi->writer = s;
      }
    }
  }
  /* Versions: one more than the furthest stage that uses what was written. */
  for (unsigned k = 0; k < P->num_buffers; k++) {
    buffer_info *bi = &P->buffers[k];
    if (bi->writer < 0)
      continue;
    for (unsigned s = 0; s < P->num_stmts; s++)
      if (bi->users >> s & 1 && P->stmts[s].stage > P->stmts[bi->writer].stage) {
        unsigned v = P->stmts[s].stage - P->stmts[bi->writer].stage + 1;
        bi->versions = v > bi->versions ? v : bi->versions;
      }
    if (bi->versions == 1)
      continue;
    /* An access outside the loop would see version 0 alone: after the loop,
     * not the last iteration's tile; before it, a write the other versions
     * never get. */
    for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
      if (P->in_loop[b])
        continue;
      gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
        if (pipeline_is_pure(P, i) || pipeline_is_marker(P, i, GAC_PIPELINE_LOOP))
          continue;
        for (unsigned o = (i->type_id != 0) + (i->result_id != 0); o < i->num_operands; o++)
          if (i->operands[o].kind == GAC_OPERAND_ID && pipeline_buffer_root(P, gac_operand_word(i, o)) == bi->var)
            return pipeline_fail(P, i, "Pipeline.Buffers", "the Workgroup array %%%u needs %u versions, but this "
                                 "instruction outside the loop uses it; there it would see one version only, not "
                                 "the one the loop's last iteration used", bi->var, bi->versions);
      }
    }
    if (gac_def(m, bi->var)->opcode == SpvOpFunctionParameter) {
      if (!pipeline_param_callers(P, bi))
        return false;
      continue;
    }
    /* Every use of a versioned array must be in this function. */
    for (gac_operand *u = gac_first_use(m, bi->var); u; u = u->next_use) {
      gac_function *uf = gac_inst_function(u->inst);
      if (uf && uf != P->f)
        return pipeline_fail(P, u->inst, "Pipeline.Buffers", "the Workgroup array %%%u needs %u versions but is also used in "
                    "another function", bi->var, bi->versions);
    }
  }
  return true;
}

/* Async statements: those of async stages that wait for their copies. */
bool pipeline_find_async(pipeliner *P) {
  for (unsigned s = 0; s < P->num_stmts; s++) {
    stmt_info *st = &P->stmts[s];
    if (!(P->async_mask >> st->stage & 1))
      continue;
    for (unsigned b = 0; b < P->cfg.num_blocks; b++) {
      if (!P->in_loop[b] || P->region[b] != (int)s)
        continue;
      gac_foreach_inst(i, &pipeline_block_at(P, b)->insts) {
        if (i->opcode != SpvOpGroupWaitEvents)
          continue;
        uint64_t count;
        if (st->wait)
          return pipeline_fail(P, i, "Pipeline.AsyncStatement", "statement %u (async stage %u) waits twice; an async statement "
                      "waits once, for all its copies (chain their events)", s, st->stage);
        if (!gac_constant_value(P->m, gac_operand_word(i, 1), &count) || count != 1)
          return pipeline_fail(P, i, "Pipeline.AsyncStatement", "statement %u (async stage %u) waits for several events; "
                      "chain its copies on one event", s, st->stage);
        /* The pipelined code loads the event from the list: it must be one
         * (SPIRV-Tools lets a pointer to another type through). */
        const gac_inst *list = gac_value_type(P->m, gac_operand_word(i, 2));
        const gac_inst *pointee = list && list->opcode == SpvOpTypePointer ? gac_def(P->m, list->words[3]) : NULL;
        if (!pointee || pointee->opcode != SpvOpTypeEvent)
          return pipeline_fail(P, i, "Pipeline.AsyncStatement", "statement %u (async stage %u) waits on a list that is "
                      "not of events", s, st->stage);
        st->wait = i;
        /* Nothing but computation may follow the wait in the statement. */
        for (gac_inst *j = i->next; j; j = j->next)
          if (!pipeline_is_pure(P, j) && !pipeline_is_hint(j) && j != gac_block_terminator(pipeline_block_at(P, b)))
            return pipeline_fail(P, j, "Pipeline.AsyncStatement", "statement %u (async stage %u) goes on after its "
                        "wait_group_events; an async statement must end with its wait", s, st->stage);
        /* Met on every path through the statement: its block dominates
         * every block that leaves the statement. */
        for (unsigned x = 0; x < P->cfg.num_blocks; x++) {
          if (!P->in_loop[x] || P->region[x] != (int)s)
            continue;
          for (unsigned k = 0; k < P->cfg.num_succ[x]; k++)
            if (P->region[P->cfg.succ[x][k]] != (int)s || !P->in_loop[P->cfg.succ[x][k]])
              st->wait_conditional = st->wait_conditional || !gac_cfg_dominates(&P->cfg, b, x);
        }
      }
    }
    st->async = st->wait != NULL;
    if (st->wait && st->wait_conditional)
      gac_diag_add(P->diag, GAC_REMARK, st->wait->offset, 0, "Pipeline.CountUnknown",
                   "statement %u waits under a condition, so how many groups it commits is not known: waits on "
                   "queue %u use count 0", s, st->stage);
  }
  return true;
}
