/* The loop --pipeline-loops takes: the innermost natural loop around the
 * PipelineLoop marker, with one latch and one exit (from its header or its
 * latch), and its counter: an OpPhi of an integer stepped by a constant,
 * compared with a bound defined outside the loop. */
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

/* ---- The loop ---------------------------------------------------------- */

/* The innermost natural loop around the PipelineLoop marker. */
bool pipeline_find_loop(pipeliner *P) {
  const gac_cfg *c = &P->cfg;
  unsigned at = pipeline_block_index(P, P->loop_marker), best = ~0u, best_size = ~0u;
  bool *body = calloc(c->num_blocks, sizeof *body);
  P->in_loop = calloc(c->num_blocks, sizeof *P->in_loop);
  for (unsigned u = 0; u < c->num_blocks; u++)
    for (unsigned k = 0; k < c->num_succ[u]; k++) {
      unsigned h = c->succ[u][k];
      if (!gac_cfg_dominates(c, h, u))
        continue;
      /* The natural loop of the back edge u -> h. */
      memset(body, 0, c->num_blocks * sizeof *body);
      body[h] = true;
      unsigned size = 1 + gac_cfg_add_loop_body(c, u, body);
      if (body[at] && size < best_size) {
        best = h, best_size = size;
        P->latch = u;
        memcpy(P->in_loop, body, c->num_blocks * sizeof *body);
      }
    }
  free(body);
  if (best == ~0u)
    return pipeline_fail(P, P->loop_marker, "Pipeline.Loop", "PipelineLoop is not inside a loop");
  P->header = best;
  unsigned latches = 0, outside = 0;
  for (unsigned j = 0; j < c->num_pred[best]; j++) {
    unsigned p = c->pred[best][j];
    if (P->in_loop[p])
      latches++;
    else
      outside++, P->preheader = p;
  }
  if (latches != 1 || outside != 1)
    return pipeline_fail(P, P->loop_marker, "Pipeline.LoopShape",
                "the loop needs one back edge and one entry edge (it has %u and %u)", latches, outside);
  unsigned exits = 0;
  for (unsigned b = 0; b < c->num_blocks; b++)
    for (unsigned k = 0; P->in_loop[b] && k < c->num_succ[b]; k++)
      if (!P->in_loop[c->succ[b][k]])
        exits++, P->exiting = b, P->exit_block = c->succ[b][k];
  if (exits != 1 || (P->exiting != P->latch && P->exiting != P->header))
    return pipeline_fail(P, P->loop_marker, "Pipeline.LoopShape",
                "the loop must leave from its header or its latch, by one edge (irregular control flow)");
  return true;
}

bool pipeline_defined_in_loop(const pipeliner *P, uint32_t id) {
  gac_inst *d = gac_def(P->m, id);
  gac_block *b = d ? gac_inst_block(d) : NULL;
  int i = b && b->function == P->f ? gac_cfg_index_of_block(&P->cfg, b) : -1;
  return i >= 0 && P->in_loop[i];
}

/* How v changes from one iteration to the next: by c x unit, unit a loop
 * invariant id (0: the constant 1). Sums, differences and products by
 * invariants of the counter, invariants and constants; false for anything
 * else (then nothing is said). */
bool pipeline_step_of(const pipeliner *P, uint32_t v, int64_t *c, uint32_t *unit, unsigned depth) {
  uint64_t k;
  if (v == P->iv->result_id) {
    *c = (int64_t)P->step, *unit = 0;
    return true;
  }
  if (!pipeline_defined_in_loop(P, v) || gac_constant_value(P->m, v, &k)) {
    *c = 0, *unit = 0;
    return true;
  }
  const gac_inst *d = gac_def(P->m, v);
  if (!d || depth > 16)
    return false;
  int64_t ca, cb;
  uint32_t ua, ub;
  const gac_block *header = pipeline_block_at(P, P->header);
  if (d->opcode == SpvOpPhi && gac_inst_block(d) == header) {
    /* an induction variable the compiler made: stepped by an invariant on the back edge */
    uint32_t latch = gac_block_label(pipeline_block_at(P, P->latch));
    for (unsigned o = 3; o < d->num_operands; o += 2) {
      const gac_inst *next = gac_operand_word(d, o) == latch ? gac_def(P->m, gac_operand_word(d, o - 1)) : NULL;
      if (!next || next->opcode != SpvOpIAdd)
        continue;
      uint32_t x = gac_operand_word(next, 2) == v ? gac_operand_word(next, 3)
                   : gac_operand_word(next, 3) == v ? gac_operand_word(next, 2) : 0;
      if (!x || pipeline_defined_in_loop(P, x))
        return false;
      *c = gac_constant_value(P->m, x, &k) ? (int64_t)k : 1, *unit = gac_constant_value(P->m, x, &k) ? 0 : x;
      return true;
    }
    return false;
  }
  switch (d->opcode) {
  case SpvOpUConvert: case SpvOpSConvert: case SpvOpBitcast:
    return pipeline_step_of(P, gac_operand_word(d, 2), c, unit, depth + 1);
  case SpvOpLoad: /* a builtin (the group id) read again in the loop */
    *c = 0, *unit = 0;
    return lower_storage_class(P->m, gac_operand_word(d, 2)) == SpvStorageClassInput;
  case SpvOpCompositeExtract:
    return pipeline_step_of(P, gac_operand_word(d, 2), c, unit, depth + 1) && *c == 0;
  case SpvOpIAdd: case SpvOpISub:
    if (!pipeline_step_of(P, gac_operand_word(d, 2), &ca, &ua, depth + 1) ||
        !pipeline_step_of(P, gac_operand_word(d, 3), &cb, &ub, depth + 1) || (ca && cb && ua != ub))
      return false;
    *c = d->opcode == SpvOpIAdd ? ca + cb : ca - cb, *unit = ca ? ua : ub;
    return true;
  case SpvOpShiftLeftLogical:
    if (!gac_constant_value(P->m, gac_operand_word(d, 3), &k) || k > 32 ||
        !pipeline_step_of(P, gac_operand_word(d, 2), &ca, &ua, depth + 1))
      return false;
    *c = ca << k, *unit = ua;
    return true;
  case SpvOpIMul:
    for (unsigned side = 2; side <= 3; side++) {
      uint32_t other = gac_operand_word(d, side == 2 ? 3 : 2);
      if (pipeline_defined_in_loop(P, other) && !gac_constant_value(P->m, other, &k))
        continue;
      if (!pipeline_step_of(P, gac_operand_word(d, side), &ca, &ua, depth + 1))
        return false;
      if (gac_constant_value(P->m, other, &k))
        *c = ca * (int64_t)k, *unit = ua;
      else if (!ua)
        *c = ca, *unit = other;
      else
        return false;
      return true;
    }
    return false;
  default:
    return false;
  }
}

/* id with its integer conversions taken off (a 32-bit pitch and its 64-bit
 * form are the same length). */

bool pipeline_find_counter(pipeliner *P) {
  gac_module *m = P->m;
  gac_inst *term = gac_block_terminator(pipeline_block_at(P, P->exiting));
  if (term->opcode != SpvOpBranchConditional)
    return pipeline_fail(P, term, "Pipeline.Counter", "the loop's exit branch is not conditional");
  bool continue_on_true = gac_cfg_index(&P->cfg, gac_operand_word(term, 1)) >= 0 &&
                          P->in_loop[gac_cfg_index(&P->cfg, gac_operand_word(term, 1))];
  gac_inst *test = gac_def(m, gac_operand_word(term, 0));
  uint32_t latch_label = P->cfg.label_of[P->latch];
  for (gac_inst *phi = pipeline_block_at(P, P->header)->insts.first->next; phi && phi->opcode == SpvOpPhi; phi = phi->next) {
    uint32_t back = 0, init = 0;
    for (unsigned k = 2; k + 1 < phi->num_operands; k += 2) {
      if (gac_operand_word(phi, k + 1) == latch_label)
        back = gac_operand_word(phi, k);
      else
        init = gac_operand_word(phi, k);
    }
    gac_inst *add = gac_def(m, back);
    uint64_t step;
    if (!P->iv && add && add->opcode == SpvOpIAdd && gac_def(m, phi->type_id)->opcode == SpvOpTypeInt &&
        ((gac_operand_word(add, 2) == phi->result_id && gac_constant_value(P->m, gac_operand_word(add, 3), &step)) ||
         (gac_operand_word(add, 3) == phi->result_id && gac_constant_value(P->m, gac_operand_word(add, 2), &step))) &&
        step > 0 && step < (1u << 30)) {
      P->iv = phi, P->iv_type = phi->type_id, P->init = init, P->inc = back, P->step = step;
      continue;
    }
    if (P->num_carried == MAX_CARRIED)
      return pipeline_fail(P, phi, "Pipeline.Carried", "more than %d values carried round the loop", MAX_CARRIED);
    P->carried[P->num_carried++] = (carried_info){phi, init, back, -1};
  }
  if (!P->iv)
    return pipeline_fail(P, P->loop_marker, "Pipeline.Counter", "no loop counter (an OpPhi in the header stepped by a "
                "positive constant OpIAdd on the back edge)");
  if (!test || test->num_operands != 4)
    return pipeline_fail(P, term, "Pipeline.Counter", "the exit test is not a comparison of the counter");
  uint32_t a = gac_operand_word(test, 2), b = gac_operand_word(test, 3);
  uint32_t tested = P->exiting == P->latch ? P->inc : P->iv->result_id;
  bool swapped = b == tested;
  if (a != tested && b != tested)
    tested = P->iv->result_id == a || P->iv->result_id == b ? P->iv->result_id : 0;
  if (!tested)
    return pipeline_fail(P, test, "Pipeline.Counter", "the exit test must compare the %s counter with a loop invariant",
                P->exiting == P->latch ? "stepped" : "");
  /* At the latch, the counter before its step against a constant (clang
   * writes `t < 511` for a loop of 512 iterations): t OP E is t + step OP
   * E + step, the stepped counter against a constant one step on. */
  bool before_step = tested == P->iv->result_id && P->exiting == P->latch;
  swapped = b == tested;
  P->end = swapped ? a : b;
  P->tests_inc = tested == P->inc || before_step;
  uint64_t end_value = 0;
  if (before_step && !gac_constant_value(m, P->end, &end_value))
    return pipeline_fail(P, test, "Pipeline.Counter", "the exit test at the latch compares the counter before its step "
                "with %%%u, which is not a constant (compare the stepped counter)", P->end);
  if (pipeline_defined_in_loop(P, P->end))
    return pipeline_fail(P, test, "Pipeline.Counter", "the loop bound %%%u changes in the loop", P->end);
  /* Continue while (counter OP end): normalise the comparison. */
  static const struct { uint16_t op, swapped_op, negated_op; } table[] = {
      {SpvOpULessThan, SpvOpUGreaterThan, SpvOpUGreaterThanEqual},
      {SpvOpSLessThan, SpvOpSGreaterThan, SpvOpSGreaterThanEqual},
      {SpvOpULessThanEqual, SpvOpUGreaterThanEqual, SpvOpUGreaterThan},
      {SpvOpSLessThanEqual, SpvOpSGreaterThanEqual, SpvOpSGreaterThan},
      {SpvOpINotEqual, SpvOpINotEqual, SpvOpIEqual},
  };
  P->cmp = 0;
  for (unsigned k = 0; k < sizeof table / sizeof table[0]; k++) {
    uint16_t want = continue_on_true ? (swapped ? table[k].swapped_op : table[k].op) : 0;
    if (!continue_on_true) {
      /* exit when true: continue on the negation */
      uint16_t neg = table[k].negated_op;
      if (swapped) /* end NEG counter */
        neg = table[k].op == SpvOpINotEqual ? SpvOpIEqual
              : table[k].op == SpvOpULessThan ? SpvOpULessThanEqual
              : table[k].op == SpvOpSLessThan ? SpvOpSLessThanEqual
              : table[k].op == SpvOpULessThanEqual ? SpvOpULessThan
                                                    : SpvOpSLessThan;
      want = neg;
    }
    if (test->opcode == want)
      P->cmp = table[k].op;
  }
  if (!P->cmp || (P->cmp == SpvOpINotEqual && P->step != 1))
    return pipeline_fail(P, test, "Pipeline.Counter", "the exit test is not one of <, <=, != (with step 1) on the counter");
  if (before_step) {
    const gac_inst *type = gac_def(m, P->iv_type);
    unsigned width = type->words[2];
    bool is_signed = P->cmp == SpvOpSLessThan || P->cmp == SpvOpSLessThanEqual;
    uint64_t max = width >= 64 ? (is_signed ? INT64_MAX : UINT64_MAX)
                               : (is_signed ? (1ull << (width - 1)) - 1 : (1ull << width) - 1);
    if (width < 64 && is_signed && end_value >> (width - 1) & 1)
      end_value |= ~0ull << width; /* a negative bound, sign-extended */
    if ((is_signed ? (int64_t)end_value > (int64_t)(max - P->step) : end_value > max - P->step))
      return pipeline_fail(P, test, "Pipeline.Counter", "the loop bound %%%u plus the step overflows the counter",
                           P->end);
    P->end = pipeline_iv_const(P, end_value + P->step);
  }
  return true;
}
